"""The tree-less self-play generator (search/treeless.pxi): games at one ply by the network, a few
decisions kept per game with their result, the network's estimate, TD(lambda) returns and playout means;
its shards, training on them, and the selfplay command."""
from __future__ import annotations

import os

import numpy as np
import pytest

from engine_c import State
from engine_c.spellbook.game import SPELLBOOK
from search import _mcts
from search.selfplay import SelfPlayConfig, list_shards, load_shards, plan_shards, read_shard, run_shard
from test_learned import random_model

FACTORY = "clients.selfplay:registry_game"


def roots(count: int, players=(2, 3, 4), first_seed: int = 0) -> list[bytes]:
    return [SPELLBOOK.state_bytes(State.new(players=players[s % len(players)], spells="classic", seed=s))
            for s in range(first_seed, first_seed + count)]


@pytest.fixture(scope="module")
def network():
    return random_model(seed=1).network(SPELLBOOK)


def play(network, count=12, **options):
    return _mcts.treeless_games(SPELLBOOK.vtable, roots(count), {"seed": 5, **options}, network)


def present(out: dict) -> np.ndarray:
    """Which columns of the generator's per-seat rows (as wide as search/'s most seats) are in the game."""
    return np.arange(out["z_win"].shape[1])[None, :] < out["players"][:, None]


def test_games_keep_their_decisions_with_the_result_relative_to_the_decider(network):
    out = play(network, keep=4, lambdas=[1.0])
    assert out["games"] == 12 and out["dropped"] == 0 and len(out["seat"]) == 48
    assert out["decisions"] > 12 * 40                       # whole games, not a few moves
    mask = present(out)
    assert np.allclose(out["z_win"].sum(1), 1.0) and np.all(out["z_win"][~mask] == 0)
    assert out["x"].shape == (48, _mcts.feature_info(SPELLBOOK.vtable)[0])
    for g in range(12):                                      # in play order, distinct decisions
        plies = out["ply"][out["game"] == g]
        assert len(plies) == 4 and np.all(np.diff(plies) > 0)
    # the decider's features: the same as the features of what that seat observes
    assert np.all((out["seat"] >= 0) & (out["seat"] < out["players"]))
    # lambda = 1: the TD return is the result
    assert np.allclose(out["td_win"][:, 0], out["z_win"])


def test_the_same_roots_options_and_network_give_the_same_rows(network):
    a = play(network, keep=3, lambdas=[0.5], playouts=4, epsilon=0.1)
    b = play(network, keep=3, lambdas=[0.5], playouts=4, epsilon=0.1)
    c = play(network, keep=3, lambdas=[0.5], playouts=4, epsilon=0.1, seed=6)
    for key in ("x", "seat", "ply", "z_win", "v_win", "p_win", "td_win"):
        assert np.array_equal(a[key], b[key], equal_nan=True), key
    assert not np.array_equal(a["ply"], c["ply"])            # another seed, other games


def test_td_zero_is_the_networks_estimate_at_the_next_decision(network):
    """G_t(0) = v_{t+1}: where two consecutive decisions of a game are both kept, the first's TD(0)
    return is the second's estimate, turned to the first decider's seat order."""
    out = play(network, count=6, keep=64, lambdas=[0.0, 0.7, 1.0])
    checked = 0
    for r in range(len(out["seat"]) - 1):
        if out["game"][r] != out["game"][r + 1] or out["ply"][r + 1] != out["ply"][r] + 1:
            continue
        n, s0, s1 = int(out["players"][r]), int(out["seat"][r]), int(out["seat"][r + 1])
        nxt = np.array([out["v_win"][r + 1][(s0 - s1 + k) % n] for k in range(n)])
        assert np.allclose(out["td_win"][r, 0, :n], nxt, atol=1e-5)
        # lambda between: a mix of the next estimate and the longer return, so a probability vector
        assert np.isclose(out["td_win"][r, 1, :n].sum(), 1.0, atol=1e-5)
        checked += 1
    assert checked > 20


def test_playout_means_are_win_shares_from_the_deciders_view(network):
    out = play(network, keep=2, playouts=24)
    mask = present(out)
    assert not np.isnan(out["p_win"][mask]).any() and np.allclose(out["p_win"].sum(1), 1.0, atol=1e-5)
    assert np.all(out["p_win"][~mask] == 0)


def test_value_mode_plays_greedily_and_without_a_network_moves_are_random(network):
    greedy = play(network, count=4, mode="value", keep=2, lambdas=[0.7])
    assert greedy["games"] == 4 and not np.isnan(greedy["v_win"][present(greedy)]).any()
    random_games = _mcts.treeless_games(SPELLBOOK.vtable, roots(4), {"keep": 2, "lambdas": [0.7], "seed": 5})
    assert random_games["games"] == 4 and np.isnan(random_games["v_win"]).all()
    assert np.isnan(random_games["td_win"]).all()             # no estimates to bootstrap on


@pytest.mark.parametrize("options, field", [({"mode": "tree"}, "mode"), ({"epsilon": 2.0}, "epsilon"),
                                            ({"keep": 0}, "keep"), ({"lambdas": [1.5]}, "lambdas"),
                                            ({"mode": "value"}, "mode")])
def test_bad_options_are_refused_naming_the_option(options, field):
    with pytest.raises(ValueError, match=field):
        _mcts.treeless_games(SPELLBOOK.vtable, roots(1), options, None)


def _treeless_run(out: str, games: int, model: str | None, **kw) -> list[dict]:
    cfg = SelfPlayConfig(generator="treeless", model_path=model, keep=3, td_lambdas=(0.0, 0.7, 1.0), **kw)
    tasks = plan_shards(out, games, 4, 11, cfg, FACTORY, {"game": "spellbook", "players": [2, 3]})
    return [run_shard(vars(t)) for t in tasks]


def test_treeless_shards_resume_and_train_with_td_targets(tmp_path):
    from search.train import TrainConfig, train, value_target

    model = str(tmp_path / "m.npz")
    random_model(seed=2).save(model)
    out = str(tmp_path / "t")
    os.makedirs(out)
    assert [s["games"] for s in _treeless_run(out, 8, model, value_playouts=4)] == [4, 4]
    assert _treeless_run(out, 8, model, value_playouts=4) == []          # resumed: nothing left
    arrays, meta = read_shard(list_shards(out)[0])
    assert meta["generator"] == "treeless" and meta["td_lambdas"] == [0.0, 0.7, 1.0]
    assert arrays["move_offset"].tolist() == [0] * (len(arrays["seat"]) + 1)   # value rows only
    # with search shards: one load, the tree-less rows with TD returns, the search rows without
    search_dir = str(tmp_path / "s")
    os.makedirs(search_dir)
    from search.search import SearchOptions
    for t in plan_shards(search_dir, 1, 1, 3, SelfPlayConfig(options=SearchOptions(iterations=8)), FACTORY,
                         {"game": "spellbook", "players": [2]}):
        run_shard(vars(t))
    data, _ = load_shards(list_shards(out) + list_shards(search_dir))
    k = 24
    assert data["td_lambdas"].tolist() == [0.0, 0.7, 1.0] and np.isnan(data["td_win"][k:]).all()
    cfg = TrainConfig(hidden=(8, 8), epochs=1, batch=16, holdout=0.2, seed=1, td_lambda=0.7)
    target = value_target(data, np.arange(len(data["seat"])), cfg)
    assert np.allclose(target[:k], data["td_win"][:k, 1]) and not np.isnan(target).any()
    trained, report = train(list_shards(out) + list_shards(search_dir), cfg, log=lambda _: None)
    assert np.isfinite(report["held"]["value"]) and np.isfinite(report["history"][0]["policy"])
    with pytest.raises(ValueError, match="td_lambda"):
        train(list_shards(out), TrainConfig(hidden=(8, 8), epochs=1, td_lambda=0.3), log=lambda _: None)


def test_selfplay_command_with_the_treeless_generator(tmp_path):
    from clients.cli import main

    model = str(tmp_path / "m.npz")
    random_model(seed=3).save(model)
    out = str(tmp_path / "cli")
    assert main(["selfplay", "--generator", "treeless", "--model", model, "--out", out, "--games", "6",
                 "--games-per-shard", "3", "--players", "2", "--value-playouts", "2", "--no-progress"]) == 0
    assert len(list_shards(out)) == 2
    arrays, meta = read_shard(list_shards(out)[0])
    assert meta["games"] == 3 and len(arrays["seat"]) == 12 and not np.isnan(arrays["p_win"][:, :2]).any()
    assert main(["selfplay", "--generator", "treeless", "--mode", "value", "--out", out, "--games", "1"]) == 2
    assert main(["selfplay", "--generator", "treeless", "--out", out, "--games", "1", "--keep", "0"]) == 2
    assert main(["selfplay", "--generator", "treeless", "--out", out, "--games", "1",
                 "--td-lambdas", "1.2"]) == 2


# ---------------------------------------------------------------------------------------------- rollout head
def test_a_rollout_head_trains_on_playout_means_and_replaces_the_leaf_rollout(tmp_path):
    """TrainConfig.rollout_weight gives the model a rollout head fitted to the playouts' means; the
    compiled head matches the numpy reference, and the search can take a leaf's rollout share from it
    (rollout_head=True): no rollout is played, and the answer is reproducible."""
    from search import SearchOptions, SearchOptionError, ismcts
    from search.model import Model
    from search.train import TrainConfig, train

    model = str(tmp_path / "m.npz")
    random_model(seed=4).save(model)
    out = str(tmp_path / "t")
    os.makedirs(out)
    _treeless_run(out, 8, model, value_playouts=8)
    plain, _ = train(list_shards(out), TrainConfig(hidden=(8, 8), epochs=1, batch=16, seed=2), log=lambda _: None)
    assert not plain.has_rollout_head and "wr" not in plain.arrays
    headed, report = train(list_shards(out), TrainConfig(hidden=(8, 8), epochs=2, batch=16, seed=2,
                                                         rollout_weight=1.0), log=lambda _: None)
    assert headed.has_rollout_head and np.isfinite(report["held"]["rollout"])
    path = str(tmp_path / "headed.npz")
    headed.save(path)
    loaded = Model.load(path)
    assert loaded.has_rollout_head
    state = State.new(players=3, spells="classic", seed=9)
    raw, observer = SPELLBOOK.state_bytes(state), state.current_player
    net = loaded.network(SPELLBOOK)
    compiled = net.rollout_estimate(SPELLBOOK.vtable, raw, observer)
    x = np.frombuffer(_mcts.state_features(SPELLBOOK.vtable, raw, observer), np.float32)
    reference = loaded.rollout(x, 3)[0]
    assert np.allclose([compiled[(observer + k) % 3] for k in range(3)], reference[:3], atol=1e-5)
    opts = SearchOptions(iterations=200, model=path, rollout_mix=0.5, rollout_head=True, seed=3)
    a, b = ismcts(SPELLBOOK, state, opts), ismcts(SPELLBOOK, state, opts)
    assert a.move == b.move and a.iterations == 200
    with pytest.raises(SearchOptionError) as e:
        ismcts(SPELLBOOK, state, SearchOptions(iterations=50, model=model, rollout_head=True))
    assert e.value.field == "rollout_head"
    with pytest.raises(SearchOptionError) as e:
        ismcts(SPELLBOOK, state, SearchOptions(iterations=50, rollout_head="yes"))
    assert e.value.field == "rollout_head"
    with pytest.raises(ValueError, match="rollout head"):
        random_model(seed=4).network(SPELLBOOK).rollout_estimate(SPELLBOOK.vtable, raw, observer)


def test_train_command_takes_a_td_target_a_width_and_a_rollout_head(tmp_path):
    from clients.cli import main
    from search.model import Model

    model = str(tmp_path / "m.npz")
    random_model(seed=5).save(model)
    data = str(tmp_path / "t")
    assert main(["selfplay", "--generator", "treeless", "--model", model, "--out", data, "--games", "8",
                 "--games-per-shard", "4", "--players", "2", "--value-playouts", "2", "--no-progress"]) == 0
    out = str(tmp_path / "trained.npz")
    assert main(["train", "--data", data, "--out", out, "--epochs", "1", "--hidden", "8", "8",
                 "--td-lambda", "1.0", "--rollout-weight", "0.5"]) == 0
    trained = Model.load(out)
    assert trained.meta["hidden"] == [8, 8] and trained.has_rollout_head
    assert trained.meta["training"]["config"]["td_lambda"] == 1.0
    assert main(["train", "--data", data, "--out", out, "--td-lambda", "1.5"]) == 2
    assert main(["train", "--data", data, "--out", out, "--td-lambda", "0.3"]) == 2    # not recorded
    assert main(["train", "--data", data, "--out", out, "--hidden", "0", "8"]) == 2


# ---------------------------------------------------------------------------------------------- policy trunk
def test_a_policy_trunk_of_its_own_leaves_the_value_to_the_value_trunk(tmp_path):
    """TrainConfig.policy_hidden gives the policy head its own two layers: the compiled priors and values
    match the numpy reference, the file round-trips, the value is the same as without the policy's
    gradients in its trunk (policy_weight 0 trains the same value), and a file whose policy arrays do not
    fit its meta is refused naming the array."""
    from clients.cli import main
    from search import SearchOptions, ismcts
    from search.model import Model
    from search.train import TrainConfig, train

    model = str(tmp_path / "m.npz")
    random_model(seed=6).save(model)
    out = str(tmp_path / "t")
    os.makedirs(out)
    _treeless_run(out, 8, model, value_playouts=2)
    search_dir = str(tmp_path / "s")
    os.makedirs(search_dir)
    for t in plan_shards(search_dir, 2, 2, 5, SelfPlayConfig(options=SearchOptions(iterations=8)), FACTORY,
                         {"game": "spellbook", "players": [2]}):
        run_shard(vars(t))
    shards = list_shards(out) + list_shards(search_dir)
    cfg = dict(hidden=(8, 8), epochs=1, batch=16, seed=2, td_lambda=1.0, policy_hidden=(6, 5))
    trunk, report = train(shards, TrainConfig(**cfg), log=lambda _: None)
    assert trunk.policy_hidden == (6, 5) and trunk.arrays["wp"].shape[0] == 5
    assert np.isfinite(report["held"]["policy"])
    silent, _ = train(shards, TrainConfig(**cfg, policy_weight=0.0), log=lambda _: None)
    for k in ("w1", "b1", "w2", "b2", "wv", "bv"):          # the policy's loss never reaches the value
        assert np.allclose(trunk.arrays[k], silent.arrays[k], atol=1e-6), k
    path = str(tmp_path / "trunk.npz")
    trunk.save(path)
    loaded = Model.load(path)
    state = State.new(players=2, spells="classic", seed=4)
    raw, observer = SPELLBOOK.state_bytes(state), state.current_player
    x = np.frombuffer(_mcts.state_features(SPELLBOOK.vtable, raw, observer), np.float32)
    win, _, q = loaded.forward(x, 2)
    net = loaded.network(SPELLBOOK)
    compiled_win, _ = net.evaluate(SPELLBOOK.vtable, raw, observer)
    assert np.allclose([compiled_win[(observer + k) % 2] for k in range(2)], win[0, :2], atol=1e-5)
    moves = [m.code for m in state.legal_moves()]
    mf = np.frombuffer(_mcts.move_features(SPELLBOOK.vtable, raw, moves), np.float32).reshape(len(moves), -1)
    logits = mf @ q[0]
    reference = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    assert np.allclose(net.priors(SPELLBOOK.vtable, raw, observer, moves), reference, atol=1e-5)
    opts = SearchOptions(iterations=100, model=path, seed=3)
    assert ismcts(SPELLBOOK, state, opts).move == ismcts(SPELLBOOK, state, opts).move
    broken = Model(dict(loaded.arrays), dict(loaded.meta))
    broken.arrays["pw2"] = broken.arrays["pw2"][:, :4]
    with pytest.raises(ValueError, match="pw2"):
        broken.validate()
    del broken.meta["policy_hidden"]
    with pytest.raises(ValueError, match="policy"):
        broken.validate()
    cli_out = str(tmp_path / "cli.npz")
    assert main(["train", "--data", out, search_dir, "--out", cli_out, "--epochs", "1", "--hidden", "8", "8",
                 "--policy-hidden", "4", "4", "--q-weight", "0", "--td-lambda", "1.0"]) == 0
    assert Model.load(cli_out).policy_hidden == (4, 4)
    assert main(["train", "--data", out, "--out", cli_out, "--policy-hidden", "0", "4"]) == 2
    assert main(["train", "--data", out, "--out", cli_out, "--q-weight", "1.5"]) == 2
