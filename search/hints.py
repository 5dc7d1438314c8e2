"""Hints from a search result: top-k moves with their loss against the best move and a mistake class.

Game-agnostic: it reads only SearchResult / MoveStats. Why a move is good in the game's own terms is the
game's business (for SpellBook: engine_c/reasons.py).

Loss is measured in the win probability of the seat to move: loss = p(best) - p(move), clamped at 0,
where p is the search's estimate after the move and "best" is the most visited move (the search's
choice at temperature 0, also when the result itself was sampled at a temperature). The
classes, by loss (inclusive upper bounds):

    best        the most visited move
    good        loss <= 0.03
    inaccuracy  loss <= 0.08
    mistake     loss <= 0.20
    blunder     loss >  0.20

A move the search barely visited has a noisy estimate; such moves rank after well-visited ones (ranks
follow the search's preference: visits), and their loss is reported as estimated.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from search.search import MoveStats, SearchResult

BEST, GOOD, INACCURACY, MISTAKE, BLUNDER = "best", "good", "inaccuracy", "mistake", "blunder"
MISTAKE_CLASSES = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)
# class -> largest win-probability loss it covers (inclusive); "best" is only the search's choice.
MISTAKE_THRESHOLDS: dict[str, float] = {BEST: 0.0, GOOD: 0.03, INACCURACY: 0.08, MISTAKE: 0.20, BLUNDER: math.inf}


def classify(loss: float, is_best: bool = False) -> str:
    """The mistake class of a move losing `loss` win probability against the best move."""
    if is_best:
        return BEST
    for name in (GOOD, INACCURACY, MISTAKE):
        if loss <= MISTAKE_THRESHOLDS[name] + 1e-12:
            return name
    return BLUNDER


@dataclass
class Hint:
    """One ranked move: its estimates for the seat to move, its loss against the best, its class."""

    move: Any
    rank: int                      # 1 = the most visited move
    win_probability: float
    expected_score: float
    loss: float                    # win probability lost against the best move (>= 0)
    loss_points: float             # expected points lost against the best move (negative: more points)
    mistake_class: str
    visits: int
    stats: MoveStats


def _hint(result: SearchResult, best: MoveStats, s: MoveStats, rank: int) -> Hint:
    p = result.player
    loss = max(0.0, best.win_probability[p] - s.win_probability[p])
    is_best = s.move == best.move
    return Hint(move=s.move, rank=rank, win_probability=s.win_probability[p],
                expected_score=s.expected_score[p], loss=0.0 if is_best else loss,
                loss_points=0.0 if is_best else best.expected_score[p] - s.expected_score[p],
                mistake_class=classify(loss, is_best), visits=s.visits, stats=s)


def top_hints(result: SearchResult, top_k: int = 3) -> list[Hint]:
    """The search's top_k moves by visits, best first."""
    if top_k < 1 or not result.moves:
        return []
    best = result.moves[0]
    ordered = [best] + [s for s in result.moves if s.move != best.move]
    return [_hint(result, best, s, i + 1) for i, s in enumerate(ordered[:top_k])]


def assess(result: SearchResult, move: Any) -> Hint | None:
    """The hint for one given move (e.g. the move a player made), or None if the search never tried it."""
    if not result.moves:
        return None
    best = result.moves[0]
    for i, s in enumerate([best] + [s for s in result.moves if s.move != best.move]):
        if s.move == move:
            return _hint(result, best, s, i + 1)
    return None
