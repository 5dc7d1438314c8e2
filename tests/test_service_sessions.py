"""Sessions, PlayMatch, AnalyzeGame and insight through the gRPC API (issue 5), against a real server on
127.0.0.1 (port 0) with a temporary database. Bots play at levels 1-2 and searches are small, so the file
stays within a few seconds on two cores."""
from __future__ import annotations

import json
import math
import threading

import grpc
import pytest

from clients.client import InvalidArgument, Observation, ServiceError, SpellBookClient
from engine_c import Move, State
from engine_c.spellbook.game import SPELLBOOK
from engine_c.records import replay
from search.levels import level_options
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb
from server.main import ServerConfig, ServerThread
from server.service import ServiceConfig


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("sessions") / "sessions.db")
    srv = ServerThread(ServerConfig(address="127.0.0.1:0", db=db,
                                    service=ServiceConfig(workers=2, queue_size=8, bot_workers=1)))
    srv.start()
    yield srv
    srv.stop(grace=1.0)


@pytest.fixture(scope="module")
def client(server):
    with SpellBookClient(f"127.0.0.1:{server.port}", timeout=30) as c:
        yield c


@pytest.fixture(scope="module")
def stub(server):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        yield service_pb2_grpc.SpellBookServiceStub(ch)


def play_client_seats(client: SpellBookClient, sid: str, seats: list[int], pick=lambda moves: moves[-1],
                      limit: int = 5000):
    """Plays the client seats (always the last legal move) until the end; returns the last view."""
    for _ in range(limit):
        view = client.get_session(sid, seats[0])
        if view.over:
            return view
        if view.to_move in seats:
            mine = view if view.to_move == seats[0] else client.get_session(sid, view.to_move)
            client.submit_move(sid, mine.seat, pick(mine.legal_moves), expected_seq=mine.seq)
        else:
            threading.Event().wait(0.003)   # a bot is thinking
    raise AssertionError("the game did not end")


# ------------------------------------------------------------------------------------------ sessions
def test_two_bots_and_a_client_play_to_the_end_and_watch_sees_everything(client, server):
    sid = client.create_session(["bot:1", "client", "bot:2"], spells="set2", seed=11)
    watched: list = []
    watcher = threading.Thread(target=lambda: watched.extend(client.watch_session(sid, timeout=60)), daemon=True)
    watcher.start()
    view = play_client_seats(client, sid, [1])
    watcher.join(timeout=30)
    assert not watcher.is_alive()
    assert view.over and view.winners and view.to_move == -2 and view.legal_moves == []

    record = client.export_session(sid)
    assert record["status"] == "finished" and record["result"]["scores"] == view.scores
    assert {e["seat"] for e in record["events"] if e["kind"] == "move"} == {0, 1, 2}
    # the watch delivered every stored event in order, then the end with the result
    assert [(e.seq, e.kind, str(e.move)) for e in watched[:-1]] == \
        [(e["seq"], e["kind"], e["move"]) for e in record["events"] if e["kind"] != "setup"]
    end = watched[-1]
    assert end.kind == "end" and end.scores == view.scores and end.winners == view.winners
    assert all(e.kind == "draw" for e in watched if str(e.move).startswith("drawn"))
    # the record replays to the same result; a late watcher gets the same history from a given seq
    final, _ = replay(record)
    assert [s.total for s in final.scores()] == view.scores
    late = list(client.watch_session(sid, from_seq=5))
    assert late[0].seq == 5 and late[-1].kind == "end" and len(late) == len(watched) - 4


def test_refusals_carry_the_field_and_the_reason(client):
    sid = client.create_session(["client", "client"], seed=3)
    view = client.get_session(sid, 0)
    with pytest.raises(InvalidArgument) as e:                          # illegal move
        client.submit_move(sid, 0, "store Rc", expected_seq=view.seq)
    assert e.value.fields == ["move.text"] and e.value.details
    with pytest.raises(ServiceError) as e:                             # out of turn
        client.submit_move(sid, 1, "draw")
    assert e.value.code == grpc.StatusCode.FAILED_PRECONDITION and e.value.fields == ["seat"]
    assert "seat 0" in e.value.details
    with pytest.raises(InvalidArgument) as e:                          # no such seat
        client.submit_move(sid, 2, "draw")
    assert e.value.fields == ["seat"]
    with pytest.raises(ServiceError) as e:
        client.get_session("no-such-session", 0)
    assert e.value.code == grpc.StatusCode.NOT_FOUND
    with pytest.raises(InvalidArgument) as e:
        client.create_session(["client", "bot:11"])
    assert e.value.fields == ["seats[1].level"]
    with pytest.raises(InvalidArgument) as e:
        client.create_session(["client", "robot"])
    assert e.value.fields == ["seats[1].kind"]
    with pytest.raises(InvalidArgument) as e:
        client.create_session(["client"] * 5)
    assert e.value.fields == ["players"]

    # a retried submission is answered from the history, not applied twice; a stale one is refused
    first = client.submit_move(sid, 0, "draw", expected_seq=view.seq)
    again = client.submit_move(sid, 0, "draw", expected_seq=view.seq)
    assert again.replayed and not first.replayed
    assert [(e.seq, str(e.move)) for e in again.events] == [(e.seq, str(e.move)) for e in first.events]
    assert client.get_session(sid, 0).seq == first.seq
    assert first.events[0].kind == "move" and all(e.kind == "draw" for e in first.events[1:])
    after = client.get_session(sid, first.to_move)
    with pytest.raises(ServiceError) as e:
        client.submit_move(sid, after.seat, after.legal_moves[0], expected_seq=view.seq)
    assert e.value.code == grpc.StatusCode.FAILED_PRECONDITION and e.value.fields == ["expected_seq"]


def test_bot_seat_moves_are_refused_to_clients(client):
    sid = client.create_session(["client", "bot:1"], seed=4)
    with pytest.raises(InvalidArgument) as e:
        client.submit_move(sid, 1, "draw")
    assert e.value.fields == ["seat"] and "bot" in e.value.details


def test_get_session_never_reveals_the_pouch_order(client, server, stub):
    sid = client.create_session(["client", "client", "client"], seed=21)
    for _ in range(6):                                   # a few moves in, so the Discard box is not empty
        v = client.get_session(sid, client.get_session(sid, 0).to_move)
        client.submit_move(sid, v.seat, v.legal_moves[-1], expected_seq=v.seq)
    state = server.servicer.sessions.sessions[sid].state
    rng = f"{state._to_raw()['rng']:016x}"
    for seat in range(3):
        resp = stub.GetSession(spb.GetSessionRequest(session_id=sid, seat=seat), timeout=5,
                               metadata=[("spellbook-session-token", sid.seat_tokens[seat])])
        assert "rng=" not in resp.observation.text and resp.observation.view.rng == ""
        assert rng not in str(resp) and rng not in resp.SerializeToString().hex()
        assert resp.observation.view.observer == seat
        assert resp.observation.text == state.observation(seat)
        assert bool(resp.legal_moves) == (seat == state.current_player)


def test_watch_ends_with_unavailable_and_the_resume_seq_on_shutdown(tmp_path):
    srv = ServerThread(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "w.db")))
    srv.start()
    stopper = threading.Thread(target=srv.stop, kwargs={"grace": 5.0}, daemon=True)
    try:
        with SpellBookClient(f"127.0.0.1:{srv.port}", timeout=10) as c:
            sid = c.create_session(["client", "client"], seed=1)
            c.submit_move(sid, 0, "pass", expected_seq=0)
            with grpc.insecure_channel(f"127.0.0.1:{srv.port}") as ch:
                call = service_pb2_grpc.SpellBookServiceStub(ch).WatchSession(
                    spb.WatchSessionRequest(session_id=sid), timeout=10,
                    metadata=[("spellbook-session-token", sid.seat_tokens[1])])
                first = next(call)
                assert first.event.seq == 1
                stopper.start()
                with pytest.raises(grpc.RpcError) as e:
                    for _ in call:
                        pass
                assert e.value.code() == grpc.StatusCode.UNAVAILABLE and "from_seq=2" in e.value.details()
        stopper.join(timeout=10)
        assert not stopper.is_alive()     # the watch did not hold the shutdown for its grace period
    finally:
        if stopper.is_alive() or not stopper.ident:
            stopper.join(timeout=10) if stopper.ident else srv.stop()


# ------------------------------------------------------------------------------------------ PlayMatch
def test_play_match_streams_a_whole_game(client):
    items = list(client.play_match(["ismcts:level=2", "greedy", "random"], seed=5, spells="set3"))
    moves, end = [i.move for i in items[:-1]], items[-1].end
    assert all(i.HasField("move") for i in items[:-1]) and items[-1].HasField("end")
    assert end.finished and end.moves == len(moves) and end.winners
    assert {m.seat for m in moves} == {0, 1, 2}
    searched = [m for m in moves if m.seat == 0 and not m.forced]
    level2 = level_options(2, game=SPELLBOOK).iterations
    assert searched and all(m.stats.iterations == level2 and m.stats.moves for m in searched)
    assert all(not m.HasField("stats") for m in moves if m.seat != 0)
    record = json.loads(end.record_json)
    assert record["seats"][1]["spec"] == "greedy" and len(end.record.events) == len(record["events"])
    final, steps = replay(record)
    assert [s.total for s in final.scores()] == list(end.scores) and len(steps) == len(moves)
    # same request, same game
    again = list(client.play_match(["ismcts:level=2", "greedy", "random"], seed=5, spells="set3"))
    assert again[-1].end.record_json == end.record_json


def test_play_match_refusals_and_cancel(client, stub, server):
    for bots, field in ((["greedy"], "bots"), (["greedy", "nonsense"], "bots[1]"),
                        (["greedy", "ismcts:iterations=999999999"], "bots[1]"),
                        (["ismcts:model=/etc/passwd", "greedy"], "bots[0]")):   # no server file paths
        with pytest.raises(InvalidArgument) as e:
            list(client.play_match(bots))
        assert e.value.fields == [field]
    call = stub.PlayMatch(spb.PlayMatchRequest(bots=["ismcts:iterations=3000", "ismcts:iterations=3000"], seed=1),
                          timeout=30)
    next(call)
    call.cancel()
    pool = server.servicer.pool
    for _ in range(200):                  # the worker stops within one search
        if pool.admitted == 0:
            break
        threading.Event().wait(0.02)
    assert pool.admitted == 0


# ------------------------------------------------------------------------------------------ AnalyzeGame
@pytest.fixture(scope="module")
def finished_record(client):
    items = list(client.play_match(["ismcts:level=1", "random"], seed=8))
    return json.loads(items[-1].end.record_json)


def test_analyze_game_is_consistent(client, finished_record):
    review = client.analyze_game(finished_record, iterations=40, seed=2, key_moments=4)
    assert review.decisions and len(review.key_moments) <= 4 and not review.cut_short
    assert review.total_decisions == len(review.decisions) + review.forced_decisions
    events = finished_record["events"]
    for d in review.decisions:
        assert d.loss >= 0 and d.iterations == 40
        assert events[d.event_index]["move"] == d.played.text and events[d.event_index]["seat"] == d.seat
        if d.played.text == d.best.text:
            assert d.loss == 0 and d.loss_points == 0 and d.mistake_class == pb.MISTAKE_CLASS_BEST
        else:
            assert d.mistake_class != pb.MISTAKE_CLASS_BEST
    for p in review.players:      # the split adds up: start + luck + own + others = final
        assert math.isclose(p.expected_start + p.luck + p.decisions + p.others, p.final_score, abs_tol=1e-6)
    assert [p.final_score for p in review.players] == list(review.result.scores) == finished_record["result"]["scores"]
    # key moments: the decisions after which the decider's win probability moved most, from the position's
    # value before it (win_probabilities) through the choice and the chance that followed (win_next: the
    # next decision's value, or the result), biggest first; "with best play" is never below it
    def moved(d):
        return abs((d.win_next if d.HasField("win_next") else d.win_after) - d.win_probabilities[d.seat])

    swings = sorted((moved(d) for d in review.decisions), reverse=True)
    assert [moved(d) for d in review.key_moments] == swings[:len(review.key_moments)]
    assert all(d.win_before >= d.win_after and d.label.startswith(f"Round {d.round} · Day of seat ")
               for d in review.decisions)
    # the structured form gives the same review
    rec_pb = pb.GameRecord(format="spellbook-record", version=2, players=finished_record["players"],
                           spells=finished_record["spells"], seed=finished_record["seed"],
                           events=[pb.RecordEvent(kind=e["kind"], seat=e["seat"], move=e["move"])
                                   for e in finished_record["events"]])
    same = client.analyze_game(rec_pb, iterations=40, seed=2, key_moments=4)
    assert [d.best.text for d in same.decisions] == [d.best.text for d in review.decisions]


def test_analyze_game_refusals_name_the_field(client, finished_record):
    events = finished_record["events"]
    k = next(i for i, e in enumerate(events) if e["kind"] == "move" and i > 10)
    bad = dict(finished_record, events=events[:k] + [dict(events[k], move="learn Sacrifice 5 Rc : Rc Rc Rc Rc")]
               + events[k + 1:])
    with pytest.raises(InvalidArgument) as e:
        client.analyze_game(bad, iterations=10)
    assert e.value.fields == [f"record_json.events[{k}].move"]
    structured = pb.GameRecord(format="spellbook-record", version=2, players=2, spells=finished_record["spells"],
                               seed=finished_record["seed"],
                               events=[pb.RecordEvent(kind=x["kind"], seat=x["seat"], move=x["move"])
                                       for x in bad["events"]])
    with pytest.raises(InvalidArgument) as e:
        client.analyze_game(structured, iterations=10)
    assert e.value.fields == [f"record.events[{k}].move"]
    with pytest.raises(InvalidArgument) as e:
        client.analyze_game(dict(finished_record, events=events[:20]), iterations=10)
    assert e.value.fields == ["record_json.events"] and "not over" in e.value.details
    with pytest.raises(InvalidArgument) as e:
        client.analyze_game(dict(finished_record, result={"scores": [0, 0], "winners": [0]}), iterations=10)
    assert e.value.fields == ["record_json.result"]
    with pytest.raises(InvalidArgument) as e:
        client.analyze_game("{not json", iterations=10)
    assert e.value.fields == ["record_json"]
    with pytest.raises(InvalidArgument) as e:
        client.analyze_game(finished_record, iterations=10, key_moments=-1)
    assert e.value.fields == ["key_moments"]


def test_analyze_game_shares_a_short_deadline(client, finished_record):
    review = client.analyze_game(finished_record, iterations=100_000, timeout=1.5)
    assert review.cut_short and review.elapsed_ms < 1500 and review.decisions


# ------------------------------------------------------------------------------------------ insight
def _mid_game_state(seed=3, moves=25) -> State:
    st = State.new(players=2, seed=seed)
    for _ in range(moves):
        st.play(st.legal_moves()[-1])
    return st


def test_hints_insight_is_consistent(client):
    st = _mid_game_state()
    insight = {"beliefs": True, "within_draws": 3, "what_if": True, "what_if_iterations": 20,
               "value_spread": True, "spread_moves": 3, "worlds": 8, "rollouts": 2}
    h = client.hints(st, iterations=150, seed=1, insight=insight)
    ins = h.insight
    assert ins.observer == st.current_player and ins.knows_discard
    assert math.isclose(sum(b.p_next for b in ins.beliefs), 1.0)
    assert math.isclose(sum(b.expected_in_pouch for b in ins.beliefs), sum(st._to_raw()["pouch"]))
    for b in ins.beliefs:
        assert len(b.p_within) == 3 and list(b.p_within) == sorted(b.p_within) and math.isclose(b.p_within[0], b.p_next)
    # what-if follows the move the hint shows first; that is the most visited move unless the search could
    # not tell its top moves apart, when the policy's favourite among them comes first (D27)
    assert ins.what_if_move.text == str(h.hints[0].move)
    visited = [m.move.text for m in h.stats.moves]
    assert visited[0] == str(h.hints[0].move) or (h.hints[0].about_equal and str(h.hints[0].move) in visited)
    if ins.what_if:
        assert math.isclose(sum(o.probability for o in ins.what_if), 1.0)
        assert all(math.isclose(sum(o.win_probability), 1.0) for o in ins.what_if)
    assert len(ins.value_spread) == min(3, len(h.stats.moves))
    assert math.isclose(sum(s.best_share for s in ins.value_spread), 1.0)
    assert all(s.margin_q05 <= s.margin_q50 <= s.margin_q95 for s in ins.value_spread)
    # a given what-if move; "draw" is always followed by a draw
    st0 = State.new(players=2, seed=3)
    h0 = client.hints(st0, iterations=60, insight={"what_if": True, "what_if_move": "draw", "what_if_iterations": 10})
    assert h0.insight.what_if_move.text == "draw" and len(h0.insight.what_if) == 21
    assert math.isclose(sum(o.probability for o in h0.insight.what_if), 1.0)
    assert not h0.insight.beliefs and not h0.insight.value_spread
    assert client.hints(st0, iterations=30).insight is None


def test_insight_without_discard_memory_and_on_analyze(client):
    st = _mid_game_state(seed=5, moves=30)
    seat = st.current_player
    obs = Observation(st.observation(seat, knows_discard=False), seed=2)
    h = client.hints(obs, iterations=60, insight={"beliefs": True})
    assert not h.insight.knows_discard
    assert math.isclose(sum(b.p_next for b in h.insight.beliefs), 1.0)
    raw = st._to_raw()   # without Discard-box memory the next draw is uniform over Pouch + Discard box
    unseen = [p + d - j for p, d, j in zip(raw["pouch"], raw["discard"], raw["justdisc"])]
    assert sum(raw["discard"]) > 0
    for b, u in zip(h.insight.beliefs, unseen):
        assert math.isclose(b.p_next, u / sum(unseen))
    exact = client.hints(st, iterations=60, insight={"beliefs": True}).insight
    assert exact.knows_discard and [b.p_next for b in exact.beliefs] != [b.p_next for b in h.insight.beliefs]
    updates = list(client.analyze(st, time_ms=150, report_every_ms=50, insight={"beliefs": True}))
    assert updates[-1].final and updates[-1].insight is not None and updates[-1].insight.beliefs
    assert all(u.insight is None for u in updates[:-1])


@pytest.mark.parametrize("field, value", [("worlds", -1), ("rollouts", 65), ("within_draws", 21),
                                          ("what_if_iterations", -5), ("spread_moves", 21)])
def test_insight_numbers_are_validated(client, field, value):
    with pytest.raises(InvalidArgument) as e:
        client.hints(State.new(seed=1), iterations=10, insight={"value_spread": True, field: value})
    assert e.value.fields == [f"insight.{field}"]


def test_insight_refuses_an_illegal_what_if_move_and_a_huge_spread(client):
    with pytest.raises(InvalidArgument) as e:
        client.hints(State.new(seed=1), iterations=10, insight={"what_if": True, "what_if_move": "store Rc"})
    assert e.value.fields == ["insight.what_if_move.text"]
    with pytest.raises(InvalidArgument) as e:
        client.hints(State.new(seed=1), iterations=10,
                     insight={"value_spread": True, "worlds": 256, "rollouts": 64, "spread_moves": 20})
    assert e.value.fields == ["insight.worlds"]


def test_hide_best_keeps_the_best_move_out_of_the_insight(client):
    st = State.new(players=2, seed=9)
    h = client.hints(st, iterations=200, seed=3, hide_best=True,
                     insight={"what_if": True, "what_if_iterations": 5, "value_spread": True, "worlds": 4,
                              "rollouts": 1, "spread_moves": 6})
    assert h.hints[0].move is None and not h.insight.HasField("what_if_move")
    assert sum(1 for s in h.insight.value_spread if not s.move.text) == 1


def test_analyze_game_stops_when_cancelled(stub, server, finished_record):
    call = stub.AnalyzeGame.future(spb.AnalyzeGameRequest(record_json=json.dumps(finished_record),
                                                          limits=pb.SearchLimits(iterations=100_000)), timeout=30)
    pool = server.servicer.pool
    for _ in range(200):
        if pool.admitted:
            break
        threading.Event().wait(0.01)
    call.cancel()
    for _ in range(200):                  # the review stops within one decision's search
        if pool.admitted == 0:
            break
        threading.Event().wait(0.02)
    assert pool.admitted == 0


def test_async_client_sessions_match_and_review(server):
    import asyncio

    from clients.client import AsyncSpellBookClient

    async def main():
        async with AsyncSpellBookClient(f"127.0.0.1:{server.port}", timeout=30) as c:
            sid = await c.create_session(["bot:1", "bot:1"], seed=2)
            events = [e async for e in c.watch_session(sid)]
            assert events[-1].kind == "end" and events[-1].winners
            view = await c.get_session(sid, 1)
            assert view.over and view.scores == events[-1].scores and view.legal_moves == []
            record = await c.export_session(sid)
            assert len([e for e in record["events"] if e["kind"] != "setup"]) == len(events) - 1
            review = await c.analyze_game(record, iterations=20)
            assert review.decisions and list(review.result.scores) == view.scores
            items = [m async for m in c.play_match(["random", "random"], seed=4)]
            assert items[-1].end.finished
            with pytest.raises(ServiceError) as e:
                await c.submit_move(sid, 0, "pass")
            assert e.value.code == grpc.StatusCode.INVALID_ARGUMENT   # a bot seat (and the game is over)

    asyncio.run(main())


def test_a_cancelled_watch_unsubscribes(client, stub, server):
    sid = client.create_session(["client", "client"], seed=6)
    call = stub.WatchSession(spb.WatchSessionRequest(session_id=sid), timeout=10,
                             metadata=[("spellbook-session-token", sid.spectator_token)])
    client.submit_move(sid, 0, "pass")
    assert next(call).event.seq == 1
    call.cancel()
    subscribers = server.servicer.sessions.sessions[sid].subscribers
    for _ in range(100):
        if not subscribers:
            break
        threading.Event().wait(0.01)
    assert subscribers == []
