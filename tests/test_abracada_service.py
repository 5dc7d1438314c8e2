"""Abracada…What? over gRPC (issue 23, item 4): the second game's service on the same server, used by a
client written from proto/abracadawhat/v1/*.proto alone (stubs generated here with protoc, no project client
code or generated code). A client seat plays a level-5 bot to the end with hints and a review; a seat sees
every hand but its own and a spectator no hand while the game runs (XI1-XI3), in views, watched events and
exports; a PlayMatch whose server is killed resumes to the same record; bad input gets INVALID_ARGUMENT
naming the field. Fixed seeds; small searches."""
from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from server.main import ServerConfig, ServerThread
from server.service import ServiceConfig

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "spellbook-session-token"
SEED = 21


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    """The generated modules of proto/abracadawhat/v1 (types, service, stubs), from the .proto files only."""
    from grpc_tools import protoc
    import grpc_tools

    out = tmp_path_factory.mktemp("stubs")
    include = str(Path(grpc_tools.__file__).parent / "_proto")
    files = [str(p.relative_to(ROOT / "proto")) for p in sorted((ROOT / "proto" / "abracadawhat" / "v1").glob("*.proto"))]
    assert protoc.main(["protoc", f"-I{ROOT / 'proto'}", f"-I{include}", f"--python_out={out}",
                        f"--grpc_python_out={out}", *files]) == 0
    sys.path.insert(0, str(out))
    try:
        mods = [importlib.import_module(f"abracadawhat.v1.{m}") for m in ("types_pb2", "service_pb2", "service_pb2_grpc")]
    finally:
        sys.path.remove(str(out))
    return mods


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    config = ServerConfig(address="127.0.0.1:0", db=str(tmp_path_factory.mktemp("aw") / "sessions.db"),
                          service=ServiceConfig(workers=2, queue_size=8, bot_workers=1))
    with ServerThread(config) as srv:
        yield srv


@pytest.fixture(scope="module")
def stub(server, api):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        yield api[2].AbracadaWhatServiceStub(ch)


def field_of(err: grpc.RpcError) -> str:
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())
    status = rpc_status.from_call(err)
    bad = error_details_pb2.BadRequest()
    status.details[0].Unpack(bad)
    return bad.field_violations[0].field


def token(t: str) -> tuple:
    return ((TOKEN, t),)


def create(stub, api, seats, seed=SEED, players=0, variants=()):
    types, svc, _ = api
    kinds = {"client": types.SEAT_KIND_CLIENT}
    req = svc.CreateSessionRequest(players=players, seed=seed, variants=list(variants), seats=[
        types.SessionSeat(kind=kinds.get(s, types.SEAT_KIND_BOT), level=0 if s == "client" else int(s[4:]))
        for s in seats])
    return stub.CreateSession(req, timeout=30)


def wait_turn(stub, api, sid, tok, seat):
    """The seat's view once it decides or the game is over (the bot moves meanwhile)."""
    for _ in range(2000):
        view = stub.GetSession(api[1].GetSessionRequest(session_id=sid), metadata=token(tok), timeout=30)
        if view.over or view.state.view.to_move == seat:
            return view
        time.sleep(0.005)
    raise AssertionError("the bot did not move")


def test_a_client_seat_plays_a_level_5_bot_to_the_end_with_hints_and_a_review(stub, api):
    types, svc, _ = api
    created = create(stub, api, ["client", "bot:5"])
    sid, tok = created.session_id, created.seat_tokens[0].token
    hinted = moves = 0
    while True:
        view = wait_turn(stub, api, sid, tok, 0)
        if view.over:
            break
        hands = view.state.view.hands
        assert not hands[0].visible and not hands[0].stones and hands[0].size == hands[0].size   # XI2: not its own
        assert hands[1].visible and len(hands[1].stones) == hands[1].size                          # ...the other's
        assert "rng=" not in view.state.text and view.state.text.startswith("aw1 ")
        holding = {c.spell: c.probability for c in view.insight.holding}
        assert set(holding) == set(range(1, 9)) and all(0 <= p <= 1 + 1e-9 for p in holding.values())
        legal = [m.text for m in view.legal_moves]
        move = legal[0]
        if hinted < 3:       # hints on the seat's observation: the server determinizes (XC6)
            hints = stub.GetHints(svc.GetHintsRequest(state=types.StateInput(observation=view.state.text), seat=0,
                                                      level=1, seed=moves, top_k=3), timeout=30)
            assert hints.hints and hints.hints[0].move.text in legal
            for a in hints.insight.announcements:
                assert a.success_probability == pytest.approx(holding[a.move.value])
                assert a.expected_life_loss >= 0 and 0 <= a.self_knockout_probability <= 1
            move, hinted = hints.hints[0].move.text, hinted + 1
        sub = stub.SubmitMove(svc.SubmitMoveRequest(session_id=sid, seat=0, move=types.Move(text=move),
                                                    expected_seq=view.seq), metadata=token(tok), timeout=30)
        assert sub.events[0].kind == "move" and sub.events[0].seat == 0
        for ev in sub.events[1:]:
            if ev.kind in ("refill", "deal") and ev.to == 0:
                assert ev.hidden and not ev.HasField("move")          # its own stones stay hidden from it
        moves += 1
    assert moves >= 3 and view.state.view.winners
    export = stub.ExportSession(svc.ExportSessionRequest(session_id=sid), metadata=token(tok), timeout=30)
    record = json.loads(export.record_json)
    assert record["game"] == "abracadawhat" and record["status"] == "finished" and "view" not in record
    assert record["result"]["scores"] == list(view.state.view.points)
    review = stub.AnalyzeGame(svc.AnalyzeGameRequest(record_json=export.record_json, level=1,
                                                     limits=types.SearchLimits(iterations=60)), timeout=60)
    assert review.total_decisions == sum(e["kind"] == "move" for e in record["events"])
    assert review.decisions and list(review.result.scores) == record["result"]["scores"]
    assert {d.seat for d in review.decisions} <= {0, 1}
    again = stub.AnalyzeGame(svc.AnalyzeGameRequest(record=export.record, level=1,
                                                    limits=types.SearchLimits(iterations=60)), timeout=60)
    assert again.total_decisions == review.total_decisions


def test_a_seat_never_sees_its_own_hand_and_a_spectator_sees_none(stub, api):
    types, svc, _ = api
    created = create(stub, api, ["client", "client", "bot:1"], seed=5)
    sid, spectator = created.session_id, created.spectator_token
    seat0, seat1 = (t.token for t in created.seat_tokens)
    # the spectator: public information only (XI1), and no seat's view through its token
    public = stub.GetSession(svc.GetSessionRequest(session_id=sid), metadata=token(spectator), timeout=30)
    assert public.seat == -1 and public.state.text == "" and not public.legal_moves
    assert all(not h.visible and not h.stones for h in public.state.view.hands)
    assert len(public.state.view.removed) == 6                        # the removed stones are public (XS2)
    for seat in (0, 1):
        with pytest.raises(grpc.RpcError) as e:
            stub.GetSession(svc.GetSessionRequest(session_id=sid, seat=seat), metadata=token(spectator), timeout=30)
        assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as e:           # a seat's token reads its own seat only
        stub.GetSession(svc.GetSessionRequest(session_id=sid, seat=1), metadata=token(seat0), timeout=30)
    assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED
    mine = stub.GetSession(svc.GetSessionRequest(session_id=sid), metadata=token(seat1), timeout=30)
    assert mine.seat == 1 and [h.visible for h in mine.state.view.hands] == [True, False, True]
    # a few moves, so that refills happen; then what each role is shown of every stone
    tokens = {0: seat0, 1: seat1}
    for _ in range(8):
        for _ in range(2000):
            to_move = stub.GetSession(svc.GetSessionRequest(session_id=sid), metadata=token(spectator),
                                      timeout=30).state.view.to_move
            if to_move in tokens or to_move == -2:
                break
            time.sleep(0.005)
        if to_move == -2:
            break
        view = stub.GetSession(svc.GetSessionRequest(session_id=sid), metadata=token(tokens[to_move]), timeout=30)
        stub.SubmitMove(svc.SubmitMoveRequest(session_id=sid, seat=to_move, move=view.legal_moves[-1]),
                        metadata=token(tokens[to_move]), timeout=30)
    for role, tok in (("spectator", spectator), ("seat 1", seat1)):
        record = json.loads(stub.ExportSession(svc.ExportSessionRequest(session_id=sid), metadata=token(tok),
                                               timeout=30).record_json)
        assert record["view"] == role and "seed" not in record
        for e in record["events"]:
            if e["kind"] in ("move", "roll") or e.get("zone") == "removed":
                assert e["move"] != "stone ?"
            elif e.get("zone") == "hand":
                assert (e["move"] == "stone ?") == (role == "spectator" or e["to"] == 1), e
            else:
                assert e["move"] == "stone ?" or (e.get("zone") == "taken" and role == "seat 1" and e["to"] == 1)
        watched = stub.WatchSession(svc.WatchSessionRequest(session_id=sid, from_seq=1), metadata=token(tok),
                                    timeout=5)
        events = []
        try:
            for item in watched:
                events.append(item.event)
                if len(events) >= 3:
                    break
        finally:
            watched.cancel()
        for ev in events:
            if ev.zone == "hand":
                assert ev.hidden == (role == "spectator" or ev.to == 1)


def test_each_move_event_tells_what_the_table_saw_as_the_terminal_does(stub, api):
    """Issue 51 item 2: a move's event carries the terminal's lines (text.describe_changes): the outcome
    and its die, life lost and gained, knock-outs, the round's end and points; a failed announcement ends
    the turn by rule (never "ended the turn"). Each caller reads "you" for its own seat. And the insight
    of the seat to move words each announcement as the terminal's `chances` does, `end` only when legal."""
    from engine_c import records
    from engine_c.abracadawhat import text as T

    types, svc, _ = api
    created = create(stub, api, ["client", "bot:1", "bot:1"], seed=3)
    sid, tok = created.session_id, created.seat_tokens[0].token
    ended_legal = False
    while True:
        view = wait_turn(stub, api, sid, tok, 0)
        if view.over:
            break
        legal = [m.text for m in view.legal_moves]
        hints = stub.GetHints(svc.GetHintsRequest(state=types.StateInput(observation=view.state.text), seat=0,
                                                  level=1, seed=1, top_k=1), timeout=30)
        for insight in (view.insight, hints.insight):
            assert insight.end_legal == ("end" in legal)
            ended_legal |= insight.end_legal
            for a in insight.announcements:
                assert a.if_success and a.if_failure and a.move.text in legal
                if a.success_probability == 0:
                    assert "cannot succeed" in a.if_success and "knock" not in a.if_success
        # the highest announcement: it often fails, and costs life
        move = "end" if len(legal) < 3 and "end" in legal else legal[-1] if legal[-1] != "end" else legal[-2]
        stub.SubmitMove(svc.SubmitMoveRequest(session_id=sid, seat=0, move=types.Move(text=move),
                                              expected_seq=view.seq), metadata=token(tok), timeout=30)
    assert ended_legal
    record = json.loads(stub.ExportSession(svc.ExportSessionRequest(session_id=sid), metadata=token(tok),
                                           timeout=30).record_json)
    final, steps, indices = records.replay_indexed(record)
    names = ["you", "seat 1", "seat 2"]
    expected = []
    for k, ((before, move, _seat), i) in enumerate(zip(steps, indices)):
        after = steps[k + 1][0] if k + 1 < len(steps) else final
        end = indices[k + 1] if k + 1 < len(indices) else len(record["events"])
        rolls = [int(e["move"].split()[1]) for e in record["events"][i + 1:end] if e["kind"] == "roll"]
        expected.append(T.describe_changes(before, move, after, names, rolls))
    watched = [item.event for item in stub.WatchSession(svc.WatchSessionRequest(session_id=sid, from_seq=1),
                                                        metadata=token(tok), timeout=30)]
    told = [list(ev.lines) for ev in watched if ev.kind == "move"]
    assert told == expected
    lines = [line for t in told for line in t]
    assert any(": fails" in line for line in lines) and any(line.startswith("life: ") for line in lines)
    assert any(" ends: " in line and "Scores: " in line for line in lines)          # a round's end and points
    assert any("A failed announcement ends your turn" == line for line in lines)
    assert not any(line == "you end the turn" and prev.startswith("you announce") and ": fails" in prev
                   for prev, line in zip(lines, lines[1:]))
    # a round ended by a knock-out names it in the life line
    assert any("(knocked out)" in line for line in lines)


def test_bad_input_names_the_field(stub, api, server):
    types, svc, _ = api
    cases = [
        (lambda: create(stub, api, ["client"] * 6), "players"),
        (lambda: create(stub, api, ["client", "bot:1"], variants=["xv9"]), "variants[0]"),
        (lambda: create(stub, api, ["client", "bot:11"]), "seats[1].level"),
        (lambda: stub.NewGame(svc.NewGameRequest(players=1), timeout=10), "players"),
        (lambda: stub.NewGame(svc.NewGameRequest(players=3, variants=["xv1", "hard"]), timeout=10), "variants[1]"),
        (lambda: stub.GetBestMove(svc.GetBestMoveRequest(state=types.StateInput(text="aw1 n=9")), timeout=10),
         "state.text"),
        (lambda: stub.GetHints(svc.GetHintsRequest(state=types.StateInput(observation="nonsense")), timeout=10),
         "state.observation"),
        (lambda: stub.GetBestMove(svc.GetBestMoveRequest(), timeout=10), "state"),
        (lambda: stub.GetBestMove(svc.GetBestMoveRequest(state=types.StateInput(text=new_text(stub, api)),
                                                         limits=types.SearchLimits(iterations=-1)), timeout=10),
         "limits.iterations"),
        (lambda: stub.ApplyMove(svc.ApplyMoveRequest(state=new_text(stub, api), move=types.Move(text="cast 9")),
                                timeout=10), "move.text"),
        (lambda: stub.AnalyzeGame(svc.AnalyzeGameRequest(record_json='{"format": "spellbook-record"'), timeout=10),
         "record_json"),
        (lambda: list(stub.PlayMatch(svc.PlayMatchRequest(bots=["random"] * 6), timeout=10)), "bots"),
        (lambda: list(stub.PlayMatch(svc.PlayMatchRequest(bots=["random", "nonsense"]), timeout=10)), "bots[1]"),
    ]
    for call, field in cases:
        with pytest.raises(grpc.RpcError) as e:
            call()
        assert field_of(e.value) == field
    # a SpellBook record is not this service's to review
    sb = json.dumps({"format": "spellbook-record", "version": 2, "players": 2, "spells": "set1", "events": [],
                     "status": "active", "result": None})
    with pytest.raises(grpc.RpcError) as e:
        stub.AnalyzeGame(svc.AnalyzeGameRequest(record_json=sb), timeout=10)
    assert field_of(e.value) == "record_json.game"
    created = create(stub, api, ["client", "bot:1"])
    from server._gen.spellbook.v1 import service_pb2 as sb, service_pb2_grpc as sb_grpc

    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:      # no way round the hidden hands
        spellbook = sb_grpc.SpellBookServiceStub(ch)                     # through the SpellBook API
        for call in (lambda: spellbook.ExportSession(sb.ExportSessionRequest(session_id=created.session_id),
                                                     metadata=token(created.spectator_token), timeout=10),
                     lambda: spellbook.GetSession(sb.GetSessionRequest(session_id=created.session_id, seat=1),
                                                  metadata=token(created.spectator_token), timeout=10)):
            with pytest.raises(grpc.RpcError) as e:
                call()
            assert field_of(e.value) == "session_id"
    with pytest.raises(grpc.RpcError) as e:
        stub.SubmitMove(svc.SubmitMoveRequest(session_id=created.session_id, seat=0, move=types.Move(text="cast 9")),
                        metadata=token(created.seat_tokens[0].token), timeout=10)
    assert field_of(e.value) == "move.text"


def new_text(stub, api) -> str:
    return stub.NewGame(api[1].NewGameRequest(players=3, seed=4), timeout=10).state.text


def test_rules_calls_agree_with_the_engine(stub, api):
    from engine_c.abracadawhat import State

    types, svc, _ = api
    rules = stub.GetRules(svc.GetRulesRequest(), timeout=10)
    assert (rules.min_players, rules.max_players) == (2, 5) and [s.stones for s in rules.spells] == list(range(1, 9))
    game = stub.NewGame(svc.NewGameRequest(players=3, seed=4, variants=["xv1"]), timeout=10)
    st = State.new(players=3, seed=4, variants=["xv1"])
    assert game.state.text == st.to_text() and game.state.view.viewer == -2
    legal = stub.ListLegalMoves(svc.ListLegalMovesRequest(state=types.StateInput(text=game.state.text)), timeout=10)
    assert [m.text for m in legal.moves] == [str(m) for m in st.legal_moves()]
    applied = stub.ApplyMove(svc.ApplyMoveRequest(state=game.state.text, move=types.Move(text="cast 8"),
                                                  resolve_chance=True), timeout=10)
    outcomes = st.play("cast 8")
    assert applied.state.text == st.to_text() and [m.text for m in applied.chance] == [str(m) for m in outcomes]
    best = stub.GetBestMove(svc.GetBestMoveRequest(state=types.StateInput(observation=st.observation(st.current_player)),
                                                   level=2, seed=3), timeout=30)
    assert best.move.text in [str(m) for m in st.legal_moves()] and best.stats.player == st.current_player
    reports = list(stub.Analyze(svc.AnalyzeRequest(state=types.StateInput(text=st.to_text()), level=1, seed=1,
                                                   report_every_ms=50), timeout=30))
    assert reports[-1].final and reports[-1].insight.holding and reports[-1].best_move.text


def test_rules_list_each_level_with_its_search_and_the_ladder_elo(api, tmp_path):
    """GetRules says what each of the game's levels searches (its own table, the belief from level 6) and
    its measured Elo from the game's ladder table; without a table the Elo is unset (issue 24 item 3)."""
    types, svc, grpc_mod = api
    table = tmp_path / "ladder-abracadawhat.json"
    table.write_text(json.dumps({"levels": [{"level": 2, "elo": 433.1, "pm": 186.0},
                                            {"level": 9, "elo": 923.2, "pm": 344.0}]}))
    for path, expect in ((str(table), {2: (433.1, 186.0), 9: (923.2, 344.0)}), ("", {})):
        config = ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=1, ladders={"abracadawhat": path}))
        with ServerThread(config) as srv, grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            levels = grpc_mod.AbracadaWhatServiceStub(ch).GetRules(svc.GetRulesRequest(), timeout=10).levels
        assert [lv.level for lv in levels] == list(range(1, 11))
        assert {lv.level: (lv.elo, lv.elo_ci) for lv in levels if lv.HasField("elo")} == expect
        assert [lv.belief for lv in levels] == [False] * 5 + [True] * 5        # D140: the belief from level 6
        assert [lv.policy_temperature > 0 for lv in levels] == [True] * 2 + [False] * 8
        assert levels[0].name == "beginner" and levels[3].name == "club" and all(lv.meaning for lv in levels)
        assert all(lv.iterations > 0 and lv.description for lv in levels)
        assert levels[-1].time_cap_ms == 1000 and levels[-1].temperature == 0


BOTS = ["ismcts:iterations=300,threads=1", "greedy", "ismcts:iterations=200,threads=1,temperature=0.5"]


def _match_record(stub, api, sid, tok) -> dict:
    svc = api[1]
    for _ in stub.WatchSession(svc.WatchSessionRequest(session_id=sid, from_seq=1), metadata=token(tok), timeout=120):
        pass
    record = json.loads(stub.ExportSession(svc.ExportSessionRequest(session_id=sid), metadata=token(tok),
                                           timeout=30).record_json)
    assert record["status"] == "finished"
    record.pop("session_id")
    return record


def test_a_match_killed_midway_resumes_to_the_same_record(api, tmp_path):
    from test_service_sessions_process import ServerProcess

    svc = api[1]

    def run(db: str, kill_after: int | None):
        srv = ServerProcess(db, env={"SPELLBOOK_BOT_LEASE_S": "1"})
        try:
            with grpc.insecure_channel(srv.address()) as ch:
                stub = api[2].AbracadaWhatServiceStub(ch)
                stream = stub.PlayMatch(svc.PlayMatchRequest(bots=BOTS, seed=SEED), timeout=120)
                head = next(stream)
                sid, tok = head.session_id, head.spectator_token
                if kill_after is None:
                    end = [m for m in stream if m.HasField("end")][0].end
                    return sid, tok, end, _match_record(stub, api, sid, tok)
                for _ in range(kill_after):
                    next(stream)
                srv.proc.kill()
                srv.proc.wait(timeout=10)
                return sid, tok, None, None
        finally:
            srv.stop()

    _, _, end, reference = run(str(tmp_path / "ref.db"), None)
    assert end.finished and json.loads(end.record_json)["events"] == reference["events"]
    db = str(tmp_path / "killed.db")
    sid, tok, _, _ = run(db, 12)
    from server.store import SqliteStore

    store = SqliteStore(db)
    try:
        assert store.session(sid).status == "active", "the match ended before the kill: nothing to resume"
    finally:
        store.close()
    second = ServerProcess(db, env={"SPELLBOOK_BOT_LEASE_S": "1"})
    try:
        with grpc.insecure_channel(second.address()) as ch:
            resumed = _match_record(api[2].AbracadaWhatServiceStub(ch), api, sid, tok)
    finally:
        second.stop()
    assert resumed == reference


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_an_abracada_session_is_stored_and_resumed_by_either_store(backend, tmp_path, request):
    """One SessionManager for both games: the session's game is stored with it (schema 4), a manager on the
    same database resumes it as that game, and its record replays to the same state."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from engine_c import records
    from server.sessions import SeatSpec, SessionManager
    from server.store import open_store

    url = str(tmp_path / "s.db") if backend == "sqlite" else request.getfixturevalue("postgres_url")

    async def play():
        store = open_store(url)
        mgr = SessionManager(store, ThreadPoolExecutor(1))
        sid = await mgr.create(3, ["xv1"], 8, [SeatSpec("client")] * 3, game="abracadawhat")
        for _ in range(10):
            state, seq, game = mgr.snapshot(sid)
            await mgr.submit(sid, state.current_player, str(state.legal_moves()[0]), seq)
        await mgr.close()
        store.close()
        store = open_store(url)       # another manager, as after a restart
        again = SessionManager(store, ThreadPoolExecutor(1))
        state, seq, game = again.snapshot(sid)
        record = again.export(sid)
        await again.close()
        store.close()
        return state, seq, game, record

    state, seq, game, record = asyncio.run(play())
    assert game == "abracadawhat" and state.variants == ("xv1",) and seq >= 10
    assert record["game"] == "abracadawhat" and record["variants"] == ["xv1"] and "seed" not in record
    assert records.replay(record, rng_seed=1)[0].observation(0) == state.observation(0)
    kinds = {e["kind"] for e in record["events"]}
    assert {"deal", "move", "refill"} <= kinds


REFUSALS = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.OUT_OF_RANGE,
            grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED}


def test_mutated_requests_get_an_answer_or_a_refusal_never_internal(server, stub, api):
    """Every RPC, with valid requests' bytes flipped, cut or extended (seeded): a result or a refusal."""
    import random

    from server.aw_service import SERVICE_DESCRIPTOR
    from test_service_fuzz import mutated

    types, svc, _ = api
    created = create(stub, api, ["client", "bot:1"], seed=2)
    state = types.StateInput(text=new_text(stub, api))
    limits = types.SearchLimits(iterations=30)
    valid = {
        "GetRules": svc.GetRulesRequest(), "NewGame": svc.NewGameRequest(players=4, seed=1, variants=["xv2"]),
        "ListLegalMoves": svc.ListLegalMovesRequest(state=state),
        "ApplyMove": svc.ApplyMoveRequest(state=state.text, move=types.Move(text="cast 3"), resolve_chance=True),
        "GetBestMove": svc.GetBestMoveRequest(state=state, limits=limits, level=1),
        "GetHints": svc.GetHintsRequest(state=state, limits=limits, level=1, top_k=2),
        "Analyze": svc.AnalyzeRequest(state=state, limits=limits, level=1, report_every_ms=50),
        "CreateSession": svc.CreateSessionRequest(seats=[types.SessionSeat(kind=types.SEAT_KIND_CLIENT)] * 2),
        "SubmitMove": svc.SubmitMoveRequest(session_id=created.session_id, seat=0, move=types.Move(text="cast 2")),
        "GetSession": svc.GetSessionRequest(session_id=created.session_id),
        "WatchSession": svc.WatchSessionRequest(session_id=created.session_id, from_seq=1),
        "ExportSession": svc.ExportSessionRequest(session_id=created.session_id),
        "PlayMatch": svc.PlayMatchRequest(bots=["random", "greedy"], seed=3),
        "AnalyzeGame": svc.AnalyzeGameRequest(record_json="{}", limits=limits),
    }
    assert set(valid) == {m.name for m in SERVICE_DESCRIPTOR.methods}, "a new RPC needs a request here"
    rng = random.Random(23)
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        for method in SERVICE_DESCRIPTOR.methods:
            blob = valid[method.name].SerializeToString()
            path = f"/{SERVICE_DESCRIPTOR.full_name}/{method.name}"
            for _ in range(6):
                b = mutated(blob, rng)
                meta = token(created.seat_tokens[0].token)
                try:
                    if method.server_streaming:
                        call = ch.unary_stream(path)(bytes(b), timeout=10, metadata=meta)
                        for n, _ in enumerate(call):
                            if n >= 3:
                                call.cancel()
                                break
                    else:
                        ch.unary_unary(path)(bytes(b), timeout=10, metadata=meta)
                except grpc.RpcError as e:
                    assert e.code() in REFUSALS or e.code() == grpc.StatusCode.CANCELLED, \
                        (method.name, bytes(b)[:24], e.code(), e.details()[:200])


def test_api_keys_and_metrics_cover_the_second_service(api):
    """The API-key interceptor guards every game's service (no way round a key through the second API), and
    its calls are counted under their own label."""
    from server import metrics

    types, svc, grpc_mod = api
    with ServerThread(ServerConfig(address="127.0.0.1:0", api_keys=frozenset({"k-aw-test"}))) as srv:
        with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
            stub = grpc_mod.AbracadaWhatServiceStub(ch)
            with pytest.raises(grpc.RpcError) as e:
                stub.GetRules(svc.GetRulesRequest(), timeout=10)
            assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
            before = metrics.RPC_TOTAL.labels("AbracadaWhatService/GetRules", "OK")._value.get()
            assert stub.GetRules(svc.GetRulesRequest(), metadata=(("authorization", "Bearer k-aw-test"),),
                                 timeout=10).game == "abracadawhat"
            assert metrics.RPC_TOTAL.labels("AbracadaWhatService/GetRules", "OK")._value.get() == before + 1


def test_the_log_never_holds_a_hand_a_stone_or_the_seed(stub, api, server_log):
    types, svc, _ = api
    seed = 987_654_321_987
    created = create(stub, api, ["client", "bot:2", "bot:1"], seed=seed)
    sid, tok = created.session_id, created.seat_tokens[0].token
    for _ in range(4):
        view = wait_turn(stub, api, sid, tok, 0)
        if view.over:
            break
        stub.GetHints(svc.GetHintsRequest(state=types.StateInput(observation=view.state.text), level=1), timeout=30)
        stub.SubmitMove(svc.SubmitMoveRequest(session_id=sid, seat=0, move=view.legal_moves[0]), metadata=token(tok),
                        timeout=30)
    stub.ExportSession(svc.ExportSessionRequest(session_id=sid), metadata=token(created.spectator_token), timeout=30)
    lines = [json.loads(line) for line in server_log.getvalue().splitlines()]
    assert any(line.get("method") == "SubmitMove" for line in lines)
    text = server_log.getvalue()
    assert str(seed) not in text and "hands=" not in text and "stone " not in text and sid not in text
