"""Strength levels 1-10: documented bundles of search options, each measurably stronger than the one below.

Each level raises the search budget and lowers the move-choice temperature. Level 10 is the strongest:
in the learned search's table the budget where its strength stops growing (400 iterations); in the
rollout search's and a game's own tables the most that answers within about one second on one core (a
1000 ms time cap guarantees it on a slower machine). Iteration budgets (not time) keep a level's play
reproducible for a given seed. Levels with temperature 0 and more than one iteration stop a search as
soon as more iterations could not change its move (`stop_early`): the same move, sooner.

Two tables: the learned search's (the default whenever the game ships a model that passed its gate: PUCT
with the network's priors, leaf values blending the network's with a rollout) and the rollout
search's (the search before the learned evaluation, kept as the named option `evaluator=rollout` so the
two can always be compared).

A request that names no level searches at `default_level()`: about 400 iterations, some 50 ms a move
(level 10 of the learned search, level 5 of the rollout search and of a game's own tables).
"""
from __future__ import annotations

from typing import Any

from search.search import EVALUATORS, SearchOptions

# level: (iterations, temperature, leaves) of the learned search, spaced by strength (D104). The
# network's policy alone (1 iteration) already beats a 600-iteration rollout search (+168 Elo over 40
# games), and the learned search stops gaining at about 400 iterations (a ladder of the earlier table
# found 400 → 20,000 iterations worth +9 Elo over five doublings; 20,000 iterations at temperature 0 scored
# 0.50 against 400 at 0.15 over 30 games). So the table spends six levels on the rollout search
# ("rollout": uniform random playouts, no network: a beginner's opponent at level 1), one on the policy
# alone, and three on the learned search up to the plateau (network leaves blend the value with one
# rollout, rollout_mix 0.5), at low temperatures: sampling at 0.4-0.6 spent what a small search found.
# Level 10 is the plateau: 400 iterations, what level 5 was before D104, and the default; it needs no
# time cap or tree reuse (about 50 ms a move).
NETWORK_LEVELS: dict[int, tuple[int, float, str]] = {
    1: (10, 0.8, "rollout"),
    2: (30, 0.5, "rollout"),
    3: (55, 0.4, "rollout"),
    4: (100, 0.3, "rollout"),
    5: (300, 0.2, "rollout"),
    6: (600, 0.15, "rollout"),
    7: (1, 0.0, "network"),      # the policy head's first choice
    8: (30, 0.2, "network"),
    9: (100, 0.2, "network"),
    10: (400, 0.15, "network"),  # the plateau: 20,000 iterations played it even
}
NETWORK_DEFAULT_LEVEL = 10
DEFAULT_LEVEL = 5                     # the rollout table's and a game's own tables' default

# level: (iterations, temperature, rollout policy, rollout cut-off in decisions) of the rollout search.
# Rollouts are uniform and played to the end at every level: at equal time they beat both the heuristic
# rollout policy (5.5/16) and truncated heuristic rollouts with the static evaluation (6/16), and truncated
# uniform rollouts (cut-off 60) were no better (9/16).
ROLLOUT_LEVELS: dict[int, tuple[int, float, str, int]] = {
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
LEVELS = ROLLOUT_LEVELS                 # the name earlier code and tools use
LEVEL10_TIME_CAP_MS = 1000.0


def _evaluator(evaluator: str, game: Any) -> str:
    """'network' or 'rollout' for a level: "auto" is the network when the game ships a model (or when
    the game is not known here: the search then falls back to rollouts by itself)."""
    if evaluator not in EVALUATORS:
        raise ValueError(f"evaluator must be one of {', '.join(EVALUATORS)}, got {evaluator!r}")
    if evaluator != "auto":
        return evaluator
    if game is None:
        return "network"
    from search.model import default_model

    model = default_model(game)
    return "network" if model is not None and model.use_by_default else "rollout"


def _level_evaluator(level: int, evaluator: str, game: Any) -> str:
    """'network' or 'rollout' at `level`: as _evaluator, except that "auto" keeps the rollout search at the
    levels the learned search's table gives to it (SpellBook's weakest, NETWORK_LEVELS), and at the levels
    a default model lists no gate for (its meta "levels", when it has one: the levels where its SPRT gate
    against the game's own level search passed, Abracada…What?'s; SpellBook's models have none)."""
    kind = _evaluator(evaluator, game)
    if kind != "network" or evaluator != "auto":
        return kind
    if getattr(game, "level_table", None) is None:
        return NETWORK_LEVELS[level][2]
    from search.model import default_model

    model = default_model(game)
    levels = model.meta.get("levels") if model is not None else None
    return kind if levels is None or level in levels else "rollout"


def default_level(game: Any = None, evaluator: str = "auto") -> int:
    """The level a request that names none searches at: the one of about 400 iterations (some 50 ms a
    move), so that hints, the calibration fitted to them and a default move keep one budget whichever
    table applies: level 10 of the learned search's table, level 5 of the rollout search's and of a game's
    own tables (Abracada…What?'s)."""
    if getattr(game, "level_table", None) is None and _evaluator(evaluator, game) == "network":
        return NETWORK_DEFAULT_LEVEL
    return DEFAULT_LEVEL


def level_options(level: int, seed: int = 0, evaluator: str = "auto", game: Any = None) -> SearchOptions:
    """The SearchOptions of a strength level (ValueError names the field when out of range)."""
    if not isinstance(level, int) or isinstance(level, bool) or level not in ROLLOUT_LEVELS:
        raise ValueError(f"level must be an integer from 1 to 10, got {level!r}")
    kind = _level_evaluator(level, evaluator, game)
    cap = LEVEL10_TIME_CAP_MS if level == 10 else 0.0
    table = getattr(game, "level_table", None)
    if kind == "network" and table is not None:
        # a game's own levels (below) with the learned evaluation: the same fields and budgets, the
        # network's priors and leaves, as the game's model was gated to search (_models_own_search)
        fields = dict(table[level])
        opts = SearchOptions(**fields, time_ms=cap, seed=seed, stop_early=fields.get("temperature", 0.0) == 0,
                             evaluator="auto" if evaluator == "auto" else "network")
        return _models_own_search(opts, game)
    if table is None and _evaluator(evaluator, game) == "network":
        # the learned search's table; its weakest levels search with rollouts unless asked otherwise
        iterations, temperature, _ = NETWORK_LEVELS[level]
        opts = SearchOptions(iterations=iterations, temperature=temperature, seed=seed,
                             stop_early=temperature == 0,
                             evaluator=kind if evaluator != "auto" or kind == "rollout" else "auto")
        return _models_own_search(opts, game) if kind == "network" else opts
    if table is not None:
        # a game's own rollout-search levels (Abracada…What?'s: engine_c/abracadawhat/game.py), found
        # through its adapter: {level: SearchOptions fields}; the 1 s cap and stop_early as above
        fields = dict(table[level])
        return SearchOptions(**fields, time_ms=cap, seed=seed, stop_early=fields.get("temperature", 0.0) == 0,
                             evaluator="rollout")
    iterations, temperature, rollout, cutoff = ROLLOUT_LEVELS[level]
    return SearchOptions(iterations=iterations, temperature=temperature, rollout=rollout, cutoff=cutoff,
                         time_ms=cap, seed=seed, stop_early=temperature == 0, reuse_tree=level == 10,
                         evaluator="rollout")


def _models_own_search(opts: SearchOptions, game: Any) -> SearchOptions:
    """A level as the game's default model was gated to search (its meta's "search", written by the
    training pipeline): its leaves ("rollout_mix") and "iteration_scale" times the table's iterations,
    about the same time per move. A model without one searches as the table says."""
    if game is None:
        return opts
    from search.model import default_model

    model = default_model(game)
    search = (model.meta.get("search") or {}) if model is not None else {}
    if "rollout_mix" in search:
        opts.rollout_mix = float(search["rollout_mix"])
    opts.iterations = max(1, round(opts.iterations * float(search.get("iteration_scale", 1.0))))
    return opts


def describe_levels(game: Any = None, evaluator: str = "auto") -> list[dict]:
    """What each level means, for GetServerInfo and the docs."""
    out = []
    for lv in sorted(ROLLOUT_LEVELS):
        o = level_options(lv, evaluator=evaluator, game=game)
        out.append({"level": lv, "iterations": o.iterations, "temperature": o.temperature,
                    "rollout": o.rollout, "cutoff": o.cutoff, "time_cap_ms": o.time_ms,
                    "evaluator": _level_evaluator(lv, evaluator, game), "redeterminize": o.redeterminize, "belief": o.belief,
                    "opponent_prior": o.opponent_prior})
    return out
