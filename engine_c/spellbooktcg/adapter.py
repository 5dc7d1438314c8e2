"""The Spellbook TCG as a game for search/: the C vtable plus the conversions of engine_c.base.

Not game.py yet: the registry lists every folder holding a game.py, and the other layers (server, terminal,
page, OpenSpiel) are a later part. Searches determinize for the deciding seat (TI-5: the opponent's hand and
mana pool dealt uniformly from what it cannot place; unknown slots stay chance)."""
from __future__ import annotations

from engine_c.base import CompiledGameAdapter
from engine_c.spellbooktcg._engine import game_vtable
from engine_c.spellbooktcg.state import Move, State


class SpellbookTCGGame(CompiledGameAdapter):
    """The adapter search/ uses (engine_c.contract.GameAdapter); every optional part keeps its default."""

    name = "spellbooktcg"
    title = "Spellbook TCG"
    State = State
    Move = Move
    # A move's outcome never hangs on the mover's hidden information (legal moves are the mover's own cards
    # and the public board), so a search may continue below it.
    tree_reuse = True

    def __init__(self) -> None:
        self.vtable = game_vtable()


TCG = SpellbookTCGGame()
