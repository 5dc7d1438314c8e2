"""One coach behind every client (issue 42 items 1 and 4, docs/decisions.md D130), for both games: the
terminal's first hint is GetHints' for the same position and seed; the terminal's end-of-game review,
`spellbook-ai review` and AnalyzeGame give the same classes for the same record and budget; a review reads
by round, Day/turn and phase, for one seat on request; resigning ends a terminal game and a session, and the
resigned record replays and is reviewed. Fixed seeds, small budgets."""
from __future__ import annotations

import io
import json
from types import SimpleNamespace

import grpc
import pytest

from clients import play as P
from clients.cli import main as cli_main
from engine_c import records
from engine_c.registry import get_game
from search import coach
from server._gen.abracadawhat.v1 import service_pb2 as asvc
from server._gen.abracadawhat.v1 import types_pb2 as apb
from server._gen.spellbook.v1 import service_pb2 as ssvc
from server._gen.spellbook.v1 import types_pb2 as spb
from server.main import ServerConfig, ServerThread
from server.service import ServiceConfig

GAMES = {
    "spellbook": ("spellbook.v1.SpellBookService", ssvc, spb),
    "abracadawhat": ("abracadawhat.v1.AbracadaWhatService", asvc, apb),
}
BUDGET = 40            # the review search's iterations a decision in these tests
HINT_BUDGET = 60       # a hint's first budget


@pytest.fixture(scope="module")
def channel(tmp_path_factory):
    config = ServerConfig(address="127.0.0.1:0", db=str(tmp_path_factory.mktemp("coach") / "s.db"),
                          service=ServiceConfig(workers=2, queue_size=8, bot_workers=1))
    with ServerThread(config) as srv, grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        yield ch


def call(channel, game: str, method: str, request, timeout: float = 60.0):
    service, svc, _pb = GAMES[game]
    raw = channel.unary_unary(f"/{service}/{method}")(request.SerializeToString(), timeout=timeout)
    return getattr(svc, f"{method}Response").FromString(raw)


def test_the_coach_s_caps_are_the_server_s_defaults():
    c = ServiceConfig()
    assert (coach.MAX_ITERATIONS, coach.MAX_TIME_MS, coach.MAX_NODES) == (c.max_iterations, c.max_time_ms, c.max_nodes)


# ----------------------------------------------------------------------------------------------
# Hints: the terminal's is GetHints'
# ----------------------------------------------------------------------------------------------
def _positions(game: str):
    if game == "spellbook":
        from engine_c import State

        st = State.new(players=2, seed=0)
        yield st.clone()                                   # seed 0's opening
        st.play("draw")
        yield st.clone()
    else:
        from engine_c.abracadawhat import State

        st = State.new(players=3, seed=8)
        yield st.clone()
        st.play("cast 8")
        yield st.clone()                                   # after its own cast: the seat's hidden hand changed


def _hinter(game: str, seed: int):
    if game == "spellbook":
        from clients.play_spellbook import SpellBookHinter

        return SpellBookHinter(HINT_BUDGET, seed)
    from clients.play_abracadawhat import AbracadaHinter

    return AbracadaHinter(HINT_BUDGET, seed)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_terminal_s_first_hint_is_get_hints_for_the_same_position_and_seed(game, channel):
    """The terminal searches as GetHints does (the default level with the shipped model, the same growth
    and caps): with the seed the terminal gives the position (coach.hint_seed), GetHints answers the same
    first move, win probability, score and iterations, and hint 3's text names that move."""
    _service, svc, pb = GAMES[game]
    from search.hints import top_hints

    for st in _positions(game):
        hinter = _hinter(game, 7)
        grown = hinter.grown(st)
        mine = top_hints(grown.result, 3)
        resp = call(channel, game, "GetHints", svc.GetHintsRequest(
            state=pb.StateInput(text=st.to_text()), seed=hinter.seed_at(st),
            limits=pb.SearchLimits(iterations=HINT_BUDGET), top_k=3))
        assert resp.stats.iterations == grown.result.iterations
        first = resp.hints[0]
        assert first.move.text == str(mine[0].move)
        assert first.win_probability == pytest.approx(mine[0].win_probability, abs=1e-9)
        assert first.expected_score == pytest.approx(mine[0].expected_score, abs=1e-9)
        # SpellBook's terminal says the move in the words GetHints sends with it (Move.words)
        said = first.move.words if game == "spellbook" else first.move.text
        assert hinter.hint(st, 3).startswith(f"Hint 3: play {said}")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_analysis_engine_s_grown_search_is_get_hints_for_the_same_position_and_seed(game, channel):
    """`spellbook-ai analysis` with `"grow": true` searches as GetHints does: the same first move, win
    probability and iterations for the same position, seed and first budget."""
    from clients.analysis import analyse

    _service, svc, pb = GAMES[game]
    for i, st in enumerate(_positions(game)):
        seed = 11 + i
        answer = analyse({"id": i, "position": st.to_text(), "grow": True, "seed": seed, "maxVisits": HINT_BUDGET,
                          "topK": 3})
        resp = call(channel, game, "GetHints", svc.GetHintsRequest(
            state=pb.StateInput(text=st.to_text()), seed=seed, limits=pb.SearchLimits(iterations=HINT_BUDGET), top_k=3))
        assert answer["rootInfo"]["visits"] == resp.stats.iterations, answer["rootInfo"]
        first = next(m for m in answer["moveInfos"] if m["order"] == 0)
        assert first["move"] == resp.hints[0].move.text
        assert first["winrate"] == pytest.approx(resp.hints[0].win_probability, abs=1e-9)
    bad = analyse({"id": "x", "position": next(iter(_positions(game))).to_text(), "grow": True,
                   "reportDuringSearchEvery": 0.1})
    assert bad["field"] == "grow"


def test_the_terminal_no_longer_searches_with_heuristic_rollouts():
    from clients.play_spellbook import SpellBookHinter
    from engine_c import State

    st = State.new(players=2, seed=0)
    opts = SpellBookHinter(None, 0).options(st)
    assert opts == coach.hint_options(get_game("spellbook").adapter, coach.hint_seed(0, st))
    assert opts.evaluator in ("auto", "network") and opts.rollout != "heuristic" and opts.iterations == 400


# ----------------------------------------------------------------------------------------------
# A resigned terminal game, reviewed three ways
# ----------------------------------------------------------------------------------------------
class Scripted(io.StringIO):
    """Plays the human seat's first legal move `moves` times, then types `resign`; then answers."""

    def __init__(self, moves: int, answers, commands=()):
        super().__init__()
        self.moves, self.answers, self.client, self.commands = moves, list(answers), None, list(commands)

    def readline(self):
        sess = self.client.sess
        if self.commands:
            return self.commands.pop(0) + "\n"
        if not sess.over and sess.state.current_player >= 0:
            if self.moves <= 0:
                return "resign\n"
            self.moves -= 1
            return str(sess.state.legal_moves()[-1]) + "\n"
        return (self.answers.pop(0) + "\n") if self.answers else ""


def _terminal_game(game: str, tmp_path, moves: int, commands=()):
    """A terminal game the human resigns after `moves` decisions, reviewed at the end (BUDGET) and saved."""
    import importlib

    mod = importlib.import_module(f"clients.play_{game}")
    client_class = mod.SpellBookPlayClient if game == "spellbook" else mod.AbracadaPlayClient
    path = tmp_path / f"{game}.json"
    script, out = Scripted(moves, ["y", "y", str(path)], commands), io.StringIO()
    real = client_class.__init__

    def init(self, *a, **k):
        real(self, *a, **k)
        self.review_iterations = BUDGET
        script.client = self

    client_class.__init__ = init
    try:
        args = SimpleNamespace(game=game, server=None, load=None, seed=4, bots=["random"], seat=0, spells="set1",
                               variants="", practice=False, hint_iterations=HINT_BUDGET)
        if game == "abracadawhat":
            args.bots = ["random", "random"]
        assert P.main(args, script, out) == 0
    finally:
        client_class.__init__ = real
    return json.loads(path.read_text()), out.getvalue()


@pytest.mark.parametrize("game,moves", [("spellbook", 6), ("abracadawhat", 3)])
def test_a_resigned_game_s_review_classes_agree_in_the_terminal_the_cli_and_analyze_game(game, moves, channel,
                                                                                      tmp_path, capsys):
    commands = ["hint", "hint", "hint"] + (["hold", "chances", "help", "help 1"] if game == "abracadawhat" else [])
    saved, transcript = _terminal_game(game, tmp_path, moves, commands)
    if game == "abracadawhat":     # what a player reads names no rule id (issue 42 item 5)
        from test_player_texts import RULE_ID

        assert "Hint 3: play " in transcript and "What you probably hold" in transcript
        assert not RULE_ID.search(transcript), RULE_ID.search(transcript)
    assert "You resign: the game ends here." in transcript and "resigned: the review ends there" in transcript
    assert saved["status"] == "finished" and saved["events"][-1] == {"kind": "resign", "seat": 0, "move": "resign"}
    assert saved["result"]["resigned"] == 0 and 0 not in saved["result"]["winners"]
    terminal = [(d["decision"], d["class"], d["best"]) for d in saved["review"]["decisions"]]
    assert all(d["label"].startswith(f"Round {d['round']} · ") for d in saved["review"]["decisions"])
    assert terminal and saved["review"]["iterations"] == BUDGET
    # the record replays to the position where it was resigned
    final, steps = records.replay(saved)
    assert not final.is_terminal() and records.resigned(saved) == 0

    record = {k: v for k, v in saved.items() if k != "review"}
    src = tmp_path / "record.json"
    src.write_text(json.dumps(record))
    capsys.readouterr()
    assert cli_main(["review", str(src), "--iterations", str(BUDGET), "--json", str(tmp_path / "r.json")]) == 0
    text = capsys.readouterr().out
    assert "luck (" in text and "what chance gave or took" in text and "Round 1 · " in text
    moments = [x for x in text.split("Key moments")[1].splitlines()[1:] if x.startswith("  ")]
    assert moments and all(" before, " in line and " with it" in line for line in moments)
    for line in moments:       # the better move is named only for an inaccuracy or worse
        assert ("would have given" in line) == any(f"({c})" in line for c in ("inaccuracy", "mistake", "blunder"))
    cli = [(d["decision"], d["class"], d["best"]) for d in json.loads((tmp_path / "r.json").read_text())["review"]["decisions"]]

    _service, svc, pb = GAMES[game]
    resp = call(channel, game, "AnalyzeGame", svc.AnalyzeGameRequest(record_json=json.dumps(record),
                                                                      limits=pb.SearchLimits(iterations=BUDGET)))
    server = [(d.decision, records_class(d.mistake_class), d.best.text) for d in resp.decisions]
    assert terminal == cli == server
    assert resp.result.resigned == 0 and resp.score_split_text.startswith("Each player's final score = ")
    assert all(d.label.startswith(f"Round {d.round} · ") and d.round >= 1 for d in resp.decisions)


def records_class(value: int) -> str:
    from clients.review import records_class as name

    return name(value)


# ----------------------------------------------------------------------------------------------
# Resign in a session; a review of one seat
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_session_resigned_over_grpc_ends_exports_and_is_reviewed_for_its_own_seat(game, channel):
    _service, svc, pb = GAMES[game]
    seats = [pb.SessionSeat(kind=pb.SEAT_KIND_CLIENT)] + [pb.SessionSeat(kind=pb.SEAT_KIND_BOT, level=1)]
    if game == "abracadawhat":
        seats.append(pb.SessionSeat(kind=pb.SEAT_KIND_BOT, level=1))
    created = call(channel, game, "CreateSession", svc.CreateSessionRequest(seats=seats, seed=3))
    sid, token = created.session_id, created.seat_tokens[0].token
    meta = (("spellbook-session-token", token),)
    service = GAMES[game][0]

    def auth_call(method, request):
        raw = channel.unary_unary(f"/{service}/{method}")(request.SerializeToString(), timeout=60, metadata=meta)
        return getattr(svc, f"{method}Response").FromString(raw)

    for _ in range(3):                       # a few own decisions (the bots answer in between)
        view = _wait_for_turn(auth_call, svc, sid)
        auth_call("SubmitMove", svc.SubmitMoveRequest(session_id=sid, seat=0, move=pb.Move(text=_moves(view)[-1])))
    view = _wait_for_turn(auth_call, svc, sid)
    resp = auth_call("SubmitMove", svc.SubmitMoveRequest(session_id=sid, seat=0, move=pb.Move(text="resign")))
    assert [e.kind for e in resp.events] == ["resign"] and resp.to_move == -2 and resp.events[0].seat == 0
    with pytest.raises(grpc.RpcError) as err:         # the game is over
        auth_call("SubmitMove", svc.SubmitMoveRequest(session_id=sid, seat=0, move=pb.Move(text="resign")))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    after = auth_call("GetSession", svc.GetSessionRequest(session_id=sid, seat=0))
    assert after.over and not after.legal_moves
    if game == "abracadawhat":           # a finished game is public (D111): the seat's own hand too
        assert after.state.view.hands[0].stones
    watched = list(channel.unary_stream(f"/{service}/WatchSession")(
        svc.WatchSessionRequest(session_id=sid).SerializeToString(), timeout=30, metadata=meta))
    kinds = [svc.WatchSessionResponse.FromString(r).event.kind for r in watched]
    assert kinds[-2:] == ["resign", "end"]
    export = auth_call("ExportSession", svc.ExportSessionRequest(session_id=sid))
    rec = json.loads(export.record_json)
    assert rec["status"] == "finished" and rec["events"][-1]["kind"] == "resign" and rec["result"]["resigned"] == 0
    assert export.record.result.resigned == 0 and export.record.events[-1].kind == "resign"
    review = call(channel, game, "AnalyzeGame", svc.AnalyzeGameRequest(record=export.record, seat=0,
                                                                       limits=pb.SearchLimits(iterations=BUDGET)))
    assert review.decisions and {d.seat for d in review.decisions} == {0} and review.seat == 0
    assert {d.seat for d in review.key_moments} <= {0}
    assert review.players[0].HasField("accuracy") and not review.players[1].HasField("accuracy")
    everyone = call(channel, game, "AnalyzeGame", svc.AnalyzeGameRequest(record=export.record,
                                                                         limits=pb.SearchLimits(iterations=BUDGET)))
    # the seat's entries are the whole review's entries of that seat, and the luck split is the same
    mine = [(d.decision, d.mistake_class, d.best.text, d.label) for d in everyone.decisions if d.seat == 0]
    assert [(d.decision, d.mistake_class, d.best.text, d.label) for d in review.decisions] == mine
    for a, b in zip(review.players, everyone.players):
        assert (a.luck, a.decisions, a.others, a.final_score) == pytest.approx((b.luck, b.decisions, b.others, b.final_score))
    assert everyone.players[0].accuracy == pytest.approx(review.players[0].accuracy)


def _moves(view) -> list[str]:
    return [m.text for m in view.legal_moves]


def _wait_for_turn(auth_call, svc, sid, tries: int = 600):
    import time

    for _ in range(tries):
        view = auth_call("GetSession", svc.GetSessionRequest(session_id=sid, seat=0))
        if view.legal_moves:
            return view
        time.sleep(0.05)
    raise AssertionError("the bots never handed the turn back")


def test_a_resigned_record_s_rules_are_checked():
    rec = {"format": "spellbook-record", "version": 2, "players": 2, "spells": "set1", "seats": [],
           "events": records.setup_events(2, "set1", 0) + [records.resign_event(1), {"kind": "move", "seat": 0,
                                                                                     "move": "draw"}]}
    with pytest.raises(records.RecordError, match="last event"):
        records.replay(rec)
    rec["events"] = rec["events"][:-1]
    rec["events"][-1]["seat"] = 5
    with pytest.raises(records.RecordError, match="events"):
        records.replay(rec)
