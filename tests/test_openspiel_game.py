"""SpellBook as an OpenSpiel game (clients/openspiel_game.py; the dev extra installs open_spiel: never skipped)."""
import numpy as np
import pytest

import pyspiel

from clients import openspiel_game as og  # registers python_spellbook
from engine_c import State
from openspiel_checks import play_bot_against_random, play_checked


def test_registered_game_and_its_type():
    game = pyspiel.load_game("python_spellbook", {"players": 3, "spells": "set2"})
    assert game.num_players() == 3 and game.max_chance_outcomes() == 21
    gt = game.get_type()
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    state = game.new_initial_state()
    assert state.is_chance_node()                                       # the set-up draws are chance nodes
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == pytest.approx(1.0)


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 4, "spells": "set3"}])
def test_openspiel_random_simulation_checks_with_serialization(params):
    """OpenSpiel's own generic checks: clone, serialize/deserialize (game and state), observations,
    legal-action masks, returns within bounds and summing to the utility sum."""
    game = pyspiel.load_game("python_spellbook", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_chance_sums_observations_and_round_trips_along_a_game():
    game = pyspiel.load_game("python_spellbook(players=3,spells=set2)")   # a game string: LoadGame's way
    assert play_checked(game, 2, (0, 12, 80)).is_terminal()


def test_spells_joined_by_plus_survive_the_game_string():
    from engine_c.spellbook.state import SPELL_NAMES

    ids = og.resolve_spells("set2", 0)
    game = pyspiel.load_game("python_spellbook", {"spells": "+".join(SPELL_NAMES[i] for i in ids)})
    assert list(game.spell_ids) == list(ids)
    again = pyspiel.load_game(str(game))                  # commas would split the game string's parameters
    assert list(again.spell_ids) == list(ids)


def test_openspiel_mcts_plays_a_whole_game_through_the_adapter():
    """OpenSpiel's MCTSBot (UCT, random rollouts) moves for seat 0 in a game from the initial state."""
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_spellbook", {"players": 2})
    rng = np.random.RandomState(4)
    bot = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), solve=False, random_state=rng)
    state, moves = play_bot_against_random(game, bot, rng)
    assert state.is_terminal() and len(moves) > 20


def test_a_random_game_through_the_openspiel_api_matches_the_engine():
    game = pyspiel.load_game("python_spellbook", {"players": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    engine_moves = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            a = int(rng.choice(actions, p=probs))
        else:
            a = int(rng.choice(state.legal_actions()))
        text = state.action_to_string(state.current_player(), a)
        engine_moves.append(text)
        state.apply_action(a)
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0) and max(returns) > 0
    assert "rng=" not in str(state)
    # the same moves through the engine alone (set-up draws first) reach the same end
    st = State()
    st._init(2, list(game.spell_ids), 0)
    for text in engine_moves:
        st.apply(text)
    assert st.is_terminal() and st.winners() == [p for p in range(2) if returns[p] > 0]


def test_observation_and_state_from_an_engine_state():
    game = pyspiel.load_game("python_spellbook", {"players": 2})
    engine = State.new(2, "set1", 5)
    state = game.state_from(engine)
    assert state.current_player() == 0 and state.legal_actions() == list(range(len(engine.legal_moves())))
    assert np.asarray(state.observation_tensor(0)).shape == (og.OBSERVATION_SIZE,)
    state.apply_action(0)
    assert engine.to_text() == State.new(2, "set1", 5).to_text()         # the engine state was copied


def test_openspiel_mcts_enters_a_tournament(tmp_path):
    from clients import tournament as T

    tasks = T.schedule(["openspiel-mcts:simulations=2", "random"], games=2, seed=1)
    with T.make_executor("inline") as ex:
        res = T.run_tournament(tasks, str(tmp_path / "o.jsonl"), ex.executor, progress=False)
    assert len(res.records) == 2 and all(r["result"]["winners"] for r in res.records)
    with pytest.raises(ValueError):
        og.parse_openspiel_spec("openspiel-mcts:sims=3")
