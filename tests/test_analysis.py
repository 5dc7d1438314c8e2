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
