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
        # this game's own bot specs (search.bots.make_bot): `counting[:threshold=0.2]`, the count heuristic
        self.bots = {"counting": _counting_bot}

    @staticmethod
    def move_values(state: State, moves: list[Move], seed: int = 0) -> list[float]:
        """The count-based heuristic's value of each move for the mover (heuristic.py; GreedyBot)."""
        from engine_c.abracadawhat.heuristic import move_values

        return move_values(state, moves)


def _counting_bot(seed: int = 0, threshold: str | float | None = None):
    """The count-based heuristic bot (heuristic.py), from a spec's options; ValueError for a bad threshold."""
    from engine_c.abracadawhat.heuristic import DEFAULT_THRESHOLD, CountingBot

    try:
        value = DEFAULT_THRESHOLD if threshold is None else float(threshold)
    except ValueError:
        raise ValueError(f"counting: threshold must be a number from 0 to 1, got {threshold!r}") from None
    return CountingBot(value, seed)


ABRACADAWHAT = AbracadaWhatGame()
