"""Small edges a reviewer found (issue 40 item 6), each through the interface a user meets it by."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from engine_c import NotationError
from engine_c.abracadawhat import Move as AWMove
from engine_c.abracadawhat import State as AWState
from server._gen.abracadawhat.v1 import service_pb2 as asvc
from server._gen.abracadawhat.v1 import types_pb2 as apb
from server._gen.spellbook.v1 import service_pb2 as ssvc
from server.auth import SESSION_TOKEN_HEADER
from server.main import ServerConfig, ServerThread
from server.service import ServiceConfig

ROOT = Path(__file__).resolve().parent.parent
AW = "abracadawhat.v1.AbracadaWhatService"
SB = "spellbook.v1.SpellBookService"


@pytest.fixture(scope="module")
def channel(tmp_path_factory):
    config = ServerConfig(address="127.0.0.1:0", db=str(tmp_path_factory.mktemp("edges") / "s.db"),
                          service=ServiceConfig(workers=2, max_time_ms=2000.0))
    with ServerThread(config) as srv, grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        yield ch


def unary(channel, service, svc, method, request, token=""):
    meta = ((SESSION_TOKEN_HEADER, token),) if token else ()
    raw = channel.unary_unary(f"/{service}/{method}")(request.SerializeToString(), timeout=30, metadata=meta)
    return getattr(svc, f"{method}Response").FromString(raw)


def stream(channel, service, svc, method, request, token=""):
    meta = ((SESSION_TOKEN_HEADER, token),) if token else ()
    call = channel.unary_stream(f"/{service}/{method}")(request.SerializeToString(), timeout=60, metadata=meta)
    return call, (getattr(svc, f"{method}Response").FromString(raw) for raw in call)


# ------------------------------------------------------------------------------------------ hints
def test_a_hidden_best_hint_does_not_give_its_chance_of_success(channel):
    """hide_best leaves out the best move and its success probability: with the insight's announcements (each
    cast's chance) in the same answer, the probability would name the move."""
    state = apb.StateInput(text=AWState.new(players=3, seed=8).to_text())
    request = asvc.GetHintsRequest(state=state, limits=apb.SearchLimits(iterations=300), top_k=3, hide_best=True,
                                   seed=1)
    answer = unary(channel, AW, asvc, "GetHints", request)
    hints = answer.hints
    assert answer.insight.announcements            # the insight is in the same answer: each cast's chance
    assert hints[0].rank == 1 and not hints[0].HasField("move") and hints[0].success_probability == 0
    assert all(h.HasField("move") and h.success_probability > 0 for h in hints[1:] if h.move.kind == "cast")
    shown = unary(channel, AW, asvc, "GetHints", asvc.GetHintsRequest(state=state, top_k=1, seed=1,
                                                                        limits=apb.SearchLimits(iterations=300)))
    assert shown.hints[0].HasField("move") and shown.hints[0].success_probability > 0


# ------------------------------------------------------------------------------------------ move texts
@pytest.mark.parametrize("text", ["cast \uff13", "cast \u0663", "\uff15", "stone \u0664", "roll \uff14", "cast 3\u0663"])
def test_move_texts_take_ascii_digits_only(text, channel):
    with pytest.raises(NotationError):
        AWMove.from_text(text)
    state = AWState.new(players=2, seed=3).to_text()
    with pytest.raises(grpc.RpcError) as e:
        unary(channel, AW, asvc, "ApplyMove", asvc.ApplyMoveRequest(state=state, move=apb.Move(text=text)))
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert AWMove.from_text("cast 3") == AWMove.from_text("3")


def test_spellbook_move_texts_take_ascii_digits_only():
    from engine_c import State

    st = State.new(players=2, seed=4)
    for move in st.legal_moves():
        text = str(move)
        wide = "".join(chr(ord(c) - ord("0") + 0xFF10) if c.isdigit() else c for c in text)
        if wide != text:
            with pytest.raises(NotationError):
                st.parse_move(wide)


# ------------------------------------------------------------------------------------------ matches
@pytest.mark.parametrize("game", ["spellbook", "abracadawhat"])
def test_a_cancelled_match_stays_readable_as_an_unfinished_game(game, channel):
    """PlayMatch cancelled midway: its session is not lost ("expired"); it is stopped where it was, the
    spectator reads and exports it (an unfinished record) and a watch replays it and ends."""
    import json

    service, svc, bots = (SB, ssvc, ["ismcts:level=4"] * 2) if game == "spellbook" else \
        (AW, asvc, ["ismcts:level=4"] * 3)
    call, responses = stream(channel, service, svc, "PlayMatch", svc.PlayMatchRequest(bots=bots, seed=3))
    first = next(responses)
    for _ in range(3):
        next(responses)
    call.cancel()
    time.sleep(0.5)
    sid, token = first.session_id, first.spectator_token
    view = unary(channel, service, svc, "GetSession", svc.GetSessionRequest(session_id=sid), token)
    assert view.session_id == sid and not view.over
    record = json.loads(unary(channel, service, svc, "ExportSession", svc.ExportSessionRequest(session_id=sid),
                              token).record_json)
    assert record["status"] == "unfinished" and len(record["events"]) > 3
    _call, watched = stream(channel, service, svc, "WatchSession", svc.WatchSessionRequest(session_id=sid), token)
    events = [r.event for r in watched]          # replays what was played, then ends (nothing more will come)
    assert events and all(e.kind != "end" for e in events)


def test_a_finished_games_replay_shows_what_its_export_shows(channel):
    """After the end every stone is public: a seat's replay of the finished game hides none of its own stones,
    as the seat's export of the same game shows them."""
    import json

    seats = [apb.SessionSeat(kind=apb.SEAT_KIND_CLIENT), apb.SessionSeat(kind=apb.SEAT_KIND_BOT, level=1),
             apb.SessionSeat(kind=apb.SEAT_KIND_BOT, level=1)]
    created = unary(channel, AW, asvc, "CreateSession", asvc.CreateSessionRequest(seats=seats, seed=12))
    sid, token = created.session_id, created.seat_tokens[0].token
    live = []
    for _ in range(500):
        view = unary(channel, AW, asvc, "GetSession", asvc.GetSessionRequest(session_id=sid), token)
        if view.over:
            break
        if view.state.view.to_move != 0:
            time.sleep(0.01)
            continue
        if view.seq > 40 and not live:     # while the game runs the seat's own refills are hidden from it
            live = _watch_for(channel, sid, token, seconds=1.0)
            assert any(e.hidden and e.to == 0 for e in live)
        move = view.legal_moves[-1]                  # `end` once a cast succeeded, else the highest cast
        unary(channel, AW, asvc, "SubmitMove", asvc.SubmitMoveRequest(session_id=sid, seat=0, move=move), token)
    assert view.over
    _c, replay = stream(channel, AW, asvc, "WatchSession", asvc.WatchSessionRequest(session_id=sid), token)
    replayed = [r.event for r in replay]
    record = json.loads(unary(channel, AW, asvc, "ExportSession", asvc.ExportSessionRequest(session_id=sid),
                              token).record_json)
    assert live and not any(e.hidden for e in replayed) and any(e.to == 0 and e.kind != "move" for e in replayed)
    stones = [e for e in record["events"] if e.get("kind") != "move" and e.get("seq")]
    shown = {e.seq: e.move.text for e in replayed if e.kind != "move" and e.HasField("move")}
    assert stones and all(shown.get(e["seq"]) == e["move"] for e in stones)


def _watch_for(channel, sid: str, token: str, seconds: float) -> list:
    """What a live watch sends in `seconds` (a live stream does not end by itself)."""
    call = channel.unary_stream(f"/{AW}/WatchSession")(asvc.WatchSessionRequest(session_id=sid).SerializeToString(),
                                                         timeout=seconds, metadata=((SESSION_TOKEN_HEADER, token),))
    out = []
    try:
        for raw in call:
            out.append(asvc.WatchSessionResponse.FromString(raw).event)
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.DEADLINE_EXCEEDED, e
    return out


# ------------------------------------------------------------------------------------------ the engine
def test_a_bare_abracada_state_is_no_game_not_a_chance_node():
    st = AWState()
    assert not st.is_chance() and st.is_terminal() and st.chance_outcomes() == [] and st.legal_moves() == []
    before = st.to_text()
    assert st.resolve_chance() == [] and st.to_text() == before     # nothing dealt into a game of no seats


# ------------------------------------------------------------------------------------------ the command line
@pytest.mark.parametrize("game", ["spellbook", "abracadawhat"])
def test_demo_piped_into_a_reader_that_stops_early_ends_quietly(game):
    """`spellbook-ai demo | head -1`: no BrokenPipeError traceback when the reader goes away."""
    proc = subprocess.Popen([sys.executable, "-m", "clients.cli", "demo", "--game", game, "--players", "3"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()            # the reader stops after one line
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipe" not in err, err


# ------------------------------------------------------------------------------------------ SpellBook draws
def test_spellbook_draws_say_whether_they_went_to_a_pool_or_the_altar(channel):
    """A Pouch draw's event names where the token went (P3): a `draw` fills the drawer's pool, the end of a
    Day refills the Altar. The record carries it too and replays; a record without it still loads."""
    import json

    from engine_c import State, records

    from server._gen.spellbook.v1 import types_pb2 as spb

    created = unary(channel, SB, ssvc, "CreateSession", ssvc.CreateSessionRequest(
        seats=[spb.SessionSeat(kind=spb.SEAT_KIND_CLIENT)] * 2, seed=6))
    sid, tokens = created.session_id, [t.token for t in created.seat_tokens]
    for text in ("draw", "pass", "pass"):                 # seat 0 draws 2, then ends its Day
        view = unary(channel, SB, ssvc, "GetSession", ssvc.GetSessionRequest(session_id=sid, seat=0), tokens[0])
        move = next(m for m in view.legal_moves if m.text == text)
        unary(channel, SB, ssvc, "SubmitMove", ssvc.SubmitMoveRequest(session_id=sid, seat=0, move=move), tokens[0])
    record = json.loads(unary(channel, SB, ssvc, "ExportSession", ssvc.ExportSessionRequest(session_id=sid),
                              tokens[0]).record_json)
    draws = [e for e in record["events"] if e["kind"] == "draw"]
    assert [(e["zone"], e.get("to")) for e in draws[:2]] == [("pool", 0), ("pool", 0)]
    assert draws[2:] and all(e["zone"] == "altar" and "to" not in e for e in draws[2:])
    _call, watched = stream(channel, SB, ssvc, "WatchSession", ssvc.WatchSessionRequest(session_id=sid), tokens[1])
    events = []
    for r in watched:
        events.append(r.event)
        if r.event.seq >= draws[-1]["seq"]:
            _call.cancel()
            break
    assert [(e.zone, e.to) for e in events if e.kind == "draw"][:2] == [("pool", 0), ("pool", 0)]
    records.replay(record)                                            # the fields check against the engine
    bad = json.loads(json.dumps(record))
    next(e for e in bad["events"] if e["kind"] == "draw")["zone"] = "altar"
    with pytest.raises(records.RecordError):
        records.replay(bad)
    for e in record["events"]:                                        # an older record, without them
        e.pop("zone", None), e.pop("to", None)
    records.replay(record)
    assert State.new(players=2, seed=6).draw_destination() == ("", -1)
