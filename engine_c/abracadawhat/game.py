"""Abracada…What? as a game for search/: the C vtable plus conversions between State/Move and raw data."""
from __future__ import annotations

from engine_c.abracadawhat._engine import game_vtable
from engine_c.abracadawhat.state import Move, State
from engine_c.base import CompiledGameAdapter


class AbracadaWhatGame(CompiledGameAdapter):
    """The adapter search/ uses (see search.GameAdapter); nothing in search/ knows this game.

    Searches determinize for the deciding seat (XC6: its own hand from the exact posterior). Single-observer
    ISMCTS with chance="keyed" keys the searcher's own refills by the stone drawn, which the searcher does
    not see; chance="open" pools them (D33)."""

    name = "abracadawhat"
    State = State
    Move = Move

    def __init__(self) -> None:
        self.vtable = game_vtable()
        self.default_model_path = None       # no learned model yet: searches use rollouts

    @staticmethod
    def move_values(state: State, moves: list[Move], seed: int = 0) -> list[float]:
        """The count-based heuristic's value of each move for the mover (heuristic.py; GreedyBot)."""
        from engine_c.abracadawhat.heuristic import move_values

        return move_values(state, moves)

    @staticmethod
    def new_belief(seat: int):
        """A fresh belief of `seat` over its own hand (belief.py), for searches with options.belief."""
        from engine_c.abracadawhat.belief import Belief

        return Belief(seat)


ABRACADAWHAT = AbracadaWhatGame()
