"""The Python clients retry through gRPC's retry policy in the channel's service config (issue 25): busy
(RESOURCE_EXHAUSTED, with the server's pushback honoured) and unavailable answers are retried where a retry
is safe, and never where it is not (create_session; submit_move without expected_seq). A stand-in server
refuses a set number of times and counts the attempts."""
from __future__ import annotations

import asyncio
import time
from concurrent import futures

import grpc
import pytest

from clients.client import AsyncSpellBookClient, ServiceError, SpellBookClient, retry_service_config
from engine_c import State
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb

PUSHBACK_MS = 150


class Refusing(service_pb2_grpc.SpellBookServiceServicer):
    """Refuses each method's first `refusals` calls (RESOURCE_EXHAUSTED with a pushback for searches,
    UNAVAILABLE for the rest), then answers; counts every attempt and when it came."""

    def __init__(self, refusals: int):
        self.refusals, self.attempts = refusals, {}

    def _gate(self, name: str, context, busy: bool = False) -> None:
        times = self.attempts.setdefault(name, [])
        times.append(time.monotonic())
        if len(times) <= self.refusals:
            if busy:
                context.set_trailing_metadata((("grpc-retry-pushback-ms", str(PUSHBACK_MS)),))
                context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "busy")
            context.abort(grpc.StatusCode.UNAVAILABLE, "going down")

    def GetBestMove(self, request, context):
        self._gate("GetBestMove", context, busy=True)
        return spb.GetBestMoveResponse(move=pb.Move(text="pass", code=0))

    def CreateSession(self, request, context):
        self._gate("CreateSession", context)
        return spb.CreateSessionResponse(session_id="s")

    def SubmitMove(self, request, context):
        self._gate("SubmitMove+seq" if request.HasField("expected_seq") else "SubmitMove", context)
        return spb.SubmitMoveResponse(seq=1, events=[pb.SessionEvent(seq=1, kind="move", seat=0, move=pb.Move(text="pass"))])

    def Analyze(self, request, context):
        self._gate("Analyze", context, busy=True)
        yield spb.AnalyzeResponse(final=True, best_move=pb.Move(text="pass"))


@pytest.fixture()
def refusing():
    servicer = Refusing(refusals=2)
    server = grpc.server(futures.ThreadPoolExecutor(4))
    service_pb2_grpc.add_SpellBookServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield servicer, f"127.0.0.1:{port}"
    server.stop(0)


def test_busy_and_unavailable_calls_are_retried_only_where_safe(refusing):
    servicer, target = refusing
    st = State.new(players=2, seed=1)
    with SpellBookClient(target, timeout=10) as client:
        assert client.best_move(st, iterations=10).move is not None
        tries = servicer.attempts["GetBestMove"]
        assert len(tries) == 3                                   # two refusals, then the answer
        assert all(b - a >= PUSHBACK_MS / 1000 * 0.9 for a, b in zip(tries, tries[1:]))   # pushback honoured
        assert list(client.analyze(st, iterations=10))[-1].final and len(servicer.attempts["Analyze"]) == 3
        assert client.submit_move("s", 0, "pass", expected_seq=0).seq == 1
        assert len(servicer.attempts["SubmitMove+seq"]) == 3
        with pytest.raises(ServiceError) as e:
            client.submit_move("s", 0, "pass", token="t")        # no expected_seq: never repeated
        assert e.value.code == grpc.StatusCode.UNAVAILABLE and len(servicer.attempts["SubmitMove"]) == 1
        with pytest.raises(ServiceError) as e:
            client.create_session(["client", "client"])          # a repeat could make a second session
        assert e.value.code == grpc.StatusCode.UNAVAILABLE and len(servicer.attempts["CreateSession"]) == 1


def test_the_async_client_retries_the_same_way(refusing):
    servicer, target = refusing
    st = State.new(players=2, seed=1)

    async def main():
        async with AsyncSpellBookClient(target, timeout=10) as client:
            assert (await client.best_move(st, iterations=10)).move is not None
            assert (await client.submit_move("s", 0, "pass", expected_seq=0)).seq == 1
            with pytest.raises(ServiceError):
                await client.submit_move("s", 0, "pass", token="t")
    asyncio.run(main())
    assert len(servicer.attempts["GetBestMove"]) == 3 and len(servicer.attempts["SubmitMove+seq"]) == 3
    assert len(servicer.attempts["SubmitMove"]) == 1


def test_retries_are_bounded_by_the_clients_setting_and_the_deadline(refusing):
    servicer, target = refusing
    st = State.new(players=2, seed=1)
    with SpellBookClient(target, timeout=10, retries=1) as client:     # one retry: the second refusal stands
        with pytest.raises(ServiceError) as e:
            client.best_move(st, iterations=10)
        assert e.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED and e.value.retry_after_ms == PUSHBACK_MS
    assert len(servicer.attempts["GetBestMove"]) == 2
    assert "methodConfig" not in retry_service_config(retries=0)


def test_the_abracadawhat_client_retries_the_same_way_and_sends_the_seats_view():
    """AbracadaWhatClient (remote Abracada…What? bots) rides the same retry policy: a busy GetBestMove is
    retried after the pushback, within the deadline; the request carries the seat's observation."""
    from clients.client import AbracadaWhatClient, Observation
    from engine_c.abracadawhat import State as AwState
    from server._gen.abracadawhat.v1 import service_pb2 as aspb
    from server._gen.abracadawhat.v1 import service_pb2_grpc as aw_grpc
    from server._gen.abracadawhat.v1 import types_pb2 as apb

    seen = []

    class RefusingAw(aw_grpc.AbracadaWhatServiceServicer):
        def GetBestMove(self, request, context):
            seen.append((time.monotonic(), request.state.WhichOneof("form"), request.seat))
            if len(seen) <= 2:
                context.set_trailing_metadata((("grpc-retry-pushback-ms", str(PUSHBACK_MS)),))
                context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "busy")
            return aspb.GetBestMoveResponse(move=apb.Move(text="cast 5", code=5))

    server = grpc.server(futures.ThreadPoolExecutor(2))
    aw_grpc.add_AbracadaWhatServiceServicer_to_server(RefusingAw(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        st = AwState.new(players=3, seed=1)
        with AbracadaWhatClient(f"127.0.0.1:{port}", timeout=10) as client:
            best = client.best_move(Observation(st.observation(0)), seat=0, iterations=10)
            assert str(best.move) == "cast 5" and len(seen) == 3
            assert [(form, seat) for _, form, seat in seen] == [("observation", 0)] * 3
            assert all(b - a >= PUSHBACK_MS / 1000 * 0.9 for (a, *_), (b, *_) in zip(seen, seen[1:]))
        seen.clear()
        with AbracadaWhatClient(f"127.0.0.1:{port}", timeout=10, retries=1) as client:
            with pytest.raises(ServiceError) as e:
                client.best_move(st, iterations=10)
            assert e.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED and len(seen) == 2
    finally:
        server.stop(0)
