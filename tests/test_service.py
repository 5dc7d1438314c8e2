"""The gRPC service against a real server on 127.0.0.1 (port 0), started in-process and always stopped.

Small search budgets throughout; every wait is bounded.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from dataclasses import replace

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from clients.client import AsyncSpellBookClient, InvalidArgument, Observation, ServiceError, SpellBookClient
from engine_c import Move, State
from engine_c.spellbook.game import SPELLBOOK
from search import ismcts
from search.levels import level_options
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb
from server.main import ServerConfig, ServerThread
from server.service import ServiceConfig

CAP_MS = 10_000.0


@pytest.fixture(scope="module")
def server():
    srv = ServerThread(ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=2, queue_size=8,
                                                                                 max_time_ms=CAP_MS)))
    srv.start()
    yield srv
    srv.stop(grace=1.0)


@pytest.fixture(scope="module")
def channel(server):
    ch = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    yield ch
    ch.close()


@pytest.fixture(scope="module")
def stub(channel):
    return service_pb2_grpc.SpellBookServiceStub(channel)


@pytest.fixture(scope="module")
def client(server):
    with SpellBookClient(f"127.0.0.1:{server.port}", timeout=20) as c:
        yield c


def text_input(state: State) -> pb.StateInput:
    return pb.StateInput(text=state.to_text())


def violations(err: grpc.RpcError) -> list[str]:
    status = rpc_status.from_call(err)
    assert status is not None, "INVALID_ARGUMENT without a rich status"
    out = []
    for d in status.details:
        br = error_details_pb2.BadRequest()
        assert d.Unpack(br)
        out += [v.field for v in br.field_violations]
        assert all(v.description for v in br.field_violations)
    return out


# ---------------------------------------------------------------------------------------------- rules RPCs
def test_server_info(stub):
    info = stub.GetServerInfo(spb.GetServerInfoRequest(), timeout=5)
    assert info.version and info.git_revision
    assert info.rules.version.startswith("sb1-") and list(info.rules.familiar_track)[-1] == 18
    assert list(info.rules.runes) == ["c", "t", "s"] and len(info.rules.spells) == 21
    assert [lv.level for lv in info.levels] == list(range(1, 11)) and all(lv.description for lv in info.levels)
    assert info.limits.max_time_ms == CAP_MS and info.limits.workers == 2
    assert [t.max_loss for t in info.mistake_thresholds] == sorted(t.max_loss for t in info.mistake_thresholds)


def test_the_learned_model_is_reported_and_used_by_default(stub):
    """GetServerInfo names the model; every search answer carries the evaluator and model it used;
    evaluator=rollout keeps the search before the learned one."""
    from search.model import default_model

    model = default_model(SPELLBOOK)
    info = stub.GetServerInfo(spb.GetServerInfoRequest(), timeout=5)
    assert info.HasField("model") and info.model.version == model.version and info.model.feature_version >= 1
    calibration = json.loads(info.model.calibration_json)        # D26: the map its answers report through
    assert calibration["model"] == model.version and calibration["temperature"]
    # D140: every level is the network's: levels 1-4 its policy's moves, 5-10 its search
    assert [lv.evaluator for lv in info.levels] == ["network"] * 10
    assert [lv.policy_temperature > 0 for lv in info.levels] == [True] * 4 + [False] * 6
    assert "policy network" in info.levels[0].description and info.levels[0].name == "beginner"
    assert info.levels[9].name == "strongest" and all(lv.meaning for lv in info.levels)
    assert info.default_level == 10 and info.levels[9].iterations == 400     # the default keeps 400 iterations
    assert info.default_bot_level == 4                                       # D142: about the heuristic
    st = State.new(players=2, seed=3)
    best = stub.GetBestMove(spb.GetBestMoveRequest(state=text_input(st), level=9, seed=1), timeout=20)
    assert best.stats.options.evaluator == "network" and best.stats.options.model == model.version
    assert abs(sum(m.prior for m in best.stats.moves) - 1) < 1e-3
    req = spb.GetBestMoveRequest(state=text_input(st), seed=1, limits=pb.SearchLimits(iterations=200),
                                 options=pb.SearchOptions(evaluator="rollout"))
    old = stub.GetBestMove(req, timeout=20)
    assert old.stats.options.evaluator == "rollout" and old.stats.options.model == ""
    with pytest.raises(grpc.RpcError) as e:
        stub.GetBestMove(spb.GetBestMoveRequest(state=text_input(st), options=pb.SearchOptions(evaluator="magic")),
                         timeout=20)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "options.evaluator" in str(e.value.details()) + \
        str(e.value.trailing_metadata())


def test_a_request_can_ask_for_root_halving(stub):
    """SearchOptions.root_halving reaches the search (only that many root moves get visits) and is echoed
    in the effective options; out of range it is INVALID_ARGUMENT naming the field."""
    st = State.new(players=2, seed=3)
    req = spb.GetBestMoveRequest(state=text_input(st), seed=1, limits=pb.SearchLimits(iterations=400),
                                 options=pb.SearchOptions(root_halving=2))
    best = stub.GetBestMove(req, timeout=20)
    assert best.stats.options.root_halving == 2
    assert sum(1 for m in best.stats.moves if m.visits) == 2 < len(st.legal_moves())
    for bad in (1, 65, -3):
        with pytest.raises(grpc.RpcError) as e:
            stub.GetBestMove(spb.GetBestMoveRequest(state=text_input(st), options=pb.SearchOptions(root_halving=bad),
                                                    limits=pb.SearchLimits(iterations=100)), timeout=20)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "options.root_halving" in str(e.value.details()) + str(e.value.trailing_metadata())


def test_a_request_can_choose_the_move_rule_by_lcb_stdevs(stub):
    """SearchOptions.lcb_stdevs (D101's lower-confidence-bound move choice) reaches the search and is echoed;
    0 asks for the most visited move; negative or infinite is INVALID_ARGUMENT naming the field."""
    st = State.new(players=2, seed=3)
    limits = pb.SearchLimits(iterations=300)
    default = stub.GetBestMove(spb.GetBestMoveRequest(state=text_input(st), seed=1, limits=limits,
                                                      options=pb.SearchOptions(temperature=0)), timeout=20)
    assert default.stats.options.lcb_stdevs == 5.0
    best = stub.GetBestMove(spb.GetBestMoveRequest(state=text_input(st), seed=1, limits=limits,
                                                   options=pb.SearchOptions(temperature=0, lcb_stdevs=0)), timeout=20)
    assert best.stats.options.lcb_stdevs == 0.0 and best.stats.options.temperature == 0
    visits = {m.move.text: m.visits for m in best.stats.moves}
    assert visits[best.move.text] == max(visits.values())
    for bad in (-1.0, float("inf")):
        with pytest.raises(grpc.RpcError) as e:
            stub.GetBestMove(spb.GetBestMoveRequest(state=text_input(st), options=pb.SearchOptions(lcb_stdevs=bad),
                                                    limits=pb.SearchLimits(iterations=100)), timeout=20)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "options.lcb_stdevs" in str(e.value.details()) + str(e.value.trailing_metadata())


def test_new_game_matches_engine(stub):
    resp = stub.NewGame(spb.NewGameRequest(players=3, spells="set2", seed=9), timeout=5)
    assert State.from_text(resp.state.text) == State.new(players=3, spells="set2", seed=9)
    view = resp.state.view
    assert view.players == 3 and len(view.seats) == 3 and view.phase == "morning" and view.rng
    assert view.current_player == 0 and view.decision == "morning" and len(view.spells) == 7


def test_legal_moves_apply_and_chance(stub):
    st = State.new(seed=4)
    resp = stub.ListLegalMoves(spb.ListLegalMovesRequest(state=text_input(st)), timeout=5)
    assert [m.text for m in resp.moves] == [str(m) for m in st.legal_moves()]
    assert resp.current_player == 0 and resp.decision == "morning"
    applied = stub.ApplyMove(spb.ApplyMoveRequest(state=text_input(st), move=pb.Move(text="draw")), timeout=5)
    drawing = st.clone().apply("draw")
    assert State.from_text(applied.state.text) == drawing and applied.state.view.decision == "chance"
    chance = stub.ListLegalMoves(spb.ListLegalMovesRequest(state=pb.StateInput(text=applied.state.text)), timeout=5)
    assert not chance.moves and chance.current_player == -1
    assert abs(sum(c.probability for c in chance.chance_outcomes) - 1) < 1e-9
    # resolve_chance with the state's own generator = engine play()
    played = stub.ApplyMove(spb.ApplyMoveRequest(state=text_input(st), move=pb.Move(text="draw"), resolve_chance=True),
                            timeout=5)
    ref = st.clone()
    draws = ref.play("draw")
    assert State.from_text(played.state.text) == ref and [d.text for d in played.draws] == [str(d) for d in draws]
    # ResolveChance: own generator, or a seed (same seed, same draws)
    own = stub.ResolveChance(spb.ResolveChanceRequest(state=pb.StateInput(text=applied.state.text)), timeout=5)
    assert [d.text for d in own.draws] == [str(d) for d in draws]
    a = stub.ResolveChance(spb.ResolveChanceRequest(state=pb.StateInput(text=applied.state.text), seed=77), timeout=5)
    b = stub.ResolveChance(spb.ResolveChanceRequest(state=pb.StateInput(text=applied.state.text), seed=77), timeout=5)
    assert a.draws == b.draws and len(a.draws) == 2 and a.state.view.current_player == 0
    none = stub.ResolveChance(spb.ResolveChanceRequest(state=text_input(st)), timeout=5)
    assert not none.draws and State.from_text(none.state.text) == st


def test_structured_view_and_observation_inputs(stub):
    st = State.new(seed=5)
    view = stub.NewGame(spb.NewGameRequest(seed=5), timeout=5).state.view
    by_view = stub.ListLegalMoves(spb.ListLegalMovesRequest(state=pb.StateInput(view=view)), timeout=5)
    assert [m.text for m in by_view.moves] == [str(m) for m in st.legal_moves()]
    obs = st.observation(0, knows_discard=False)
    resp = stub.ApplyMove(spb.ApplyMoveRequest(state=pb.StateInput(observation=obs), move=pb.Move(text="pass")),
                          timeout=5)
    assert "rng=" not in resp.state.text and "unseen=" in resp.state.text and not resp.state.view.rng
    # the observation answer parses back as an observation, and as a structured observation
    again = stub.ListLegalMoves(spb.ListLegalMovesRequest(state=pb.StateInput(view=resp.state.view)), timeout=5)
    assert again.current_player == 0 and again.decision == "midday"


# ---------------------------------------------------------------------------------------------- search RPCs
def test_same_seed_same_move_as_in_process(stub):
    st = State.new(seed=12)
    st.play("draw")
    req = spb.GetBestMoveRequest(state=text_input(st), level=4, seed=21, limits=pb.SearchLimits(iterations=300))
    r1 = stub.GetBestMove(req, timeout=20)
    r2 = stub.GetBestMove(req, timeout=20)
    local = ismcts(SPELLBOOK, st, replace(level_options(4, 21, game=SPELLBOOK), iterations=300, time_ms=CAP_MS))
    assert r1.move.text == r2.move.text == str(local.move)
    assert r1.stats.iterations == local.iterations == 300 and not r1.stats.cut_short
    assert [m.visits for m in r1.stats.moves] == [m.visits for m in local.moves]
    assert r1.stats.options.level == 4 and r1.stats.options.rollout == level_options(4, game=SPELLBOOK).rollout


@pytest.mark.parametrize("level, options", [(0, pb.SearchOptions(rollout="heuristic", cutoff=30)), (3, None)])
def test_best_move_answer_is_the_in_process_search_field_for_field(stub, level, options):
    """The whole GetBestMove answer (move, statistics, principal variation, effective options) is the same
    search run in-process, built here message by message: the service fills its response in place and makes
    the options of a request without a level in one step (server/convert.py), and neither may change it."""
    from server.convert import effective_options, search_options

    st = State.new(seed=8)
    st.play("draw")
    req = spb.GetBestMoveRequest(state=text_input(st), level=level, seed=33, options=options,
                                 limits=pb.SearchLimits(iterations=200, threads=1))
    got = stub.GetBestMove(req, timeout=20)
    opts, used_level = search_options(req, ServiceConfig(max_time_ms=CAP_MS).caps())
    local = ismcts(SPELLBOOK, st, opts)

    from engine_c.spellbook.text import move_words

    def move(m):
        return pb.Move(text=str(m), code=m.code, kind=m.kind, words=move_words(str(m)))

    stats = pb.SearchStats(iterations=local.iterations, elapsed_ms=got.stats.elapsed_ms, seed=local.seed,
                           player=local.player, threads=local.threads, nodes=local.nodes,
                           mean_decisions=local.mean_decisions, cut_short=False, stopped_early=local.stopped_early,
                           options=effective_options(opts, used_level, local),
                           moves=[pb.MoveStats(move=move(s.move), visits=s.visits, availability=s.availability,
                                               mean_reward=s.mean_reward, win_probability=s.win_probability,
                                               expected_score=s.expected_score, score_std=s.score_std,
                                               prior=s.prior) for s in local.moves],
                           principal_variation=[move(m) for m in local.principal_variation])
    assert got == spb.GetBestMoveResponse(move=move(local.move), stats=stats)
    assert got.stats.options.level == level and len(got.stats.moves) > 1 and got.stats.principal_variation


def test_a_settled_move_returns_early_with_the_same_move(stub):
    """Levels with temperature 0 stop once the choice is settled (stats.stopped_early); hints spend the
    whole budget, and rank the same move first. (The rollout search's level 9: the learned search's
    levels above one iteration sample at a temperature, D104.)"""
    st = State.new(players=2, seed=3)
    limits, rollout = pb.SearchLimits(iterations=3000), pb.SearchOptions(evaluator="rollout")
    best = stub.GetBestMove(spb.GetBestMoveRequest(state=text_input(st), level=9, seed=4, limits=limits,
                                                   options=rollout), timeout=20)
    hints = stub.GetHints(spb.GetHintsRequest(state=text_input(st), level=9, seed=4, limits=limits,
                                              options=rollout), timeout=20)
    assert best.stats.options.stop_early and best.stats.stopped_early and not best.stats.cut_short
    # hints spend at least their budget (more when they grow until the best move is separated)
    assert best.stats.iterations < 3000 <= hints.stats.iterations and not hints.stats.options.stop_early
    assert best.move.text == hints.hints[0].move.text


def test_explicit_options_and_observation_search(stub):
    st = State.new(seed=2)
    obs = pb.StateInput(observation=st.observation(0), determinize_seed=3)
    r = stub.GetBestMove(spb.GetBestMoveRequest(state=obs, seat=0, seed=1, limits=pb.SearchLimits(iterations=100),
                                                options=pb.SearchOptions(objective="margin", rollout="random")),
                         timeout=20)
    assert Move.from_text(r.move.text) in st.legal_moves()
    assert r.stats.options.objective == "margin" and r.stats.options.level == 0 and r.stats.iterations == 100


def test_hints(stub):
    st = State.new(seed=3)
    resp = stub.GetHints(spb.GetHintsRequest(state=text_input(st), top_k=4, seed=2,
                                             limits=pb.SearchLimits(iterations=400)), timeout=20)
    hints = resp.hints
    # the search's choice, then the moves it examined by win probability (issue 26): at most top_k
    assert [h.rank for h in hints] == list(range(1, len(hints) + 1)) and 2 <= len(hints) <= 4
    assert [h.win_probability for h in hints[1:]] == sorted((h.win_probability for h in hints[1:]), reverse=True)
    assert hints[0].mistake_class == pb.MISTAKE_CLASS_BEST and hints[0].loss == 0
    assert hints[0].move.text == resp.stats.moves[0].move.text
    assert all(h.mistake_class != pb.MISTAKE_CLASS_BEST and h.loss >= 0 for h in hints[1:])
    assert any(h.reasons for h in hints) and all(r.kind and r.text for h in hints for r in h.reasons)
    hidden = stub.GetHints(spb.GetHintsRequest(state=text_input(st), top_k=2, seed=2, hide_best=True,
                                               limits=pb.SearchLimits(iterations=400)), timeout=20)
    assert not hidden.hints[0].HasField("move") and hidden.hints[0].rank == 1
    # a hidden move's reasons are veiled: the same kinds, in words that do not restate the move
    assert {r.kind for r in hidden.hints[0].reasons} <= {r.kind for r in hints[0].reasons}
    assert all(not set(hints[0].move.text.split()) & set(r.text.split()) for r in hidden.hints[0].reasons)
    assert hidden.hints[1].move.text == hints[1].move.text
    assert not hidden.stats.moves and not hidden.stats.principal_variation


def test_hint_and_session_moves_carry_their_words(stub, client):
    """Issue 51 item 10: every Move the server builds says itself in a player's words (Move.words, from
    engine_c/spellbook/move_words.py), so the page never shows notation: the hints, the search's statistics,
    a session's legal moves and its events."""
    from engine_c.spellbook.text import move_words

    def said(m):
        return m.words == move_words(m.text) and m.words and m.words != m.text

    st = State.new(seed=3)
    resp = stub.GetHints(spb.GetHintsRequest(state=text_input(st), top_k=3, seed=2,
                                             limits=pb.SearchLimits(iterations=100)), timeout=20)
    assert all(said(h.move) for h in resp.hints) and all(said(s.move) for s in resp.stats.moves)
    sid = client.create_session(["client", "client"], seed=6)
    view = stub.GetSession(spb.GetSessionRequest(session_id=sid, seat=0), timeout=5,
                           metadata=[("spellbook-session-token", sid.seat_tokens[0])])
    assert view.legal_moves and all(said(m) for m in view.legal_moves)
    client.submit_move(sid, 0, view.legal_moves[0].text)
    call = stub.WatchSession(spb.WatchSessionRequest(session_id=sid), timeout=10,
                             metadata=[("spellbook-session-token", sid.spectator_token)])
    event = next(call).event
    call.cancel()
    assert event.move.text == view.legal_moves[0].text and said(event.move), event


def test_analyze_streams_progress_then_one_final(stub):
    st = State.new(seed=8)
    req = spb.AnalyzeRequest(state=text_input(st), report_every_ms=40, top_k=2, limits=pb.SearchLimits(time_ms=300))
    msgs = list(stub.Analyze(req, timeout=10))
    assert len(msgs) >= 3 and [m.final for m in msgs].count(True) == 1 and msgs[-1].final
    its = [m.stats.iterations for m in msgs]
    assert its == sorted(its) and its[-1] > 0 and len(msgs[-1].hints) == 2
    assert msgs[-1].best_move.text == msgs[-1].hints[0].move.text


# ---------------------------------------------------------------------------------------------- errors
def _bad_inputs():
    st = State.new(seed=1)
    text = st.to_text()
    view = None

    def v():
        nonlocal view
        if view is None:
            from server.convert import state_view
            view = state_view(st)
        out = pb.StateView()
        out.CopyFrom(view)
        return out

    extra_rc = text.replace("altar=", "altar=Rc", 1)
    over9 = v()
    over9.seats[0].pool.add(token="Rc", count=8)
    bad_spell = v()
    bad_spell.spells[1] = "Foo"
    too_many = v()
    too_many.players = 5
    bad_counts = v()
    bad_counts.altar.add(token="Kc", count=3)
    chance = st.clone().apply("draw").to_text()
    search = lambda **kw: ("GetBestMove", spb.GetBestMoveRequest(state=pb.StateInput(text=text), **kw))
    return [
        ("ListLegalMoves", spb.ListLegalMovesRequest(state=pb.StateInput(text="sb1 n=2 garbage")), "state.text"),
        ("ListLegalMoves", spb.ListLegalMovesRequest(state=pb.StateInput(text=extra_rc)), "state.text"),
        ("ListLegalMoves", spb.ListLegalMovesRequest(state=pb.StateInput(observation="nonsense")), "state.observation"),
        ("ListLegalMoves", spb.ListLegalMovesRequest(), "state"),
        ("ListLegalMoves", spb.ListLegalMovesRequest(state=pb.StateInput(view=over9)), "state.view.seats[0].pool"),
        ("ListLegalMoves", spb.ListLegalMovesRequest(state=pb.StateInput(view=bad_spell)), "state.view.spells"),
        ("ListLegalMoves", spb.ListLegalMovesRequest(state=pb.StateInput(view=too_many)), "state.view.players"),
        ("ListLegalMoves", spb.ListLegalMovesRequest(state=pb.StateInput(view=bad_counts)), "state.view"),
        ("NewGame", spb.NewGameRequest(players=5), "players"),
        ("NewGame", spb.NewGameRequest(players=-1), "players"),
        ("NewGame", spb.NewGameRequest(spells="Sacrifice,Foo,Purification,Offering,TimeTravel,Transmutation,Abundance"),
         "spells"),
        ("ApplyMove", spb.ApplyMoveRequest(state=pb.StateInput(text=text), move=pb.Move(text="learn Sacrifice 3 Rc : Rc")),
         "move.text"),
        ("ApplyMove", spb.ApplyMoveRequest(state=pb.StateInput(text=text), move=pb.Move(text="fly away")), "move.text"),
        ("ApplyMove", spb.ApplyMoveRequest(state=pb.StateInput(text=text)), "move.text"),
        search(limits=pb.SearchLimits(iterations=-1)) + ("limits.iterations",),
        search(limits=pb.SearchLimits(time_ms=-5)) + ("limits.time_ms",),
        search(limits=pb.SearchLimits(threads=-2)) + ("limits.threads",),
        search(limits=pb.SearchLimits(iterations=10**9)) + ("limits.iterations",),
        search(limits=pb.SearchLimits(time_ms=CAP_MS + 1)) + ("limits.time_ms",),
        search(limits=pb.SearchLimits(threads=999)) + ("limits.threads",),
        search(level=11) + ("level",),
        search(level=-1) + ("level",),
        search(seat=1) + ("seat",),
        search(options=pb.SearchOptions(objective="glory")) + ("options.objective",),
        search(options=pb.SearchOptions(exploration=-1)) + ("options.exploration",),
        search(options=pb.SearchOptions(max_nodes=10**12)) + ("options.max_nodes",),
        ("GetBestMove", spb.GetBestMoveRequest(state=pb.StateInput(text=chance)), "state"),
        ("GetHints", spb.GetHintsRequest(state=pb.StateInput(text=text), top_k=-1), "top_k"),
        ("Analyze", spb.AnalyzeRequest(state=pb.StateInput(text=text), report_every_ms=1), "report_every_ms"),
        ("Analyze", spb.AnalyzeRequest(state=pb.StateInput(text=text), limits=pb.SearchLimits(iterations=-3)),
         "limits.iterations"),
    ]


@pytest.mark.parametrize("case", range(len(_bad_inputs())))
def test_bad_input_is_invalid_argument_naming_its_field(stub, case):
    method, request, field = _bad_inputs()[case]
    with pytest.raises(grpc.RpcError) as e:
        result = getattr(stub, method)(request, timeout=10)
        if method == "Analyze":
            list(result)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT, e.value.details()
    assert violations(e.value) == [field], e.value.details()


# ---------------------------------------------------------------------------------------------- deadlines, load
def test_deadline_is_honored_with_best_move_so_far(stub):
    st = State.new(seed=6)
    t0 = time.monotonic()
    r = stub.GetBestMove(spb.GetBestMoveRequest(state=text_input(st), limits=pb.SearchLimits(time_ms=5000)),
                         timeout=0.5)
    assert time.monotonic() - t0 < 0.5
    assert r.stats.cut_short and r.stats.iterations > 0 and r.move.text


def _wait_idle(server, limit_s: float) -> float:
    t0 = time.monotonic()
    while server.servicer.pool.admitted and time.monotonic() - t0 < limit_s:
        time.sleep(0.01)
    return time.monotonic() - t0


def test_cancel_stops_the_search(server, stub):
    st = State.new(seed=7)
    assert _wait_idle(server, 5) < 5
    fut = stub.GetBestMove.future(spb.GetBestMoveRequest(state=text_input(st), limits=pb.SearchLimits(time_ms=8000)),
                                  timeout=20)
    t0 = time.monotonic()
    while server.servicer.pool.admitted == 0 and time.monotonic() - t0 < 5:
        time.sleep(0.01)
    time.sleep(0.1)
    assert server.servicer.pool.admitted == 1
    t0 = time.monotonic()
    fut.cancel()
    freed = _wait_idle(server, 3)
    assert server.servicer.pool.admitted == 0 and freed < 0.5, f"search still running {freed:.2f}s after cancel"
    assert time.monotonic() - t0 < 0.6


def test_overload_gets_resource_exhausted_with_retry_hint():
    cfg = ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=1, queue_size=0, max_time_ms=5000))
    with ServerThread(cfg) as srv, grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
        stub = service_pb2_grpc.SpellBookServiceStub(ch)
        st = State.new(seed=3)
        busy = stub.GetBestMove.future(spb.GetBestMoveRequest(state=text_input(st), limits=pb.SearchLimits(time_ms=600)),
                                       timeout=10)
        t0 = time.monotonic()
        while srv.servicer.pool.admitted == 0 and time.monotonic() - t0 < 5:
            time.sleep(0.01)
        with pytest.raises(grpc.RpcError) as e:
            stub.GetBestMove(spb.GetBestMoveRequest(state=text_input(st), limits=pb.SearchLimits(iterations=50)),
                             timeout=5)
        assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        pushback = dict(e.value.trailing_metadata())["grpc-retry-pushback-ms"]
        assert int(pushback) > 0
        status = rpc_status.from_call(e.value)
        assert status.details[0].Is(error_details_pb2.RetryInfo.DESCRIPTOR)
        # the rules RPCs do not queue, and the client retries a busy server until it frees
        assert stub.ListLegalMoves(spb.ListLegalMovesRequest(state=text_input(st)), timeout=5).moves
        with SpellBookClient(f"127.0.0.1:{srv.port}", timeout=10, retries=20, backoff_s=0.05) as client:
            best = client.best_move(st, iterations=50)
        assert best.move in st.legal_moves()
        assert busy.result(timeout=10).move.text


# ---------------------------------------------------------------------------------------------- health, reflection
def test_health_and_reflection(channel):
    health = health_pb2_grpc.HealthStub(channel)
    for name in ("", "spellbook.v1.SpellBookService"):
        resp = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
        assert resp.status == health_pb2.HealthCheckResponse.SERVING
    refl = reflection_pb2_grpc.ServerReflectionStub(channel)
    responses = list(refl.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]),
                                               timeout=5))
    names = {s.name for s in responses[0].list_services_response.service}
    assert {"spellbook.v1.SpellBookService", "grpc.health.v1.Health"} <= names
    files = list(refl.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(
        file_containing_symbol="spellbook.v1.SpellBookService")]), timeout=5))
    assert files[0].file_descriptor_response.file_descriptor_proto


# ---------------------------------------------------------------------------------------------- Python clients
def test_blocking_client(client):
    state = client.new_game(players=2, spells="set1", seed=7)
    assert state == State.new(seed=7)
    assert client.legal_moves(state) == state.legal_moves()
    best = client.best_move(state, level=3, seed=1)
    state2, draws = client.play(state, best.move)
    ref = state.clone()
    assert draws == ref.play(best.move) and state2 == ref
    hints = client.hints(state2, top_k=2, iterations=200, hide_best=True)
    assert hints.hints[0].move is None and hints.hints[0].mistake_class == "best"
    updates = list(client.analyze(state2, report_every_ms=50, time_ms=150))
    assert updates[-1].final and sum(u.final for u in updates) == 1
    obs = Observation(state2.observation(state2.current_player))
    assert client.best_move(obs, iterations=50).move in state2.legal_moves()
    with pytest.raises(InvalidArgument) as e:
        client.play(state, "learn Sacrifice 3 Rc : Rc")
    assert e.value.fields == ["move.text"]
    with pytest.raises(ServiceError) as e2:
        client.best_move(state, iterations=-1)
    assert e2.value.code == grpc.StatusCode.INVALID_ARGUMENT


def test_async_client(server):
    async def run():
        async with AsyncSpellBookClient(f"127.0.0.1:{server.port}", timeout=20) as c:
            state = await c.new_game(seed=3)
            results = await asyncio.gather(*[c.best_move(state, iterations=100, seed=s) for s in range(4)])
            assert all(r.move in state.legal_moves() for r in results)
            h = await c.hints(state, iterations=100)
            assert h.hints[0].rank == 1
            finals = [u.final async for u in c.analyze(state, report_every_ms=50, time_ms=120)]
            assert finals[-1] and finals.count(True) == 1
            with pytest.raises(InvalidArgument):
                await c.best_move(state, level=12)
            info = await c.server_info()
            return info.default_level

    assert asyncio.run(asyncio.wait_for(run(), 30)) == 10      # the level table's own default (D104)


def test_server_info_reports_the_ladder_elo(tmp_path):
    """GetServerInfo carries each level's measured Elo from the ladder table (issue 6), unset without one."""
    import json as _json

    from clients.client import SpellBookClient
    from server.main import ServerConfig, ServerThread
    from server.service import ServiceConfig

    table = tmp_path / "ladder.json"
    table.write_text(_json.dumps({"anchor": "greedy = 1000", "levels": [{"level": 3, "elo": 880.5, "pm": 80.0},
                                                                        {"level": 7, "elo": 1200.0, "pm": 150.0}]}))
    # the mistake profile beside it (bench/level_profile.py)
    (tmp_path / "level-profile.json").write_text(_json.dumps({"levels": [
        {"level": 3, "inaccuracy_share": 0.1, "mistake_share": 0.05, "blunder_share": 0.02, "absurd_rate": 0.0}]}))
    for path, expect in ((str(table), {3: (880.5, 80.0), 7: (1200.0, 150.0)}), ("", {})):
        config = ServerConfig(address="127.0.0.1:0", service=ServiceConfig(workers=1, ladders={"spellbook": path}))
        with ServerThread(config) as srv, SpellBookClient(f"127.0.0.1:{srv.port}") as client:
            info = client.server_info()
            levels = info.levels
            got = {lv.level: (lv.elo, lv.elo_ci) for lv in levels if lv.HasField("elo")}
            assert got == expect
            assert info.elo_anchor == ("greedy = 1000" if path else "")
            if path:        # D141: the Elo and the meaning are read against the heuristic bot
                assert "120 Elo below the heuristic bot, greedy" in levels[2].meaning
                assert "200 Elo above" in levels[6].meaning
                assert levels[2].blunder_share == 0.02 and levels[2].HasField("absurd_rate")
                assert not levels[3].HasField("blunder_share")
            else:
                assert "Elo" not in levels[2].meaning and not levels[2].HasField("blunder_share")


def test_the_default_level_is_the_tables_own_unless_the_server_names_one(capsys):
    """D104: a request naming no level searches at the level table's default (SpellBook's learned search:
    level 10, 400 iterations; the rollout search's table: level 5); `--default-level N` overrides it, 0
    means the table's own, and anything outside 0-10 is refused naming the flag."""
    from server import convert
    from server.main import parse_args
    from server.service import ServiceConfig

    st = State.new(players=2, seed=3)
    request = spb.GetBestMoveRequest(state=text_input(st), seed=1)
    opts, level = convert.search_options(request, ServiceConfig().caps())
    assert (level, opts.iterations, opts.temperature) == (10, 400, 0.15)
    opts, level = convert.search_options(request, ServiceConfig(default_level=3).caps())
    assert (level, opts.iterations) == (3, level_options(3, game=SPELLBOOK).iterations)
    assert parse_args([]).service.default_level == 0 and parse_args(["--default-level", "7"]).service.default_level == 7
    for bad in ("11", "-1"):
        with pytest.raises(SystemExit):
            parse_args(["--default-level", bad])
        assert "--default-level" in capsys.readouterr().err
