"""bench/coach.py as a user runs it (issue 42): one JSON line per game with the keys the issue judges by,
the positions it really asked, and none of the zeros broken, on a few positions."""
import json
import subprocess
import sys
from pathlib import Path

from engine_c.registry import all_games

BENCH = Path(__file__).resolve().parent.parent / "bench" / "coach.py"


def test_one_line_per_game_with_the_judged_keys():
    run = subprocess.run([sys.executable, str(BENCH), "--positions", "4", "--port", "50089", "--budget-s", "60"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [json.loads(line) for line in run.stdout.strip().splitlines()]
    assert [r["game"] for r in rows] == [g.name for g in all_games() if g.reasons]    # every game with reasons
    assert "spellbooktcg" in [r["game"] for r in rows]
    for r in rows:
        assert r["positions"] == r["positions_asked"] == 4
        assert r["hint_p95_ms"] >= r["hint_p50_ms"] > 0 and 0 <= r["about_equal_share"] <= 1
        assert r["about_equal_same_family"] == 0 and r["reason_false_claims"] == 0 and r["reason_names_move"] == 0
        assert r["contradictions"] == 0 and r["reason_claims"] > 0
