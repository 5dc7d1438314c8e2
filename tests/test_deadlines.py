"""Search-bearing calls answer before their deadline, queued or not (issue 40 item 5).

GetBestMove, GetHints, Analyze and AnalyzeGame can be cut short: with a deadline they answer in time with
what they have (`cut_short`), even when they waited in the fair queue behind other calls, and never with
DEADLINE_EXCEEDED. Both games' services share the handlers, so each case runs on both.
"""
from __future__ import annotations

import threading
import time

import grpc
import pytest

from server._gen.abracadawhat.v1 import service_pb2 as asvc
from server._gen.abracadawhat.v1 import types_pb2 as apb
from server._gen.spellbook.v1 import service_pb2 as ssvc
from server._gen.spellbook.v1 import types_pb2 as spb
from server.main import ServerConfig, ServerThread
from server.service import ServiceConfig

GAMES = {
    "spellbook": ("spellbook.v1.SpellBookService", ssvc, spb, ["random", "random"]),
    "abracadawhat": ("abracadawhat.v1.AbracadaWhatService", asvc, apb, ["random", "random", "random"]),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = ServerConfig(address="127.0.0.1:0", db=str(tmp_path_factory.mktemp("deadlines") / "s.db"),
                          service=ServiceConfig(workers=2, queue_size=16))
    with ServerThread(config) as srv:
        yield srv


@pytest.fixture(scope="module")
def channel(server):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        yield ch


def call(channel, game: str, method: str, request, timeout: float):
    service, svc, _pb, _bots = GAMES[game]
    response_cls = getattr(svc, f"{method}Response")
    raw = channel.unary_unary(f"/{service}/{method}")(request.SerializeToString(), timeout=timeout)
    return response_cls.FromString(raw)


def finished_record(channel, game: str) -> str:
    service, svc, _pb, bots = GAMES[game]
    stream = channel.unary_stream(f"/{service}/PlayMatch")(svc.PlayMatchRequest(bots=bots, seed=17)
                                                           .SerializeToString(), timeout=120)
    end = [svc.PlayMatchResponse.FromString(raw) for raw in stream][-1].end
    assert end.finished
    return end.record_json


def concurrently(n: int, fn) -> list:
    """fn(i) for i < n on n threads at once: each result, or the RpcError it raised, with its seconds."""
    out: list = [None] * n

    def run(i):
        started = time.monotonic()
        try:
            result = fn(i)
        except grpc.RpcError as e:
            result = e
        out[i] = (result, time.monotonic() - started)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


@pytest.mark.parametrize("game,deadline_s", [("spellbook", 12.0), ("abracadawhat", 4.0)])
def test_four_concurrent_reviews_on_two_workers_all_answer_before_their_deadline(game, deadline_s, channel):
    """Each review asks for far more search than fits (level 10 with 20,000 iterations a decision): the four
    share two workers, and every one answers OK before its deadline, cut short."""
    _service, svc, pb, _bots = GAMES[game]
    record = finished_record(channel, game)
    request = svc.AnalyzeGameRequest(record_json=record, level=10, limits=pb.SearchLimits(iterations=20_000))
    results = concurrently(4, lambda i: call(channel, game, "AnalyzeGame", request, deadline_s))
    for result, seconds in results:
        assert not isinstance(result, grpc.RpcError), (result.code(), result.details(), seconds)
        assert seconds < deadline_s, seconds
        assert result.cut_short or len(result.decisions) + result.forced_decisions == result.total_decisions
    assert any(result.cut_short for result, _ in results), "the deadline did not bind: ask for more search"
    assert any(result.decisions for result, _ in results), "no review got anywhere"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_search_queued_behind_long_ones_answers_cut_short_in_time(game, channel):
    """Two long Analyze streams hold both workers; a GetBestMove and a GetHints asking for 20 s each with a
    1.5 s deadline still answer OK, cut short, before it."""
    service, svc, pb, _bots = GAMES[game]
    from engine_c.registry import get_game

    state = pb.StateInput(text=get_game(game).State.new(players=2 if game == "spellbook" else 3,
                                                                seed=5).to_text())
    long_limits = pb.SearchLimits(time_ms=6000)
    streams = [channel.unary_stream(f"/{service}/Analyze")(
        svc.AnalyzeRequest(state=state, limits=long_limits, report_every_ms=500).SerializeToString(), timeout=8)
        for _ in range(2)]
    try:
        time.sleep(0.3)
        limits = pb.SearchLimits(time_ms=10_000)
        requests = [("GetBestMove", svc.GetBestMoveRequest(state=state, limits=limits)),
                    ("GetHints", svc.GetHintsRequest(state=state, limits=limits, top_k=2))]
        results = concurrently(2, lambda i: call(channel, game, requests[i][0], requests[i][1], 1.5))
        for (name, _), (result, seconds) in zip(requests, results):
            assert not isinstance(result, grpc.RpcError), (name, result.code(), result.details())
            assert seconds < 1.5 and result.stats.cut_short, (name, seconds)
    finally:
        for s in streams:
            s.cancel()


def test_a_job_whose_deadline_passes_in_the_queue_starts_without_a_slot():
    """The fair queue never holds a job past its deadline: one worker busy with work that never gives its
    slot up, a second job with a deadline 0.2 s away starts then, without a slot, and answers at once."""
    import asyncio

    from search import CancelToken
    from server.fairshare import SearchPool

    async def scenario():
        pool = SearchPool(workers=1, queue_size=4)
        try:
            blocker = asyncio.ensure_future(pool.run(lambda: time.sleep(1.5), CancelToken(), client="a"))
            await asyncio.sleep(0.05)
            started = time.monotonic()
            ran_at = await pool.run(time.monotonic, CancelToken(), client="b", deadline=started + 0.2)
            await blocker
            return ran_at - started
        finally:
            pool.shutdown()

    waited = asyncio.run(scenario())
    assert 0.15 <= waited < 1.0, waited
