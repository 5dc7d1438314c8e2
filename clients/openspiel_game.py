"""SpellBook as an OpenSpiel game (the `openspiel` extra: pip install 'spellbook-ai[openspiel]').

Importing this module registers the Python game `python_spellbook` with pyspiel:

    import pyspiel, clients.openspiel_game
    game = pyspiel.load_game("python_spellbook", {"players": 3, "spells": "set2"})

- Sequential, explicit stochastic: every Pouch draw, the set-up draws included, is a chance node whose
  outcomes are the 21 token types (action = token type, `engine_c.token_name`) with the Pouch's
  probabilities. The Pouch order is therefore never part of the state; everything else is public, so
  for OpenSpiel the game has perfect information (like backgammon). A player who does not track the
  Discard box (SPELLBOOK.md §8) is not modelled here.
- Player actions are the positions 0..n-1 in the state's legal-move list (sorted by move code): an
  action id means a move only together with its state. `action_to_string` gives the move's notation.
  NUM_DISTINCT_ACTIONS bounds the list (random games stay below 100).
- Returns are win shares: 1 to the winner, 1/k to each of k tied winners (E4), 0 otherwise.
- Observation tensor: engine_c's observation_array(player) (430 floats, docs/notation.md).

`openspiel-mcts:simulations=N[,uct_c=2,rollouts=1]` is a bot spec (clients.bots) for OpenSpiel's own
MCTSBot with random rollouts on this game, so it can enter tournaments.
"""
from __future__ import annotations

import numpy as np

import pyspiel

from engine_c.spellbook import Move, State, token_name
from engine_c.spellbook.state import _mix_seed, parse_token, resolve_spells

NUM_DISTINCT_ACTIONS = 1024
NUM_TOKEN_TYPES = 21
MAX_GAME_LENGTH = 4000            # decisions and draws; random games stay below 400
OBSERVATION_SIZE = 430
SHORT_NAME = "python_spellbook"

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="SpellBook (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "spells": "set1", "seed": 0},
)


class SpellBookGame(pyspiel.Game):
    """The OpenSpiel game. Parameters: players (2-4), spells (set1/set2/set3/classic or 7 comma-separated
    names), seed (only for the `classic` spell draw; the Pouch draws are chance nodes)."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.players = int(params.get("players", 2))
        if not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2 to 4, got {self.players}")
        self.spells_param = str(params.get("spells", "set1"))
        self.seed = int(params.get("seed", 0))
        self.spell_ids = resolve_spells(self.spells_param.replace(",", " "), self.seed)
        info = pyspiel.GameInfo(num_distinct_actions=NUM_DISTINCT_ACTIONS, max_chance_outcomes=NUM_TOKEN_TYPES,
                                num_players=self.players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> "SpellBookState":
        """Before set-up: the first nodes are the set-up draws (Altar, then each pool), all chance."""
        st = State()
        st._init(self.players, list(self.spell_ids), _mix_seed(self.seed))
        return SpellBookState(self, st)

    def state_from(self, state: State) -> "SpellBookState":
        """An OpenSpiel state wrapping a copy of an engine State (e.g. to let an OpenSpiel bot move)."""
        if state.players != self.players:
            raise ValueError(f"the game has {self.players} players, the state {state.players}")
        return SpellBookState(self, state.clone())

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SpellBookObserver(params)


class SpellBookState(pyspiel.State):
    def __init__(self, game: SpellBookGame, st: State):
        super().__init__(game)
        self.st = st
        self._moves: list[Move] | None = None

    # -- OpenSpiel API
    def current_player(self):
        cp = self.st.current_player
        if cp == -2:
            return pyspiel.PlayerId.TERMINAL
        if cp == -1:
            return pyspiel.PlayerId.CHANCE
        return cp

    def legal_moves(self) -> list[Move]:
        if self._moves is None:
            self._moves = self.st.legal_moves()
            if len(self._moves) > NUM_DISTINCT_ACTIONS:
                raise RuntimeError(f"{len(self._moves)} legal moves exceed NUM_DISTINCT_ACTIONS "
                                   f"({NUM_DISTINCT_ACTIONS}); raise it")
        return self._moves

    def _legal_actions(self, player):
        assert player >= 0
        return list(range(len(self.legal_moves())))

    def chance_outcomes(self):
        assert self.is_chance_node()
        return [(parse_token(str(m).split()[1]), p) for m, p in self.st.chance_outcomes()]

    def _apply_action(self, action):
        if self.is_chance_node():
            self.st.apply(Move.from_text(f"drawn {token_name(int(action))}"))
        else:
            self.st.apply(self.legal_moves()[action])
        self._moves = None

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE or player < 0:
            return f"drawn {token_name(int(action))}"
        return str(self.legal_moves()[action])

    def is_terminal(self):
        return self.st.is_terminal()

    def returns(self):
        n = self.st.players
        if not self.st.is_terminal():
            return [0.0] * n
        winners = self.st.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]

    def __str__(self):
        # the state without the hidden Pouch order
        return " ".join(f for f in self.st.to_text().split() if not f.startswith("rng="))

    def __deepcopy__(self, memo):
        return SpellBookState(self.get_game(), self.st.clone())


class SpellBookObserver:
    """The observation of a seat: observation_array (tensor) and the state text without the Pouch order."""

    def __init__(self, params=None):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpellBookState, player: int) -> None:
        self.tensor[:] = state.st.observation_array(player)

    def string_from(self, state: SpellBookState, player: int) -> str:
        return state.st.observation(player)


pyspiel.register_game(_GAME_TYPE, SpellBookGame)


# ----------------------------------------------------------------------------------------------
# OpenSpiel's MCTS as a tournament bot
# ----------------------------------------------------------------------------------------------
def parse_openspiel_spec(spec: str) -> dict:
    kind, _, params = spec.partition(":")
    if kind.strip().lower() != "openspiel-mcts":
        raise ValueError(f"unknown OpenSpiel bot {kind!r}: use openspiel-mcts:simulations=N")
    opts = {"simulations": 100, "uct_c": 2.0, "rollouts": 1}
    for item in filter(None, params.split(",")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in opts:
            raise ValueError(f"bot spec {spec!r}: options are simulations=N, uct_c=X, rollouts=N")
        opts[key] = type(opts[key])(value)
    if opts["simulations"] < 1 or opts["rollouts"] < 1:
        raise ValueError(f"bot spec {spec!r}: simulations and rollouts must be at least 1")
    return opts


class OpenSpielMCTSBot:
    """OpenSpiel's MCTSBot (UCT, random rollouts, chance nodes sampled) choosing SpellBook moves."""

    def __init__(self, spec: str, seed: int = 0, players: int = 2):
        from open_spiel.python.algorithms import mcts

        opts = parse_openspiel_spec(spec)
        self.name = spec
        self.game = pyspiel.load_game(SHORT_NAME, {"players": players})
        rng = np.random.RandomState(seed % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=opts["rollouts"], random_state=rng)
        self.bot = mcts.MCTSBot(self.game, opts["uct_c"], opts["simulations"], evaluator, solve=False,
                                random_state=rng)

    def choose(self, state: State):
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0], {"forced": True}
        os_state = self.game.state_from(state)
        action = self.bot.step(os_state)
        return moves[action], {}
