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


def test_hint_agreement_reports_how_far_apart_the_moves_are_where_seeds_disagree():
    import importlib.util

    found = importlib.util.spec_from_file_location("bench_strength_under_test", BENCH)
    S = importlib.util.module_from_spec(found)
    sys.modules[found.name] = S
    found.loader.exec_module(S)

    class Serial:
        map = staticmethod(map)

    positions = S.hint_positions(2)[1:]          # a 3-player position whose seeds split between equal moves
    out = S.hint_agreement(Serial(), positions, "auto")
    assert 0.0 <= out["single"] <= 1.0 and out["grown"] in (0.0, 1.0)
    if out["grown"] == 0.0:
        assert out["disagreements"] == 1 and out["disagreements_about_equal"] in (0.0, 1.0)
        assert 0.0 <= out["disagreement_gap_median"] < 0.1
    else:
        assert out["disagreements"] == 0 and out["disagreement_gap_median"] is None


def test_previous_model_match_reports_its_elo_and_version_and_a_bad_file_is_refused_by_flag():
    model = str(Path(__file__).resolve().parent.parent / "data" / "models" / "spellbook.npz")
    res = subprocess.run([sys.executable, str(BENCH), "--jobs", "1", *SKIP_ALL, "--previous-model", model,
                          "--pairs", "1", "--time-ms", "5"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    match = out["elo_vs_previous_model"]
    assert match["games"] == 2 and match["previous_model"] == out["model"] and sum(match["pentanomial"]) == 1
    for bad in (__file__, str(Path(model).with_name("abracadawhat.npz"))):
        res = subprocess.run([sys.executable, str(BENCH), *SKIP_ALL, "--previous-model", bad],
                             capture_output=True, text=True, timeout=60)
        assert res.returncode == 2 and "--previous-model" in res.stderr
