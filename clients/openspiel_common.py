"""What the OpenSpiel adapters of both games share (clients/openspiel_game.py: SpellBook,
clients/openspiel_abracadawhat.py: Abracada…What?): a pyspiel state over an engine State, an observer
over the engine's own observation text and feature vector, and OpenSpiel's search bots as tournament
players (`openspiel-mcts:simulations=N[,uct_c=2,rollouts=1]`, clients/bots.py).

Serialization needs nothing of its own: pyspiel serializes a Python state as its history plus a pickle
of its `__dict__`, and engine States pickle through their exact text (engine_c.base.GameState.__reduce__,
the hidden `rng` field included); the game is rebuilt from its parameters (`game.to_string()`).
"""
from __future__ import annotations

import numpy as np

import pyspiel


class EngineGame(pyspiel.Game):
    """A pyspiel game whose subclass checks its parameters before `pyspiel.Game.__init__` (`self.ready`
    after it). Until then repr() must not reach the C++ game: a traceback that shows the half-built game
    (its `__init__` raising ValueError) would crash the interpreter when printed (pytest prints every
    frame's arguments)."""

    ready = False

    def _built(self, game_type, info, params) -> None:
        super().__init__(game_type, info, params)
        self.ready = True

    def __repr__(self):
        return super().__repr__() if self.ready else f"<{type(self).__name__}, not built>"

    __str__ = __repr__

    def __reduce__(self):
        # through the registry, so the game is built by its __init__ (pyspiel's own pickling restores the
        # C++ game only, without the Python attributes: players, spell ids, variants)
        return pyspiel.load_game, (str(self),)


class EngineState(pyspiel.State):
    """A pyspiel state wrapping an engine State `st` (current_player -1: chance, -2: over)."""

    def __init__(self, game, st):
        super().__init__(game)
        self.st = st

    def current_player(self):
        cp = self.st.current_player
        if cp == -2:
            return pyspiel.PlayerId.TERMINAL
        if cp == -1:
            return pyspiel.PlayerId.CHANCE
        return cp

    def is_terminal(self):
        return self.st.is_terminal()

    def returns(self):
        """Win shares: 1 to the winner, 1/k to each of k tied winners, 0 otherwise (0 for all before the end)."""
        n = self.st.players
        if not self.st.is_terminal():
            return [0.0] * n
        winners = self.st.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]

    def __str__(self):
        # the whole state (OpenSpiel's ToString is omniscient), without the engine's own generator seed:
        # every draw is an explicit chance node here, so `rng` never decides anything
        return " ".join(f for f in self.st.to_text().split() if not f.startswith("rng="))


class EngineObserver:
    """A seat's observation: `tensor_fn(st, player)` (the engine's floats) and the engine's observation text.
    With `info_state` (perfect recall), the string is the state's `information_state_text(player)` and
    there is no tensor."""

    def __init__(self, size: int, tensor_fn, params=None, info_state: bool = False):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.info_state = info_state
        self._tensor_fn = tensor_fn
        if info_state:
            self.tensor, self.dict = None, {}
        else:
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: EngineState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = self._tensor_fn(state.st, player)

    def string_from(self, state: EngineState, player: int) -> str:
        if self.info_state:
            return state.information_state_text(player)
        return state.st.observation(player)


# ----------------------------------------------------------------------------------------------
# OpenSpiel's searches as tournament bots
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
    """OpenSpiel's own search choosing an engine game's moves, with random rollouts: MCTSBot (UCT, chance
    nodes sampled) for a perfect-information game (SpellBook), ISMCTSBot for an imperfect-information one
    (Abracada…What?: the root world is drawn by the game's resample_from_infostate from the bot's own
    generator, so the search never sees what the seat may not). The pyspiel game follows each state's
    settings (players, variants: the adapter's `game_params(state)`)."""

    def __init__(self, spec: str, seed: int = 0, players: int = 2, game=None):
        if game is None:
            raise ValueError(f"bot spec {spec!r}: an OpenSpiel bot needs its game")
        self.opts = parse_openspiel_spec(spec)
        self.name = spec
        self.module = adapter_module(game)
        self.rng = np.random.RandomState(seed % 2**32)
        self._searches: dict[str, tuple] = {}

    def _search(self, params: dict):
        """(pyspiel game, OpenSpiel bot) for the game's parameters, built once."""
        key = repr(sorted(params.items()))
        if key not in self._searches:
            from open_spiel.python.algorithms import ismcts, mcts

            game, rng, opts = pyspiel.load_game(self.module.SHORT_NAME, params), self.rng, self.opts
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=opts["rollouts"], random_state=rng)
            if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
                bot = mcts.MCTSBot(game, opts["uct_c"], opts["simulations"], evaluator, solve=False,
                                   random_state=rng)
            else:
                bot = ismcts.ISMCTSBot(game, evaluator, opts["uct_c"], opts["simulations"], random_state=rng)
                # pyspiel's default sampler restarts from one fixed seed at every call (every simulation
                # would search the same world): draw from the bot's generator instead
                bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
            self._searches[key] = game, bot
        return self._searches[key]

    def choose(self, state):
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0], {"forced": True}
        game, bot = self._search(self.module.game_params(state))
        os_state = game.state_from(state)
        action = int(bot.step(os_state))
        return os_state.move_of(action), {}


def adapter_module(game):
    """The OpenSpiel adapter module of a game (a Game, or its name resolved at this edge): the module path the
    game declares (engine_c/contract.py: clients.openspiel_NAME by default); importing it registers the
    pyspiel game. ValueError when the game has none."""
    from engine_c.registry import get_game

    g = get_game(game)
    module = g.layer("openspiel")
    if module is None:
        raise ValueError(f"{g.title} has no OpenSpiel adapter yet ({g.openspiel})")
    return module
