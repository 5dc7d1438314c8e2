"""Calibration of the win probabilities a learned search reports (game-agnostic; numpy only).

A search's per-seat win probabilities (MoveStats.win_probability) average leaf values over a tree; they
are estimates, not frequencies, and with a learned value they come out over- or under-confident by
player count (the shipped model's 2-player searches were over-confident; docs/learned.md). A model file
may carry a calibration map fitted on held-out games played by the search that reports them, and `ismcts` applies it to every probability it reports
(hints, analysis, review); the search itself keeps the raw values, so moves are chosen as before.

The map is temperature scaling of the per-seat probabilities, one exponent per number of players:

    p'_i = p_i^t / sum_j p_j^t          (t > 1 stretches under-dispersed probabilities)

It keeps the seats' order and the probabilities' sum (one), and with one parameter per player count
it is hard to over-fit. `t` minimizes the cross-entropy of the outcomes (each seat's win share) on the
fitting games. Meta layout (Model.meta["calibration"]):

    {"method": "power", "temperature": {"2": 0.59, "3": 0.87, "4": 1.05}, "decisions": 9947,
     "decisions_by_players": {"2": ..., "3": ..., "4": ...}, "ece_before": 0.039, "ece_after": 0.031,
     "model": "g3-…", "games": 90, "seeds": [800000, 800089], "level": 5, "seconds": ...}

(the last five keys are added by clients/train.py, which plays the fitting games).

A player count missing from "temperature" is left as it is.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Sequence

import numpy as np

METHOD = "power"
EPS = 1e-4                      # probabilities above zero are clipped here first
T_RANGE = (0.25, 4.0)
MIN_ROWS = 100                  # fewer decisions at a player count: that count is not fitted


def temperature_for(calibration: dict | None, players: int) -> float:
    """The exponent for `players` seats (1.0: no map, or none for that count)."""
    if not calibration or calibration.get("method") != METHOD:
        return 1.0
    t = calibration.get("temperature", {}).get(str(players))
    return float(t) if isinstance(t, (int, float)) and math.isfinite(t) and t > 0 else 1.0


def apply(probabilities: Sequence[float], t: float) -> list[float]:
    """The calibrated per-seat probabilities (the same values when t is 1 or they are all zero). A seat
    at zero (one the search never saw win) stays at zero; the others are clipped to EPS first."""
    p = [min(max(float(v), 0.0), 1.0) for v in probabilities]
    if t == 1.0 or sum(p) <= 0:
        return p
    q = [max(v, EPS) ** t if v > 0 else 0.0 for v in p]
    total = sum(q)
    return [v / total for v in q]


def _cross_entropy(p: np.ndarray, z: np.ndarray, t: float) -> float:
    q = np.where(p > 0, np.clip(p, EPS, 1.0) ** t, 0.0)
    q /= q.sum(axis=1, keepdims=True)
    return float(-(z * np.log(np.maximum(q, 1e-12))).sum(axis=1).mean())


def fit_temperature(p: np.ndarray, z: np.ndarray) -> float:
    """The exponent minimizing the outcomes' cross-entropy (golden-section search over T_RANGE in log t;
    the loss is convex in t for fixed data)."""
    lo, hi = math.log(T_RANGE[0]), math.log(T_RANGE[1])
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = _cross_entropy(p, z, math.exp(a)), _cross_entropy(p, z, math.exp(b))
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = _cross_entropy(p, z, math.exp(a))
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = _cross_entropy(p, z, math.exp(b))
    return round(math.exp((lo + hi) / 2), 4)


def expected_calibration_error(p: np.ndarray, z: np.ndarray, bins: int = 10) -> tuple[float, list[dict]]:
    """Expected calibration error (the weighted mean |mean predicted - mean outcome| over equal-width
    bins) and the bins, for a reliability plot."""
    p, z = np.asarray(p, dtype=np.float64), np.asarray(z, dtype=np.float64)
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
    ece, rows = 0.0, []
    for b in range(bins):
        sel = which == b
        if not sel.any():
            continue
        mp, mz = float(p[sel].mean()), float(z[sel].mean())
        ece += sel.mean() * abs(mp - mz)
        rows.append({"bin": b, "n": int(sel.sum()), "predicted": round(mp, 4), "observed": round(mz, 4)})
    return round(float(ece), 4), rows


def fit(rows: Iterable[tuple[int, int, Sequence[float], Sequence[float]]]) -> dict:
    """A calibration map from decisions (players, mover, reported per-seat probabilities, per-seat win
    shares of the finished game). Player counts with fewer than MIN_ROWS decisions are not mapped.
    Returns the meta layout above with the mover's ECE before and after (on these rows)."""
    by_n: dict[int, list] = {}
    for n, mover, p, z in rows:
        if len(p) != n or len(z) != n:
            raise ValueError(f"a {n}-player row needs {n} probabilities and outcomes")
        by_n.setdefault(int(n), []).append((int(mover), list(p), list(z)))
    temps: dict[str, float] = {}
    before_p, after_p, outcome = [], [], []
    for n, rs in sorted(by_n.items()):
        p = np.array([r[1] for r in rs], dtype=np.float64)
        z = np.array([r[2] for r in rs], dtype=np.float64)
        t = fit_temperature(p, z) if len(rs) >= MIN_ROWS else 1.0
        if len(rs) >= MIN_ROWS:
            temps[str(n)] = t
        for mover, pr, zr in rs:
            before_p.append(pr[mover])
            after_p.append(apply(pr, t)[mover])
            outcome.append(zr[mover])
    ece_before = expected_calibration_error(np.array(before_p), np.array(outcome))[0] if outcome else None
    ece_after = expected_calibration_error(np.array(after_p), np.array(outcome))[0] if outcome else None
    return {"method": METHOD, "temperature": temps, "decisions": len(outcome),
            "decisions_by_players": {str(n): len(rs) for n, rs in sorted(by_n.items())},
            "ece_before": ece_before, "ece_after": ece_after}


def collect(game: Any, new_state: Callable[[int], Any], options_for: Callable[[int], Any], seed: int,
            network: Any) -> list[tuple[int, int, list[float], list[float]]]:
    """Rows for `fit` from one game `new_state(seed)` played to the end by the search that reports the
    probabilities: at every decision with a choice, `ismcts(options_for(k))` (k counts the decisions)
    with `network` (give it without a calibration map: the map is fitted on raw probabilities) plays
    its most visited move (the search's choice, which a hint shows first unless a tied move is the
    policy's favourite) and that move's per-seat win probabilities are recorded."""
    from search.arena import play_game
    from search.search import ismcts

    reported: list[tuple[int, list[float]]] = []

    class Reporter:
        name = "calibration"

        def choose(self, state):
            moves = game.legal_moves(state)
            if len(moves) == 1:
                return moves[0], {}
            result = ismcts(game, state, options_for(len(reported)), network=network)
            best = result.chosen
            reported.append((result.player, list(best.win_probability)))
            return best.move, {}

    players = game.num_players(new_state(seed))
    rec = play_game(new_state, [Reporter() for _ in range(players)], seed)
    shares = [(1.0 / len(rec.winners)) if s in rec.winners else 0.0 for s in range(players)]
    return [(players, mover, p, shares) for mover, p in reported]
