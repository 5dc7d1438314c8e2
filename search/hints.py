"""Hints from a search result: top-k moves, their loss against the best move, a mistake class only where
the loss is clear beyond the search's own noise, and a search that grows until its top move is settled.

Game-agnostic: it reads only SearchResult / MoveStats (visits, mean_reward, win_probability,
expected_score, score_std), so it works for any evaluation behind the search, as long as a reward and a
win probability lie in [0, 1]. Why a move is good in the game's own terms is the game's business (for
SpellBook: engine_c/reasons.py).

Loss is measured in the win probability of the seat to move: loss = p(best) - p(move), clamped at 0,
where p is the search's estimate after the move and "best" is the move the hint shows first
(`hint_best`): the most visited move (the search's choice at temperature 0, also when the result
itself was sampled at a temperature), unless other moves the search examined are within its noise of
it; then, of those, the one the learned policy prefers, so that the hint does not change
with the search's seed where the search has no evidence either way.

Noise. Each estimate is a mean over the move's visits of values in [0, 1]; its variance is at most
m(1 - m) (Bhatia-Davis), with m smoothed as (n·mean + 1) / (n + 2) so a move whose every visit was lost
is not called certain. The half-width of a ~95% interval of a difference of two such means is
Z · sqrt(v1/n1 + v2/n2) (Z = 1.96). Visits of a tree search are not independent draws, so this is a
yardstick for "clearly different", not an exact probability.

    separated   the best move's mean reward beats the second's by more than that half-width
    about equal a move whose loss is within its half-width: class "good", `about_equal` set

The classes, by the loss's lower bound (loss - half-width; inclusive upper bounds):

    best        the move shown first (see above)
    good        lower bound <= 0.03 (and every move within the noise: about equal)
    inaccuracy  lower bound <= 0.08
    mistake     lower bound <= 0.20
    blunder     lower bound >  0.20

`grow(run, budget, ...)` reruns a search with double the budget until its top move is separated, its
deadline would be passed, or its cap is reached; then the result says whether the moves were settled.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from search.search import MoveStats, SearchResult

BEST, GOOD, INACCURACY, MISTAKE, BLUNDER = "best", "good", "inaccuracy", "mistake", "blunder"
MISTAKE_CLASSES = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)
# class -> largest win-probability loss it covers (inclusive); "best" is only the search's choice.
MISTAKE_THRESHOLDS: dict[str, float] = {BEST: 0.0, GOOD: 0.03, INACCURACY: 0.08, MISTAKE: 0.20, BLUNDER: math.inf}
Z = 1.96                 # ~95% two-sided
MAX_DOUBLINGS = 4        # a hint's search grows to at most 16x its budget (and the caller's cap)
EXAMINED_SHARE = 0.1     # a move with this share of the most visited move's visits counts as examined


def classify(loss: float, is_best: bool = False) -> str:
    """The mistake class of a move losing `loss` win probability against the best move."""
    if is_best:
        return BEST
    for name in (GOOD, INACCURACY, MISTAKE):
        if loss <= MISTAKE_THRESHOLDS[name] + 1e-12:
            return name
    return BLUNDER


def _variance_bound(mean: float, n: int) -> float:
    """Upper bound on the variance of one visit's value in [0, 1] with this mean (smoothed, see above)."""
    m = (n * min(max(mean, 0.0), 1.0) + 1.0) / (n + 2.0)
    return m * (1.0 - m)


def difference_margin(mean_a: float, n_a: int, mean_b: float, n_b: int, z: float = Z) -> float:
    """Half-width of the ~95% interval of mean_a - mean_b (values in [0, 1]); inf when one has no visits."""
    if n_a <= 0 or n_b <= 0:
        return math.inf
    return z * math.sqrt(_variance_bound(mean_a, n_a) / n_a + _variance_bound(mean_b, n_b) / n_b)


@dataclass
class Separation:
    """How clearly the search's best move beats its second (by mean reward for the seat to move)."""

    separated: bool
    gap: float             # mean reward of the best minus the second's (0 with a single move)
    margin: float          # half-width of the gap's ~95% interval

    @property
    def text(self) -> str:
        if self.separated:
            return "the best move is clearly ahead of the second (beyond the search's noise)"
        return "the top moves are about equal: the search cannot tell them apart at this budget"


def separation(result: SearchResult) -> Separation:
    """Whether the most visited move is ahead of the second beyond the noise; one legal move is separated."""
    if len(result.moves) < 2:
        return Separation(True, 0.0, 0.0)
    a, b = result.moves[0], result.moves[1]
    gap = a.mean_reward - b.mean_reward
    margin = difference_margin(a.mean_reward, a.visits, b.mean_reward, b.visits)
    return Separation(gap > margin, gap, margin)


@dataclass
class Hint:
    """One ranked move: its estimates for the seat to move, its loss against the best, its class."""

    move: Any
    rank: int                      # 1 = the move shown first (hint_best), then by visits
    win_probability: float
    expected_score: float          # mean final score of the seat to move in the search's simulated games
    loss: float                    # win probability lost against the best move (>= 0)
    loss_points: float             # expected points lost against the best move (negative: more points)
    mistake_class: str
    visits: int
    stats: MoveStats
    loss_margin: float = 0.0       # half-width of the loss's ~95% interval (the search's noise)
    about_equal: bool = False      # rank 1: not separated from rank 2; others: loss within the noise
    score_spread: float = 0.0      # standard deviation of the final score across the simulated games


def _hint(result: SearchResult, best: MoveStats, s: MoveStats, rank: int, sep: Separation) -> Hint:
    p = result.player
    is_best = s.move == best.move
    spread = s.score_std[p] if s.score_std else 0.0
    if is_best:
        return Hint(move=s.move, rank=rank, win_probability=s.win_probability[p],
                    expected_score=s.expected_score[p], loss=0.0, loss_points=0.0, mistake_class=BEST,
                    visits=s.visits, stats=s, about_equal=not sep.separated, score_spread=spread)
    loss = max(0.0, best.win_probability[p] - s.win_probability[p])
    margin = difference_margin(best.win_probability[p], best.visits, s.win_probability[p], s.visits)
    clear = loss - margin
    return Hint(move=s.move, rank=rank, win_probability=s.win_probability[p], expected_score=s.expected_score[p],
                loss=loss, loss_points=best.expected_score[p] - s.expected_score[p],
                mistake_class=classify(max(clear, 0.0)), visits=s.visits, stats=s,
                loss_margin=min(margin, 1.0), about_equal=clear <= 0.0, score_spread=spread)


def contenders(result: SearchResult) -> list[MoveStats]:
    """The moves a hint may show first: the most visited move and every move the search examined (at
    least EXAMINED_SHARE of its visits) whose mean reward it cannot tell apart from it (within the
    noise margin above). One move when the best is separated."""
    lead = result.moves[0]
    out = [lead]
    for s in result.moves[1:]:
        if s.visits < EXAMINED_SHARE * lead.visits:
            continue
        if lead.mean_reward - s.mean_reward <= difference_margin(lead.mean_reward, lead.visits, s.mean_reward, s.visits):
            out.append(s)
    return out


def hint_best(result: SearchResult) -> MoveStats:
    """The move a hint shows first. Among contenders the search cannot tell apart, which one comes out
    on top of the visit count depends on the search's seed (a tree search piles its visits on whichever
    tied move got ahead early), so a hint would change with the seed without any evidence for either:
    it shows the one the learned policy prefers (its prior: the same for every seed), and with equal
    priors (the rollout search has none) the most visited."""
    return max(contenders(result), key=lambda s: (s.prior, s.visits))


def _ordered(result: SearchResult) -> list[MoveStats]:
    best = hint_best(result)
    return [best] + [s for s in result.moves if s.move != best.move]


def top_hints(result: SearchResult, top_k: int = 3) -> list[Hint]:
    """The search's top_k moves: hint_best first, then the others by visits."""
    if top_k < 1 or not result.moves:
        return []
    sep = separation(result)
    ordered = _ordered(result)
    return [_hint(result, ordered[0], s, i + 1, sep) for i, s in enumerate(ordered[:top_k])]


def assess(result: SearchResult, move: Any) -> Hint | None:
    """The hint for one given move (e.g. the move a player made), or None if the search never tried it."""
    if not result.moves:
        return None
    sep = separation(result)
    ordered = _ordered(result)
    for i, s in enumerate(ordered):
        if s.move == move:
            return _hint(result, ordered[0], s, i + 1, sep)
    return None


# ----------------------------------------------------------------------------------------------
# A search that grows until its top move is settled
# ----------------------------------------------------------------------------------------------
@dataclass
class Grown:
    """The last (largest) search of `grow`, whether its top move is separated, and the budgets run."""

    result: SearchResult
    separation: Separation
    budgets: list[float] = field(default_factory=list)
    stopped_by: str = ""           # "separated", "cap", "deadline" or "cut_short"


def grow(run: Callable[[float], SearchResult], budget: float, cap: float | None = None,
         deadline: float | None = None, max_doublings: int = MAX_DOUBLINGS) -> Grown:
    """Run `run(budget)` (a fresh search with that budget: iterations or milliseconds), doubling the budget
    (never beyond `cap`) until the top move is separated from the second, the budget reached `cap`, the next run would
    probably end after `deadline` (time.monotonic() seconds; a run is assumed to take about twice the
    last one), or `max_doublings` doublings were run. Returns the last search: deterministic for a
    deterministic `run`, except where the deadline decides how far it grows."""
    budgets: list[float] = []
    while True:
        start = time.monotonic()
        result = run(budget)
        took = time.monotonic() - start
        budgets.append(budget)
        sep = separation(result)
        if sep.separated:
            return Grown(result, sep, budgets, "separated")
        if result.cut_short:
            return Grown(result, sep, budgets, "cut_short")
        if len(budgets) > max_doublings or (cap is not None and budget >= cap):
            return Grown(result, sep, budgets, "cap")
        nxt = budget * 2 if cap is None else min(budget * 2, cap)
        if deadline is not None and time.monotonic() + 2.2 * took > deadline:
            return Grown(result, sep, budgets, "deadline")
        budget = nxt
