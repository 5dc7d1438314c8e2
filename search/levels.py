"""Strength levels 1-10: documented bundles of search options, monotone in strength.

Each level raises the iteration budget and lowers the move-choice temperature; level 10 is the
strongest setting that answers within about one second on one core (its iteration budget is sized for
that, and a 1000 ms time cap guarantees it on a slower machine). Iteration budgets (not time) keep a
level's play reproducible for a given seed.
"""
from __future__ import annotations

from search.search import SearchOptions

# level: (iterations, temperature, rollout policy, rollout cut-off in decisions)
LEVELS: dict[int, tuple[int, float, str, int]] = {
    1: (10, 1.0, "random", 0),
    2: (30, 0.8, "random", 0),
    3: (100, 0.6, "random", 0),
    4: (200, 0.4, "heuristic", 30),
    5: (400, 0.3, "heuristic", 30),
    6: (800, 0.2, "heuristic", 30),
    7: (1600, 0.1, "heuristic", 30),
    8: (3200, 0.05, "heuristic", 30),
    9: (8000, 0.0, "heuristic", 30),
    10: (20000, 0.0, "heuristic", 30),
}
LEVEL10_TIME_CAP_MS = 1000.0


def level_options(level: int, seed: int = 0) -> SearchOptions:
    """The SearchOptions of a strength level (ValueError names the field when out of range)."""
    if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"level must be an integer from 1 to 10, got {level!r}")
    iterations, temperature, rollout, cutoff = LEVELS[level]
    return SearchOptions(iterations=iterations, temperature=temperature, rollout=rollout, cutoff=cutoff,
                         time_ms=LEVEL10_TIME_CAP_MS if level == 10 else 0.0, seed=seed)


def describe_levels() -> list[dict]:
    """What each level means, for GetServerInfo and the docs."""
    return [{"level": lv, "iterations": it, "temperature": t, "rollout": r, "cutoff": c,
             "time_cap_ms": LEVEL10_TIME_CAP_MS if lv == 10 else 0.0}
            for lv, (it, t, r, c) in sorted(LEVELS.items())]
