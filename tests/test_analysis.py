"""`spellbook-ai analysis` (issue 26): the JSON-lines analysis engine, driven as a GUI would, by subprocess."""
import json
import subprocess
import sys

from engine_c import State


def _run(lines, *args):
    proc = subprocess.run([sys.executable, "-m", "clients.cli", "analysis", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, [json.loads(x) for x in proc.stdout.splitlines()], proc.stderr


def test_queries_are_answered_by_id_and_errors_name_the_field():
    pos = State.new(players=2, spells="set1", seed=1).to_text()
    queries = [json.dumps({"id": "a", "position": pos, "maxVisits": 200, "topK": 3, "seed": 4}),
               json.dumps({"id": "b", "position": pos, "maxVisits": -3}),
               "not json",
               json.dumps({"id": "c", "position": pos, "moves": ["draw", "learn X"]}),
               json.dumps({"id": "d", "position": "sb1 nonsense"}),
               json.dumps({"id": "e", "position": pos, "moves": ["take Rc"], "maxVisits": 100, "includeReasons": True}),
               json.dumps({"id": "f", "position": pos, "maxVisit": 100})]
    code, out, err = _run(queries, "--threads", "2")
    assert code == 0, err
    by_id = {r["id"]: r for r in out if r["id"] is not None}
    assert [r for r in out if r["id"] is None][0]["error"].startswith("not JSON")
    assert by_id["b"]["field"] == "maxVisits" and by_id["c"]["field"] == "moves[1]"
    assert by_id["d"]["field"] == "position" and by_id["f"]["field"] == "maxVisit"
    a = by_id["a"]
    assert a["rootInfo"]["visits"] == 200 and a["modelVersion"] and a["pv"]
    infos = a["moveInfos"]
    assert infos[0]["order"] == 0 and infos[0]["mistakeClass"] == "best" and infos[0]["pv"] == a["pv"]
    assert all(0 <= i["winrate"] <= 1 and i["visits"] > 0 for i in infos)
    assert [i["winrate"] for i in infos[1:]] == sorted((i["winrate"] for i in infos[1:]), reverse=True)
    assert by_id["e"]["rootInfo"]["currentPlayer"] == 0 and "reasons" in by_id["e"]["moveInfos"][0]
    # the same query, the same answer (fixed seed)
    _, again, _ = _run(queries[:1])
    assert again[0]["moveInfos"] == infos


def test_actions_query_version_and_terminate():
    pos = State.new(players=2, spells="set1", seed=1).to_text()
    queries = [json.dumps({"id": "long", "position": pos, "maxVisits": 200_000}),
               json.dumps({"id": "v", "action": "query_version"}),
               json.dumps({"id": "t", "action": "terminate", "terminateId": "long"}),
               json.dumps({"id": "t2", "action": "terminate", "terminateId": "nobody"}),
               json.dumps({"id": "x", "action": "explode"})]
    code, out, err = _run(queries)
    by_id = {r["id"]: r for r in out}
    assert code == 0, err
    assert by_id["v"]["version"] and by_id["v"]["modelVersion"]
    assert by_id["t"] == {"id": "t", "action": "terminate", "terminateId": "long"}
    assert by_id["t2"]["field"] == "terminateId" and by_id["x"]["field"] == "action"
    assert by_id["long"]["rootInfo"]["cutShort"] and by_id["long"]["rootInfo"]["visits"] < 200_000


def _aw_position(seed=1, players=3):
    from engine_c.abracadawhat import State as AwState

    return AwState.new(players=players, seed=seed)


def test_an_abracadawhat_query_is_answered_with_moves_and_the_seats_insight():
    """The game is the one the position names (aw1); the answer carries the seat's insight (as GetHints)."""
    aw = _aw_position()
    sb = State.new(players=2, spells="set1", seed=1).to_text()
    queries = [json.dumps({"id": "aw", "position": aw.to_text(), "maxVisits": 150, "topK": 3, "seed": 4}),
               json.dumps({"id": "obs", "position": aw.observation(0), "maxVisits": 100, "level": 2, "seed": 1}),
               json.dumps({"id": "moved", "position": aw.to_text(), "moves": ["cast 6"], "maxVisits": 60}),
               json.dumps({"id": "g1", "position": aw.to_text(), "game": "spellbook"}),
               json.dumps({"id": "g2", "position": aw.to_text(), "includeReasons": True}),
               json.dumps({"id": "g3", "position": aw.to_text(), "moves": ["cast 9"]}),
               json.dumps({"id": "g4", "position": "xx1 nothing"}),
               json.dumps({"id": "g5", "position": aw.observation(1)}),     # seat 0 decides, not seat 1
               json.dumps({"id": "v", "action": "query_version"})]
    code, out, err = _run(queries)
    assert code == 0, err
    by_id = {r["id"]: r for r in out}
    a = by_id["aw"]
    assert a["game"] == "abracadawhat" and a["isDuringSearch"] is False and a["modelVersion"] and a["level"] == 6  # D140
    assert a["rootInfo"]["visits"] == 150 and a["rootInfo"]["currentPlayer"] == 0
    infos = a["moveInfos"]
    assert 1 <= len(infos) <= 3 and infos[0]["order"] == 0 and infos[0]["pv"] == a["pv"] and a["pv"][0] == infos[0]["move"]
    assert all(i["move"].startswith("cast ") or i["move"] == "end" for i in infos)
    ins = a["insight"]
    assert ins["seat"] == 0 and ins["handsConsidered"] > 0 and len(ins["holding"]) == 8
    assert {h["spell"] for h in ins["holding"]} == set(range(1, 9))
    assert all(0 <= h["probability"] <= 1 for h in ins["holding"])
    probs = [round(x["successProbability"], 9) for x in ins["announcements"]]
    assert probs == sorted(probs, reverse=True) and {"expectedLifeLoss", "selfKnockoutProbability"} <= set(ins["announcements"][0])
    holding = {h["spell"]: h["probability"] for h in ins["holding"]}
    for i in infos:                               # each cast's chance is the seat's holding of the spell
        assert i["successProbability"] == (holding[int(i["move"].split()[1])] if i["move"] != "end" else 1.0)
    assert by_id["obs"]["level"] == 2 and by_id["obs"]["insight"]["seat"] == 0          # a seat's observation
    # seat 0 holds no 6 (hands=34577,...): its failed cast ends its turn, and seat 1 is analysed
    assert by_id["moved"]["rootInfo"]["currentPlayer"] == 1 == by_id["moved"]["insight"]["seat"]
    assert by_id["g1"]["field"] == "game"
    # every game with reasons gives them (the game's reasons.py, measured from the engine: the same texts)
    from engine_c.abracadawhat.reasons import reasons as aw_reasons

    for i in by_id["g2"]["moveInfos"]:
        assert i["reasons"] and [r["text"] for r in i["reasons"]] == [r.text for r in aw_reasons(aw, i["move"])]
    assert by_id["g3"]["field"] == "moves[0]" and by_id["g4"]["field"] == "position"
    assert by_id["g5"]["field"] == "position" and "observer=1" in by_id["g5"]["error"]
    from engine_c.registry import GAMES

    assert set(by_id["v"]["models"]) == set(GAMES)           # every game of the registry (a game without a model: rollout)
    # the same query and seed, the same answer; --game refuses the other game's positions by name
    code, again, _ = _run(queries[:1] + [json.dumps({"id": "sb", "position": sb})], "--game", "abracadawhat")
    again = {r["id"]: r for r in again}
    assert code == 0 and again["aw"]["moveInfos"] == infos and again["sb"]["field"] == "position"


def test_report_during_search_streams_partial_answers_then_the_final_one():
    """reportDuringSearchEvery (seconds, as KataGo): answers with isDuringSearch true, then one false, last.
    Order, not time: the budget (200,000 visits, no time limit) cannot be spent within a report's interval,
    and each search ends only when it is terminated after its first partial answer."""
    import subprocess as sp
    import threading

    aw = _aw_position(seed=2).to_text()
    sb = State.new(players=2, spells="set1", seed=2).to_text()
    proc = sp.Popen([sys.executable, "-m", "clients.cli", "analysis", "--threads", "2"], stdin=sp.PIPE,
                    stdout=sp.PIPE, stderr=sp.PIPE, text=True)
    watchdog = threading.Timer(90, proc.kill)
    watchdog.start()
    out = []
    try:
        for q in ({"id": "aw", "position": aw, "maxVisits": 200_000, "topK": 2, "reportDuringSearchEvery": 0.05},
                  {"id": "sb", "position": sb, "maxVisits": 200_000, "includeInsight": True,
                   "reportDuringSearchEvery": 0.05},
                  {"id": "bad", "position": sb, "reportDuringSearchEvery": -1}):
            proc.stdin.write(json.dumps(q) + "\n")
        proc.stdin.flush()
        pending = {"aw", "sb"}
        while pending:
            line = proc.stdout.readline()
            assert line, "the engine stopped"
            r = json.loads(line)
            out.append(r)
            if r["id"] in pending:
                assert r["isDuringSearch"] is True
                pending.discard(r["id"])
                proc.stdin.write(json.dumps({"id": "t-" + r["id"], "action": "terminate", "terminateId": r["id"]}) + "\n")
                proc.stdin.flush()
        proc.stdin.close()
        out += [json.loads(line) for line in proc.stdout]
        assert proc.wait(timeout=60) == 0
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
    assert [r for r in out if r["id"] == "bad"][0]["field"] == "reportDuringSearchEvery"
    for qid in ("aw", "sb"):
        mine = [r for r in out if r["id"] == qid]
        flags = [r["isDuringSearch"] for r in mine]
        assert len(flags) >= 2 and all(flags[:-1]) and flags[-1] is False, flags
        visits = [r["rootInfo"]["visits"] for r in mine]
        assert visits == sorted(visits) and visits[-1] < 200_000 and mine[-1]["rootInfo"]["cutShort"]
        assert all(r["moveInfos"] and r["modelVersion"] and "insight" in r for r in mine)
    assert "pouch" in [r for r in out if r["id"] == "sb"][-1]["insight"]
    assert [r for r in out if r["id"] == "aw"][-1]["insight"]["holding"]


def test_a_malformed_query_is_answered_before_a_running_search_ends():
    """Queries are checked as they are read: a bad one queued behind a long search is answered at once.
    Order, not time: the long search has no time limit and ends only when terminated afterwards."""
    import subprocess as sp

    pos = State.new(players=2, spells="set1", seed=1).to_text()
    proc = sp.Popen([sys.executable, "-m", "clients.cli", "analysis", "--threads", "1"], stdin=sp.PIPE,
                    stdout=sp.PIPE, stderr=sp.PIPE, text=True)
    import threading

    watchdog = threading.Timer(60, proc.kill)     # a regression fails (no answer, then EOF), never hangs
    watchdog.start()
    try:
        proc.stdin.write(json.dumps({"id": "long", "position": pos, "maxVisits": 200_000}) + "\n")
        proc.stdin.write(json.dumps({"id": "queued", "position": pos, "maxVisits": 10}) + "\n")
        proc.stdin.write(json.dumps({"id": "bad", "position": pos, "maxVisits": 0}) + "\n")
        proc.stdin.write(json.dumps({"id": "bad2", "position": _aw_position().to_text(), "level": 11}) + "\n")
        proc.stdin.flush()
        first = [json.loads(proc.stdout.readline() or "{}") for _ in range(2)]
        assert all(r.get("id") for r in first), first
        assert [(r["id"], r["field"]) for r in first] == [("bad", "maxVisits"), ("bad2", "level")]
        proc.stdin.write(json.dumps({"id": "t", "action": "terminate", "terminateId": "long"}) + "\n")
        proc.stdin.close()
        rest = [json.loads(line) for line in proc.stdout]
        assert proc.wait(timeout=60) == 0
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
    ids = [r["id"] for r in rest]
    assert ids.index("t") < ids.index("long") < ids.index("queued")
    long = rest[ids.index("long")]
    assert long["rootInfo"]["cutShort"] and long["rootInfo"]["visits"] < 200_000
