"""Calibration of the win probabilities a learned search reports (game-agnostic; numpy only).

A search's per-seat win probabilities (MoveStats.win_probability) average leaf values over a tree; they
are estimates, not frequencies, and with a learned value they come out over- or under-confident by
player count (the shipped model's 2-player searches were over-confident; docs/learned.md). A model file
may carry a calibration map fitted on held-out games played by the search that reports them, and `ismcts` applies it to every probability it reports
(hints, analysis, review); the search itself keeps the raw values, so moves are chosen as before.

The map has two steps, each with its own parameters per number of players. First temperature scaling of
the per-seat probabilities:

    p'_i = p_i^t / sum_j p_j^t          (t > 1 stretches under-dispersed probabilities)

which keeps the seats' order and the probabilities' sum (one). Then the seat to move's probability
alone moves on the logit scale, and the other seats share what is left in their proportions:

    logit p''_m = scale * logit p'_m + shift        p''_i = p'_i * (1 - p''_m) / (1 - p'_m)   (i != m)

The second step is there because a search reports the move it chose, the best of several estimates for
the seat to move, and a learned value leans towards that seat (D29), so the mover's probability comes
out too high (more so with more seats) while the others' do not; one exponent over all seats cannot
undo a lean of one seat (g5-bfa8ec5e: 0.0405 held-out ECE with the temperature alone, docs/learned.md). A seat
at exactly 0 or 1 (a result the search has seen for certain) stays there. `t` minimizes the
cross-entropy of the outcomes (each seat's win share) on the fitting games, then (scale, shift) the
mover's. Meta layout (Model.meta["calibration"]):

    {"method": "power", "temperature": {"2": 0.67, "3": 0.85, "4": 1.54},
     "mover": {"2": [1.01, -0.07], ...}, "decisions": 9439,
     "decisions_by_players": {"2": ..., "3": ..., "4": ...}, "ece_before": 0.031, "ece_after": 0.018,
     "model": "g5-…", "games": 90, "seeds": [800000, 800089], "level": 10, "seconds": ...}

(the last five keys are added by clients/train.py, which plays the fitting games).

A player count missing from "temperature" (from "mover") has no first (second) step; a map without
"mover" (fitted before 2026-11-27) has only the first.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

import numpy as np

METHOD = "power"
EPS = 1e-4                      # probabilities above zero are clipped here first
T_RANGE = (0.25, 4.0)
SCALE_RANGE = (0.5, 2.0)        # the mover step's slope and offset are clipped here (a fit outside is noise)
SHIFT_RANGE = (-1.5, 1.5)
MIN_ROWS = 100                  # fewer decisions at a player count: that count is not fitted


def temperature_for(calibration: dict | None, players: int) -> float:
    """The exponent for `players` seats (1.0: no map, or none for that count)."""
    if not calibration or calibration.get("method") != METHOD:
        return 1.0
    t = calibration.get("temperature", {}).get(str(players))
    return float(t) if isinstance(t, (int, float)) and math.isfinite(t) and t > 0 else 1.0


def mover_map_for(calibration: dict | None, players: int) -> tuple[float, float]:
    """The mover step's (scale, shift) for `players` seats ((1, 0): none)."""
    if not calibration or calibration.get("method") != METHOD:
        return 1.0, 0.0
    m = (calibration.get("mover") or {}).get(str(players))
    if (not isinstance(m, (list, tuple)) or len(m) != 2
            or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in m)):
        return 1.0, 0.0
    return float(m[0]), float(m[1])


def calibrate(probabilities: Sequence[float], calibration: dict | None, mover: int) -> list[float]:
    """Both steps of `calibration` (the model's map, None for none) on one reported per-seat vector whose
    seat to move is `mover`."""
    n = len(probabilities)
    q = apply(probabilities, temperature_for(calibration, n))
    return apply_mover(q, mover, *mover_map_for(calibration, n))


def _logit(p):
    p = np.clip(p, EPS, 1 - EPS)
    return np.log(p / (1 - p))


def apply_mover(probabilities: Sequence[float], mover: int, scale: float, shift: float) -> list[float]:
    """The second step: the mover's probability moved on the logit scale, the others rescaled to keep
    the sum (unchanged when the map is (1, 0), or the mover's probability is 0 or 1)."""
    p = [min(max(float(v), 0.0), 1.0) for v in probabilities]
    pm = p[mover]
    if (scale, shift) == (1.0, 0.0) or pm <= 0.0 or pm >= 1.0:
        return p
    new = float(1.0 / (1.0 + math.exp(-(scale * float(_logit(pm)) + shift))))
    rest = 1.0 - pm
    out = [v * (1.0 - new) / rest for v in p]
    out[mover] = new
    return out


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


def fit_mover(p: np.ndarray, z: np.ndarray) -> tuple[float, float]:
    """(scale, shift) minimizing the cross-entropy of the mover's win share z given its probability p
    (logistic regression on logit p by Newton's method; convex), clipped to SCALE_RANGE / SHIFT_RANGE."""
    x = _logit(np.asarray(p, dtype=np.float64))
    z = np.asarray(z, dtype=np.float64)
    features = np.stack([x, np.ones_like(x)], axis=1)
    w = np.array([1.0, 0.0])
    for _ in range(50):
        q = 1.0 / (1.0 + np.exp(-(features @ w)))
        grad = features.T @ (q - z) / len(z)
        hess = (features * (q * (1 - q))[:, None]).T @ features / len(z) + 1e-9 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w = w - step
        if np.abs(step).max() < 1e-10:
            break
    return (round(float(np.clip(w[0], *SCALE_RANGE)), 4), round(float(np.clip(w[1], *SHIFT_RANGE)), 4))


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
    movers: dict[str, list[float]] = {}
    before_p, after_p, outcome = [], [], []
    for n, rs in sorted(by_n.items()):
        p = np.array([r[1] for r in rs], dtype=np.float64)
        z = np.array([r[2] for r in rs], dtype=np.float64)
        t, scale, shift = 1.0, 1.0, 0.0
        if len(rs) >= MIN_ROWS:
            t = temps[str(n)] = fit_temperature(p, z)
            stepped = [apply(pr, t)[mover] for mover, pr, _ in rs]
            inner = [i for i, v in enumerate(stepped) if 0.0 < v < 1.0]     # 0 and 1 stay as they are
            if len(inner) >= MIN_ROWS:
                scale, shift = fit_mover(np.array([stepped[i] for i in inner]),
                                         np.array([rs[i][2][rs[i][0]] for i in inner]))
                movers[str(n)] = [scale, shift]
        for mover, pr, zr in rs:
            before_p.append(pr[mover])
            after_p.append(apply_mover(apply(pr, t), mover, scale, shift)[mover])
            outcome.append(zr[mover])
    ece_before = expected_calibration_error(np.array(before_p), np.array(outcome))[0] if outcome else None
    ece_after = expected_calibration_error(np.array(after_p), np.array(outcome))[0] if outcome else None
    return {"method": METHOD, "temperature": temps, "mover": movers, "decisions": len(outcome),
            "decisions_by_players": {str(n): len(rs) for n, rs in sorted(by_n.items())},
            "ece_before": ece_before, "ece_after": ece_after}
