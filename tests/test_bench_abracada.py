"""bench/abracada.py (issue 24's table) as a user runs it: --skip leaves sections out and still prints one
JSON line, a bad section is refused by name; and the information curve's belief (TiltedBelief) is the
count-only prior tilted toward the true hand by exactly e^alpha."""
import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from engine_c.abracadawhat import State
from engine_c.abracadawhat.belief import MULTISETS, Belief

BENCH = Path(__file__).resolve().parent.parent / "bench" / "abracada.py"


def _bench_module(path: Path = BENCH):
    spec = importlib.util.spec_from_file_location(f"under_test_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _mid_round(seed: int) -> State:
    """A 2-player state a few decisions into the first round (the count heuristic playing)."""
    from engine_c.abracadawhat.heuristic import CountingBot

    state, bots = State.new(players=2, seed=seed), [CountingBot(seed=seed), CountingBot(seed=seed + 1)]
    decisions = 0
    while decisions < 4 and not state.is_terminal():
        if state.is_chance():
            state.resolve_chance()
            continue
        move, _ = bots[state.current_player].choose(state)
        state.apply(move)
        decisions += 1
    while state.is_chance():
        state.resolve_chance()
    return state


def test_skipping_every_section_prints_one_json_line_naming_them():
    every = ["belief", "counting", "guided", "noinf", "own_view", "four", "information"]
    res = subprocess.run([sys.executable, str(BENCH), "--quick", "--jobs", "1", "--skip", *every, "--size", "four=25"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["bench"] == "abracada" and out["skipped"] == sorted(every)
    assert out["sizes"]["four"] == 25 and out["sizes"]["vs_counting"] == 8      # the rest stay --quick's
    assert "win_rate_vs_no_inference" not in out


@pytest.mark.parametrize("args, named", [(["--skip", "everything"], "everything"),
                                         (["--size", "games=3"], "games"), (["--size", "four=-1"], "four")])
def test_an_unknown_section_or_a_bad_size_is_refused_by_name(args, named):
    res = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and named in res.stderr


@pytest.mark.parametrize("alpha", [0.0, 1.0, math.inf])
def test_the_tilted_belief_multiplies_the_true_hands_prior_weight_by_e_to_the_alpha(alpha):
    A = _bench_module()
    state = _mid_round(41)
    seat = state.current_player
    prior = dict(Belief(seat, models=((1.0, 0.0),)).hypotheses(state))
    truth = next(i for i, c in enumerate(MULTISETS) if list(c[1:]) == state._to_raw()["hands"][seat])
    tilted = A.TiltedBelief(seat, alpha)
    out = dict(tilted.hypotheses(state))
    assert math.isclose(sum(out.values()), 1.0, rel_tol=1e-6)
    if math.isinf(alpha):
        assert out == {truth: 1.0}
    else:
        odds = lambda d: d[truth] / (1.0 - d[truth])      # noqa: E731
        assert math.isclose(odds(out), math.exp(alpha) * odds(prior), rel_tol=1e-5)
        other = next(h for h in prior if h != truth)
        assert math.isclose(out[other] / out[truth], prior[other] / prior[truth] / math.exp(alpha), rel_tol=1e-5)
    assert math.isclose(tilted.gains[-1], math.log(out[truth] / prior[truth]), abs_tol=1e-9)


def test_a_hand_set_for_the_information_measure_keeps_every_spells_stones_and_the_deciders_view():
    M = _bench_module(BENCH.parent / "abracada_moves_information.py")
    state = _mid_round(43)
    q = state.current_player
    o = 1 - q
    raw = state._to_raw()

    def totals(r):
        return [sum(h[k] for h in r["hands"]) + r["pile"][k] + r["secret"][k] + r["removed"][k]
                + sum(c[k] for c in r["cast"]) for k in range(8)]

    assert M.with_hand(raw, o, raw["hands"][o])._to_raw() == raw
    changed = 0
    for h, _ in Belief(o, models=((1.0, 0.0),)).hypotheses(state)[:40]:
        st = M.with_hand(raw, o, list(MULTISETS[h][1:]))
        if st is None:
            continue
        r = st._to_raw()
        assert totals(r) == totals(raw) and r["hands"][o] == list(MULTISETS[h][1:])
        assert r["hands"][q] == raw["hands"][q] and r["log"] == raw["log"]
        changed += r["hands"][o] != raw["hands"][o]
    assert changed > 0


def test_hypothesis_of_finds_every_hands_id_from_its_counts():
    from engine_c.abracadawhat.belief import hand_of, hypothesis_of

    for i, counts in enumerate(MULTISETS):
        assert hypothesis_of(list(counts[1:])) == i
        assert sorted(hand_of(i)) == [k for k in range(1, 9) for _ in range(counts[k])]
    with pytest.raises(KeyError):
        hypothesis_of([6, 0, 0, 0, 0, 0, 0, 0])       # more stones than a hand holds
