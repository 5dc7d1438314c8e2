"""Every field of every request of both services, generated from the proto descriptors (issue 40 item 1).

For each RPC of `spellbook.v1.SpellBookService` and `abracadawhat.v1.AbracadaWhatService`, a valid request
is taken and one field at a time (nested messages such as `options`, `insight`, `limits`, `state` included)
is set to a valid, an empty or an extreme value: integers at their type's bounds, NaN and infinities,
empty, long and non-ASCII strings, unknown enum numbers, empty and long repeated fields. Each request goes
over gRPC and over the Connect gateway (binary protobuf, and JSON for the unary calls, as the page sends
them). The answer is OK or a refusal whose code says what kind of wrong it was (INVALID_ARGUMENT with a
google.rpc.BadRequest naming a field, FAILED_PRECONDITION, NOT_FOUND, OUT_OF_RANGE, a credential
refusal): never INTERNAL, UNKNOWN, DEADLINE_EXCEEDED or a hang. The server's caps are tiny so that the few
thousand calls take well under a minute.
"""
from __future__ import annotations

import json
import math
import struct
import urllib.error
import urllib.request

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor as FD
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from server import aw_service
from server._gen.abracadawhat.v1 import service_pb2 as asvc
from server._gen.abracadawhat.v1 import types_pb2 as apb
from server._gen.spellbook.v1 import service_pb2 as ssvc
from server._gen.spellbook.v1 import types_pb2 as spb
from server.auth import SESSION_TOKEN_HEADER
from server.service import SERVICE_DESCRIPTOR as SB_SERVICE
from server.main import ServerConfig, ServerThread
from server.service import ServiceConfig

AW_SERVICE = aw_service.SERVICE_DESCRIPTOR
REFUSALS = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.OUT_OF_RANGE,
            grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.UNAUTHENTICATED,
            grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.ALREADY_EXISTS}
CONNECT_REFUSALS = {"invalid_argument", "not_found", "out_of_range", "failed_precondition", "unauthenticated",
                    "permission_denied", "already_exists"}
CALL_TIMEOUT_S = 20.0
MAX_STREAM_MESSAGES = 4

_INT_BOUNDS = {
    FD.TYPE_INT32: (-2**31, 2**31 - 1), FD.TYPE_SINT32: (-2**31, 2**31 - 1), FD.TYPE_SFIXED32: (-2**31, 2**31 - 1),
    FD.TYPE_INT64: (-2**63, 2**63 - 1), FD.TYPE_SINT64: (-2**63, 2**63 - 1), FD.TYPE_SFIXED64: (-2**63, 2**63 - 1),
    FD.TYPE_UINT32: (0, 2**32 - 1), FD.TYPE_FIXED32: (0, 2**32 - 1),
    FD.TYPE_UINT64: (0, 2**64 - 1), FD.TYPE_FIXED64: (0, 2**64 - 1),
}
_STRINGS = ["", "x", "\u0663", "cast \uff13", "\x00", "é" * 600]


def scalar_values(field) -> list:
    """The valid, empty and extreme values of one scalar field's type."""
    t = field.type
    if t in _INT_BOUNDS:
        lo, hi = _INT_BOUNDS[t]
        return sorted({0, 1, 7, hi, lo, -1 if lo < 0 else hi - 1})
    if t in (FD.TYPE_DOUBLE, FD.TYPE_FLOAT):
        big = 1e300 if t == FD.TYPE_DOUBLE else 3e38
        return [0.5, -1.0, big, math.nan, math.inf, -math.inf]
    if t == FD.TYPE_BOOL:
        return [True, False]
    if t == FD.TYPE_STRING:
        return _STRINGS
    if t == FD.TYPE_BYTES:
        return [b"", b"\xff" * 64]
    if t == FD.TYPE_ENUM:
        return [v.number for v in field.enum_type.values] + [99, -5]
    raise AssertionError(f"no values for field type {t}")


def field_mutations(descriptor, prefix: str = "", depth: int = 0):
    """(path, setter) for every field reachable from a message type: each setter changes one field of a
    copy of a request. Nested messages are set empty and then explored, up to three levels."""
    for field in descriptor.fields:
        path = f"{prefix}{field.name}"
        repeated = field.is_repeated
        if field.type == FD.TYPE_MESSAGE:
            if field.message_type.GetOptions().map_entry:
                continue
            if repeated:
                yield path + "=[]", _setter(path, lambda f: f.clear() if hasattr(f, "clear") else None, clear=True)
                yield path + "=[{}]*40", _setter(path, lambda f: [f.add() for _ in range(40)], clear=True)
            else:
                yield path + "={}", _setter(path, lambda m: m.SetInParent(), message=True)
                if depth < 3:
                    yield from field_mutations(field.message_type, path + ".", depth + 1)
            continue
        for value in scalar_values(field):
            if repeated:
                yield f"{path}=[{value!r:.20}]", _setter(path, lambda f, v=value: f.append(v), clear=True)
                yield f"{path}=[{value!r:.20}]*300", _setter(path, lambda f, v=value: f.extend([v] * 300),
                                                             clear=True)
            else:
                yield f"{path}={value!r:.30}", _setter(path, value=value)
        if repeated:
            yield path + "=[]", _setter(path, lambda f: None, clear=True)


def _setter(path: str, action=None, value=None, clear: bool = False, message: bool = False):
    def apply(request) -> None:
        *parents, name = path.split(".")
        msg = request
        for p in parents:
            msg = getattr(msg, p)
        if clear:
            msg.ClearField(name)
            action(getattr(msg, name))
        elif message:
            action(getattr(msg, name))
        else:
            setattr(msg, name, value)
    return apply


# ------------------------------------------------------------------------------------------ the server
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    svc = ServiceConfig(workers=2, queue_size=256, bot_workers=1, max_iterations=120, max_time_ms=40.0,
                        max_review_ms=20.0, max_match_ms=1500.0, max_top_k=5)
    config = ServerConfig(address="127.0.0.1:0", web_address="127.0.0.1:0",
                          db=str(tmp_path_factory.mktemp("fields") / "sessions.db"), service=svc)
    with ServerThread(config) as srv:
        yield srv


@pytest.fixture(scope="module")
def channel(server):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        yield ch


def _call_grpc(channel, service, method, request, token: str):
    """None on OK, else the RpcError."""
    path = f"/{service.full_name}/{method.name}"
    meta = ((SESSION_TOKEN_HEADER, token),)
    try:
        if method.server_streaming:
            call = channel.unary_stream(path)(request.SerializeToString(), timeout=CALL_TIMEOUT_S, metadata=meta)
            for n, _ in enumerate(call):
                if n + 1 >= MAX_STREAM_MESSAGES:
                    call.cancel()
                    break
        else:
            channel.unary_unary(path)(request.SerializeToString(), timeout=CALL_TIMEOUT_S, metadata=meta)
    except grpc.RpcError as e:
        if e.code() == grpc.StatusCode.CANCELLED:
            return None
        return e
    return None


def _check_grpc(err, what) -> None:
    if err is None:
        return
    assert err.code() in REFUSALS, (what, err.code(), err.details()[:300])
    if err.code() == grpc.StatusCode.INVALID_ARGUMENT:
        status = rpc_status.from_call(err)
        bad = error_details_pb2.BadRequest()
        assert status is not None and any(d.Unpack(bad) for d in status.details), (what, err.details()[:200])
        assert bad.field_violations and bad.field_violations[0].field, (what, err.details()[:200])


def _call_gateway(port: int, service, method, request, token: str) -> dict | None:
    """None on OK, else the Connect error JSON."""
    url = f"http://127.0.0.1:{port}/{service.full_name}/{method.name}"
    body = request.SerializeToString()
    streaming = method.server_streaming
    headers = {SESSION_TOKEN_HEADER: token, "Connect-Timeout-Ms": str(int(CALL_TIMEOUT_S * 1000)),
               "Content-Type": "application/connect+proto" if streaming else "application/proto"}
    if streaming:
        body = struct.pack(">BI", 0, len(body)) + body
    req = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=CALL_TIMEOUT_S + 5) as resp:
            if not streaming:
                return None
            for _ in range(MAX_STREAM_MESSAGES):
                head = resp.read(5)
                if len(head) < 5:
                    return None
                flags, size = struct.unpack(">BI", head)
                payload = resp.read(size)
                if flags & 0x02:
                    end = json.loads(payload or b"{}")
                    return end.get("error")
            return None
    except urllib.error.HTTPError as e:
        return json.loads(e.read() or b"{}")


def _call_gateway_json(port: int, service, method, request, token: str) -> dict | None:
    """A unary call in Connect's JSON (how the page calls): None on OK, else the Connect error JSON."""
    from google.protobuf import json_format

    url = f"http://127.0.0.1:{port}/{service.full_name}/{method.name}"
    headers = {SESSION_TOKEN_HEADER: token, "Connect-Timeout-Ms": str(int(CALL_TIMEOUT_S * 1000)),
               "Content-Type": "application/json"}
    req = urllib.request.Request(url, data=json_format.MessageToJson(request).encode(), headers=headers,
                                 method="POST")
    try:
        with urllib.request.urlopen(req, timeout=CALL_TIMEOUT_S + 5) as resp:
            json.loads(resp.read())
            return None
    except urllib.error.HTTPError as e:
        return json.loads(e.read() or b"{}")


def _check_gateway(error, what) -> None:
    if error is None:
        return
    if error.get("code") == "resource_exhausted" and "larger than the server's limit" in error.get("message", ""):
        return      # JSON spells "é" as 6 bytes: 300 long strings pass the limit, refused as gRPC refuses them
    assert error.get("code") in CONNECT_REFUSALS, (what, error)
    if error["code"] == "invalid_argument":
        fields = [v.get("field") for d in error.get("details", []) if d.get("type") == "google.rpc.BadRequest"
                  for v in d.get("debug", {}).get("fieldViolations", [])]
        assert fields and fields[0], (what, error)


# ------------------------------------------------------------------------------------------ valid requests
def _match(channel, service, request_cls, bots, variants_or_spells):
    """A short bot-vs-bot game (PlayMatch): its finished record (for AnalyzeGame), its session and the
    session's spectator token (a finished session to watch: the stream replays it and ends)."""
    path = f"/{service.full_name}/PlayMatch"
    stream = channel.unary_stream(path)(request_cls(bots=bots, seed=5, **variants_or_spells).SerializeToString(),
                                        timeout=120)
    cls = (asvc if service is AW_SERVICE else ssvc).PlayMatchResponse
    responses = [cls.FromString(raw) for raw in stream]
    assert responses[-1].end.finished, "the record's game must be finished"
    return responses[-1].end.record_json, responses[0].session_id, responses[0].spectator_token


def spellbook_requests(channel) -> tuple[dict, str]:
    from engine_c import State

    state = spb.StateInput(text=State.new(players=2, seed=4).to_text())
    limits = spb.SearchLimits(iterations=30)
    created = ssvc.CreateSessionResponse.FromString(channel.unary_unary(f"/{SB_SERVICE.full_name}/CreateSession")(
        ssvc.CreateSessionRequest(seats=[spb.SessionSeat(kind=spb.SEAT_KIND_CLIENT)] * 2, seed=1)
        .SerializeToString(), timeout=30))
    record, watched, spectator = _match(channel, SB_SERVICE, ssvc.PlayMatchRequest, ["random", "random"], {})
    return {
        "GetServerInfo": ssvc.GetServerInfoRequest(),
        "NewGame": ssvc.NewGameRequest(players=3, spells="set2", seed=9),
        "ListLegalMoves": ssvc.ListLegalMovesRequest(state=state),
        "ApplyMove": ssvc.ApplyMoveRequest(state=state, move=spb.Move(text="draw"), resolve_chance=True),
        "ResolveChance": ssvc.ResolveChanceRequest(state=state, seed=3),
        "GetBestMove": ssvc.GetBestMoveRequest(state=state, limits=limits, seed=1, level=1),
        "GetHints": ssvc.GetHintsRequest(state=state, limits=limits, top_k=2, seed=1, level=1),
        "Analyze": ssvc.AnalyzeRequest(state=state, limits=limits, level=1, report_every_ms=20),
        "CreateSession": ssvc.CreateSessionRequest(seats=[spb.SessionSeat(kind=spb.SEAT_KIND_CLIENT)] * 2),
        "SubmitMove": ssvc.SubmitMoveRequest(session_id=created.session_id, seat=0, move=spb.Move(text="pass")),
        "GetSession": ssvc.GetSessionRequest(session_id=created.session_id, seat=0),
        "WatchSession": ssvc.WatchSessionRequest(session_id=watched),
        "ExportSession": ssvc.ExportSessionRequest(session_id=created.session_id),
        "PlayMatch": ssvc.PlayMatchRequest(bots=["random", "random"], seed=3),
        "AnalyzeGame": ssvc.AnalyzeGameRequest(record_json=record, limits=limits, level=1),
    }, {"": created.seat_tokens[0].token, "WatchSession": spectator}


def abracada_requests(channel) -> tuple[dict, str]:
    from engine_c.abracadawhat import State

    state = apb.StateInput(text=State.new(players=3, seed=4).to_text())
    limits = apb.SearchLimits(iterations=30)
    created = asvc.CreateSessionResponse.FromString(channel.unary_unary(f"/{AW_SERVICE.full_name}/CreateSession")(
        asvc.CreateSessionRequest(seats=[apb.SessionSeat(kind=apb.SEAT_KIND_CLIENT)] * 2, seed=1)
        .SerializeToString(), timeout=30))
    record, watched, spectator = _match(channel, AW_SERVICE, asvc.PlayMatchRequest, ["random", "greedy"], {})
    return {
        "GetRules": asvc.GetRulesRequest(),
        "NewGame": asvc.NewGameRequest(players=4, seed=1, variants=["xv2"]),
        "ListLegalMoves": asvc.ListLegalMovesRequest(state=state),
        "ApplyMove": asvc.ApplyMoveRequest(state=state.text, move=apb.Move(text="cast 3"), resolve_chance=True),
        "GetBestMove": asvc.GetBestMoveRequest(state=state, limits=limits, level=1),
        "GetHints": asvc.GetHintsRequest(state=state, limits=limits, level=1, top_k=2),
        "Analyze": asvc.AnalyzeRequest(state=state, limits=limits, level=1, report_every_ms=20),
        "CreateSession": asvc.CreateSessionRequest(seats=[apb.SessionSeat(kind=apb.SEAT_KIND_CLIENT)] * 2),
        "SubmitMove": asvc.SubmitMoveRequest(session_id=created.session_id, seat=0, move=apb.Move(text="cast 2")),
        "GetSession": asvc.GetSessionRequest(session_id=created.session_id),
        "WatchSession": asvc.WatchSessionRequest(session_id=watched, from_seq=1),
        "ExportSession": asvc.ExportSessionRequest(session_id=created.session_id),
        "PlayMatch": asvc.PlayMatchRequest(bots=["random", "greedy"], seed=3),
        "AnalyzeGame": asvc.AnalyzeGameRequest(record_json=record, limits=limits, level=1),
    }, {"": created.seat_tokens[0].token, "WatchSession": spectator}


GAMES = {"spellbook": (SB_SERVICE, spellbook_requests), "abracadawhat": (AW_SERVICE, abracada_requests)}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_field_of_every_request_is_answered_or_refused_by_name(game, server, channel):
    service, requests_of = GAMES[game]
    valid, tokens = requests_of(channel)
    assert set(valid) == {m.name for m in service.methods}, "a new RPC needs a valid request here"
    calls = 0
    for method in service.methods:
        base, token = valid[method.name], tokens.get(method.name, tokens[""])
        _check_grpc(_call_grpc(channel, service, method, base, token), (method.name, "valid"))
        for path, mutate in field_mutations(base.DESCRIPTOR):
            request = type(base)()
            request.CopyFrom(base)
            try:
                mutate(request)
            except (TypeError, ValueError):      # a value its type cannot hold (e.g. NaN in no field): skip
                continue
            what = (game, method.name, path)
            _check_grpc(_call_grpc(channel, service, method, request, token), what + ("grpc",))
            _check_gateway(_call_gateway(server.web_port, service, method, request, token), what + ("gateway",))
            calls += 2
            if not method.server_streaming:
                _check_gateway(_call_gateway_json(server.web_port, service, method, request, token),
                               what + ("gateway json",))
                calls += 1
    assert calls > 500


def test_options_of_the_other_game_are_refused_by_name_through_json(server):
    """SpellBook's `knowsDiscard` sent to Abracada…What? (whose SearchOptions has no such field) is an unknown
    field: INVALID_ARGUMENT, not a crash."""
    from engine_c.abracadawhat import State

    body = json.dumps({"state": {"text": State.new(players=2, seed=3).to_text()},
                       "options": {"knowsDiscard": True}}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{server.web_port}/{AW_SERVICE.full_name}/GetBestMove",
                                 data=body, headers={"Content-Type": "application/json"}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=20)
    error = json.loads(e.value.read())
    assert e.value.code == 400 and error["code"] == "invalid_argument", error
    assert "knowsDiscard" in error["message"] or "knows_discard" in error["message"], error


@pytest.mark.parametrize("game", sorted(GAMES))
def test_empty_options_search_both_games(game, server, channel):
    """`options {}` (present, every field unset) is a valid search request in both games (it used to be
    INTERNAL for Abracada…What?)."""
    service, requests_of = GAMES[game]
    valid, tokens = requests_of(channel)
    token = tokens[""]
    for name in ("GetBestMove", "GetHints", "Analyze", "AnalyzeGame"):
        request = type(valid[name])()
        request.CopyFrom(valid[name])
        request.options.SetInParent()
        method = service.methods_by_name[name]
        assert _call_grpc(channel, service, method, request, token) is None, name
        assert _call_gateway(server.web_port, service, method, request, token) is None, name
