"""Hints from a search result: top-k moves, their loss against the best move, a mistake class only where
the loss is clear beyond the search's own noise, and a search that grows until its top move is settled.

Game-agnostic: it reads only SearchResult / MoveStats (visits, mean_reward, win_probability,
expected_score, score_std), so it works for any evaluation behind the search, as long as a reward and a
win probability lie in [0, 1]. Why a move is good in the game's own terms is the game's business (for
SpellBook: engine_c/spellbook/reasons.py).

One ordering, one label (D45). The move shown first is the search's choice (its most visited move:
what a bot plays at temperature 0). The others are the moves the search examined (its runner-up by
visits, and any with at least EXAMINED_SHARE of its choice's visits; a move it barely tried has no
estimate worth comparing and is not a hint), by win probability, best first. Loss is measured in the
win probability of the seat to move: loss = p(first) - p(move), clamped at 0.

Noise. Each estimate is a mean over the move's visits of values in [0, 1]; its variance is at most
m(1 - m) (Bhatia-Davis), with m smoothed as (n·mean + 1) / (n + 2) so a move whose every visit was lost
is not called certain. The half-width of a ~95% interval of a difference of two such means is
Z · sqrt(v1/n1 + v2/n2) (Z = 1.96). Visits of a tree search are not independent draws, so this is a
yardstick for "clearly different", not an exact probability.

Labels never contradict the order: going down the list a label never gets better (a move the search
rates lower than one called an inaccuracy is not called good), and `about_equal` marks a leading run of
moves whose loss is within the noise. The first move is `about_equal` exactly when the second is: then
the header says the top moves are about equal, and the second may even show a higher win probability
than the first (the search chose by visits what its estimates cannot separate). The classes, by the
loss's lower bound (loss - half-width; inclusive upper bounds; lichess-like, in win probability):

    best        the move shown first (the search's choice)
    good        lower bound <= 0.05 (and every move within the noise: about equal)
    inaccuracy  lower bound <= 0.10
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
MISTAKE_THRESHOLDS: dict[str, float] = {BEST: 0.0, GOOD: 0.05, INACCURACY: 0.10, MISTAKE: 0.20, BLUNDER: math.inf}
SEVERITY = {name: i for i, name in enumerate(MISTAKE_CLASSES)}
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
    """How clearly the search's choice beats the next move of the hints (by win probability for the
    seat to move)."""

    separated: bool
    gap: float             # win probability of the choice minus the next move's (0 with a single move)
    margin: float          # half-width of the gap's ~95% interval

    @property
    def text(self) -> str:
        if self.separated:
            return "the best move is clearly ahead of the others (beyond the search's noise)"
        return "the top moves are about equal: the search cannot tell them apart at this budget"


@dataclass
class Hint:
    """One ranked move: its estimates for the seat to move, its loss against the first, its class."""

    move: Any
    rank: int                      # 1 = the search's choice, then the examined moves by win probability
    win_probability: float
    expected_score: float          # mean final score of the seat to move in the search's simulated games
    loss: float                    # win probability lost against the first move (>= 0)
    loss_points: float             # expected points lost against the first move (negative: more points)
    mistake_class: str
    visits: int
    stats: MoveStats
    loss_margin: float = 0.0       # half-width of the loss's ~95% interval (the search's noise)
    about_equal: bool = False      # rank 1: not separated from rank 2; others: loss within the noise
    score_spread: float = 0.0      # standard deviation of the final score across the simulated games


def examined(result: SearchResult) -> list[MoveStats]:
    """The search's choice (SearchResult.chosen: most visited, or proven better by its lower confidence
    bound), then the other moves it examined (the runner-up by visits, and any with at least
    EXAMINED_SHARE of the choice's visits) by win probability for the seat to move, best first (ties:
    more visits)."""
    if not result.moves:
        return []
    lead, p = result.chosen, result.player
    rest = [s for s in result.moves if s is not lead]
    others = [s for i, s in enumerate(rest) if s.visits > 0 and
              (i == 0 or s.visits >= EXAMINED_SHARE * lead.visits)]
    others.sort(key=lambda s: (-s.win_probability[p], -s.visits))
    return [lead] + others


def _label(result: SearchResult, ordered: list[MoveStats], spread_floor: float = 0.0) -> list[Hint]:
    """Every move of `ordered` as a Hint against the first, labels monotone down the list (see above)."""
    p, lead = result.player, ordered[0]
    hints, worst, equal_run = [], GOOD, True
    for rank, s in enumerate(ordered[1:], start=2):
        loss = max(0.0, lead.win_probability[p] - s.win_probability[p])
        margin = min(difference_margin(lead.win_probability[p], lead.visits, s.win_probability[p], s.visits), 1.0)
        clear = loss - margin
        own = classify(max(clear, 0.0))
        worst = own if SEVERITY[own] > SEVERITY[worst] else worst
        equal_run = equal_run and clear <= 0.0 and worst == GOOD
        hints.append(Hint(move=s.move, rank=rank, win_probability=s.win_probability[p],
                          expected_score=s.expected_score[p], loss=loss,
                          loss_points=lead.expected_score[p] - s.expected_score[p], mistake_class=worst,
                          visits=s.visits, stats=s, loss_margin=margin, about_equal=equal_run,
                          score_spread=max(_spread(s, p), spread_floor)))
    first = Hint(move=lead.move, rank=1, win_probability=lead.win_probability[p],
                 expected_score=lead.expected_score[p], loss=0.0, loss_points=0.0, mistake_class=BEST,
                 visits=lead.visits, stats=lead, about_equal=bool(hints) and hints[0].about_equal,
                 score_spread=max(_spread(lead, p), spread_floor))
    return [first] + hints


def _spread(s: MoveStats, p: int) -> float:
    return s.score_std[p] if s.score_std else 0.0


def separation(result: SearchResult) -> Separation:
    """Whether the search's choice is ahead of the next examined move beyond the noise (the first hint's
    `about_equal`, negated); a choice with no examined rival is separated."""
    ordered = examined(result)
    if len(ordered) < 2:
        return Separation(True, 0.0, 0.0)
    first, second = _label(result, ordered[:2])
    return Separation(not second.about_equal, first.win_probability - second.win_probability, second.loss_margin)


def hint_best(result: SearchResult) -> MoveStats:
    """The move a hint shows first: the search's choice (SearchResult.chosen)."""
    return result.chosen


def top_hints(result: SearchResult, top_k: int = 3, spread_floor: float = 0.0) -> list[Hint]:
    """The search's choice, then up to top_k - 1 other examined moves by win probability (see above);
    fewer when the search examined fewer. `spread_floor`: the least score spread to report (the game's
    measured spread of final scores around the estimate: the search's simulated games, ending in a
    learned value's expected scores, vary less than real games do)."""
    if top_k < 1 or not result.moves:
        return []
    ordered = examined(result)
    return _label(result, ordered, spread_floor)[:top_k]


def assess(result: SearchResult, move: Any) -> Hint | None:
    """The hint for one given move (e.g. the move a player made) among the examined ones, or None if the
    search did not examine it."""
    for h in _label(result, examined(result)) if result.moves else []:
        if h.move == move:
            return h
    return None


def contradictions(hints: list[Hint]) -> list[str]:
    """What in a list of hints contradicts itself (empty when nothing does): ranks out of order, a label
    better than one above it, a win probability above the one before it, `about_equal` that disagrees
    with the labels or the header. The check bench/review_quality.py counts."""
    out = []
    for i, h in enumerate(hints):
        if h.rank != i + 1:
            out.append(f"rank {h.rank} at position {i + 1}")
        if (h.rank == 1) != (h.mistake_class == BEST):
            out.append(f"rank {h.rank} labelled {h.mistake_class}")
        if h.about_equal and h.rank > 1 and h.mistake_class != GOOD:
            out.append(f"rank {h.rank} about equal but labelled {h.mistake_class}")
    for prev, h in zip(hints[1:], hints[2:]):
        if SEVERITY[h.mistake_class] < SEVERITY[prev.mistake_class]:
            out.append(f"rank {h.rank} ({h.mistake_class}) better than rank {prev.rank} ({prev.mistake_class})")
        if h.win_probability > prev.win_probability + 1e-12:
            out.append(f"rank {h.rank} wins more often than rank {prev.rank}")
        if h.about_equal and not prev.about_equal:
            out.append(f"rank {h.rank} about equal after rank {prev.rank} that is not")
    if len(hints) > 1:
        first, second = hints[0], hints[1]
        if first.about_equal != second.about_equal:
            out.append("the header's 'about equal' disagrees with rank 2")
        if second.win_probability > first.win_probability + 1e-12 and not first.about_equal:
            out.append("rank 2 wins more often than rank 1, which is not called about equal")
    return out


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
