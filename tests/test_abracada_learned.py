"""Issue 24 item 4: Abracada…What?'s learned evaluation through SpellBook's pipeline (`spellbook-ai selfplay
--game abracadawhat`, `spellbook-ai train --game abracadawhat`): shards of 5 seats from the observer's
features, a model that records its game and refuses another's, the search and its levels using it."""
from __future__ import annotations

import os

import numpy as np
import pytest

from engine_c.abracadawhat.game import ABRACADAWHAT
from engine_c.abracadawhat.state import State
from engine_c.registry import get_game
from search import _mcts
from search.bots import make_bot
from search.levels import level_options
from search.model import Model
from search.search import SearchOptions, ismcts
from search.selfplay import list_shards, load_shards, read_shard

SPELLBOOK = get_game("spellbook").adapter          # through the registry: SpellBook's engine files may move


def selfplay(*argv: str) -> int:
    from clients.cli import main

    return main(["selfplay", "--game", "abracadawhat", "--no-progress", "--executor", "inline", *argv])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two tiny runs (search and tree-less generators) and a model trained on both."""
    from clients.cli import main

    base = tmp_path_factory.mktemp("aw")
    search_dir, treeless_dir, model = str(base / "s"), str(base / "t"), str(base / "m.npz")
    assert selfplay("--out", search_dir, "--games", "4", "--games-per-shard", "1", "--players", "2", "5",
                    "--iterations", "12", "--seed", "3") == 0
    assert selfplay("--out", treeless_dir, "--generator", "treeless", "--games", "60", "--games-per-shard", "30",
                    "--value-playouts", "2", "--seed", "3") == 0
    assert main(["train", "--game", "abracadawhat", "--data", search_dir, treeless_dir, "--out", model,
                 "--epochs", "2", "--hidden", "8", "8", "--seed", "1", "-j", "1"]) == 0
    return search_dir, treeless_dir, model


def test_search_shards_hold_five_seats_of_observer_features(runs):
    search_dir, _, _ = runs
    nf, nm, fver, maxp = _mcts.feature_info(ABRACADAWHAT.vtable)
    shards = list_shards(search_dir)
    assert len(shards) == 4
    seen = set()
    for path in shards:
        arrays, meta = read_shard(path)
        assert meta["game"] == "abracadawhat" and meta["feature_version"] == fver
        assert meta["game_args"] == {"game": "abracadawhat", "players": [2, 5], "variants": ""}
        assert meta["config"]["options"]["chance"] == "open"           # the game's own search fields
        d = len(arrays["seat"])
        assert arrays["x"].shape == (d, nf) and arrays["move_x"].shape[1] == nm
        assert arrays["z_win"].shape == (d, maxp) == (d, 5)
        n = int(arrays["players"][0])
        seen.add(n)
        assert np.allclose(arrays["z_win"].sum(1), 1.0) and np.all(arrays["z_win"][:, n:] == 0)
        assert np.allclose(np.add.reduceat(arrays["visits"], arrays["move_offset"][:-1]), 1.0, atol=1e-5)
    assert seen == {2, 5}                                                # seat counts cycle by game


def test_the_same_seed_gives_the_same_shard(runs, tmp_path):
    search_dir, _, _ = runs
    again = str(tmp_path / "again")
    assert selfplay("--out", again, "--games", "1", "--games-per-shard", "1", "--players", "2", "5",
                    "--iterations", "12", "--seed", "3") == 0
    a, b = read_shard(list_shards(search_dir)[0])[0], read_shard(list_shards(again)[0])[0]
    assert all(np.array_equal(a[k], b[k]) for k in ("x", "visits", "move_code", "z_win"))


def test_treeless_shards_and_training_on_both(runs):
    search_dir, treeless_dir, model_path = runs
    data, metas = load_shards(list_shards(treeless_dir))
    assert {m["generator"] for m in metas} == {"treeless"} and data["z_win"].shape[1] == 5
    assert set(np.unique(data["players"])) <= {2, 3, 4, 5}
    model = Model.load(model_path)
    assert model.meta["game"] == "abracadawhat" and model.meta["seats"] == 5
    assert model.meta["feature_version"] == _mcts.feature_info(ABRACADAWHAT.vtable)[2]
    assert model.meta["training"]["data"]["shards"] == 6


def test_the_model_plays_five_seats_and_refuses_another_game(runs):
    _, _, model_path = runs
    st = State.new(players=5, seed=11)
    r = ismcts(ABRACADAWHAT, st, SearchOptions(iterations=60, model=model_path, chance="open", belief=True, seed=2))
    assert r.evaluator == "network" and r.model == Model.load(model_path).version
    assert abs(sum(s.prior for s in r.moves) - 1.0) < 1e-6
    with pytest.raises(ValueError, match="for 'abracadawhat', not 'spellbook'"):
        Model.load(model_path).network(SPELLBOOK)
    spellbook_model = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "models", "spellbook.npz")
    with pytest.raises(ValueError, match="for 'spellbook', not 'abracadawhat'"):
        Model.load(spellbook_model).network(ABRACADAWHAT)


def test_levels_with_the_network_keep_the_games_own_fields(runs):
    _, _, model_path = runs
    opts = level_options(6, seed=1, evaluator="network", game=ABRACADAWHAT)
    assert (opts.evaluator, opts.chance, opts.rollout, opts.belief) == ("network", "open", "heuristic", True)
    shipped = Model.load(ABRACADAWHAT.default_model_path).meta.get("search", {})     # the gated search (D77)
    assert opts.iterations == round(ABRACADAWHAT.level_table[6]["iterations"] * shipped.get("iteration_scale", 1.0))
    from search.levels import default_level

    # requests naming no level (hints, reviews) keep the 400-iteration search with the belief (D140 moved it
    # from level 5 to 6)
    default = level_options(default_level(ABRACADAWHAT), game=ABRACADAWHAT)
    assert default_level(ABRACADAWHAT) == 6 and default.belief and default.temperature == 0.15
    assert level_options(default_level(ABRACADAWHAT, "rollout"), evaluator="rollout", game=ABRACADAWHAT).iterations == 400
    weak = level_options(1, seed=1, evaluator="network", game=ABRACADAWHAT)         # a policy level (D140)
    assert weak.iterations == 1 and weak.policy_temperature > 0 and weak.chance == "open"
    bot = make_bot(f"ismcts:level=3,evaluator=network,model={model_path}", ABRACADAWHAT, seed=1)
    st = State.new(players=3, seed=4)
    move, _ = bot.choose(st)
    assert move in st.legal_moves()


def test_tree_reuse_never_offers_a_move_the_state_does_not_allow():
    """A kept tree below a cast pools determinizations where it failed: Abracada's adapter says
    tree_reuse = False, so self-play's per-seat trees start afresh (with reuse, game seed 0..11 below
    played an illegal cast: "cast 2" after a successful 8)."""
    from search.selfplay import SelfPlayConfig, play_game

    assert ABRACADAWHAT.tree_reuse is False
    cfg = SelfPlayConfig(options=SearchOptions(iterations=30, chance="open", rollout="heuristic"))
    for seed in range(12):
        assert play_game(ABRACADAWHAT, lambda sd: State.new(players=2 + sd % 4, seed=sd), seed, cfg) is not None


@pytest.mark.parametrize("argv, flag", [
    (["--players", "6"], "--players"),
    (["--players", "1", "2"], "--players"),
    (["--spells", "classic"], "--spells"),
    (["--variants", "xv9"], "--variants"),
    (["--model", "nowhere.npz"], "--model"),
])
def test_bad_selfplay_flags_exit_2_naming_the_flag(tmp_path, capsys, argv, flag):
    assert selfplay("--out", str(tmp_path / "x"), "--games", "1", *argv) == 2
    assert flag in capsys.readouterr().err


def test_bad_game_and_another_games_model_are_refused(tmp_path, capsys):
    from clients.cli import main

    assert main(["selfplay", "--game", "chess", "--out", str(tmp_path / "x")]) == 2
    assert "--game" in capsys.readouterr().err
    spellbook_model = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "models", "spellbook.npz")
    assert selfplay("--out", str(tmp_path / "x"), "--model", spellbook_model) == 2
    err = capsys.readouterr().err
    assert "--model" in err and "spellbook" in err
    assert main(["selfplay", "--out", str(tmp_path / "y"), "--variants", "xv1"]) == 2    # SpellBook has none
    assert "--variants" in capsys.readouterr().err


def test_train_refuses_shards_of_another_game(runs, tmp_path, capsys):
    from clients.cli import main

    search_dir, _, _ = runs
    assert main(["train", "--game", "spellbook", "--data", search_dir, "--out", str(tmp_path / "m.npz")]) == 2
    assert "--game" in capsys.readouterr().err
    assert main(["train", "--game", "go", "--data", search_dir, "--out", str(tmp_path / "m.npz")]) == 2
    assert "--game" in capsys.readouterr().err


def test_shards_of_two_games_do_not_train_together(runs, tmp_path):
    from search.train import TrainConfig, train
    from test_learned import _tiny_run

    search_dir, _, _ = runs
    sb = str(tmp_path / "sb")
    os.makedirs(sb)
    _tiny_run(sb, games=1)
    with pytest.raises(ValueError, match="seat widths|different games"):
        train(list_shards(search_dir) + list_shards(sb), TrainConfig(epochs=1, hidden=(4, 4)), log=lambda _: None)


def test_auto_levels_use_the_model_only_where_its_gate_passed(runs, tmp_path, monkeypatch):
    from search.levels import describe_levels

    _, _, model_path = runs
    model = Model.load(model_path)
    model.meta.update({"use_by_default": True, "levels": [4, 5], "search": {"iteration_scale": 0.8}})
    path = str(tmp_path / "default.npz")
    model.save(path)
    monkeypatch.setattr(ABRACADAWHAT, "default_model_path", path)
    low, high = level_options(5, game=ABRACADAWHAT), level_options(6, game=ABRACADAWHAT)
    assert low.evaluator == "auto" and low.iterations == round(0.8 * ABRACADAWHAT.level_table[5]["iterations"])
    assert low.chance == "open" and low.rollout == "heuristic"
    assert high.evaluator == "rollout" and high.iterations == ABRACADAWHAT.level_table[6]["iterations"]
    kinds = [d["evaluator"] for d in describe_levels(ABRACADAWHAT)]
    # the policy levels 1-2 are the network's own; 4-5 where this model's meta says its gate passed; 8-10
    # the game measured for the network by its own curve and ladder (D154, D230-f)
    assert kinds == ["network"] * 2 + ["rollout"] + ["network"] * 2 + ["rollout"] * 2 + ["network"] * 3
    st = State.new(players=2, seed=3)
    assert make_bot("ismcts:level=4", ABRACADAWHAT, seed=1).choose(st)[1]["result"].model == model.version
    assert level_options(5, evaluator="network", game=ABRACADAWHAT).evaluator == "network"   # asked for: every level
    model.meta["levels"] = [0, 11]
    with pytest.raises(ValueError, match="levels"):
        model.save(str(tmp_path / "bad.npz"))


def test_the_shipped_model_is_small_and_used_where_its_gate_passed():
    from search.levels import describe_levels

    path = ABRACADAWHAT.default_model_path
    assert os.path.getsize(path) < 200_000
    model = Model.load(path)
    assert model.meta["game"] == "abracadawhat" and model.version.startswith("g")
    gate = model.meta["gate"]["levels"]
    assert model.levels == sorted(int(k) for k, g in gate.items() if g["sprt"] == "H1")
    assert model.use_by_default == bool(model.levels)
    # the gate passed at budgets (D140: levels are matched to them by their iterations); the policy levels
    # are the network's own
    scale = model.meta["search"]["iteration_scale"]
    budgets = {round(g["challenger_iterations"] / scale) for g in gate.values() if g["sprt"] == "H1"}
    for d in describe_levels(ABRACADAWHAT):
        passed = (ABRACADAWHAT.level_table[d["level"]]["iterations"] in budgets
                  or d["level"] in ABRACADAWHAT.policy_levels or d["level"] in ABRACADAWHAT.network_levels)
        assert d["evaluator"] == ("network" if passed else "rollout")
    st = State.new(players=4, seed=2)
    r = ismcts(ABRACADAWHAT, st, level_options(min(model.levels), seed=1, game=ABRACADAWHAT))
    assert r.evaluator == "network" and r.model == model.version


def test_the_policy_levels_never_make_a_senseless_move(monkeypatch):
    """D140: Abracada…What?'s policy levels sample the policy's casts but never announce a spell of which no
    stone can be in the hand, nor end the turn while a cast is certain; the same seed gives the same move."""
    from search.search import choose_by_policy

    st = State.new(players=3, seed=7)
    moves = st.legal_moves()
    senseless = ABRACADAWHAT.senseless_moves(st, moves)
    assert senseless and all(m.kind != "end" for m in senseless)         # a deal: spells seen elsewhere
    for seed in range(40):
        r = ismcts(ABRACADAWHAT, st, level_options(1, seed=seed, game=ABRACADAWHAT))
        assert r.move not in senseless and r.iterations == 1
        assert ismcts(ABRACADAWHAT, st, level_options(1, seed=seed, game=ABRACADAWHAT)).move == r.move
    # every move senseless but one: that one, whatever the policy prefers
    stats = ismcts(ABRACADAWHAT, st, level_options(2, seed=1, game=ABRACADAWHAT)).moves
    keep = stats[-1].move
    monkeypatch.setattr(ABRACADAWHAT, "senseless_moves", lambda state, ms: [m for m in ms if m != keep])
    assert choose_by_policy(ABRACADAWHAT, st, stats, level_options(1, seed=3, game=ABRACADAWHAT)).move == keep


def test_the_search_levels_leave_out_senseless_moves():
    """D143: with avoid_senseless (every level of Abracada…What?'s table) the search's final choice is never a
    move the adapter calls senseless; the statistics still list it."""
    from search.search import MoveStats, _sensible

    st = State.new(players=3, seed=7)
    senseless = ABRACADAWHAT.senseless_moves(st, st.legal_moves())
    assert all(level_options(lv, game=ABRACADAWHAT).avoid_senseless for lv in range(1, 11))
    stats = [MoveStats(m, 100 - i, 100, 0.5, [0.5] * 3, [0.0] * 3, [0.0] * 3)
             for i, m in enumerate(senseless + [m for m in st.legal_moves() if m not in senseless])]
    assert _sensible(ABRACADAWHAT, st, stats)[0].move not in senseless           # the most visited was senseless
    assert _sensible(ABRACADAWHAT, st, stats[:len(senseless)]) == stats[:len(senseless)]     # all senseless: kept
    for seed in range(5):
        r = ismcts(ABRACADAWHAT, st, level_options(3, seed=seed, game=ABRACADAWHAT))
        assert r.move not in senseless and len(r.moves) == len(st.legal_moves())
