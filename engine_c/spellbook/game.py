"""SpellBook as a game for search/: the C vtable plus conversions between State/Move and raw data."""
from __future__ import annotations

import os

from engine_c.spellbook._engine import game_vtable
from engine_c.base import CompiledGameAdapter
from engine_c.contract import Declaration
from engine_c.spellbook.state import Move, State

# The learned evaluation SpellBook ships (search/model.py; trained by `make train`, docs/learned.md):
# data/models/ at the repository's top, three levels above this file (engine_c/spellbook/game.py).
DEFAULT_MODEL_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                  "data", "models", "spellbook.npz")


# An absurd pass (SpellBookGame.absurd): rated this much win probability worse than the best move, while one of
# these moves was legal.
ABSURD_LOSS = 0.20
ABSURD_OTHER_KINDS = ("take", "draw", "learn")


class SpellBookGame(CompiledGameAdapter):
    """The adapter search/ uses (see search.GameAdapter): nothing in search/ knows SpellBook."""

    name = "spellbook"
    # a hint's budget may double 4 times (16x the default level's 400 iterations: about half a second
    # on one core of a 2-core machine; search/coach.py hint_search)
    hint_doublings = 4
    # The close pairs above the policy levels, which the ladder plays on 400 games each (clients/ladder.py
    # --pair-games, D257): with g6-23a4e988 the searches of 15 to 400 iterations are 20-70 Elo apart, which
    # 80 games a pair cannot order (at 80 they put level 7 below level 6).
    ladder_pair_games = {(5, 6): 400, (6, 7): 400, (7, 8): 400, (8, 9): 400, (9, 10): 400}
    # only the Pouch's order is hidden when the Discard box is remembered (SPELLBOOK.md §8): its contents,
    # and so every draw's probability, are known to all
    public_chance = True
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

    @staticmethod
    def final_score_spread(state: State) -> float:
        """One standard deviation of a seat's final score around the search's estimate (module function)."""
        return final_score_spread(state)

    def absurd(self, state: State, move: Move, loss: float) -> bool:
        """For the levels' mistake profile (bench/level_profile.py, D143): a `pass` in a Morning or an Evening
        while a take, a draw or a learn was legal, which the review rates ABSURD_LOSS or more worse than its
        best move (SpellBook calls no move senseless: a weak level may still pass)."""
        if str(move) != "pass" or state.phase not in ("morning", "evening"):
            return False
        return loss >= ABSURD_LOSS and any(str(m).split()[0] in ABSURD_OTHER_KINDS for m in self.legal_moves(state))

    @staticmethod
    def move_family(state: State, move: Move):
        """The decision `move` is one form of, for hints (search/hints.py): moves with the same key are the
        same choice for the player, told apart only by what pays for it. See `move_family`."""
        return move_family(state, move)


# Phase decisions (T2, T3) where some moves are one choice in several forms; in a sub-decision (which
# token a take, a store or a discard moves) the token is the whole choice, so every move is its own family.
_PHASE_DECISIONS = ("morning", "midday", "evening")


def move_family(state: State, move: Move) -> tuple:
    """A hashable key: one learning of one spell at one level whatever pays for it (L1, L2, L4: the
    placed token and the spent ones, by wilds or by Transmutation); one Store 1 whatever token (T3); one
    Sacrifice whatever token it discards (its levels differ only in which runes may be discarded, §7 Red);
    one Time Travel raise of one spell whatever token it discards. Every other move is its own family
    (a take of one Altar token, Draw 2, an action spell at one effect level, pass), as is every move of
    a sub-decision."""
    from engine_c.spellbook._engine import decode_move
    from engine_c.spellbook.state import K

    kind, level, _x, _a, b, _items = decode_move(move.code)
    if state.decision in _PHASE_DECISIONS:
        if kind in (K.LEARN, K.TRANSMUTE):
            return ("learn", b, level)
        if kind == K.STORE:
            return ("store",)
        if kind == K.SACRIFICE:
            return ("Sacrifice",)
        if kind == K.TIMETRAVEL:
            return ("TimeTravel", b)
    return ("move", move.code)


SPELLBOOK = SpellBookGame()

# This folder as a game (engine_c/contract.py; the registry finds it by its folder). Its terminal, service
# and OpenSpiel adapter predate the contract's conventions, so they are named.
DECLARATION = Declaration(title="SpellBook", adapter=SPELLBOOK, players=(2, 4), rules="shared/rules/SPELLBOOK.md",
                          setup="spells", setup_default="set1",
                          setup_help="set1, set2, set3, classic or 7 spell names", order=0, terminal="clients.play_spellbook", service="server.service",
                          openspiel="clients.openspiel_game", ladder="data/ladder.json",
                          # self-play and the benches draw the spells for each deal
                          varied_setup="classic",
                          # the first game: its older records, tournament keys and ladder tables name no game
                          unnamed_in_older_files=True)


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
