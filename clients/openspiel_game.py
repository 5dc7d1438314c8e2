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
- Observation tensor: engine_c's observation_array(player) (430 floats, docs/notation.md); observation and
  information state strings: the engine's observation text (perfect information: the present is all).
- Serialization (pyspiel.serialize_game_and_state, game.deserialize_state, pickle) and clone work as for
  every Python game (clients/openspiel_common.py); tests/test_openspiel_game.py runs OpenSpiel's
  random_sim_test with serialization.

`openspiel-mcts:simulations=N[,uct_c=2,rollouts=1]` is a bot spec (clients.bots) for OpenSpiel's own
MCTSBot with random rollouts on this game, so it can enter tournaments.
"""
from __future__ import annotations

import pyspiel

from clients.openspiel_common import EngineGame, EngineObserver, EngineState
# the tournament bot and its spec, shared with Abracada…What? (kept importable from here)
from clients.openspiel_common import OpenSpielMCTSBot, parse_openspiel_spec  # noqa: F401
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


def _settings(params) -> tuple[int, str, int, list[int]]:
    """(players, spells parameter, seed, spell ids) of the game's parameters; ValueError says what is wrong."""
    params = dict(params or {})
    players = int(params.get("players", 2))
    if not 2 <= players <= 4:
        raise ValueError(f"players must be 2 to 4, got {players}")
    spells, seed = str(params.get("spells", "set1")), int(params.get("seed", 0))
    return players, spells, seed, resolve_spells(spells.replace(",", " ").replace("+", " "), seed)


class SpellBookGame(EngineGame):
    """The OpenSpiel game. Parameters: players (2-4), spells (set1/set2/set3/classic or 7 names joined by
    `+`; commas work with the parameter dict but not in a game string, which splits parameters at commas),
    seed (only for the `classic` spell draw; the Pouch draws are chance nodes)."""

    def __init__(self, params=None):
        self.players, self.spells_param, self.seed, self.spell_ids = _settings(params)
        info = pyspiel.GameInfo(num_distinct_actions=NUM_DISTINCT_ACTIONS, max_chance_outcomes=NUM_TOKEN_TYPES,
                                num_players=self.players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                                max_game_length=MAX_GAME_LENGTH)
        self._built(_GAME_TYPE, info, params)

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
        return EngineObserver(OBSERVATION_SIZE, _observation_array, params,
                              info_state=bool(iig_obs_type and iig_obs_type.perfect_recall))


class SpellBookState(EngineState):
    def __init__(self, game: SpellBookGame, st: State):
        super().__init__(game, st)
        self._moves: list[Move] | None = None

    # -- OpenSpiel API (current_player, is_terminal, returns, __str__: openspiel_common.EngineState)
    def legal_moves(self) -> list[Move]:
        if self._moves is None:
            self._moves = self.st.legal_moves()
            if len(self._moves) > NUM_DISTINCT_ACTIONS:
                raise RuntimeError(f"{len(self._moves)} legal moves exceed NUM_DISTINCT_ACTIONS "
                                   f"({NUM_DISTINCT_ACTIONS}); raise it")
        return self._moves

    def move_of(self, action: int) -> Move:
        """The engine move of a player's action here."""
        return self.legal_moves()[action]

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

    def information_state_text(self, player: int) -> str:
        # perfect information: what a seat sees now is all there is (the Pouch order is no part of it)
        return self.st.observation(player)

    def __deepcopy__(self, memo):
        return SpellBookState(self.get_game(), self.st.clone())


pyspiel.register_game(_GAME_TYPE, SpellBookGame)


def game_params(state: State) -> dict:
    """The game parameters of an engine state (for the tournament bot; the spells travel in the state)."""
    return {"players": state.players}



def _observation_array(st: State, player: int):
    return st.observation_array(player)
