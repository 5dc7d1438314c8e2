"""One coach behind every client (issue 42, docs/decisions.md D130): the hint search and the review options
that the terminal, the review command line, the analysis engine and the server (GetHints, AnalyzeGame) all
use, so that the same position and seed give the same hints, and the same record and budget the same
review classes, wherever a player asks.

- Hints: `hint_options(game, seed)` is what GetHints searches with when a request names no level and no
  options (the server's default level of the game's table, with the shipped model when the game has one,
  the whole budget spent: no `stop_early`); `hint_search()` grows it as GetHints does (search/hints.py
  `grow`: doubled until the best move is separated, within the server's default caps); `hint_seed()` is
  the seed a terminal gives a position (from what the seat to move sees, so a hint never depends on what
  it cannot see). A client that asks GetHints with `seed=hint_seed(...)` gets the terminal's hint.
- Reviews: `review_options(game, iterations, seed)` turns a budget (iterations a decision; None: the
  default level's) into the review search's options; `review_record()` reviews a finished (or resigned)
  record replayed by engine_c.records.replayed with them (this module knows no game): the command line,
  the terminal's end-of-game review and AnalyzeGame call it.

The caps below are the server's defaults (server/service.py ServiceConfig; tests/test_coach.py checks
they agree).
"""
from __future__ import annotations

import time
import zlib
from dataclasses import replace
from typing import Any, Callable

from search.hints import MAX_DOUBLINGS, Grown, grow, merge_runs, separation
from search.levels import default_level, level_options
# what a review's three parts of a score mean: search/review.py's, re-exported for the clients
from search.review import SCORE_SPLIT_TEXT, score_split_text  # noqa: F401
from search.search import CancelToken, SearchOptions, SearchResult, ismcts

MAX_ITERATIONS = 200_000          # ServiceConfig.max_iterations: a hint's growth stops there
MAX_TIME_MS = 10_000.0            # ServiceConfig.max_time_ms: a search's and a hint's growth's time cap
MAX_NODES = 2_000_000             # ServiceConfig.max_nodes
# A search added by a hint's growth stops by this many seconds after the hint's start (issue 42: a hint
# within about 1 s at the default level, the answer included): only a busy or slow machine reaches it.
HINT_HARD_S = 0.85
REVIEW_SEED = 0                   # the review's seed when none is given (CLI, terminal, AnalyzeGame alike)
KEY_MOMENTS = 5



# ----------------------------------------------------------------------------------------------
# Hints
# ----------------------------------------------------------------------------------------------
def hint_seed(seed: int, state: Any) -> int:
    """The seed of a terminal's hint at `state` in a game of seed `seed`: from what the seat to move
    observes (its observation text), so two states it cannot tell apart get the same hint."""
    seat = state.current_player
    seen = state.observation(seat) if seat >= 0 else state.to_text()
    return (seed * 31 + zlib.crc32(seen.encode())) % 2**63


def hint_options(game: Any, seed: int, level: int = 0, iterations: int | None = None) -> SearchOptions:
    """The options GetHints searches with for a request with this seed and level (0: the server's default
    level) and no options: the level's search, its whole budget (no stop_early), the server's caps.
    `iterations` replaces the level's first budget (as the request's limits.iterations)."""
    opts = level_options(level or default_level(game), seed, game=game)
    if iterations:
        opts.iterations = int(iterations)
    opts.stop_early = False                       # hints report every move: the whole budget
    opts.time_ms = min(opts.time_ms or MAX_TIME_MS, MAX_TIME_MS)
    opts.max_nodes = min(opts.max_nodes, MAX_NODES)
    opts.iterations = min(opts.iterations, MAX_ITERATIONS)
    return opts


def hint_family(game: Any, state: Any):
    """The game adapter's move families at `state` (moves that are one decision for a player,
    search/hints.py), or None for a game without them."""
    return lambda move: game.move_family(state, move)


def hint_doublings(game: Any) -> int:
    """How often a hint's budget may double (the adapter's `hint_doublings`: how many its searches afford
    within about half a second at the default level)."""
    return game.hint_doublings


def hint_search(game: Any, state: Any, opts: SearchOptions, cap: float = MAX_ITERATIONS,
                max_time_ms: float = MAX_TIME_MS, deadline: float | None = None,
                cancel: CancelToken | None = None, fixed: bool = False,
                search: Callable[[SearchOptions], tuple[SearchResult, bool]] | None = None
                ) -> tuple[Grown, bool, SearchOptions]:
    """A hint's search, as GetHints and the terminals run it: independent searches of half the asked budget
    (seeds opts.seed, +1, ...) added up (search/hints.py merge_runs: how far they differ measures the
    search's noise, and growing wastes nothing), doubled until the best family is separated from the
    second, `hint_doublings(game)` doublings ran, `cap` iterations were reached (`max_time_ms` for a
    time-bound search) or the call's `deadline`. The growth is deterministic for a seed: only a search
    the machine could not finish by HINT_HARD_S after the start is cut (and says so). `fixed`: the asked
    budget alone. `search(options) -> (result, cut_short)`: how one search runs (the server's counts it).
    Returns the growth, whether a search was cut short, and the options of the whole."""
    if search is None:
        def search(o: SearchOptions):
            result = ismcts(game, state, o, cancel)
            return result, result.cut_short
    by_time = not opts.iterations
    start = time.monotonic()
    end = start + max_time_ms / 1000.0
    deadline = min(deadline, end) if deadline else end
    family = hint_family(game, state)
    budget = opts.time_ms if by_time else opts.iterations
    unit = budget / 2
    runs: list = []
    last: dict = {"cut": False, "opts": opts}

    def run(total: float):
        while unit * len(runs) < total - 1e-9:
            changes = {"time_ms": unit} if by_time else {"iterations": max(int(unit), 1)}
            stop = deadline if len(runs) < 2 or fixed else min(deadline, start + HINT_HARD_S)
            result, cut = search(replace(opts, deadline=stop, seed=(opts.seed + len(runs)) % 2**64, **changes))
            runs.append(result)
            last["cut"] = last["cut"] or cut
            if cut:
                break
        last["opts"] = replace(opts, deadline=deadline, **({"time_ms": total} if by_time else {"iterations": int(total)}))
        return merge_runs(runs)

    if fixed:
        result = run(budget)
        grown = Grown(result, separation(result, family), [budget], "fixed")
    else:
        grown = grow(run, budget, cap=max_time_ms if by_time else cap, deadline=deadline,
                     max_doublings=hint_doublings(game), family=family)
    return grown, last["cut"], last["opts"]


# ----------------------------------------------------------------------------------------------
# Reviews
# ----------------------------------------------------------------------------------------------
def review_options(game: Any, iterations: int | None = None, seed: int = REVIEW_SEED, level: int = 0,
                   max_time_ms: float = MAX_TIME_MS, max_nodes: int = MAX_NODES) -> SearchOptions:
    """The review search's options for a budget of `iterations` a decision (None or 0: the level's own),
    at `level` (0: the default level): what `spellbook-ai review`, the terminal's end-of-game review and
    AnalyzeGame (a request with no options) search with. The estimator that judges is search/review.py's,
    of fixed size."""
    opts = level_options(level or default_level(game), seed, game=game)
    if iterations:
        opts.iterations = int(iterations)
    opts.stop_early = False                       # a review compares every decision's moves: full statistics
    opts.time_ms = min(opts.time_ms or max_time_ms, max_time_ms)
    opts.max_nodes = min(opts.max_nodes, max_nodes)
    return opts


def review_record(rp: Any, iterations: int | None = None, seed: int = REVIEW_SEED, key_moments: int = KEY_MOMENTS,
                  estimator_iterations: int | None = None, options: SearchOptions | None = None,
                  cancel: CancelToken | None = None, seat: int | None = None):
    """(GameReview, rp) of a replayed finished or resigned record of any game (engine_c.records.replayed:
    its game, steps, final scores...), reviewed with review_options(game, iterations, seed) (or `options`).
    `seat`: the review is for that seat (its decisions are the ones listed, counted and picked as key
    moments; the luck split covers every seat)."""
    opts = options if options is not None else review_options(rp.game.adapter, iterations, seed)
    return review_replayed(rp, opts, key_moments, estimator_iterations, cancel, seat), rp


def review_replayed(rp: Any, opts: SearchOptions, key_moments: int = KEY_MOMENTS,
                    estimator_iterations: int | None = None, cancel: CancelToken | None = None,
                    seat: int | None = None):
    """review_record's review of an already replayed record with the review options `opts`."""
    from search.review import ESTIMATE_ITERATIONS, review_game

    if seat is not None and not 0 <= seat < rp.players:
        raise ValueError(f"seat must be 0 to {rp.players - 1}, got {seat}")
    adapter = rp.game.adapter
    wins = None
    if rp.resigned is None:
        wins = list(adapter.final_values(rp.final)[0])      # the result after the last decision
    return review_game(adapter, rp.steps, rp.final_scores, opts, key_moments, cancel,
                       estimate_iterations=estimator_iterations or ESTIMATE_ITERATIONS,
                       end_state=rp.final if rp.resigned is not None else None, seat=seat, final_wins=wins)
