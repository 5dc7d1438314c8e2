"""bench/value_quality.py as a user runs it: --positions keeps the test positions, so a second run with
the same games reads them instead of replaying and gives the same figures; a file of other games is
refused by name rather than silently mixed in."""
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "value_quality.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), "--jobs", "1", "--rollouts", "20", *args],
                          capture_output=True, text=True, timeout=300)


def test_cached_positions_give_the_same_figures_and_other_games_are_refused(tmp_path):
    cache = tmp_path / "positions.json"
    first = _run("--games", "1", "--iterations", "20", "--positions", str(cache))
    assert first.returncode == 0, first.stderr[-2000:]
    a = json.loads(first.stdout.strip().splitlines()[-1])
    assert cache.exists() and a["positions"] > 0 and "search" in a
    again = _run("--games", "1", "--iterations", "20", "--positions", str(cache))
    b = json.loads(again.stdout.strip().splitlines()[-1])
    assert {k: b[k] for k in ("network", "rollouts", "search", "positions")} == \
        {k: a[k] for k in ("network", "rollouts", "search", "positions")}
    value_only = json.loads(_run("--games", "1", "--iterations", "0", "--positions", str(cache)).stdout)
    assert "search" not in value_only and value_only["network"] == a["network"]
    other = _run("--games", "1", "--seed", "5", "--iterations", "0", "--positions", str(cache))
    assert other.returncode != 0 and "--positions" in other.stderr
