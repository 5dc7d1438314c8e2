"""Fuzzers of the service's input (issue 12): raw request bytes, move texts and game records.

Every malformed request must get INVALID_ARGUMENT (with a BadRequest naming a field), NOT_FOUND,
OUT_OF_RANGE, FAILED_PRECONDITION or an auth refusal: never UNKNOWN, INTERNAL, RESOURCE_EXHAUSTED from
huge trailers, or a hang. Seeded generators, small counts and small server caps keep this to seconds.
"""
from __future__ import annotations

import copy
import json
import random

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from clients.client import SpellBookClient
from engine_c import State
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb
from server.main import ServerConfig, ServerThread
from server.service import SERVICE_DESCRIPTOR
from server.service import ServiceConfig

REFUSALS = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.OUT_OF_RANGE,
            grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.UNAUTHENTICATED,
            grpc.StatusCode.PERMISSION_DENIED}
TOKEN = "spellbook-session-token"


@pytest.fixture(scope="module")
def server():
    svc = ServiceConfig(workers=2, queue_size=64, max_iterations=300, max_time_ms=150.0, max_review_ms=1500.0)
    srv = ServerThread(ServerConfig(address="127.0.0.1:0", service=svc))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def channel(server):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        yield ch


@pytest.fixture(scope="module")
def client(server):
    with SpellBookClient(f"127.0.0.1:{server.port}", timeout=20) as c:
        yield c


def _check_refusal(err: grpc.RpcError, what) -> None:
    code = err.code()
    assert code in REFUSALS, (what, code, err.details()[:300])
    assert len(err.details()) <= 600, (what, len(err.details()))
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        status = rpc_status.from_call(err)
        assert status is not None, what
        bad = error_details_pb2.BadRequest()
        assert any(d.Unpack(bad) for d in status.details) and bad.field_violations, what


def _raw_call(channel, method, payload: bytes, timeout: float = 10.0):
    path = f"/{SERVICE_DESCRIPTOR.full_name}/{method.name}"
    if method.server_streaming:
        return list(channel.unary_stream(path)(payload, timeout=timeout))
    return channel.unary_unary(path)(payload, timeout=timeout)


# ------------------------------------------------------------------------------------------ raw bytes
def test_request_bytes_that_are_not_protobuf_get_invalid_argument(channel):
    rng = random.Random(12)
    corrupt = [b"\xff", b"\x0a\xff\xff\xff\xff\x0f", b"\x08", b"\x12\x05ab", b"\x07", bytes(range(256))]
    for method in SERVICE_DESCRIPTOR.methods:
        payloads = corrupt + [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))) for _ in range(6)]
        for payload in payloads:
            try:
                _raw_call(channel, method, payload)
            except grpc.RpcError as e:
                _check_refusal(e, (method.name, payload[:16]))


def _valid_requests(client) -> dict[str, bytes]:
    st = State.new(players=2, seed=4)
    state = pb.StateInput(text=st.to_text())
    sid = client.create_session(["client", "client"], seed=1)
    return {
        "NewGame": spb.NewGameRequest(players=3, spells="set2", seed=9),
        "ListLegalMoves": spb.ListLegalMovesRequest(state=state),
        "ApplyMove": spb.ApplyMoveRequest(state=state, move=pb.Move(text="draw"), resolve_chance=True),
        "ResolveChance": spb.ResolveChanceRequest(state=state, seed=3),
        "GetBestMove": spb.GetBestMoveRequest(state=state, limits=pb.SearchLimits(iterations=50), seed=1),
        "GetHints": spb.GetHintsRequest(state=state, limits=pb.SearchLimits(iterations=50), top_k=2, seed=1,
                                        fixed_budget=True),
        "SubmitMove": spb.SubmitMoveRequest(session_id=sid, seat=0, move=pb.Move(text="pass")),
        "GetSession": spb.GetSessionRequest(session_id=sid, seat=1),
        "ExportSession": spb.ExportSessionRequest(session_id=sid),
        "CreateSession": spb.CreateSessionRequest(seats=[pb.SessionSeat(kind=pb.SEAT_KIND_CLIENT)] * 2),
    }


def mutated(blob: bytes, rng: random.Random) -> bytes:
    """`blob` with one to three bytes flipped, a tail cut or a few random bytes inserted."""
    b = bytearray(blob)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(3)
        if op == 0 and b:
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif op == 1 and b:
            del b[rng.randrange(len(b)):]
        else:
            b[rng.randrange(len(b) + 1):0] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6)))
    return bytes(b)


def test_mutated_requests_get_an_answer_or_a_refusal(client, channel):
    """Valid requests with bytes flipped, cut or appended: each decodes to something or not; either way the
    answer is a result or a refusal."""
    rng = random.Random(5)
    methods = {m.name: m for m in SERVICE_DESCRIPTOR.methods}
    for name, request in _valid_requests(client).items():
        blob = request.SerializeToString()
        for _ in range(12):
            b = mutated(blob, rng)
            try:
                _raw_call(channel, methods[name], bytes(b), timeout=15)
            except grpc.RpcError as e:
                _check_refusal(e, (name, bytes(b)[:24]))


# ------------------------------------------------------------------------------------------ moves
_WORDS = ["take", "draw", "pass", "store", "learn", "discard", "drawn", "Rc", "Pt", "Gs", "Kc", "Wt", "Bs", "Yc",
          "Sacrifice", "Clone", "5", "0", "-1", "99999999999999999999", "L3", "x", "", " ", "\x00", "é", "🂡",
          "learn Growth 4 Rc Rc Rc Rc", "take Rc Rc", "Storm", "," * 3]


def _random_move(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return rng.choice(_WORDS) * rng.randrange(200, 5000)      # long texts must still be refused plainly
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(1, 6)))


def test_fuzzed_move_texts_are_applied_or_refused(client):
    rng = random.Random(8)
    stub = client.stub
    st = State.new(players=3, seed=2)
    for _ in range(5):
        st.play(st.legal_moves()[-1])
    state = pb.StateInput(text=st.to_text())
    sid = client.create_session(["client", "client"])
    md = [(TOKEN, sid.seat_tokens[0])]
    legal = {str(m) for m in st.legal_moves()}
    for i in range(150):
        text = _random_move(rng)
        try:
            stub.ApplyMove(spb.ApplyMoveRequest(state=state, move=pb.Move(text=text)), timeout=10)
            assert text.strip() in legal or text.strip(), text[:50]
        except grpc.RpcError as e:
            _check_refusal(e, ("ApplyMove", text[:50]))
        try:
            stub.SubmitMove(spb.SubmitMoveRequest(session_id=sid, seat=0, move=pb.Move(text=text),
                                                  expected_seq=0), timeout=10, metadata=md)
        except grpc.RpcError as e:
            _check_refusal(e, ("SubmitMove", text[:50]))


def test_a_long_bad_move_text_is_invalid_argument_quoting_a_little(client):
    st = State.new(players=2, seed=1)
    for text in ("take " + "Rc" * 200_000, "x" * 300_000):
        with pytest.raises(grpc.RpcError) as e:
            client.stub.ApplyMove(spb.ApplyMoveRequest(state=pb.StateInput(text=st.to_text()),
                                                      move=pb.Move(text=text)), timeout=10)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        _check_refusal(e.value, "long move")
        assert max(len(run) for run in e.value.details().replace("R", "x").replace("c", "x").split(" ")) <= 110
    sid = client.create_session(["client", "client"])
    with pytest.raises(grpc.RpcError) as e:
        client.stub.GetSession(spb.GetSessionRequest(session_id="s" * 100_000, seat=0), timeout=10,
                               metadata=[(TOKEN, sid.seat_tokens[0])])
    assert e.value.code() == grpc.StatusCode.NOT_FOUND and len(e.value.details()) < 300


def test_watch_from_beyond_the_end_is_out_of_range(client):
    sid = client.create_session(["client", "client"])
    client.submit_move(sid, 0, "pass")
    with pytest.raises(grpc.RpcError) as e:
        list(client.stub.WatchSession(spb.WatchSessionRequest(session_id=sid, from_seq=10**6), timeout=5,
                                      metadata=[(TOKEN, sid.spectator_token)]))
    assert e.value.code() == grpc.StatusCode.OUT_OF_RANGE and "next event is 2" in e.value.details()


# ------------------------------------------------------------------------------------------ records
@pytest.fixture(scope="module")
def record(client):
    items = list(client.play_match(["random", "random"], seed=3))
    return json.loads(items[-1].end.record_json)


_JUNK = [None, True, -1, 2**70, 1.5, "", "x" * 300, [], {}, [[[[]]]], {"move": 3}, "drawn Zz", "take Rc"]


def _mutate(rec: dict, rng: random.Random):
    out = copy.deepcopy(rec)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(6)
        keys = list(out) if isinstance(out, dict) else []
        if op == 0 and keys:
            del out[rng.choice(keys)]
        elif op == 1 and keys:
            out[rng.choice(keys)] = rng.choice(_JUNK)
        elif op == 2 and isinstance(out, dict) and isinstance(out.get("events"), list) and out["events"]:
            ev = out["events"][rng.randrange(len(out["events"]))]
            if isinstance(ev, dict):
                ev[rng.choice(["move", "seat", "seq", "kind"])] = rng.choice(_JUNK)
        elif op == 3 and isinstance(out, dict) and isinstance(out.get("events"), list):
            del out["events"][rng.randrange(len(out["events"]) + 1):]
        elif op == 4:
            out = rng.choice(_JUNK)
        else:
            out = {"wrapped": out} if rng.random() < 0.5 else [out]
    return out


def test_fuzzed_records_are_reviewed_or_refused(client, record):
    rng = random.Random(21)
    texts = ["", "{", "[" * 50_000 + "]" * 50_000, '{"players": 2, "seed": 1, "spells": "set1"}',
             json.dumps(record)[:-40]]
    texts += [json.dumps(_mutate(record, rng)) for _ in range(50)]
    for text in texts:
        try:
            client.stub.AnalyzeGame(spb.AnalyzeGameRequest(record_json=text, limits=pb.SearchLimits(iterations=5)),
                                    timeout=15)
        except grpc.RpcError as e:
            _check_refusal(e, text[:80])
    for _ in range(20):   # the structured form, with fields that do not fit together
        rec = pb.GameRecord(players=rng.choice([0, 1, 2, 5, -3]), seed=rng.randrange(2**64),
                            spells=rng.choice([[], ["set1"], ["Nope"] * 7, record["spells"]]))
        for ev in record["events"][:rng.randrange(len(record["events"]))]:
            rec.events.add(seq=ev["seq"], kind=ev["kind"], seat=rng.choice([ev["seat"], 7, -5]),
                           move=rng.choice([ev["move"], ev["move"], "drawn Zz", ""]))
        try:
            client.stub.AnalyzeGame(spb.AnalyzeGameRequest(record=rec, limits=pb.SearchLimits(iterations=5)),
                                    timeout=15)
        except grpc.RpcError as e:
            _check_refusal(e, str(rec)[:80])
    # nothing broke: the server still reviews a real record
    assert client.analyze_game(record, iterations=5).decisions


def test_service_handlers_cover_every_method(server):
    """Every RPC goes through our decoding handlers (a new RPC is covered without further work)."""
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        stub = service_pb2_grpc.SpellBookServiceStub(ch)
        assert stub.GetServerInfo(spb.GetServerInfoRequest(), timeout=5).rules.version
