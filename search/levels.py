"""Strength levels 1-10: documented bundles of search options, each measurably stronger than the one below.

With the learned evaluation (the default) the weakest levels play the policy network's own moves without
search, sampled among its best at a falling temperature (D140: mistakes a player would make, rarer and
smaller level by level), and the levels above search with the network on a rising budget. Each level has a
name for players (`LEVEL_NAMES`: beginner ... strongest) and a sentence (`LEVEL_MEANINGS`); the ladder
(clients/ladder.py) rates them against the game's heuristic bot (greedy, counting = 1000; D141), which plays
between levels 3 and 5. `PLAY_LEVEL` (4) is the opponent the page and the terminal offer first (D142).
Iteration budgets (not time) and seeded sampling keep a level's play reproducible for a given seed. Levels
with temperature 0 and more than one iteration stop a search as soon as more iterations could not change
its move (`stop_early`): the same move, sooner.

Tables: the learned search's (SpellBook: `NETWORK_LEVELS`), the rollout search's (`ROLLOUT_LEVELS`, the
named option `evaluator=rollout`, kept so the two can be compared), and a game's own (Abracada…What?'s
adapter: `level_table`, `policy_levels`).

A request that names no level searches at `default_level()`: about 400 iterations, some 50 ms a move
(level 10 of the learned search, level 5 of the rollout search, a game's own `default_level`: Abracada…What?'s
6), the hints', reviews' and calibration's budget.
"""
from __future__ import annotations

from typing import Any

from search.search import EVALUATORS, SearchOptions

# The learned search's levels (D140; D104 before it). A level is a dict of SearchOptions fields. Levels 1-4
# play the policy network's own moves, without search (one iteration gives the root's priors): sampled at a
# falling temperature among the moves the policy rates at least a share (policy_floor) of its first choice,
# so a weak level's mistakes are plausible moves, rarer and smaller level by level (KaTrain's policy bots,
# docs/search.md "Levels"); level 4 is the policy's first choice, about the hand-tuned heuristic (`greedy`).
# Levels 5-10 search with the network at about 2.3x the budget each, up to the plateau (400 iterations,
# D104: 20,000 played it even), level 10 the hints' default. Before D140 levels 1-6 were uniform-rollout
# searches of 10-600 iterations, weaker than `greedy` (58-2 against level 5). The policy levels' spread was
# re-sized for g6-23a4e988 (D257), whose policy, trained on a 4x search's visits, is sharper than g5's: at
# g5's settings levels 1-3 rose by 90-170 Elo against `greedy`. Now, against greedy over 400 games on two
# seed sets: level 1 -235 / -303, level 2 -157 / -137, level 3 -15 / -46, level 4 +68 / +84.
NETWORK_LEVELS: dict[int, dict] = {
    1: dict(iterations=1, policy_temperature=1.5, policy_top_k=5, policy_floor=0.02),
    2: dict(iterations=1, policy_temperature=1.3, policy_top_k=4, policy_floor=0.05),
    3: dict(iterations=1, policy_temperature=1.0, policy_top_k=3, policy_floor=0.1),
    4: dict(iterations=1, policy_temperature=1.0, policy_top_k=1),   # the policy's first choice
    5: dict(iterations=6, temperature=0.0),
    6: dict(iterations=15, temperature=0.0),
    7: dict(iterations=35, temperature=0.0),
    8: dict(iterations=80, temperature=0.0),
    9: dict(iterations=170, temperature=0.0),
    10: dict(iterations=400, temperature=0.15),        # the plateau and the hints' default
}
NETWORK_DEFAULT_LEVEL = 10
DEFAULT_LEVEL = 5                     # the rollout table's and a game's own tables' default
# The level a player meets first (the page's and the terminal's chooser, GetServerInfo/GetRules
# default_bot_level): one a new player can beat with care, about the heuristic bot (D142).
PLAY_LEVEL = 4

# What each level means to a player (GetServerInfo/GetRules `name`, the page's chooser, the terminal's
# help; D141): the same words in both games, placed by the ladder against the heuristic bot (greedy,
# counting) that sits between levels 3 and 5.
LEVEL_NAMES: dict[int, str] = {
    1: "beginner", 2: "novice", 3: "casual", 4: "club", 5: "club+",
    6: "strong", 7: "strong+", 8: "expert", 9: "expert+", 10: "strongest",
}

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


# What each name means to a player (GetServerInfo/GetRules `meaning`, with the ladder's place against the
# heuristic bot added by the server).
LEVEL_MEANINGS: dict[int, str] = {
    1: "a first opponent: plausible moves with frequent, sometimes large mistakes",
    2: "plausible moves with regular mistakes",
    3: "mostly sound moves with occasional mistakes",
    4: "a contest, beatable with care; the default opponent",
    5: "a little stronger than the heuristic bot",
    6: "a small search that punishes loose play",
    7: "a search that rarely errs",
    8: "a strong search",
    9: "a stronger search",
    10: "the strongest the server plays",
}
# Level 10 is the largest search; it is called the strongest only where the game's ladder rates it highest
# (Abracada…What?'s ladder put it below levels 8 and 9 until D230-f re-spaced its top; every shipped table
# rates it highest now).
TOP_LEVEL_UNRATED = ("deepest search", "the largest search the server plays")


def level_words(level: int, elo: dict[int, float] | None = None) -> tuple[str, str]:
    """A level's name and what it means, for a player (GetServerInfo/GetRules, the page's chooser, the
    terminal's help), true to the ladder table `elo` (level -> Elo): the top level is "strongest" only
    when the table rates it above every other level; otherwise (or without a table) it is the deepest
    search, and the meaning says which levels the table rates above it."""
    if level != max(LEVEL_NAMES):
        return LEVEL_NAMES[level], LEVEL_MEANINGS[level]
    if elo and level in elo and all(elo[level] > e for lv, e in elo.items() if lv != level):
        return LEVEL_NAMES[level], LEVEL_MEANINGS[level]
    name, meaning = TOP_LEVEL_UNRATED
    above = sorted(lv for lv, e in (elo or {}).items() if lv != level and e >= elo.get(level, float("inf")))
    if above:
        which = " and ".join(map(str, above)) if len(above) <= 2 else ", ".join(map(str, above[:-1])) + f" and {above[-1]}"
        meaning += f"; the ladder rates it below level{'s' if len(above) > 1 else ''} {which} (within its margin)"
    return name, meaning


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
    """'network' or 'rollout' at `level`: as _evaluator, except that "auto" with a game's own tables
    (Abracada…What?'s) keeps the rollout search at the levels whose budget the default model's gate did not
    pass at (its meta "gate": the budgets where its SPRT against the rollout search passed; without one,
    its meta "levels"), while the policy's own levels (the game's `policy_levels`) and the levels the game
    measured for the network otherwise (its `network_levels`) are the network's."""
    kind = _evaluator(evaluator, game)
    if kind != "network" or evaluator != "auto":
        return kind
    if game is None or game.level_table is None or level in game.policy_levels:
        return kind
    if level in game.network_levels:      # measured for the network by its own curve (D154)
        return kind
    from search.model import default_model

    model = default_model(game)
    return kind if model is None or _gate_passed(model, level, game) else "rollout"


def _gate_passed(model: Any, level: int, game: Any) -> bool:
    """Whether `model`'s gate passed at the budget of `game`'s own `level` (or at the level itself, for a
    model whose meta lists levels but no gate; every level for a model with neither)."""
    gate = (model.meta.get("gate") or {}).get("levels")
    if gate:
        scale = float((model.meta.get("search") or {}).get("iteration_scale", 1.0))
        budgets = {round(g["challenger_iterations"] / scale) for g in gate.values() if g.get("sprt") == "H1"}
        return game.level_table[level]["iterations"] in budgets
    levels = model.meta.get("levels")
    return levels is None or level in levels


def default_level(game: Any = None, evaluator: str = "auto") -> int:
    """The level a request that names none searches at: the one of about 400 iterations (some 50 ms a
    move), so that hints, the calibration fitted to them and a default move keep one budget whichever
    table applies: level 10 of the learned search's table, level 5 of the rollout search's, a game's own
    `default_level` with its own tables (Abracada…What?'s 6). Not the opponent a player meets first
    (PLAY_LEVEL)."""
    table = None if game is None else game.level_table
    if table is None and _evaluator(evaluator, game) == "network":
        return NETWORK_DEFAULT_LEVEL
    if table is not None:
        return game.default_level or DEFAULT_LEVEL   # a game's own: its 400-iteration level
    return DEFAULT_LEVEL


def level_options(level: int, seed: int = 0, evaluator: str = "auto", game: Any = None) -> SearchOptions:
    """The SearchOptions of a strength level (ValueError names the field when out of range)."""
    if not isinstance(level, int) or isinstance(level, bool) or level not in ROLLOUT_LEVELS:
        raise ValueError(f"level must be an integer from 1 to 10, got {level!r}")
    kind = _level_evaluator(level, evaluator, game)
    cap = LEVEL10_TIME_CAP_MS if level == 10 else 0.0
    table = None if game is None else game.level_table
    asked = "auto" if evaluator == "auto" else "network"
    if kind == "network" and table is not None:
        # a game's own levels (below) with the learned evaluation: the same fields and budgets, the
        # network's priors and leaves, as the game's model was gated to search (_models_own_search); at its
        # policy levels the policy's own moves (the same chance fields, one iteration)
        fields = dict(table[level])
        policy = game.policy_levels.get(level)
        if policy is not None:
            fields.update(iterations=1, temperature=0.0, belief=False, **policy)
        opts = SearchOptions(**fields, time_ms=cap, seed=seed, stop_early=fields.get("temperature", 0.0) == 0,
                             evaluator=asked)
        return _models_own_search(opts, game)
    if table is None and kind == "network":
        # the learned search's table (D140): the policy's moves at levels 1-4, the network search above
        fields = dict(NETWORK_LEVELS[level])
        opts = SearchOptions(**fields, seed=seed, evaluator=asked,         # no cap: 400 iterations is ~50 ms
                             stop_early=fields.get("temperature", 0.0) == 0 and fields["iterations"] > 1)
        return _models_own_search(opts, game)
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
                    "opponent_prior": o.opponent_prior, "policy_temperature": o.policy_temperature,
                    "policy_top_k": o.policy_top_k, "policy_floor": o.policy_floor, "name": LEVEL_NAMES[lv]})
    return out
