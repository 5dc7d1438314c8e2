"""The count-based heuristic for Abracada…What? (after the R program in hctung101/ABRACAWHAT, `R/magic.R`,
with the exact own-hand posterior of XC6 in place of its raw counts).

A seat cannot see its own hand, but it sees every other hand, the cast and removed stones and its own
secret stones, and it remembers its own announcements (a success proves a stone was held, a failure that
none was). `State.holding_probabilities(p)` turns that into the exact chance of holding each spell. The bot
casts the legal spell it most probably holds, and ends its turn (after a success) once no legal cast's
chance reaches `threshold`.
"""
from __future__ import annotations

import random

from engine_c.abracadawhat.state import Move, State

DEFAULT_THRESHOLD = 0.2      # the R program's: stop when every chance is below 0.2


def move_values(state: State, moves: list[Move], threshold: float = DEFAULT_THRESHOLD) -> list[float]:
    """Each move's value for the deciding seat: a cast's chance of success (a hair less for higher
    spells, so equal chances cast the lower first and keep the higher ones open, XT2), `end` the threshold."""
    chances = state.holding_probabilities(state.current_player)
    return [threshold if m.kind == "end" else chances[m.value] - 1e-6 * m.value for m in moves]


class CountingBot:
    """The count-based heuristic bot (Bot protocol of search/bots.py: `choose(state) -> (move, info)`)."""

    def __init__(self, threshold: float = DEFAULT_THRESHOLD, seed: int = 0):
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be within 0..1, got {threshold!r}")
        self.threshold, self.rng = threshold, random.Random(seed)
        self.name = f"counting:threshold={threshold:g}"

    def choose(self, state: State) -> tuple[Move, dict]:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over or a chance event is pending")
        values = move_values(state, moves, self.threshold)
        best = max(values)
        ties = [m for m, v in zip(moves, values) if v >= best - 1e-12]
        return self.rng.choice(ties), {"value": best}
