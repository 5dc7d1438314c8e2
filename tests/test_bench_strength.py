"""bench/strength.py as a user runs it: SpellBook's sections behind every --skip still run its speed
figures and print one JSON line (a local name once shadowed the module's spec() and broke every
SpellBook run), and --game names a bad game."""
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "strength.py"
SKIP_ALL = ["--skip", "2p", "3p", "4p", "flat", "hints", "hints_rollout", "calibration"]


def test_spellbook_run_prints_one_json_line_with_its_speed_figures():
    res = subprocess.run([sys.executable, str(BENCH), "--jobs", "1", *SKIP_ALL], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["bench"] == "strength" and out["eval_us"] > 0 and out["iterations_per_s"] > 0
    assert out["model"].startswith("g")


def test_an_unknown_game_is_refused_by_name():
    res = subprocess.run([sys.executable, str(BENCH), "--game", "chess"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "chess" in res.stderr
