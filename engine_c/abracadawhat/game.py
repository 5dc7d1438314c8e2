"""Abracada…What? as a game for search/: the C vtable plus conversions between State/Move and raw data."""
from __future__ import annotations

from engine_c.abracadawhat._engine import game_vtable
from engine_c.abracadawhat.state import Move, State


class AbracadaWhatGame:
    """The adapter search/ uses (see search.GameAdapter); nothing in search/ knows this game.

    Searches determinize for the deciding seat (XC6: its own hand from the exact posterior). Single-observer
    ISMCTS with chance="keyed" keys the searcher's own refills by the stone drawn, which the searcher does
    not see; chance="open" pools them (D33)."""

    name = "abracadawhat"

    def __init__(self) -> None:
        self.vtable = game_vtable()
        self.default_model_path = None       # no learned model yet: searches use rollouts

    @staticmethod
    def state_bytes(state: State) -> bytes:
        return state._state_bytes()

    @staticmethod
    def state_from_bytes(data: bytes) -> State:
        st = State()
        st._load_state_bytes(data)
        return st

    @staticmethod
    def move(code: int) -> Move:
        return Move(code)

    @staticmethod
    def code(move: Move) -> int:
        return move.code

    @staticmethod
    def child(state: State, move: Move) -> State:
        """The state right after `move`, chance left pending (for tree reuse)."""
        out = state.clone()
        out.apply(move)
        return out

    @staticmethod
    def num_players(state: State) -> int:
        return state.players

    @staticmethod
    def current_player(state: State) -> int:
        return state.current_player

    @staticmethod
    def legal_moves(state: State) -> list[Move]:
        return state.legal_moves()

    @staticmethod
    def move_values(state: State, moves: list[Move], seed: int = 0) -> list[float]:
        """The one-ply heuristic's value of each move for the mover (heuristic.py; GreedyBot)."""
        from engine_c.abracadawhat.heuristic import move_values

        return move_values(state, moves)


ABRACADAWHAT = AbracadaWhatGame()
