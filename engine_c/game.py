"""SpellBook as a game for search/: the C vtable plus conversions between State/Move and raw data."""
from __future__ import annotations

import os

from engine_c._engine import game_vtable
from engine_c.base import CompiledGameAdapter
from engine_c.state import Move, State

# The learned evaluation SpellBook ships (search/model.py; trained by `make train`, docs/learned.md).
DEFAULT_MODEL_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
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
        """The one-ply heuristic's value of each move for the mover (engine_c/heuristic.py; GreedyBot)."""
        from engine_c.heuristic import move_values

        return move_values(state, moves, seed)


SPELLBOOK = SpellBookGame()
