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


def play_checked(game, seed: int, round_trips_at=(0, 30, 90)):
    """A random game from the initial state with the chance sums, every node's observations and, at the
    history lengths `round_trips_at`, the serialization round trips checked; returns the final state."""
    seen = []

    def visit(state):
        check_observations(state)
        if len(state.history()) in round_trips_at:
            check_round_trips(game, state)
            seen.append(len(state.history()))

    state = play(game.new_initial_state(), np.random.RandomState(seed), visit=visit)
    assert seen == list(round_trips_at)
    return state


def play_bot_against_random(game, bot, rng: np.random.RandomState, seat: int = 0):
    """A game from the initial state where OpenSpiel's `bot` (its step(state)) decides for `seat` and the
    others play uniformly at random; returns the final state and the bot's moves as text."""
    moves = []

    def choose(state):
        if state.current_player() != seat:
            return int(rng.choice(state.legal_actions()))
        action = int(bot.step(state))
        assert action in state.legal_actions()
        moves.append(state.action_to_string(seat, action))
        return action

    return play(game.new_initial_state(), rng, choose=choose), moves
