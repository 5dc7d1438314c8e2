"""The Spellbook TCG as an OpenSpiel game (open_spiel: the `openspiel` extra, also in `dev`).

Importing this module registers the Python game `python_spellbooktcg` with pyspiel:

    import pyspiel, clients.openspiel_spellbooktcg
    game = pyspiel.load_game("python_spellbooktcg", {"decks": "frost_ward+fire_shock"})

- Sequential, explicit stochastic, IMPERFECT information (SPELLBOOK_TCG.md §9): a seat sees its own hand
  and mana pool, the other's as sizes, nobody the spellbooks. Every draw of an unknown card is a chance node
  with the engine's exact probabilities (D171: each kind's count in the drawer's pool over its size), the
  setup's 20 draws included, so a deck's order is never part of the state.
- Actions, over the card file's powers and charms sorted by id (k: a card's index, nk of them) and the
  characters' codes c (w0, w1, sP.J: 2 + 2 x 75 codes, TX-28): 0 `none`, 1 `done`, 2 `cast`, 3 `pass`, then
  `mana k`, `power k`, `charm k` (nk each), then `attack c`, `block c`, `on c`, `target c` (152 each), then
  `target qI` (30). A chance action is the index k of the card drawn.
- Returns are win shares (engine_c.base.final_values): 1 to the winner, 1/2 each in a draw (TG-3).
- information_state_string(p) is p's record of the game (perfect recall): every draw with its card for the
  drawer (`d0=mend`) and `d0=?` for the other seat, every decision (`1:attack_w1`) but the other seat's mana
  card (`1:mana?`: that a card went, not which, TI-1). A state made from an engine state (`game.state_from`,
  for the bots) starts the record with each seat's observation text then. observation_string(p) is the
  engine's observation text (State.observation); observation_tensor(p) a summary of what p sees (sizes,
  wizards, summons, p's own hand and mana pool by card, the step).
- resample_from_infostate(p, sampler): the engine's exact determinization for p (TI-5) of the present, with
  p's record unchanged (what OpenSpiel's ISMCTSBot keys its nodes by) and the other seat's record ending
  with its observation of the sampled world (its hand there decides its legal moves).
- Parameters: decks (`+`-joined, clients' --decks: starter deck ids, a deck file, FILE:ID) and cards (a card
  file's path; `starter` for the starter set).

`openspiel-mcts:simulations=N[,uct_c=2,rollouts=1]` (clients.bots) plays this game with OpenSpiel's
ISMCTSBot and random rollouts (clients/openspiel_common.py).
"""
from __future__ import annotations

import random

import numpy as np
import pyspiel

from clients.openspiel_common import EngineGame, EngineObserver, EngineState
from engine_c.spellbooktcg import _engine as _E
from engine_c.spellbooktcg import cards as C
from engine_c.spellbooktcg import record as TR
from engine_c.spellbooktcg.state import MAXSUM, Move, State

SHORT_NAME = "python_spellbooktcg"
CODES = _E.CODES
NCHAR = 2 + 2 * MAXSUM
QMAX = _E.LIMITS["queue"]
SIMPLE = ("none", "done", "cast", "pass")
PHASES = _E.PHASES
TURN_LIMIT = 200
MAX_GAME_LENGTH = TURN_LIMIT * 2 * _E.LIMITS["max_moves"]      # a bound on the decisions and draws of a game

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Spellbook TCG (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"decks": "frost_ward+fire_shock", "cards": "starter"},
)


def _setup(params) -> tuple[C.CardSet, TR.Setup | None]:
    """(card file, setup) of the parameters; decks `none`: a game for states made elsewhere (state_from) only."""
    params = dict(params or {})
    cards = str(params.get("cards", "starter"))
    cards = "" if cards == "starter" else cards
    decks = str(params.get("decks", ""))
    if decks == "none":
        return (C.load_cards(cards) if cards else C.starter()), None
    setup = TR.parse_setup(decks.replace("+", ","), cards)
    return setup.cards, setup


class SpellbookTCGGame(EngineGame):
    """The OpenSpiel game over one card file and two decks (its parameters)."""

    def __init__(self, params=None):
        cs, self.setup = _setup(params)         # CardError / ValueError name what is wrong
        self.cards = cs
        self.card_ids = sorted(cs.cards)
        self.index = {C.card_gid(cid): k for k, cid in enumerate(self.card_ids)}
        nk = len(self.card_ids)
        self.nk = nk
        self.offsets = {"mana": 4, "power": 4 + nk, "charm": 4 + 2 * nk, "attack": 4 + 3 * nk,
                        "block": 4 + 3 * nk + NCHAR, "on": 4 + 3 * nk + 2 * NCHAR, "target": 4 + 3 * nk + 3 * NCHAR,
                        "spell": 4 + 3 * nk + 4 * NCHAR}
        self.num_actions = self.offsets["spell"] + QMAX
        self.observation_size = 26 + 2 * nk + len(PHASES) + 5
        info = pyspiel.GameInfo(num_distinct_actions=self.num_actions, max_chance_outcomes=nk, num_players=2,
                                min_utility=0.0, max_utility=1.0, utility_sum=1.0, max_game_length=MAX_GAME_LENGTH)
        self._built(_GAME_TYPE, info, params)

    def new_initial_state(self) -> "SpellbookTCGState":
        """Before the setup: the first nodes are its draws, all chance (TS-4, D171)."""
        if self.setup is None:
            raise ValueError("decks=none: this game plays states made elsewhere (state_from) only")
        return SpellbookTCGState(self, TR.fresh(2, self.setup, 0))

    def state_from(self, state: State) -> "SpellbookTCGState":
        """An OpenSpiel state over a copy of an engine State of this card file (e.g. to let an OpenSpiel bot
        move); its information states start with each seat's observation of `state`."""
        if state._to_raw()["digest"].hex() != self.cards.digest:
            raise ValueError("the state's card file is not the game's")
        return SpellbookTCGState(self, state.clone(), anchored=True)

    # -- actions
    def action_of(self, code: int) -> int:
        kind, v = code >> 32, code & 0xFFFFFFFF
        if code in (CODES["none"], CODES["done"], CODES["cast"], CODES["pass"]):
            return SIMPLE.index(str(Move(code)))
        name = {CODES["mana"]: "mana", CODES["power"]: "power", CODES["charm"]: "charm"}.get(kind)
        if name:
            return self.offsets[name] + self.index[v]
        name = {CODES["attack"]: "attack", CODES["block"]: "block", CODES["on"]: "on", CODES["target"]: "target",
                CODES["spell"]: "spell"}[kind]
        return self.offsets[name] + v

    def code_of(self, action: int) -> int:
        a = int(action)
        if a < 4:
            return Move.from_text(SIMPLE[a]).code
        for name in ("spell", "target", "on", "block", "attack", "charm", "power", "mana"):
            if a >= self.offsets[name]:
                v = a - self.offsets[name]
                if name in ("mana", "power", "charm"):
                    return CODES[name] << 32 | C.card_gid(self.card_ids[v])
                return CODES[name] << 32 | v
        raise ValueError(f"no action {a}")

    def features(self, st: State, p: int) -> np.ndarray:
        """What seat p sees, as floats (its own hand and mana pool by card; the other seat's as sizes)."""
        raw = st._to_raw()
        out = []
        for q in (p, 1 - p):
            w = raw["wiz"][q]
            tok = [0.0] * 4
            if w["tok"]:
                tok[w["tok"] - 1] = w["tokn"] / 5
            board = raw["board"][q]
            out += [len(raw["book"][q]) / 65, len(raw["grave"][q]) / 75, len(raw["hand"][q]) / 15,
                    sum(raw["mana"][q]) / 20, raw["wizards"][q][0] / 10, *tok, len(board) / 10,
                    sum(c["damage"] for c in board) / 20, sum(max(c["health"], 0) for c in board) / 20,
                    sum(1 for c in board if c["atk"]) + w["atk"]]
        ids = st.card_ids
        hand, mana = [0.0] * self.nk, [0.0] * self.nk
        for k in raw["hand"][p]:
            hand[self.card_ids.index(ids[k])] += 1 / 7
        for k, n in enumerate(raw["mana"][p]):
            if n:
                mana[self.card_ids.index(ids[k])] += n / 7
        phase = [0.0] * len(PHASES)
        phase[raw["phase"]] = 1.0
        out += hand + mana + phase + [float(raw["active"] == p), float(st.current_player == p), raw["turn"] / 200,
                                      len(raw["queue"]) / QMAX, (sum(raw["mana"][p]) - raw["spent"][p]) / 20]
        return np.asarray(out, np.float32)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return EngineObserver(self.observation_size, self.features, params,
                              info_state=bool(iig_obs_type and iig_obs_type.perfect_recall))


def game_params(state: State) -> dict:
    """The game parameters of an engine state (for the tournament bot): its card file (the starter set, or one
    loaded from a path in this process); the decks matter only to new games (a user's: `none`)."""
    cs = state.cardset
    if cs.digest == C.starter().digest:
        return {"cards": "starter", "decks": "+".join(TR.DEFAULT_DECKS)}
    return {"cards": cs.path, "decks": "none"}


class SpellbookTCGState(EngineState):
    """`st`: the engine State (the whole truth); `views`: each seat's record of the game."""

    def __init__(self, game: SpellbookTCGGame, st: State, anchored: bool = False):
        super().__init__(game, st)
        self.views = tuple(f"p{p} obs[{st.observation(p)}]" if anchored else f"p{p}" for p in range(2))

    def _legal_actions(self, player):
        assert player >= 0
        g = self.get_game()
        return sorted(g.action_of(c) for c in self.st._legal_codes())

    def move_of(self, action: int) -> Move:
        return Move(self.get_game().code_of(action))

    def chance_outcomes(self):
        assert self.is_chance_node()
        g = self.get_game()
        return sorted((g.index[c & 0xFFFFFFFF], p) for c, p in self.st._chance_codes())

    def _apply_action(self, action):
        st, g = self.st, self.get_game()
        if self.is_chance_node():
            cid = g.card_ids[int(action)]
            move = Move(CODES["draw"] << 32 | C.card_gid(cid))
            raw = st._to_raw()
            seat = raw["sub"] if PHASES[raw["phase"]] == "setup" else raw["active"]
            views = tuple(v + f" d{seat}=" + (cid if p == seat else "?") for p, v in enumerate(self.views))
        else:
            move, seat = self.move_of(action), st.current_player
            token = f"{seat}:{str(move).replace(' ', '_')}"
            views = tuple(v + " " + (f"{seat}:mana?" if move.kind == "mana" and p != seat else token)
                          for p, v in enumerate(self.views))
        st.apply(move)
        self.views = views

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE or player < 0:
            return f"draw {self.get_game().card_ids[int(action)]}"
        return str(self.move_of(action))

    def information_state_text(self, player: int) -> str:
        return self.views[player]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state p cannot tell from this one: the engine's exact determinization for p (TI-5), with p's
        record kept (ISMCTS keys p's nodes by it) and the other seat's record starting from its observation
        of the sampled world (its hand there decides its legal moves, so its nodes must tell worlds apart)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        out = self.get_game().state_from(self.st.determinize(player_id, seed=rng.getrandbits(63)))
        out.views = tuple(v if q == player_id else f"{v} world[{out.st.observation(q)}]"
                          for q, v in enumerate(self.views))
        return out


pyspiel.register_game(_GAME_TYPE, SpellbookTCGGame)
