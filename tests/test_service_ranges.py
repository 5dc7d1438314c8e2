"""Every integer field of every request at the extremes of its type (issue 25): each call is answered or
refused (INVALID_ARGUMENT naming the field, NOT_FOUND, ...), never INTERNAL or UNKNOWN.

The fields are found by walking the request messages' descriptors, so a field added to the API is covered
without touching this test. Each extreme is set on an otherwise valid request (with the session's token
where the call needs one), so the call gets as far as the field's own check.
"""
from __future__ import annotations

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor as F

from clients.client import SpellBookClient
from engine_c import State
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import types_pb2 as pb
from server.main import ServerConfig, ServerThread
from server.service import SERVICE_DESCRIPTOR
from server.service import ServiceConfig

TOKEN = "spellbook-session-token"
BROKEN = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DEADLINE_EXCEEDED}
_EXTREMES = {
    F.TYPE_INT32: (-2**31, 2**31 - 1), F.TYPE_SINT32: (-2**31, 2**31 - 1), F.TYPE_SFIXED32: (-2**31, 2**31 - 1),
    F.TYPE_INT64: (-2**63, 2**63 - 1), F.TYPE_SINT64: (-2**63, 2**63 - 1), F.TYPE_SFIXED64: (-2**63, 2**63 - 1),
    F.TYPE_UINT32: (0, 2**32 - 1), F.TYPE_FIXED32: (0, 2**32 - 1),
    F.TYPE_UINT64: (0, 2**64 - 1), F.TYPE_FIXED64: (0, 2**64 - 1),
}


def integer_paths(descriptor, prefix: tuple = (), depth: int = 0) -> list[tuple]:
    """Paths (field names) of every integer field reachable from a message type (messages nest at most 5 deep;
    a type does not recurse into itself)."""
    out = []
    for f in descriptor.fields:
        path = prefix + (f.name,)
        if f.type in _EXTREMES:
            out.append(path)
        elif f.type == F.TYPE_MESSAGE and depth < 5 and not f.message_type.GetOptions().map_entry \
                and f.message_type is not descriptor:
            out.extend(integer_paths(f.message_type, path, depth + 1))
    return out


def with_value(request, path: tuple, value: int):
    """A copy of `request` with the integer field at `path` set to `value` (repeated fields: the first
    element, added when there is none; repeated integers: one more element)."""
    out = type(request)()
    out.CopyFrom(request)
    msg = out
    for name in path[:-1]:
        f = msg.DESCRIPTOR.fields_by_name[name]
        if f.is_repeated:
            seq = getattr(msg, name)
            msg = seq[0] if len(seq) else seq.add()
        else:
            msg = getattr(msg, name)
    last = msg.DESCRIPTOR.fields_by_name[path[-1]]
    if last.is_repeated:
        getattr(msg, path[-1]).append(value)
    else:
        setattr(msg, path[-1], value)
    return out


def extremes(request, path: tuple) -> tuple[int, int]:
    d = request.DESCRIPTOR
    for name in path[:-1]:
        d = d.fields_by_name[name].message_type
    return _EXTREMES[d.fields_by_name[path[-1]].type]


@pytest.fixture(scope="module")
def server():
    svc = ServiceConfig(workers=2, queue_size=64, max_iterations=300, max_time_ms=150.0, max_review_ms=400.0,
                        max_match_ms=2000.0, per_client_sessions=10_000)
    with ServerThread(ServerConfig(address="127.0.0.1:0", service=svc)) as srv:
        yield srv


def test_every_integer_field_at_its_extremes_is_answered_or_refused(server):
    with SpellBookClient(f"127.0.0.1:{server.port}", timeout=20) as client:
        st = State.new(players=2, seed=4)
        state = pb.StateInput(text=st.to_text())
        chance = st.clone()
        chance.apply("draw")
        match = list(client.stub.PlayMatch(spb.PlayMatchRequest(bots=["random", "random"], seed=3), timeout=20))
        finished_sid, spectator = match[0].session_id, match[0].spectator_token
        record = match[-1].end.record
        bases = {
            "GetServerInfo": spb.GetServerInfoRequest(),
            "NewGame": spb.NewGameRequest(players=2, seed=9),
            "ListLegalMoves": spb.ListLegalMovesRequest(state=state),
            "ApplyMove": spb.ApplyMoveRequest(state=state, move=pb.Move(text="draw"), resolve_chance=True),
            "ResolveChance": spb.ResolveChanceRequest(state=pb.StateInput(text=chance.to_text()), seed=3),
            "GetBestMove": spb.GetBestMoveRequest(state=state, limits=pb.SearchLimits(iterations=30), seed=1),
            "GetHints": spb.GetHintsRequest(state=state, limits=pb.SearchLimits(iterations=30), seed=1,
                                            fixed_budget=True),
            "Analyze": spb.AnalyzeRequest(state=state, limits=pb.SearchLimits(iterations=30), seed=1),
            "CreateSession": spb.CreateSessionRequest(seats=[pb.SessionSeat(kind=pb.SEAT_KIND_CLIENT)] * 2),
            "SubmitMove": spb.SubmitMoveRequest(seat=0, move=pb.Move(text="draw"), expected_seq=0),
            "GetSession": spb.GetSessionRequest(seat=1),
            "WatchSession": spb.WatchSessionRequest(session_id=finished_sid),
            "ExportSession": spb.ExportSessionRequest(session_id=finished_sid),
            "PlayMatch": spb.PlayMatchRequest(bots=["random", "random"], seed=5),
            "AnalyzeGame": spb.AnalyzeGameRequest(record=record, limits=pb.SearchLimits(iterations=5), seed=1),
        }
        assert set(bases) == {m.name for m in SERVICE_DESCRIPTOR.methods}, "a new RPC needs a valid request here"
        checked = 0
        for method in SERVICE_DESCRIPTOR.methods:
            base = bases[method.name]
            call = getattr(client.stub, method.name)
            for path in integer_paths(method.input_type):
                for value in extremes(base, path):
                    request = with_value(base, path, value)
                    metadata = ()
                    if method.name in ("SubmitMove", "GetSession"):      # a fresh session and its seat token
                        created = client.create_session(["client", "client"], seed=1)
                        request.session_id = created
                        seat = request.seat if 0 <= request.seat < 2 else 0
                        metadata = ((TOKEN, created.seat_tokens[seat]),)
                    elif method.name in ("WatchSession", "ExportSession"):
                        metadata = ((TOKEN, spectator),)
                    what = (method.name, ".".join(path), value)
                    try:
                        answer = call(request, timeout=20, metadata=metadata)
                        if method.server_streaming:
                            list(answer)
                    except grpc.RpcError as e:
                        assert e.code() not in BROKEN, (what, e.code(), e.details())
                    checked += 1
        assert checked >= 60
