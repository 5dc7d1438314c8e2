"""A one-ply heuristic for SpellBook: what the greedy bot (search/bots.py GreedyBot) plays by.

`estimate(state)` guesses each seat's final score from what it has now: its points (E3), plus what its
pool is worth towards spells it has not learned yet (tokens of a spell's color, and 3-token same-rune
wilds, L1-L2: the closer to a learn, the more of that learn's value they hold), plus a little for every
learned spell (its action on later Days, a step towards the end trigger E1) and for loose tokens.
`move_values(state, moves, seed)` plays each move on a copy and scores the position for the mover
against the best other seat; a move that draws from the Pouch is scored over a few sampled draws from
a fresh determinization (§8), so the bot never peeks at the real Pouch order.

The weights were set by hand and checked with tournaments (docs/decisions.md D23): the point is
a sensible, cheap yardstick that learns spells and uses them, not a strong player.
"""
from __future__ import annotations

import random
from typing import Sequence

from engine_c.spellbook import _engine as _E
from engine_c.spellbook.state import NCOL, Move, State

SPELL_POINTS = [row[2:5] for row in _E._SPELL_TABLE]     # by spell id: points at levels 3, 4, 5 (one table)
LEARNED_SPELL = 2.0        # a learned spell's later use (its action, or its instant/permanent effect)
LOOSE_TOKEN = 0.15         # any pool token: material for an action or a familiar space
READY = (0.0, 0.2, 0.45, 0.8, 0.85, 0.9)   # share of a learn's value held with 0..5 usable tokens
LATE = 0.3                 # the same shares once the end is triggered (little time left to learn)
DRAW_SAMPLES = 6           # sampled draws per move that draws from the Pouch


def _wilds(pool: Sequence[int], color: int) -> int:
    """3-token same-rune wilds (L2) from the pool's tokens of other colors."""
    return sum(sum(pool[c * 3 + r] for c in range(NCOL) if c != color) // 3 for r in range(3))


def estimate(state: State) -> list[float]:
    """Each seat's estimated final score (higher is better; comparable across seats)."""
    raw = state._to_raw()
    scores = state.scores()
    late = raw["end_triggered"] or raw["over"]
    out = []
    for p in range(raw["players"]):
        pool = raw["pool"][p]
        value = float(scores[p].total) + LOOSE_TOKEN * sum(pool)
        for c in range(NCOL):
            if raw["level"][p][c]:
                value += LEARNED_SPELL
                continue
            real = pool[c * 3] + pool[c * 3 + 1] + pool[c * 3 + 2]
            if not real:
                continue
            usable = min(real, 5)       # wilds are left out here: each token would count for every color
            points = SPELL_POINTS[raw["spell"][c]][max(usable, 3) - 3]
            value += READY[usable] * (LATE if late else 1.0) * (points + LEARNED_SPELL)
        out.append(value)
    return out


def advantage(values: Sequence[float], seat: int) -> float:
    """The seat's estimate minus the best other seat's."""
    return values[seat] - max(v for p, v in enumerate(values) if p != seat)


def move_values(state: State, moves: Sequence[Move], seed: int = 0) -> list[float]:
    """For each move: the mover's advantage after it (averaged over sampled draws when it draws)."""
    seat = state.current_player
    rng = random.Random(seed)
    out = []
    for move in moves:
        child = state.clone()
        child.apply(move)
        if not child.is_chance():
            out.append(advantage(estimate(child), seat))
            continue
        total = 0.0
        for _ in range(DRAW_SAMPLES):
            world = child.determinize(seat, knows_discard=True, seed=rng.getrandbits(63))
            world.resolve_chance()
            total += advantage(estimate(world), seat)
        out.append(total / DRAW_SAMPLES)
    return out
