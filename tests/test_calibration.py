"""The calibration map of reported win probabilities (search/calibration.py, issue 11 item 6)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from engine_c import State
from engine_c.spellbook.game import SPELLBOOK
from search import SearchOptions, ismcts
from search.arena import calibration_rows as collect
from search.calibration import (apply, apply_mover, calibrate, expected_calibration_error, fit,
                                mover_map_for, temperature_for)
from search.model import Model
from test_learned import mid_game, random_model


def test_apply_keeps_order_and_sum_and_stretches_with_t_above_one():
    p = [0.4, 0.35, 0.25]
    q = apply(p, 2.0)
    assert abs(sum(q) - 1) < 1e-12
    assert q[0] > q[1] > q[2] and q[0] > p[0] and q[2] < p[2]
    assert apply(p, 1.0) == p
    assert apply([0.0, 1.0], 1.7) == [0.0, 1.0]            # a seat at zero stays there
    assert apply([0.0, 0.0], 1.7) == [0.0, 0.0]


def test_temperature_for_reads_only_a_known_method_and_player_count():
    cal = {"method": "power", "temperature": {"2": 1.4, "3": 1.2}}
    assert temperature_for(cal, 2) == 1.4 and temperature_for(cal, 4) == 1.0
    assert temperature_for(None, 2) == 1.0
    assert temperature_for({"method": "isotonic", "temperature": {"2": 3.0}}, 2) == 1.0
    assert temperature_for({"method": "power", "temperature": {"2": -1}}, 2) == 1.0


def test_apply_mover_moves_the_mover_on_the_logit_scale_and_keeps_the_others_proportions():
    p = [0.5, 0.3, 0.2]
    q = apply_mover(p, 0, 1.0, -0.4)
    assert abs(sum(q) - 1) < 1e-12
    assert q[0] == pytest.approx(1 / (1 + math.exp(0.4)))                  # logit 0 moved by -0.4
    assert q[1] / q[2] == pytest.approx(1.5) and q[1] > 0.3                 # the others share the rest
    assert apply_mover(p, 1, 1.0, 0.0) == p                                  # the identity map
    assert apply_mover([1.0, 0.0], 0, 1.2, -0.5) == [1.0, 0.0]               # certain results stay
    assert apply_mover([0.0, 1.0], 0, 1.2, -0.5) == [0.0, 1.0]
    assert apply_mover([0.2, 0.8], 1, 2.0, 0.0)[1] == pytest.approx(16 / 17)  # odds 4 squared


def test_mover_map_for_reads_only_a_well_formed_pair():
    cal = {"method": "power", "temperature": {"2": 1.0}, "mover": {"2": [1.1, -0.2], "3": [1.0], "4": ["x", 0]}}
    assert mover_map_for(cal, 2) == (1.1, -0.2)
    assert mover_map_for(cal, 3) == (1.0, 0.0) and mover_map_for(cal, 4) == (1.0, 0.0)
    assert mover_map_for({"method": "power", "temperature": {"2": 0.7}}, 2) == (1.0, 0.0)   # an older map
    assert mover_map_for(None, 2) == (1.0, 0.0)
    assert calibrate([0.6, 0.4], {"method": "power", "temperature": {"2": 2.0}}, 0) == apply([0.6, 0.4], 2.0)


def test_fit_removes_a_lean_towards_the_seat_to_move_that_a_temperature_cannot():
    """Reported probabilities right for every seat but the mover, whose odds are doubled (logit +0.69): the
    fitted mover step takes the lean back off and the mover's calibration error falls well below the
    temperature's alone."""
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(6000):
        true = rng.dirichlet([1.0] * 3)
        winner = rng.choice(3, p=true)
        mover = int(rng.integers(3))
        reported = apply_mover(list(true), mover, 1.0, math.log(2.0))
        rows.append((3, mover, reported, [1.0 if s == winner else 0.0 for s in range(3)]))
    cal = fit(rows)
    scale, shift = cal["mover"]["3"]
    assert 0.8 < scale < 1.4 and shift < -0.3          # (the temperature, fitted first, took a little of it)
    temperature_only = np.array([apply(p, cal["temperature"]["3"])[m] for _, m, p, _ in rows])
    outcome = np.array([z[m] for _, m, _, z in rows])
    assert cal["ece_after"] < 0.02 < expected_calibration_error(temperature_only, outcome)[0]


def _under_dispersed(n: int, players: int, squash: float, seed: int):
    """Rows whose reported probabilities are the true ones raised to 1/squash (too close to even)."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        true = rng.dirichlet([0.7] * players)
        winner = rng.choice(players, p=true)
        reported = apply(list(true), 1.0 / squash)
        z = [1.0 if s == winner else 0.0 for s in range(players)]
        mover = int(rng.integers(players))
        rows.append((players, mover, reported, z))
    return rows


def test_fit_recovers_the_squash_and_lowers_the_calibration_error():
    rows = _under_dispersed(4000, 2, 1.6, seed=1) + _under_dispersed(4000, 3, 1.3, seed=2)
    cal = fit(rows)
    assert cal["method"] == "power"
    assert abs(cal["temperature"]["2"] - 1.6) < 0.15 and abs(cal["temperature"]["3"] - 1.3) < 0.12
    assert cal["ece_after"] < cal["ece_before"] and cal["ece_after"] < 0.03
    assert cal["decisions"] == 8000


def test_fit_leaves_a_thin_player_count_alone_and_refuses_a_bad_row():
    cal = fit(_under_dispersed(3000, 2, 1.5, seed=3) + _under_dispersed(20, 4, 1.5, seed=4))
    assert "4" not in cal["temperature"] and "2" in cal["temperature"]
    assert "4" not in cal["mover"] and "2" in cal["mover"]
    with pytest.raises(ValueError):
        fit([(3, 0, [0.5, 0.5], [1.0, 0.0])])
    # every mover certain (0 or 1): a temperature, no mover step (nothing to fit it on), no error
    certain = fit([(2, i % 2, [1.0, 0.0] if i % 4 < 2 else [0.0, 1.0], [1.0, 0.0]) for i in range(200)])
    assert "2" in certain["temperature"] and "2" not in certain["mover"]


def test_expected_calibration_error_is_zero_when_perfect_and_large_when_wrong():
    p = np.array([0.2] * 50 + [0.8] * 50)
    z = np.array([1.0] * 10 + [0.0] * 40 + [1.0] * 40 + [0.0] * 10)
    assert expected_calibration_error(p, z)[0] == pytest.approx(0.0, abs=1e-9)
    assert expected_calibration_error(p, 1 - z)[0] == pytest.approx(0.6, abs=1e-9)


def test_the_search_reports_calibrated_probabilities_and_chooses_as_before(tmp_path):
    raw = random_model(seed=3)
    cal = random_model(seed=3)
    cal.meta["calibration"] = {"method": "power", "temperature": {"2": 1.8}}
    raw_path, cal_path = str(tmp_path / "raw.npz"), str(tmp_path / "cal.npz")
    raw.save(raw_path)
    cal.save(cal_path)
    st = mid_game(2, seed=11)
    a = ismcts(SPELLBOOK, st, SearchOptions(iterations=300, evaluator="network", model=raw_path, seed=2))
    b = ismcts(SPELLBOOK, st, SearchOptions(iterations=300, evaluator="network", model=cal_path, seed=2))
    assert a.move == b.move and [m.visits for m in a.moves] == [m.visits for m in b.moves]
    for x, y in zip(a.moves, b.moves):
        assert y.win_probability == pytest.approx(apply(x.win_probability, 1.8))
    # with the mover step too: every move's vector through both steps, for the seat to move
    cal.meta["calibration"]["mover"] = {"2": [1.2, -0.3]}
    cal.save(cal_path)
    e = ismcts(SPELLBOOK, st, SearchOptions(iterations=300, evaluator="network", model=cal_path, seed=2))
    assert e.move == a.move
    for x, y in zip(a.moves, e.moves):
        assert y.win_probability == pytest.approx(calibrate(x.win_probability, cal.meta["calibration"], a.player))
        assert y.win_probability != pytest.approx(apply(x.win_probability, 1.8))
    # a 3-player state has no temperature in this map: reported as searched
    st3 = mid_game(3, seed=11)
    c = ismcts(SPELLBOOK, st3, SearchOptions(iterations=200, evaluator="network", model=raw_path, seed=2))
    d = ismcts(SPELLBOOK, st3, SearchOptions(iterations=200, evaluator="network", model=cal_path, seed=2))
    assert [m.win_probability for m in c.moves] == [m.win_probability for m in d.moves]


def test_collect_records_every_choice_of_a_finished_game():
    net = random_model(seed=5).network(SPELLBOOK)
    rows = collect(SPELLBOOK, lambda sd: State.new(players=2, spells="classic", seed=sd),
                   lambda k: SearchOptions(iterations=8, evaluator="network", seed=k), 21, net)
    assert len(rows) > 10
    shares = rows[0][3]
    assert sum(shares) == pytest.approx(1.0) and all(r[3] == shares for r in rows)
    for n, mover, p, _ in rows:
        assert n == 2 and mover in (0, 1) and sum(p) == pytest.approx(1.0, abs=1e-6)


def test_the_shipped_model_reports_its_calibration_map():
    from search.model import default_model

    model = default_model(SPELLBOOK)
    cal = model.meta.get("calibration")
    assert cal, "the shipped model carries no calibration map (make train fits one)"
    assert cal["model"] == model.version
    assert all(0.25 <= t <= 4.0 for t in cal["temperature"].values())
    assert set(cal["mover"]) == set(cal["temperature"])                     # both steps for every count
    assert all(mover_map_for(cal, int(n)) == tuple(v) for n, v in cal["mover"].items())
    assert model.network(SPELLBOOK).calibration == cal
    assert json.loads(json.dumps(cal)) == cal and math.isfinite(cal["ece_after"])
