"""The tournament harness end to end: schedule, executors, JSONL + resume, SPRT early stop, summary, plots."""
import json
import os

import pytest

from clients import tournament as T
from clients.bots import make_bot, parse_remote_spec, validate_spec
from clients.cli import main as cli_main
from clients.ratings import SPRT
from engine_c.records import replay

SMALL = ["random", "greedy", "ismcts:iterations=20"]


def run(tasks, out, **kw):
    with T.make_executor(kw.pop("executor", "inline"), kw.pop("jobs", 1)) as ex:
        return T.run_tournament(tasks, str(out), ex.executor, slots=ex.slots, progress=False, **kw)


def by_key(records):
    return {T.game_row(r)["key"]: (r["result"], r["events"]) for r in records}


def test_schedule_rotates_seats_over_the_same_deal():
    tasks = T.schedule(SMALL, games=5, seats=2, fmt="roundrobin", seed=10)
    assert len(tasks) == 3 * 3 * 2                                     # 3 pairs x 3 deals x 2 rotations
    for m in range(3):
        for d in range(3):
            pair = [t for t in tasks if t.matchup == m and t.deal == d]
            assert [t.seed for t in pair] == [10 + d] * 2
            assert pair[0].seats == tuple(reversed(pair[1].seats))
    assert len({t.key for t in tasks}) == len(tasks)


def test_schedule_gauntlet_and_more_seats():
    g = T.schedule(["hero", "a", "b", "c"], games=2, seats=2, fmt="gauntlet")
    assert {frozenset(t.seats) for t in g} == {frozenset({"hero", x}) for x in "abc"}
    four = T.schedule(["w", "x", "y", "z"], games=4, seats=4)
    assert len(four) == 4
    for bot in "wxyz":                                                  # every bot in every seat
        assert sorted(t.seats.index(bot) for t in four) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="at least 3 bots"):
        T.schedule(["a", "b"], games=3, seats=3)
    with pytest.raises(ValueError, match="once"):
        T.schedule(["a", "a"], games=2)


def test_small_round_robin_end_to_end(tmp_path):
    out = tmp_path / "r.jsonl"
    tasks = T.schedule(SMALL, games=4, seed=1)
    res = run(tasks, out)
    assert res.ran == len(tasks) == 12 and res.skipped == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 12
    rec = json.loads(lines[0])
    assert rec["format"] == "spellbook-record" and rec["status"] == "finished" and rec["seed"] == 1
    assert [s["spec"] for s in rec["seats"]] == list(tasks[0].seats) and len(rec["result"]["scores"]) == 2
    s = T.summarize(res.records, bots=SMALL)
    assert s["games"] == 12 and {b["name"] for b in s["bots"]} == set(SMALL)
    assert all(b["games"] == 8 and b["seats"] == {"0": 4, "1": 4} for b in s["bots"])
    for p in s["pairs"]:
        assert p["games"] == 4 and 0 <= p["lo"] <= p["rate"] <= p["hi"] <= 1
        assert sum(p["pentanomial"]) == 2                             # two duplicate pairs per matchup
    assert abs(sum(x["elo"] for x in s["rating_table"])) < 1e-6        # centred on the mean
    assert all(x["games"] == 8 for x in s["rating_table"])
    text = T.format_summary(s)
    assert "Rating table of all 3 bots" in text and "Ptnml(0-2)" in text and "DrawRatio: " in text
    assert text.count("    Elo: ") == 3                                # one Elo line per pair
    assert text.count("too few games to rate") == 6                    # 4 games a pair, 8 a bot (issue 51)


def test_a_record_replays_exactly(tmp_path):
    from engine_c import State

    res = run(T.schedule(["random", "greedy"], games=2, seed=3), tmp_path / "r.jsonl")
    for rec in res.records:
        st, _ = replay(rec)
        assert st.is_terminal() and [s.total for s in st.scores()] == rec["result"]["scores"]
        # the recorded draws are the deal's: the seeded generator agrees with every one
        ref = State.new(players=rec["players"], spells=rec["spells"], seed=rec["seed"])
        for e in rec["events"]:
            if e["kind"] == "draw":
                assert str(ref.sample_chance()) == e["move"]
            if e["kind"] != "setup":
                ref.apply(e["move"])


def test_resume_after_an_interruption(tmp_path):
    out = tmp_path / "r.jsonl"
    tasks = T.schedule(["random", "greedy"], games=8, seed=5)
    seen = []

    def interrupt(rec):
        seen.append(rec)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(tasks, out, on_record=interrupt)
    assert len(out.read_text().splitlines()) == 3
    with open(out, "a") as f:                                            # a line cut off mid-write
        f.write('{"key": "random|greedy#9')
    with pytest.raises(FileExistsError):
        run(tasks, out)
    res = run(tasks, out, resume=True)
    assert (res.skipped, res.ran) == (3, len(tasks) - 3)
    records = T.load_records(str(out))
    assert len(records) == len(tasks) and len({T.game_row(r)["key"] for r in records}) == len(tasks)
    fresh = run(tasks, tmp_path / "fresh.jsonl")
    assert by_key(records) == by_key(fresh.records)                     # same games as an uninterrupted run
    again = run(tasks, out, resume=True)
    assert again.ran == 0 and again.skipped == len(tasks)


def test_sprt_stops_a_lopsided_match_early(tmp_path):
    tasks = T.schedule(["greedy", "random"], games=400, seed=0)
    res = run(tasks, tmp_path / "h.jsonl", sprt=SPRT(0, 100, 0.05, 0.05))
    assert res.stopped_early and res.sprt["decision"] == "H1"
    assert len(res.records) < 100 and res.sprt["llr"] >= res.sprt["upper"]
    assert len(res.sprt["trace"]) == res.sprt["pairs"]
    # resuming a decided match plays nothing more
    again = run(tasks, tmp_path / "h.jsonl", sprt=SPRT(0, 100, 0.05, 0.05), resume=True)
    assert again.ran == 0
    s = T.summarize(again.records, bots=["greedy", "random"], sprt=SPRT(0, 100))
    assert s["sprt"]["first_decision"] == "H1"
    with pytest.raises(ValueError, match="head-to-head"):
        run(T.schedule(SMALL, games=2), tmp_path / "x.jsonl", sprt=SPRT(0, 10))


def test_process_pool_gives_the_same_games(tmp_path):
    tasks = T.schedule(["random", "greedy"], games=4, seed=11)
    inline = run(tasks, tmp_path / "a.jsonl")
    pooled = run(tasks, tmp_path / "b.jsonl", executor="process", jobs=2)
    assert by_key(pooled.records) == by_key(inline.records)
    assert len({r["tournament"]["worker"] for r in pooled.records}) >= 1


def test_dask_cluster_runs_the_same_tournament(tmp_path):
    distributed = pytest.importorskip("distributed")
    tasks = T.schedule(["random", "greedy"], games=4, seed=11)
    inline = run(tasks, tmp_path / "a.jsonl")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        res = run(tasks, tmp_path / "d.jsonl", executor=address)
    assert by_key(res.records) == by_key(inline.records)


def test_three_seats_get_plackett_luce(tmp_path):
    tasks = T.schedule(SMALL, games=3, seats=3, seed=2)
    res = run(tasks, tmp_path / "t.jsonl")
    assert len(res.records) == 3 and all(len(r["seats"]) == 3 for r in res.records)
    s = T.summarize(res.records, bots=SMALL)
    assert {x["name"] for x in s["plackett_luce"]} == set(SMALL)
    assert all(p["games"] == 3 and "pentanomial" not in p for p in s["pairs"])
    # each bot played 3 games (6 pairwise results): the rating table counts games
    assert all(x["games"] == 3 and x["pairwise_results"] == 6 for x in s["rating_table"])
    assert all(b["games"] == 3 for b in s["bots"])


def test_plots_are_written(tmp_path):
    pytest.importorskip("matplotlib")
    from clients.plots import write_plots

    res = run(T.schedule(["greedy", "random"], games=40, seed=0), tmp_path / "h.jsonl", sprt=SPRT(0, 100))
    s = T.summarize(res.records, bots=["greedy", "random"], sprt=SPRT(0, 100))
    paths = write_plots(s, str(tmp_path / "plots"))
    assert sorted(os.path.basename(p) for p in paths) == ["elo.png", "pairwise.png", "sprt.png"]
    for p in paths:
        with open(p, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_cli_tournament(tmp_path, capsys):
    out, summary = tmp_path / "r.jsonl", tmp_path / "s.json"
    code = cli_main(["tournament", "random", "greedy", "--games", "4", "--out", str(out), "--summary", str(summary),
                     "--no-progress", "--anchor", "random"])
    assert code == 0
    text = capsys.readouterr().out
    assert "ran 4 games" in text and "random = 0" in text
    assert json.loads(summary.read_text())["games"] == 4
    assert cli_main(["tournament", "random", "greedy", "--games", "4", "--out", str(out)]) == 2   # exists
    assert "--resume" in capsys.readouterr().err
    assert cli_main(["tournament", "random", "greedy", "--games", "4", "--out", str(out), "--resume",
                     "--no-progress"]) == 0
    assert "ran 0 games" in capsys.readouterr().out


def test_bot_specs_and_a_remote_bot_in_a_tournament(tmp_path, capsys):
    """`grpc://host:port?level=N` bots play through a real server on 127.0.0.1 (GetBestMove per decision)."""
    from server.main import ServerConfig, ServerThread

    assert parse_remote_spec("grpc://localhost:50051?level=7").level == 7
    assert parse_remote_spec("grpc://sb.example:443").address == "sb.example:443"
    for bad in ("grpc://localhost", "grpc://h:1?level=11", "grpc://h:1?level=x"):
        with pytest.raises(ValueError):
            parse_remote_spec(bad)
    with pytest.raises(ValueError, match="unknown option"):
        make_bot("grpc://127.0.0.1:1?level=2&speed=3")
    with pytest.raises(ValueError):
        validate_spec("ismcts:bogus=1")
    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv:
        spec = f"grpc://127.0.0.1:{srv.port}?iterations=40&rollout=random"
        # the bot sends its seat's observation, never the state's text (its rng would give away the draws)
        from engine_c import State

        bot = make_bot(spec, seed=3)
        sent = []
        real = bot._client.best_move
        bot._client.best_move = lambda state, **kw: sent.append((state, kw)) or real(state, **kw)
        st = State.new(players=2, seed=4)
        move, _ = bot.choose(st)
        assert move in st.legal_moves()
        (obs, kw), = sent
        assert obs.text == st.observation(0) and kw["seat"] == 0 and "rng=" not in obs.text
        bot.close()
        # an option of the game's API that the search has under another name (SpellBook's knows_discard is
        # SearchOptions.observer_kind) is sent as the API spells it
        blind = make_bot(spec + "&knows_discard=0", seed=3)
        move, info = blind.choose(st)
        assert move in st.legal_moves() and not info["stats"].options.knows_discard
        blind.close()
        out = tmp_path / "g.jsonl"
        code = cli_main(["tournament", spec, "random", "--games", "2", "--out", str(out), "--no-progress"])
        assert code == 0, capsys.readouterr().err
        games = [json.loads(line) for line in out.read_text().splitlines()]
        assert len(games) == 2 and all(spec in [s["spec"] for s in g["seats"]] for g in games)


def test_ladder_writes_a_level_table(tmp_path):
    from clients.ladder import ladder_tables, load_ladder, parse_levels, run_ladder

    assert parse_levels("1-3,7") == [1, 2, 3, 7]
    with pytest.raises(ValueError):
        parse_levels("0-3")
    # by default neighbours meet (the games per adjacent pair), the game's heuristic bot is a rung
    # after level 3 (D141) and the levels either side of it meet too; --span 2 adds the bot two up
    assert ladder_tables([1, 2])[1] == [("random", "ismcts:level=1"), ("ismcts:level=1", "ismcts:level=2"),
                                        ("ismcts:level=2", "greedy")]
    assert ladder_tables([3, 4])[1] == [("random", "ismcts:level=3"), ("ismcts:level=3", "greedy"),
                                        ("ismcts:level=3", "ismcts:level=4"), ("greedy", "ismcts:level=4")]
    assert ladder_tables([1], game="abracadawhat")[0] == ["random", "ismcts:level=1", "counting"]
    out = tmp_path / "ladder.json"
    res = run_ladder([1, 2], games=2, span=2, out=str(out), progress=False)
    table = json.loads(out.read_text())
    assert [row["level"] for row in table["levels"]] == [1, 2] and table["anchor"] == "greedy = 1000"
    assert table["heuristic"]["name"] == "greedy" and table["heuristic"]["elo"] == 1000
    # random-1, random-2, 1-2, 1-greedy, 2-greedy: 2 games each
    assert table["games"] == 10 == len(res["run"].records)
    assert set(load_ladder(str(out))) == {1, 2}
    assert (tmp_path / "ladder.jsonl").exists()


def test_ladder_refuses_games_played_with_another_model(tmp_path, capsys):
    """A level's strength depends on the model behind it: the table records the evaluation, and a ladder
    whose games were played under another one is neither re-fitted nor resumed (it would pass stale games
    off as a measurement of today's levels). A table written before each level's own evaluation was recorded
    (D231-f) vouches for its games only while its evaluation of all ten levels is today's."""
    from clients.ladder import current_evaluation, level_evaluations

    out = tmp_path / "ladder.json"
    results = tmp_path / "ladder.jsonl"
    argv = ["ladder", "--levels", "1", "--games", "2", "--out", str(out), "--no-progress"]
    assert cli_main(argv) == 0
    table = json.loads(out.read_text())
    assert table["settings"]["evaluation"] == current_evaluation()
    assert table["settings"]["level_evaluations"] == {"1": level_evaluations([1])[1]}
    assert cli_main(argv) == 0                                         # same settings and model: re-fit
    assert "re-fitting" in capsys.readouterr().out
    # an older table and its games: no level's own evaluation, only the one of all ten levels
    del table["settings"]["level_evaluations"]
    out.write_text(json.dumps(table))
    games = [json.loads(line) for line in results.read_text().splitlines()]
    for g in games:
        del g["tournament"]["evaluation"]
    results.write_text("".join(json.dumps(g) + "\n" for g in games))
    assert cli_main(argv) == 0 and "re-fitting" in capsys.readouterr().out     # today's evaluation: valid
    table["settings"]["evaluation"] = "g0-00000000"
    out.write_text(json.dumps(table))
    for extra in ([], ["--resume"]):
        assert cli_main(argv + extra) == 2
        err = capsys.readouterr().err
        assert "g0-00000000" in err and current_evaluation() in err and "--out" in err
        assert "--replay-changed" in err and "random vs ismcts:level=1" in err


def test_ladder_replays_only_the_pairs_of_a_changed_level(tmp_path, capsys, monkeypatch):
    """Each game records what its levels searched with (D231-f): after one level's options change, its pairs'
    games are refused with a message naming the level and the pairs, and `--replay-changed` plays only those
    pairs again; the other pairs' games stay as they were. `--pair-games` gives a pair more games."""
    from search import levels

    out = tmp_path / "ladder.json"
    results = tmp_path / "ladder.jsonl"
    argv = ["ladder", "--levels", "1-2", "--games", "2", "--pair-games", "1-2=4", "--out", str(out),
            "--no-progress"]
    assert cli_main(argv) == 0
    before = results.read_text().splitlines()
    table = json.loads(out.read_text())
    assert [p["games"] for p in table["pairs"]] == [2, 4, 2] and table["settings"]["pair_games"] == {"1-2": 4}
    assert cli_main(argv[:5] + argv[7:]) == 2                       # without the pair's games: another ladder
    assert "another ladder" in capsys.readouterr().err
    monkeypatch.setitem(levels.NETWORK_LEVELS, 2, {**levels.NETWORK_LEVELS[2], "policy_top_k": 2})
    assert cli_main(argv) == 2
    err = capsys.readouterr().err
    assert "6 games" in err and "ismcts:level=2" in err and "--replay-changed" in err
    assert "ismcts:level=1 vs ismcts:level=2" in err and "ismcts:level=2 vs greedy" in err
    assert "random vs ismcts:level=1" not in err
    assert cli_main(argv + ["--replay-changed"]) == 0
    assert "removed 6 games" in capsys.readouterr().out
    after = results.read_text().splitlines()
    unchanged = [line for line in before if "ismcts:level=2" not in line]
    assert after[:len(unchanged)] == unchanged and len(after) == len(before)
    assert json.loads(out.read_text())["games"] == 8
    assert cli_main(argv) == 0 and "re-fitting" in capsys.readouterr().out


def test_unfinished_games_are_counted_in_the_summary():
    """D15: a game stopped at the decision cap is a shared result, and the summary says how many."""
    rec = {"seats": ["a", "b"], "ranks": [1, 1], "winners": [0, 1], "scores": [3, 2], "seed": 0,
           "spells": "set1", "unfinished": True}
    s = T.summarize([rec], bots=["a", "b"])
    assert s["unfinished"] == 1 and [b["win_share"] for b in s["bots"]] == [0.5, 0.5]
    assert "1 stopped at" in T.format_summary(s)


def test_greedy_learns_spells_and_beats_the_static_greedy(tmp_path):
    """The one-ply heuristic (engine_c/spellbook/heuristic.py) learns and casts spells; the earlier greedy bot
    (`greedy:eval=static`) stored tokens and learned nothing (18 points every game)."""
    res = run(T.schedule(["greedy", "greedy:eval=static"], games=4, seed=20), tmp_path / "g.jsonl")
    s = T.summarize(res.records, bots=["greedy", "greedy:eval=static"])
    pair = s["pairs"][0]
    assert pair["a"] == "greedy" and pair["score"] >= 3.5
    for rec in res.records:
        me = [x["spec"] for x in rec["seats"]].index("greedy")
        mine = [e["move"] for e in rec["events"] if e["kind"] == "move" and e["seat"] == me]
        assert sum(m.startswith("learn ") for m in mine) >= 3
        assert rec["result"]["scores"][me] > rec["result"]["scores"][1 - me]
    assert any(m.split()[0] in ("TimeTravel", "Offering", "Levitation", "Sacrifice", "Purification")
               for rec in res.records for e in rec["events"] if e["kind"] == "move" for m in [e["move"]])
    with pytest.raises(ValueError, match="eval=heuristic"):
        make_bot("greedy:eval=deep")


def test_a_remote_abracadawhat_bot_in_a_tournament_and_a_gauntlet(tmp_path, capsys):
    """`grpc://host:port?...&game=abracadawhat` plays through the server's AbracadaWhatService (GetBestMove
    with the seat's observation), in a tournament and a gauntlet against local bots of the game."""
    from engine_c.abracadawhat import State as AwState
    from server.main import ServerConfig, ServerThread

    from clients.bots import RemoteBot

    with pytest.raises(ValueError, match="plays abracadawhat"):
        make_bot("grpc://127.0.0.1:1?level=2&game=abracadawhat")               # a SpellBook tournament
    with pytest.raises(ValueError, match="not one of Abracada…What\\?'s search options"):
        make_bot("grpc://127.0.0.1:1?knows_discard=1", game="abracadawhat")
    assert cli_main(["tournament", "grpc://127.0.0.1:1?game=abracadawhat", "random", "--games", "2",
                     "--out", str(tmp_path / "x.jsonl"), "--no-progress"]) == 2
    assert "plays abracadawhat" in capsys.readouterr().err
    import socket

    with socket.socket() as sock:                  # a port nothing listens on: refused before any game
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    assert cli_main(["tournament", f"grpc://127.0.0.1:{closed}?timeout=5", "random", "--game", "abracadawhat",
                     "--games", "2", "--out", str(tmp_path / "y.jsonl"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"the server at 127.0.0.1:{closed} does not answer its abracadawhat service" in err and "UNAVAILABLE" in err
    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv:
        spec = f"grpc://127.0.0.1:{srv.port}?iterations=30&game=abracadawhat"
        # the bot sends what its seat sees, never its own hand: the request is the seat's observation
        bot = make_bot(spec, seed=3, players=3, game="abracadawhat")
        sent = []
        real = bot._client.best_move
        bot._client.best_move = lambda state, **kw: sent.append((state, kw)) or real(state, **kw)
        st = AwState.new(players=3, seed=4)
        move, info = bot.choose(st)
        assert move in st.legal_moves() and info["stats"].iterations > 0
        (obs, kw), = sent
        assert obs.text == st.observation(0) and kw["seat"] == 0 and "?" in obs.text.split("hands=")[1].split(",")[0]
        bot.close()
        assert isinstance(bot, RemoteBot)
        out = tmp_path / "aw.jsonl"
        code = cli_main(["tournament", spec, "counting", "--game", "abracadawhat", "--games", "2", "--seed", "5",
                         "--out", str(out), "--no-progress"])
        assert code == 0, capsys.readouterr().err
        text = capsys.readouterr().out
        assert f"{spec} vs counting" in text
        games = [json.loads(line) for line in out.read_text().splitlines()]
        assert len(games) == 2 and {g["game"] for g in games} == {"abracadawhat"}
        for g in games:
            assert g["status"] == "finished" and spec in [s["spec"] for s in g["seats"]]
            st, _ = replay(g)
            assert st.is_terminal() and st.scores() == g["result"]["scores"]
        # a gauntlet: the remote bot against two local bots (3 seats), the spec's game left to --game
        plain = f"grpc://127.0.0.1:{srv.port}?iterations=20"
        gout = tmp_path / "gauntlet.jsonl"
        code = cli_main(["tournament", plain, "random", "counting", "greedy", "--game", "abracadawhat",
                         "--format", "gauntlet", "--seats", "3", "--games", "3", "--out", str(gout),
                         "--no-progress"])
        assert code == 0, capsys.readouterr().err
        games = [json.loads(line) for line in gout.read_text().splitlines()]
        assert games and all(plain in [s["spec"] for s in g["seats"]] and g["status"] == "finished" for g in games)


@pytest.mark.parametrize("game", ["spellbook", "abracadawhat"])
def test_a_ladder_rates_a_servers_levels_for_either_game(game, tmp_path, capsys):
    """`spellbook-ai ladder --server HOST:PORT --game G`: the chain is the server's bots (grpc://...&level=L),
    the table says whose levels it rates, and it never overwrites the shipped table by default."""
    import json

    from clients.cli import main as cli_main
    from server.main import ServerConfig, ServerThread

    assert cli_main(["ladder", "--server", "127.0.0.1:1", "--game", game, "--levels", "1"]) == 2
    assert "--out" in capsys.readouterr().err
    out = tmp_path / "ladder.json"
    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv:
        address = f"127.0.0.1:{srv.port}"
        assert cli_main(["ladder", "--server", address, "--game", game, "--levels", "1-2", "--games", "2",
                         "--out", str(out), "--executor", "inline", "--no-progress"]) == 0
    table = json.loads(out.read_text())
    assert [row["level"] for row in table["levels"]] == [1, 2] and table["games"] == 6    # and 2-heuristic
    assert table["settings"]["server"] == address and address in table["settings"]["evaluation"]
    assert all(p["b"].startswith(f"grpc://{address}?level=") for p in table["pairs"][:2])
    assert table["pairs"][2]["b"] == table["heuristic"]["name"]                    # the local heuristic bot


def _rec(a, b, winner, seed):
    scores = [10, 5] if winner == 0 else [5, 10]
    return {"seats": [a, b], "result": {"scores": scores, "winners": [winner]}, "seed": seed, "spells": "set1",
            "tournament": {}}


def test_small_samples_say_too_few_games_and_the_table_fits_long_names(monkeypatch):
    """Issue 51: 4 games (two duplicate pairs split 1-1, no draw) printed "Elo -0.00 ± 17.00" and "DrawRatio
    100%"; the rating table claimed its intervals were narrower than the head-to-head ones; a long
    grpc:// name broke the columns."""
    long = "grpc://127.0.0.1:50051/spellbook.v1.SpellBookService?level=7&seat-name=far-away"
    def row(rec):
        s, w = rec["result"]["scores"], rec["result"]["winners"]
        return {"seats": rec["seats"], "ranks": [1 if i in w else 2 for i in range(2)], "winners": w, "scores": s,
                "seed": rec["seed"], "setup": rec["spells"]}
    monkeypatch.setattr(T, "game_row", row)
    # two deals, each played in both seat orders; the seat-0 bot wins every game: each pair splits 1-1
    recs = [_rec("greedy", long, 0, 1), _rec(long, "greedy", 0, 1), _rec("greedy", long, 0, 2), _rec(long, "greedy", 0, 2)]
    s = T.summarize(recs, bots=["greedy", long])
    text = T.format_summary(s)
    assert "too few games to rate" in text and "-0.00" not in text and "+/-" not in text
    assert "DrawRatio: 0.00 % (drawn games)" in text and "100.00 %" not in text
    assert "narrower" not in text
    table = [l for l in text.splitlines() if l.startswith(("greedy ", long + " "))]
    assert len(table) == 2 and len({l.index(" 4 ") for l in table}) == 1, table   # the games column lines up
