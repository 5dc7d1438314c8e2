"""The one game record (engine_c/records.py, docs/records.md): written by every tool, read by every tool,
older formats converted, bad input refused with the field named, and no seed of a live game."""
import json
import random

import pytest

from engine_c import State
from engine_c import records as R


def _random_game(seed=4, players=2, stop=None):
    """A game between random movers: the final state and its events in the one format (setup draws too)."""
    st = State.new(players=players, seed=seed)
    events = R.setup_events(players, "set1", seed)
    rng = random.Random(seed)
    while not st.is_terminal() and (stop is None or len(events) < stop):
        seat = st.current_player
        move = rng.choice(st.legal_moves())
        events.append(R.event("move", seat, move))
        events += [R.event("draw", -1, d) for d in st.play(move)]
    return st, events


def test_a_record_replays_exactly_without_its_seed():
    final, events = _random_game(seed=4)
    rec = R.build(2, final.spells, [R.seat("bot", "random")] * 2, events, final, seed=4)
    assert rec["format"] == R.FORMAT and rec["version"] == 2 and rec["status"] == "finished" and rec["seed"] == 4
    assert rec["result"] == {"scores": [s.total for s in final.scores()], "winners": final.winners()}
    state, steps = R.replay(rec)
    assert state.to_text() == final.to_text()                       # with the seed: the generator too
    assert len(steps) == sum(1 for e in events if e["kind"] == "move")
    no_seed = {k: v for k, v in rec.items() if k != "seed"}
    state, _ = R.replay(no_seed, rng_seed=1)
    assert state.observation(0) == final.observation(0)            # everything but the Pouch's future
    assert R.loads(R.dumps(rec)) == R.validate(rec)


def test_the_seed_of_a_live_game_is_never_written():
    st, events = _random_game(seed=9, stop=40)
    assert not st.is_terminal()
    live = R.build(2, st.spells, [R.seat("human"), R.seat("bot", "greedy")], events, st, seed=9)
    assert "seed" not in live and live["status"] == "active" and live["result"] is None
    assert "seed" in R.build(2, st.spells, [], events, st, seed=9, seed_shown=True)   # a seed the players chose
    again, _ = R.replay(live, rng_seed=123)
    assert again.observation(1) == st.observation(1)


def test_older_formats_are_converted():
    final, events = _random_game(seed=6)
    moves = [[e["seat"], e["move"]] for e in events if e["kind"] != "setup"]
    scores = [s.total for s in final.scores()]
    terminal = {"format": "spellbook-ai-game", "version": 1, "seed": 6, "players": 2, "spells": final.spells,
                "seats": ["human", "greedy"], "practice": True, "moves": moves, "over": True, "scores": scores}
    server_v1 = {"format": "spellbook-record/1", "players": 2, "spells": final.spells, "seed": 6,
                 "seats": [{"kind": "client"}, {"kind": "bot", "level": 3}], "status": "finished",
                 "events": [{"seq": i + 1, "kind": "draw" if s == -1 else "move", "seat": s, "move": m}
                            for i, (s, m) in enumerate(moves)], "result": {"scores": scores, "winners": [0]}}
    tournament = {"key": "random|greedy#6#set1", "matchup": 0, "deal": 0, "rotation": 0, "seed": 6,
                  "spells": "set1", "seats": ["random", "greedy"], "players": 2, "scores": scores,
                  "winners": final.winners(), "ranks": [1, 2], "moves": moves}
    for old in (terminal, server_v1, tournament):
        rec = R.load(old)
        assert rec["version"] == 2 and rec["events"] == events and rec["result"]["scores"] == scores
        assert R.replay(rec)[0].to_text() == final.to_text()
    assert [R.seat_name(s) for s in R.load(terminal)["seats"]] == ["human", "greedy"] and R.load(terminal)["practice"]
    assert R.load(server_v1)["seats"][1] == {"kind": "bot", "level": 3}
    assert R.load(tournament)["tournament"]["key"] == "random|greedy#6#set1"
    # the old draw-less server records: draws come from the seed
    drawless = dict(server_v1, events=[e for e in server_v1["events"] if e["kind"] == "move"])
    assert R.load(drawless)["events"] == events
    with pytest.raises(R.RecordError, match="--no-moves") as e:
        R.load({k: v for k, v in tournament.items() if k != "moves"})
    assert e.value.field == "moves"


@pytest.mark.parametrize("change, field", [
    (lambda r: r.update(format="pgn"), "format"),
    (lambda r: r.update(version=3), "version"),
    (lambda r: r.update(players=5), "players"),
    (lambda r: r.pop("players"), "players"),
    (lambda r: r.update(spells=["Sacrifice"]), "spells"),
    (lambda r: r.update(seed=-1), "seed"),
    (lambda r: r.update(seats=[{"kind": "robot"}, {"kind": "bot"}]), "seats[0].kind"),
    (lambda r: r.update(status="paused"), "status"),
    (lambda r: r.update(events="take Rc"), "events"),
    (lambda r: r["events"].__setitem__(12, {"kind": "move", "seat": 0}), "events[12].move"),
    (lambda r: r["events"].__setitem__(12, dict(r["events"][12], kind="jump")), "events[12].kind"),
    (lambda r: r["events"].__setitem__(0, dict(r["events"][0], move="take Rc")), "events[0].move"),
    (lambda r: r["events"].__delitem__(0), "events[8]"),           # a setup draw missing: a draw is pending
    (lambda r: r.update(result={"scores": [1, 2], "winners": [1]}), "result"),
    (lambda r: r.update(events=r["events"][:30]), "events"),       # "finished" but not over
])
def test_bad_records_name_the_field(change, field):
    final, events = _random_game(seed=5)
    rec = R.build(2, final.spells, [R.seat("bot", "random")] * 2, events, final, seed=5)
    change(rec)
    with pytest.raises(R.RecordError) as e:
        R.replay(R.load(rec))
    assert e.value.field == field, str(e.value)


def test_an_illegal_move_and_a_wrong_seat_are_named():
    final, events = _random_game(seed=5)
    k = next(i for i, e in enumerate(events) if e["kind"] == "move" and i > 20)
    rec = R.build(2, final.spells, [], events, final, seed=5)
    rec["events"][k] = dict(events[k], move="learn Sacrifice 5 Rc : Rc Rc Rc Rc")
    with pytest.raises(R.RecordError) as e:
        R.replay(rec)
    assert e.value.field == f"events[{k}].move"
    rec["events"][k] = dict(events[k], seat=1 - events[k]["seat"])
    with pytest.raises(R.RecordError) as e:
        R.replay(rec)
    assert e.value.field == f"events[{k}].seat"
    assert R.load(rec, "record_json") and True
    with pytest.raises(R.RecordError) as e:
        R.loads("{oops", "record_json")
    assert e.value.field == "record_json"


def test_files_hold_one_record_a_list_or_json_lines(tmp_path):
    final, events = _random_game(seed=3)
    rec = R.build(2, final.spells, [], events, final, seed=3)
    one, many, lines = tmp_path / "one.json", tmp_path / "many.json", tmp_path / "games.jsonl"
    one.write_text(R.dumps(rec, indent=1))
    many.write_text(json.dumps([rec, rec]))
    lines.write_text(R.dumps(rec) + "\n" + R.dumps(rec) + "\n" + '{"cut sho')   # an interrupted last line
    assert len(R.load_file(str(one))) == 1 and len(R.load_file(str(many))) == 2 and len(R.load_file(str(lines))) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text(R.dumps(rec) + "\n" + json.dumps({"format": "x"}) + "\n")
    with pytest.raises(R.RecordError) as e:
        R.load_file(str(bad))
    assert e.value.field == "line 2.format"


def test_the_server_reads_every_format_and_hides_a_live_seed():
    """AnalyzeGame takes an older terminal save as well as the record; a bad record is INVALID_ARGUMENT
    naming the field; ExportSession of a live session has no seed but replays to what the seat sees."""
    from clients.client import InvalidArgument, SpellBookClient
    from server.main import ServerConfig, ServerThread

    final, events = _random_game(seed=8)
    moves = [[e["seat"], e["move"]] for e in events if e["kind"] != "setup"]
    save = {"format": "spellbook-ai-game", "version": 1, "seed": 8, "players": 2, "spells": final.spells,
            "seats": ["human", "random"], "moves": moves, "over": True}
    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv, \
            SpellBookClient(f"127.0.0.1:{srv.port}", timeout=60) as client:
        review = client.analyze_game(save, iterations=10, seed=1)
        assert list(review.result.scores) == [s.total for s in final.scores()] and review.decisions
        for bad, field in ((dict(save, format="spellbook-record", version=7), "record_json.version"),
                           (dict(save, moves=moves[:5] + [[0, "fly away"]]), "record_json.moves[5]")):
            with pytest.raises(InvalidArgument) as e:
                client.analyze_game(bad, iterations=10)
            assert e.value.fields == [field]
        sid = client.create_session(["client", "bot:1"], seed=5)
        live = client.export_session(sid)
        assert live["status"] == "active" and "seed" not in live and live["result"] is None
        state, _ = R.replay(live, rng_seed=0)
        assert state.observation(0) == client.get_session(sid, 0).observation.text
