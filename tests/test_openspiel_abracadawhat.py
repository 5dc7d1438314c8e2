"""Abracada…What? as an OpenSpiel game (clients/openspiel_abracadawhat.py): OpenSpiel's generic checks,
what each seat's information state and observation may show (ABRACADAWHAT.md §5, XI1-XI4), chance
nodes (XC4, XC5), resampling for IS-MCTS (XC6) and OpenSpiel's IS-MCTS playing through the adapter."""
import numpy as np
import pytest

import pyspiel

from clients import openspiel_abracadawhat as oa  # registers python_abracadawhat
from engine_c.abracadawhat import State
from openspiel_checks import play, play_bot_against_random, play_checked


def test_registered_game_its_type_and_parameters():
    game = pyspiel.load_game("python_abracadawhat", {"players": 3})
    gt = game.get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (3, 9, 14)
    assert game.observation_tensor_size() == oa.OBSERVATION_SIZE
    state = game.new_initial_state()
    assert state.is_chance_node()                                 # XS2/XC5: the deal is chance, stone by stone
    outcomes = dict(state.chance_outcomes())                      # XS1: spell n has n of the 36 stones
    assert outcomes == pytest.approx({k - 1: k / 36 for k in range(1, 9)})
    assert str(pyspiel.load_game("python_abracadawhat(players=5,variants=xv1+xv2)")) == \
        "python_abracadawhat(players=5,variants=xv1+xv2)"
    for bad in ({"players": 1}, {"players": 6}, {"variants": "xv3"}):
        with pytest.raises(ValueError):                          # the game's own message, through pyspiel
            pyspiel.load_game("python_abracadawhat", bad)


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3}, {"players": 5, "variants": "xv1+xv2"}])
def test_openspiel_random_simulation_checks_with_serialization(params):
    """OpenSpiel's own generic checks: clone, serialize/deserialize (game and state), observations and
    information states of every seat, legal-action masks, chance outcomes, returns."""
    game = pyspiel.load_game("python_abracadawhat", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_chance_sums_observations_and_round_trips_along_a_game():
    game = pyspiel.load_game("python_abracadawhat(players=4,variants=xv2)")
    state = play_checked(game, 5, (0, 30, 90))
    # returns are the engine's win shares (XG1); the points stay on the engine state
    winners = state.st.winners()
    assert state.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(4)]
    assert max(state.st.scores()) >= 8


def test_a_seat_never_sees_its_own_hand_nor_the_secret_stones():
    """XI2: a stone dealt or refilled to p is `?` in p's record and a digit in everyone else's; XI3: the
    secret stones are `?` to all, a taken one is seen by its taker only; XI1: announcements are public
    with their outcome. The observation text and tensor show p's own hand as a size only."""
    game = pyspiel.load_game("python_abracadawhat", {"players": 3})
    rng = np.random.RandomState(11)
    checked = set()

    def visit(state):
        if not state.is_chance_node():
            p = state.current_player()
            hands = state.observation_string(p).split("hands=")[1].split()[0].split(",")
            assert hands[p] == f"?{len(state.st.hand(p))}"
            own = np.asarray(state.observation_tensor(p))[5:13]   # the observer's block: its hand's faces
            assert not own.any()
            checked.add(p)

    state = play(game.new_initial_state(), rng, visit=visit)
    assert checked == {0, 1, 2}
    for p in range(3):
        words = state.information_state_string(p).split()
        assert words[0] == f"p{p}"
        assert f"h{p}=?" in words and not any(w.startswith(f"h{p}=") and w[-1].isdigit() for w in words)
        for q in set(range(3)) - {p}:
            assert not any(w == f"h{q}=?" for w in words)
        assert "s?" in words and not any(w.startswith("s") and w[1:].isdigit() for w in words)
        taken = [w for w in words if w.startswith("t")]
        assert all(w[-1].isdigit() == (w[1] == str(p)) for w in taken)
        assert any(w.endswith("+") for w in words) and any(w.endswith("-") for w in words)


def test_resample_from_infostate_keeps_what_the_seat_knows_and_redraws_the_rest():
    """XC6: a resampled state has the seat's information state, observation and legal actions, a history
    of the same length, and (sometimes) another hand for the seat; the other seats' records stay
    consistent (the other seats see the seat's new hand)."""
    game = pyspiel.load_game("python_abracadawhat", {"players": 3})
    rng = np.random.RandomState(3)
    counts = {"resampled": 0, "other hand": 0}

    def visit(state):
        if state.is_chance_node() or len(state.history()) % 3:
            return
        p = state.current_player()
        world = state.resample_from_infostate(p, rng.uniform)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_string(p) == state.observation_string(p)
        assert world.observation_tensor(p) == state.observation_tensor(p)
        assert len(world.history()) == len(state.history()) and world.legal_actions() == state.legal_actions()
        for q in set(range(3)) - {p}:
            assert world.observation_string(q).split("hands=")[1].split()[0].split(",")[p] == \
                "".join(map(str, world.st.hand(p)))
        counts["resampled"] += 1
        counts["other hand"] += world.st.hand(p) != state.st.hand(p)

    play(game.new_initial_state(), rng, visit=visit)
    assert counts["resampled"] > 10 and counts["other hand"] > 0


def test_a_state_from_an_engine_state_starts_from_the_observations():
    game = pyspiel.load_game("python_abracadawhat", {"players": 2})
    engine = State.new(2, seed=5)
    state = game.state_from(engine)
    assert state.information_state_string(0) == f"p0 obs[{engine.observation(0)}]"
    assert state.legal_actions() == [m.code - 1 for m in engine.legal_moves()]
    assert [state.move_of(a) for a in state.legal_actions()] == engine.legal_moves()
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert world.information_state_string(0) == state.information_state_string(0)
    state.apply_action(4)                                           # cast 5
    assert engine.to_text() == State.new(2, seed=5).to_text()       # the engine state was copied
    with pytest.raises(ValueError):
        game.state_from(State.new(3, seed=5))


def test_resampling_a_wrapped_state_after_moves_redraws_the_hand_it_was_wrapped_with():
    """After game.state_from and moves within the same round, a resampled world starts from another
    wrapped state whose hidden zones are redrawn too; the seat's own earlier announcements of the round
    (the log, XC12) still hold there (XC6: the engine's posterior allows the hand it was given)."""
    game = pyspiel.load_game("python_abracadawhat", {"players": 3})
    rng = np.random.RandomState(9)
    engine = State.new(3, seed=4)
    for _ in range(4):                                           # a log of this round before the wrap
        engine.play(engine.legal_moves()[rng.randint(len(engine.legal_moves()))])
    state = game.state_from(engine)
    for _ in range(6):                                           # and moves after it
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    p = state.current_player()
    assert state.history() and state.st.round == engine.round
    hands = set()
    for _ in range(5):
        world = state.resample_from_infostate(p, rng.uniform)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_string(p) == state.observation_string(p)
        anchor = State.from_text(world.anchor)
        assert anchor.hand(p) in anchor.posterior(p) and world.st.hand(p) in world.st.posterior(p)
        hands.add(anchor.hand(p))
    assert len(hands) > 1


def test_openspiel_ismcts_plays_a_whole_game_through_the_adapter():
    """OpenSpiel's ISMCTSBot (random rollouts) moves for seat 0 from the initial state; every search draws
    its worlds with the game's resample_from_infostate."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_abracadawhat", {"players": 2})
    rng = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 5, random_state=rng)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
    state, moves = play_bot_against_random(game, bot, rng)
    assert state.is_terminal() and len(moves) > 5 and set(moves) <= {f"cast {k}" for k in range(1, 9)} | {"end"}


def test_openspiel_mcts_spec_plays_abracadawhat_in_a_tournament(tmp_path):
    from clients import tournament as T
    from clients.bots import make_bot

    bot = make_bot("openspiel-mcts:simulations=3", seed=1, players=3, game="abracadawhat")
    for st in (State.new(3, seed=2), State.new(2, seed=3, variants="xv2")):   # the game follows the state
        before = st.to_text()
        move, _ = bot.choose(st)
        assert move in st.legal_moves() and st.to_text() == before
    tasks = T.schedule(["openspiel-mcts:simulations=2", "random"], games=2, seed=1, game="abracadawhat")
    tasks += T.schedule(["openspiel-mcts:simulations=2", "random", "counting"], games=1, seats=3, seed=2,
                        game="abracadawhat", setup="xv1")
    with T.make_executor("inline") as ex:
        res = T.run_tournament(tasks, str(tmp_path / "o.jsonl"), ex.executor, progress=False)
    assert len(res.records) == len(tasks) > 2 and all(r["result"]["winners"] for r in res.records)
