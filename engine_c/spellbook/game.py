"""SpellBook as a game for search/: the C vtable plus conversions between State/Move and raw data."""
from __future__ import annotations

import os

from engine_c.spellbook._engine import game_vtable
from engine_c.base import CompiledGameAdapter
from engine_c.spellbook.state import Move, State

# The learned evaluation SpellBook ships (search/model.py; trained by `make train`, docs/learned.md):
# data/models/ at the repository's top, three levels above this file (engine_c/spellbook/game.py).
DEFAULT_MODEL_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                  "data", "models", "spellbook.npz")


class SpellBookGame(CompiledGameAdapter):
    """The adapter search/ uses (see search.GameAdapter): nothing in search/ knows SpellBook."""

    name = "spellbook"
    State = State
    Move = Move

    def __init__(self, default_model_path: str | None = DEFAULT_MODEL_PATH) -> None:
        self.vtable = game_vtable()
        self.default_model_path = default_model_path

    @staticmethod
    def move_values(state: State, moves: list[Move], seed: int = 0) -> list[float]:
        """The one-ply heuristic's value of each move for the mover (engine_c/spellbook/heuristic.py; GreedyBot)."""
        from engine_c.spellbook.heuristic import move_values

        return move_values(state, moves, seed)


SPELLBOOK = SpellBookGame()


# How far a seat's final score strays from the search's estimate of it, by the round the game is in
# (measured: 16 games of 2 and 3 players at 100 network iterations a move, 1,500 decisions; docs/search.md):
# 4.5 points one standard deviation in the first round, 3.6 at round 9, 1.6 at round 16, which
# SPREAD_PER_ROUND * sqrt(rounds left + 1) follows within 0.3 points. The search's own spread of its
# simulated games (about 1.3 points: its leaves are the network's expected scores, not played games) is far
# narrower than what games do.
SPREAD_PER_ROUND = 1.1
TYPICAL_ROUNDS = 17


def final_score_spread(state) -> float:
    """One standard deviation of a seat's final score around the search's estimate, in points, from `state`."""
    rnd = state.day // state.players
    return SPREAD_PER_ROUND * (max(TYPICAL_ROUNDS - rnd, 1) ** 0.5)
