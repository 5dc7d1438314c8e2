"""Checks both OpenSpiel adapters share (tests/test_openspiel_game.py, tests/test_openspiel_abracadawhat.py):
games played through pyspiel's public API only."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import pyspiel


def play(state, rng: np.random.RandomState, choose=None, visit=None):
    """Plays `state` to the end in place: chance by its outcome probabilities (checked to sum to 1),
    decisions by `choose(state)` (default: uniformly random). `visit(state)` sees every node first."""
    while not state.is_terminal():
        if visit is not None:
            visit(state)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert sum(probs) == pytest.approx(1.0) and min(probs) > 0
            assert list(actions) == state.legal_actions() == sorted(actions)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = choose(state) if choose is not None else int(rng.choice(state.legal_actions()))
            state.apply_action(int(action))
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0) and max(returns) > 0
    return state


def check_observations(state) -> None:
    """Every seat's observation tensor has the game's size and is finite; the strings exist."""
    game = state.get_game()
    for p in range(game.num_players()):
        tensor = np.asarray(state.observation_tensor(p))
        assert tensor.shape == (game.observation_tensor_size(),) and np.isfinite(tensor).all()
        assert state.observation_string(p) and state.information_state_string(p)


def check_round_trips(game, state) -> None:
    """serialize/deserialize_state, serialize_game_and_state and pickle give the same state, history and
    information states."""
    copies = [game.deserialize_state(state.serialize()),
              pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
              pickle.loads(pickle.dumps(state))]
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and str(again.new_initial_state()) == str(game.new_initial_state())
    for other in copies:
        assert type(other) is type(state) and str(other) == str(state)
        assert other.history() == state.history() and other.legal_actions() == state.legal_actions()
        for p in range(game.num_players()):
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
