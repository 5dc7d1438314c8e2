"""The Spellbook TCG as a game of the registry: its search adapter and its declaration (engine_c/contract.py).

Searches determinize for the deciding seat (TI-5: the opponent's hand and mana pool dealt uniformly from what
it cannot place; unknown slots stay chance). The adapter's optional parts (D175): the one-ply heuristic
(heuristic.py: the `greedy` bot and the `heuristic` bot spec), the senseless targets (a harmful spell on one's
own side, a helpful one on the other's, while the other side is a legal target); every other part keeps the
contract's default where the docstring below does not say otherwise (the learned model of D253; D185, D186: its
hint families, hint budget and levels)."""
from __future__ import annotations

import os

from engine_c.base import CompiledGameAdapter
from engine_c.contract import Declaration
from engine_c.spellbooktcg._engine import game_vtable
from engine_c.spellbooktcg.state import MAXSUM, Move, State

# The learned evaluation `make train GAME=spellbooktcg` ships (engine_c/spellbooktcg/training.py); while the
# file is absent every level searches with rollouts (search.model.default_model).
DEFAULT_MODEL_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                  "data", "models", "spellbooktcg.npz")

# the sign of each final-spell effect for its target: harmful (-1) or helpful (+1)
_SIGN = {"damage": -1, "health": 1, "summon_damage": 0, "summon_health": 0}
_TOKEN_SIGN = {"fire": -1, "shock": -1, "ice": -1, "shield": 1}


class SpellbookTCGGame(CompiledGameAdapter):
    """The adapter search/ uses (engine_c.contract.GameAdapter)."""

    name = "spellbooktcg"
    title = "Spellbook TCG"
    State = State
    Move = Move
    # No tree reuse (search.TreeReuse): who decides after a move, and what, hangs on the other's hidden hand
    # (whether it can afford a spell, TX-22, decides between its cast and the queue's resolution), so the node
    # below a move pools determinizations where the other cast with ones where the mover chose a target, and
    # both seats' moves share codes ("power arcane_bolt"). Continuing there offered moves the real state does
    # not allow (self-play's searches played a power in a target step).
    tree_reuse = False
    # A playout is fast (about 8,000 iterations in 0.1 s), so a hint may grow further than the default
    # before its first family is separated: 500 -> 32,000 iterations, within the hint's time cap.
    hint_doublings = 6
    # Its own levels (search/levels.py reads them through the adapter; D186-D189, D253, D254). With the shipped
    # model (data/models/spellbooktcg.npz, `make train GAME=spellbooktcg`) levels 1-4 are the policy network's
    # own moves (`policy_levels`) and levels 5-10 the network search at these budgets (`network_levels`). The
    # network at 400 iterations beat the 400-playout rollout search by +315 Elo (200 games); past 400 it gains
    # little (D253's first table: 400, 700, 1,200 and 2,500 iterations within 13 Elo over 160 games a pair),
    # so the budgets climb from 40 to 400 and one level stands above it, and the policy fills the range below
    # the heuristic (`greedy`, between levels 4 and 5). The ladder (data/ladder-spellbooktcg.json, 2,400
    # games): 641, 738, 864, 948, [greedy 1000], 1079, 1114, 1197, 1281, 1379, 1465, every step +35 or more.
    # Without the model the same rows are the rollout search at these budgets (weaker, and not what the
    # ladder rates). No level makes a senseless move.
    heuristic_after = 4
    level_table = {
        1: dict(iterations=10, temperature=0.8, avoid_senseless=True),     # the policy's moves with the model
        2: dict(iterations=15, temperature=0.6, avoid_senseless=True),
        3: dict(iterations=20, temperature=0.5, avoid_senseless=True),
        4: dict(iterations=30, temperature=0.4, avoid_senseless=True),
        5: dict(iterations=40, temperature=0.0, avoid_senseless=True),
        6: dict(iterations=60, temperature=0.0, avoid_senseless=True),
        7: dict(iterations=100, temperature=0.0, avoid_senseless=True),
        8: dict(iterations=160, temperature=0.0, avoid_senseless=True),
        9: dict(iterations=400, temperature=0.0, avoid_senseless=True),
        10: dict(iterations=1200, temperature=0.0, avoid_senseless=True),
    }
    # The weakest levels with the model: the policy's own move sampled among its best (SearchOptions.policy_*),
    # never a senseless one: the top 4 at temperature 1, the top 3 at 0.7, the top 2 at 0.4, its first choice.
    policy_levels = {
        1: dict(policy_temperature=1.0, policy_top_k=4, policy_floor=0.3),
        2: dict(policy_temperature=0.7, policy_top_k=3, policy_floor=0.3),
        3: dict(policy_temperature=0.4, policy_top_k=2, policy_floor=0.3),
        4: dict(policy_temperature=1.0, policy_top_k=1),
    }
    network_levels = frozenset(range(5, 11))
    # The level of requests that name none (hints, reviews, the analysis engine): 400 iterations.
    default_level = 9
    # the two top pairs, close by design (the plateau), get more games (clients/ladder.py)
    ladder_pair_games = {(8, 9): 400, (9, 10): 400}

    def __init__(self) -> None:
        self.vtable = game_vtable()
        self.default_model_path = DEFAULT_MODEL_PATH
        self.bots = {"heuristic": _heuristic_bot}

    @staticmethod
    def move_values(state: State, moves: list[Move], seed: int = 0) -> list[float]:
        """The one-ply heuristic's values (heuristic.py: the most damage and board now), for the greedy bot."""
        from engine_c.spellbooktcg.heuristic import move_values

        return move_values(state, moves, seed)

    @staticmethod
    def move_family(state: State, move: Move) -> tuple:
        """The decision a move is one form of (search/hints.py). A spell is built one decision at a time,
        so a decision's forms are the moves that name copies of one character that cannot be told apart: two
        summons of the same cards with the same damage, health, tokens and combat role (attacking with one
        or the other is the same choice; TX-47 already makes copies of a card one move). Every other move is
        its own family (D185)."""
        if move.kind not in ("attack", "block", "on", "target") or str(move).startswith("target q"):
            return ("move", move.code)
        code = move.value
        if code < 2:
            return (move.kind, "wizard", code)
        owner, place = divmod(code - 2, MAXSUM)
        summons = state.summons(owner)
        if place >= len(summons):
            return ("move", move.code)
        c = summons[place]
        return (move.kind, "summon", owner, tuple(c["cards"]), c["damage"], c["health"], c["tokens"],
                c["attacking"], c["blocking"])

    @staticmethod
    def senseless_moves(state: State, moves: list[Move]) -> list[Move]:
        """At a target decision: a spell that only harms aimed at one's own character, or one that only helps
        aimed at the other side's, while a character of the other side is a legal target (TR-2 makes the
        caster pick one, even an unwelcome one: then it is no choice, and nothing is senseless)."""
        if state.phase != "target" or not moves:
            return []
        raw = state._to_raw()
        i = raw["resolving"]
        fin = state.final_spell(i)
        if fin["summon"]:
            return []
        signs = {(_TOKEN_SIGN.get(t, 0) if k == "tokens" else _SIGN.get(k, 0)) for k, t, v in fin["effects"] if v > 0}
        if len(signs) != 1 or 0 in signs:
            return []
        caster = raw["queue"][i][0]

        def owner(m: Move) -> int | None:
            if m.kind != "target" or str(m).startswith("target q"):
                return None
            v = m.value
            return v if v < 2 else (v - 2) // MAXSUM

        friendly = signs == {1}
        wrong = [m for m in moves if owner(m) is not None and (owner(m) == caster) != friendly]
        right = [m for m in moves if owner(m) is not None and (owner(m) == caster) == friendly]
        return wrong if right else []


def _heuristic_bot(seed: int = 0):
    """`heuristic`: the one-ply heuristic's best move (heuristic.py), ties broken by the seed."""
    from engine_c.spellbooktcg.heuristic import HeuristicBot

    return HeuristicBot(seed)


TCG = SpellbookTCGGame()

# This folder as a game (engine_c/contract.py). Its terminal and OpenSpiel adapter follow the conventions
# (clients/play_spellbooktcg.py, clients/openspiel_spellbooktcg.py); the server serves it through the
# game-neutral API (games.v1) and the page through its folder (server/static/games/spellbooktcg/). The setup
# is the two decks (record.py, D174): `--decks` names them, `--cards` the card file they draw from.
DECLARATION = Declaration(
    title="Spellbook TCG", adapter=TCG, players=(2, 2), rules="shared/rules/SPELLBOOK_TCG.md", setup="decks",
    setup_default="",
    setup_help="the two decks: starter deck ids (default frost_ward,fire_shock), or a deck file (its first two "
               "decks; one deck plays both seats) or FILE:ID, one per seat, comma-separated; with --cards",
    order=2,
    flags=(("cards", "", "Spellbook TCG: a card file of your own (docs/tcg-cards.md) the decks draw from "
                         "(default: the starter set)"),))
