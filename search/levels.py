"""Strength levels 1-10: documented bundles of search options, monotone in strength.

Each level raises the iteration budget and lowers the move-choice temperature (an earlier table with
temperatures up to 1.0 made levels 1-3 no stronger than random play in the ladder); level 10 is the
strongest setting that answers within about one second on one core (its iteration budget is sized for
that, and a 1000 ms time cap guarantees it on a slower machine). Iteration budgets (not time) keep a
level's play reproducible for a given seed. Levels with temperature 0 (9 and 10) stop a search as soon
as more iterations could not change its move (`stop_early`): the same move, sooner.
"""
from __future__ import annotations

from search.search import SearchOptions

# level: (iterations, temperature, rollout policy, rollout cut-off in decisions)
# Rollouts are uniform and played to the end at every level: at equal time they beat both the heuristic
# rollout policy (5.5/16) and truncated heuristic rollouts with the static evaluation (6/16), and truncated
# uniform rollouts (cut-off 60) were no better (9/16); bench/search.py re-measures this.
LEVELS: dict[int, tuple[int, float, str, int]] = {
    1: (25, 0.6, "random", 0),
    2: (60, 0.4, "random", 0),
    3: (120, 0.3, "random", 0),
    4: (250, 0.2, "random", 0),
    5: (500, 0.15, "random", 0),
    6: (1000, 0.1, "random", 0),
    7: (2000, 0.05, "random", 0),
    8: (3500, 0.02, "random", 0),
    9: (8000, 0.0, "random", 0),    # about 0.7 s on one core at the start of a 2-player game, less later
    10: (20000, 0.0, "random", 0),  # bounded by the 1 s cap early in a game, about 0.7 s by mid-game
}
LEVEL10_TIME_CAP_MS = 1000.0


def level_options(level: int, seed: int = 0) -> SearchOptions:
    """The SearchOptions of a strength level (ValueError names the field when out of range)."""
    if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"level must be an integer from 1 to 10, got {level!r}")
    iterations, temperature, rollout, cutoff = LEVELS[level]
    return SearchOptions(iterations=iterations, temperature=temperature, rollout=rollout, cutoff=cutoff,
                         time_ms=LEVEL10_TIME_CAP_MS if level == 10 else 0.0, seed=seed,
                         stop_early=temperature == 0, reuse_tree=level == 10)


def describe_levels() -> list[dict]:
    """What each level means, for GetServerInfo and the docs."""
    return [{"level": lv, "iterations": it, "temperature": t, "rollout": r, "cutoff": c,
             "time_cap_ms": LEVEL10_TIME_CAP_MS if lv == 10 else 0.0}
            for lv, (it, t, r, c) in sorted(LEVELS.items())]
