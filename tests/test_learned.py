"""The learned evaluation: features, the compiled network, the PUCT search, self-play data and training."""
from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

from engine_c import State
from engine_c.spellbook.game import SPELLBOOK, SpellBookGame
from search import SearchOptionError, SearchOptions, ismcts
from search import _mcts
from search.model import MODEL_FORMAT, Model, default_model
from search.selfplay import SelfPlayConfig, list_shards, plan_shards, read_shard, run_shard


def random_model(seed: int = 0, hidden: tuple[int, int] = (16, 16), version: str = "test-0") -> Model:
    nf, nm, fver, _ = _mcts.feature_info(SPELLBOOK.vtable)
    rng = np.random.default_rng(seed)
    h1, h2 = hidden
    shapes = {"w1": (nf, h1), "b1": (h1,), "w2": (h1, h2), "b2": (h2,), "wv": (h2, 4), "bv": (4,),
              "ws": (h2, 4), "bs": (4,), "wp": (h2, nm), "bp": (nm,)}
    arrays = {k: rng.normal(0, 0.3, s).astype(np.float32) for k, s in shapes.items()}
    meta = {"format": MODEL_FORMAT, "version": version, "game": "spellbook", "feature_version": fver,
            "state_features": nf, "move_features": nm, "seats": 4, "hidden": list(hidden), "score_scale": 40.0,
            "training": {}}
    return Model(arrays, meta)


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("model") / "m.npz")
    random_model().save(path)
    return path


def features(state: State, observer: int) -> np.ndarray:
    raw = SPELLBOOK.state_bytes(state)
    return np.frombuffer(_mcts.state_features(SPELLBOOK.vtable, raw, observer), np.float32)


def mid_game(players: int = 3, seed: int = 4, decisions: int = 40) -> State:
    st = State.new(players=players, spells="classic", seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    while done < decisions and not st.is_terminal():
        if st.is_chance():
            st.resolve_chance()
            continue
        moves = st.legal_moves()
        st.apply(moves[int(rng.integers(len(moves)))])
        done += 1
    while st.is_chance():
        st.resolve_chance()
    return st


# ---------------------------------------------------------------------------------------------- features
@pytest.mark.parametrize("players", [2, 3, 4])
def test_states_with_the_same_observation_give_identical_features(players):
    st = mid_game(players)
    seat = st.current_player
    for seed in (1, 2, 3):
        other = st.determinize(seat, seed=seed)     # the Pouch's order resampled: what the seat can't see
        assert other.to_text() != st.to_text()
        assert other.observation(seat) == st.observation(seat)
        assert np.array_equal(features(other, seat), features(st, seat))


def test_features_refuse_a_seat_that_is_not_in_the_game(model_file):
    st = State.new(players=2, seed=1)
    raw = SPELLBOOK.state_bytes(st)
    net = Model.load(model_file).network(SPELLBOOK)
    for bad in (-1, 2, 7):
        with pytest.raises(ValueError, match="observer"):
            _mcts.state_features(SPELLBOOK.vtable, raw, bad)
        with pytest.raises(ValueError, match="observer"):
            net.evaluate(SPELLBOOK.vtable, raw, bad)
        with pytest.raises(ValueError, match="observer"):
            net.priors(SPELLBOOK.vtable, raw, bad, [m.code for m in st.legal_moves()])


def test_features_are_seat_relative_and_see_public_changes():
    st = mid_game(2)
    f0, f1 = features(st, 0), features(st, 1)
    assert not np.array_equal(f0, f1)
    after = st.clone()
    after.apply(after.legal_moves()[-1])
    assert not np.array_equal(features(after, 0), f0)


V1 = 337                                    # feature version 1's state features: version 2's prefix
V2_GLOBAL, V2_SEAT = 10, 26                 # version 2's block: global, then one per seat (relative)


def v2_seat(x: np.ndarray, k: int) -> np.ndarray:
    """Version 2's block of the seat k places left of the observer."""
    start = V1 + V2_GLOBAL + k * V2_SEAT
    return x[start:start + V2_SEAT]


def test_features_version_2_count_what_a_seat_still_lacks_and_the_days_left():
    """Features version 2 (D100): progress towards each unlearned spell (L1, with L2's wild triples),
    the chance one Morning action completes it, points still in reach, and who still plays (E2)."""
    from positions import position

    # set1: Sacrifice (red), Levitation (purple), ... Abundance (yellow); seat 1 plays, the end triggered
    st = position(players=3, spells="set1", active=1, end=True, at="morning", altar="GsGt",
                  pools={0: "PcPtPs", 1: "RcGcBcKt", 2: "Gc"}, learned={0: {"Sacrifice": 3}})
    assert _mcts.feature_info(SPELLBOOK.vtable)[:3] == (V1 + V2_GLOBAL + 4 * V2_SEAT, 69, 2)
    x = features(st, 1)
    assert x[V1 + 9] == pytest.approx(1 / 3)            # one Day after this one: seat 2's (E2)
    me, left, right = v2_seat(x, 0), v2_seat(x, 1), v2_seat(x, 2)     # seats 1, 2, 0
    assert (me[21], left[21], right[21]) == (0.0, 1.0, 0.0)         # only seat 2 still has a Day
    # seat 0: three purple tokens, Levitation learnable at level 3 (progress 1), 3 of 5 for level 5
    assert right[1] == 1.0 and right[7 + 1] == pytest.approx(3 / 5) and right[14 + 1] == 1.0
    assert right[0] == 0.0 and right[24] == pytest.approx((3 - 1) / 20)   # Sacrifice learned: L5 adds 2
    assert right[25] == pytest.approx(1 / 7) and right[23] == pytest.approx(3 / 20)   # Levitation L3: 3 pts
    # seat 1: no purple, but Rc Gc Bc make one wild (L2): one real purple still lacking and one more
    assert me[1] == pytest.approx(1 / 3)
    # ... and only drawing two purple tokens completes it in one Morning (no purple on the Altar)
    pouch = st._to_raw()["pouch"]
    k, n = sum(pouch[3:6]), sum(pouch)
    assert me[14 + 1] == pytest.approx(k * (k - 1) / (n * (n - 1)), rel=1e-5)
    # green: Gc real + the Rc Bc... no second c-triple; a green token on the Altar completes nothing yet
    assert me[2] == pytest.approx(1 / 3) and me[14 + 2] < 1.0


def test_a_model_of_feature_version_1_reads_the_first_columns_of_version_2(tmp_path):
    """Version 2 appends to version 1 (GameVTable.prefix_feature_version): a version-1 model (the shipped
    g5 among them) loads and evaluates exactly as on its own features; other sizes are refused."""
    nf, nm, _, _ = _mcts.feature_info(SPELLBOOK.vtable)
    assert _mcts.feature_prefix(SPELLBOOK.vtable) == (1, V1)
    old = random_model(seed=5)
    old.arrays["w1"] = old.arrays["w1"][:V1]
    old.meta.update(feature_version=1, state_features=V1)
    old.validate()
    net = old.network(SPELLBOOK)
    for players in (2, 4):
        st = mid_game(players, seed=players + 10)
        seat = st.current_player
        win, _ = net.evaluate(SPELLBOOK.vtable, SPELLBOOK.state_bytes(st), seat)
        x = features(st, seat)
        ref, _, _ = old.forward(x[:V1], players)
        assert np.allclose([win[(seat + k) % players] for k in range(players)], ref[0, :players], atol=1e-5)
        assert np.allclose(old.forward(x, players)[0], ref)          # the reference reads the prefix too
    r = ismcts(SPELLBOOK, mid_game(2), SearchOptions(iterations=60, model=_saved(old, tmp_path / "v1.npz")))
    assert r.model == old.version
    for version, width in ((1, V1 + 1), (2, V1), (3, nf)):
        bad = random_model(seed=6)
        bad.arrays["w1"] = bad.arrays["w1"][:width] if width <= nf else bad.arrays["w1"]
        bad.meta.update(feature_version=version, state_features=width)
        with pytest.raises(ValueError, match="feature"):
            bad.network(SpellBookGame())


def _saved(model: Model, path) -> str:
    model.save(str(path))
    return str(path)


# ---------------------------------------------------------------------------------------------- network
def test_compiled_network_matches_the_numpy_reference(model_file):
    model = Model.load(model_file)
    net = model.network(SPELLBOOK)
    for players in (2, 3, 4):
        st = mid_game(players, seed=players)
        seat = st.current_player
        win, scores = net.evaluate(SPELLBOOK.vtable, SPELLBOOK.state_bytes(st), seat)
        ref_win, ref_scores, q = model.forward(features(st, seat), players)
        rel = [(seat + k) % players for k in range(players)]
        assert np.allclose([win[p] for p in rel], ref_win[0, :players], atol=1e-5)
        assert np.allclose([scores[p] for p in rel], ref_scores[0, :players], atol=1e-3)
        assert abs(sum(win) - 1) < 1e-9
        moves = [m.code for m in st.legal_moves()]
        priors = net.priors(SPELLBOOK.vtable, SPELLBOOK.state_bytes(st), seat, moves)
        mf = np.frombuffer(_mcts.move_features(SPELLBOOK.vtable, SPELLBOOK.state_bytes(st), moves),
                           np.float32).reshape(len(moves), -1)
        logits = mf @ q[0]
        ref = np.exp(logits - logits.max())
        assert np.allclose(priors, ref / ref.sum(), atol=1e-5)


def test_a_model_file_that_is_not_one_is_refused_with_its_name(tmp_path, model_file):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="bad.npz"):
        Model.load(str(bad))
    m = Model.load(model_file)
    m.arrays["w1"] = m.arrays["w1"][:10]
    with pytest.raises(ValueError, match="w1"):
        m.validate()
    wrong = Model.load(model_file)
    wrong.meta["feature_version"] = 999
    with pytest.raises(ValueError, match="feature version"):
        wrong.network(SpellBookGame())


def test_one_evaluation_is_cheap(model_file):
    """Not a timing assertion of the target (bench/strength.py measures eval_us): a sanity bound that
    catches an evaluation gone quadratic."""
    net = Model.load(model_file).network(SPELLBOOK)
    st = State.new(players=4, seed=1)
    seconds = net.time_evaluations(SPELLBOOK.vtable, SPELLBOOK.state_bytes(st), 0, 2000)
    assert seconds / 2000 < 200e-6


# ---------------------------------------------------------------------------------------------- search
def test_network_search_is_reproducible_and_reports_its_model(model_file):
    st = mid_game(2, seed=9)
    opts = SearchOptions(iterations=600, evaluator="network", model=model_file, seed=5)
    a, b = ismcts(SPELLBOOK, st, opts), ismcts(SPELLBOOK, st, opts)
    assert a.move == b.move and [m.visits for m in a.moves] == [m.visits for m in b.moves]
    assert a.evaluator == "network" and a.model == "test-0"
    assert a.iterations == 600 and a.move in st.legal_moves()
    assert abs(sum(m.prior for m in a.moves) - 1) < 1e-3
    two = ismcts(SPELLBOOK, st, SearchOptions(iterations=600, evaluator="network", model=model_file, seed=5,
                                              threads=2))
    assert two.iterations == 600


def test_root_halving_shares_the_budget_among_the_policys_best_moves(model_file):
    """Sequential Halving at the root: only the policy's `root_halving` best moves are searched, each
    phase gives the survivors equal visits, and the survivor of the last phase is the most visited move
    (so it is the move played). Reproducible like any fixed-seed search."""
    st = State.new(players=2, spells="classic", seed=9)
    assert len(st.legal_moves()) > 4
    opts = SearchOptions(iterations=800, evaluator="network", model=model_file, seed=3, root_halving=4)
    r = ismcts(SPELLBOOK, st, opts)
    searched = sorted((m for m in r.moves if m.visits), key=lambda m: -m.visits)
    assert len(searched) == 4
    assert {m.move for m in searched} == {m.move for m in sorted(r.moves, key=lambda m: -m.prior)[:4]}
    assert r.move == searched[0].move and searched[0].visits > searched[1].visits
    assert searched[-1].visits >= (800 - 100) // 2 // 4 - 1        # phase 1: a quarter of half the budget
    again = ismcts(SPELLBOOK, st, opts)
    assert [m.visits for m in again.moves] == [m.visits for m in r.moves]
    with pytest.raises(SearchOptionError, match="root_halving"):
        SearchOptions(root_halving=-1).validate()


def test_rollout_search_stays_a_named_option(model_file):
    st = mid_game(2, seed=9)
    r = ismcts(SPELLBOOK, st, SearchOptions(iterations=200, evaluator="rollout", model=model_file))
    assert r.evaluator == "rollout" and r.model == ""


def leaning_model(p_decider: float, players: int = 2, bias: dict | None = None) -> Model:
    """A model whose value ignores the state: the deciding seat wins with probability p_decider, the
    others share the rest (the lean the turn-passing step measures and the search removes)."""
    m = random_model()
    for k in ("w1", "w2", "wv", "ws"):
        m.arrays[k][:] = 0
    others = (1 - p_decider) / (players - 1)
    m.arrays["bv"][:] = np.log([p_decider] + [others] * 3).astype(np.float32)
    if bias is not None:
        m.meta["mover_bias"] = bias
    return m


@pytest.mark.parametrize("players", [2, 3])
def test_training_measures_how_much_a_model_favours_the_seat_to_move(players):
    """A value that gives the decider 0.7 whatever the state is 0.7 - 1/n too optimistic for the seat to
    move; the estimator (a seat's estimate falls when the turn passes) finds exactly that, and an
    unbiased value (1/n for everyone) measures 0."""
    from search.train import measure_mover_bias

    x = np.zeros((12, _mcts.feature_info(SPELLBOOK.vtable)[0]), np.float16)
    seat = np.array([0, 0, 1, 1, 0, 1, 2, 2, 0, 1, 1, 0]) % players
    data = {"x": x, "seat": seat, "game": np.array([0] * 6 + [1] * 6), "players": np.full(12, players)}
    lean = measure_mover_bias(leaning_model(0.7, players), data, np.arange(12))
    assert lean[str(players)] == pytest.approx(0.7 - 1 / players, abs=1e-4)
    fair = measure_mover_bias(leaning_model(1 / players, players), data, np.arange(12))
    assert fair[str(players)] == pytest.approx(0.0, abs=1e-4)


def test_a_model_file_with_a_malformed_lean_is_refused(tmp_path):
    import json

    path = str(tmp_path / "bad.npz")
    m = leaning_model(0.7, 2, bias={"2": "a lot"})
    np.savez(path, meta=np.array(json.dumps(m.meta)), **m.arrays)       # save() would refuse it
    with pytest.raises(SearchOptionError, match="mover_bias"):
        ismcts(SPELLBOOK, mid_game(2), SearchOptions(iterations=10, evaluator="network", model=path))


def test_levels_follow_the_search_a_model_was_gated_with(tmp_path):
    """A shipped model's meta may carry its own search (the pipeline's FINAL_SEARCH); the strength levels
    then use its leaves and scale their iterations, and a malformed one is refused with its name."""
    import dataclasses
    import json

    from search.levels import level_options
    from search.model import Model

    base = Model.load(SPELLBOOK.default_model_path)
    own = Model(arrays=base.arrays, meta={**base.meta, "search": {"rollout_mix": 0.0, "iteration_scale": 3.0}})
    path = str(tmp_path / "own.npz")
    own.save(path)
    game = dataclasses.replace(SPELLBOOK) if dataclasses.is_dataclass(SPELLBOOK) else type(SPELLBOOK)()
    game.default_model_path = path
    plain, scaled = level_options(10, game=SPELLBOOK), level_options(10, game=game)     # a network level (D104)
    assert scaled.rollout_mix == 0.0 and scaled.iterations == 3 * plain.iterations
    assert level_options(5, game=game, evaluator="rollout") == level_options(5, game=SPELLBOOK, evaluator="rollout")
    bad = str(tmp_path / "bad.npz")
    meta = {**base.meta, "search": {"rollout_mix": 2.0}}
    np.savez(bad, meta=np.array(json.dumps(meta)), **base.arrays)
    with pytest.raises(ValueError, match="search"):
        Model.load(bad)


def test_the_search_removes_the_models_lean_towards_the_seat_to_move(tmp_path):
    """With the lean removed every leaf is worth 1/2 to both seats, whoever is to move there, so every
    root move is worth 1/2 (rollouts off: the network alone values the leaves). Uncorrected, a move
    whose leaves fall in the searching seat's own Day looks better than one whose leaves fall in the
    other seat's (unbias_mover=False, the default)."""
    path = str(tmp_path / "lean.npz")
    leaning_model(0.7, 2, bias={"2": 0.2}).save(path)
    st = mid_game(2, seed=9)
    opts = dict(iterations=300, evaluator="network", model=path, rollout_mix=0.0, objective="win", seed=2)
    fair = ismcts(SPELLBOOK, st, SearchOptions(**opts, unbias_mover=True))
    visited = [m for m in fair.moves if m.visits]
    assert visited and all(m.win_probability[fair.player] == pytest.approx(0.5, abs=1e-6) for m in visited)
    raw = ismcts(SPELLBOOK, st, SearchOptions(**opts))                 # the default: raw values
    assert any(abs(m.win_probability[raw.player] - 0.5) > 0.1 for m in raw.moves if m.visits)


def test_network_without_a_model_is_a_clear_error(tmp_path):
    game = SpellBookGame(default_model_path=str(tmp_path / "none.npz"))
    st = State.new(players=2, seed=1)
    with pytest.raises(SearchOptionError) as e:
        ismcts(game, st, SearchOptions(iterations=10, evaluator="network"))
    assert e.value.field == "evaluator"
    assert ismcts(game, st, SearchOptions(iterations=10)).evaluator == "rollout"   # auto falls back
    with pytest.raises(SearchOptionError) as e:
        ismcts(game, st, SearchOptions(iterations=10, model=str(tmp_path / "missing.npz")))
    assert e.value.field == "model"
    with pytest.raises(SearchOptionError):
        SearchOptions(evaluator="magic").validate()


def test_network_bots_finish_games(model_file):
    from search.arena import play_game
    from search.bots import make_bot

    bots = [make_bot(f"ismcts:iterations=40,evaluator=network,model={model_file}", SPELLBOOK, seed=s)
            for s in range(3)]
    rec = play_game(lambda s: State.new(players=3, spells="classic", seed=s), bots, 3)
    assert not rec.unfinished and rec.winners


def test_the_shipped_model_loads_and_is_the_default():
    model = default_model(SPELLBOOK)
    assert model is not None, "data/models/spellbook.npz is missing"
    assert model.version and model.meta["training"]
    st = State.new(players=2, seed=3)
    assert ismcts(SPELLBOOK, st, SearchOptions(iterations=50)).model == model.version


# ---------------------------------------------------------------------------------------------- self-play and training
def _tiny_run(out_dir: str, games: int = 2, model: str | None = None, value_playouts: int = 0,
              full_share: float = 1.0):
    cfg = SelfPlayConfig(options=SearchOptions(iterations=12, evaluator="network" if model else "rollout",
                                               model=model or ""),
                         explore_decisions=2, model_path=model, value_playouts=value_playouts,
                         full_share=full_share, cheap_iterations=3)
    tasks = plan_shards(out_dir, games, 1, 7, cfg, "clients.selfplay:registry_game", {"game": "spellbook", "players": [2, 3]})
    return [run_shard(vars(t)) for t in tasks]


def test_selfplay_shards_hold_consistent_decisions_and_resume(tmp_path):
    out = str(tmp_path / "g0")
    os.makedirs(out)
    summaries = _tiny_run(out)
    assert len(summaries) == 2 and all(s["decisions"] > 10 for s in summaries)
    assert _tiny_run(out) == []                       # resumed: nothing left to play
    arrays, meta = read_shard(list_shards(out)[1])
    assert meta["feature_version"] == _mcts.feature_info(SPELLBOOK.vtable)[2]
    d = len(arrays["seat"])
    assert arrays["x"].shape == (d, meta["state_features"])
    off = arrays["move_offset"]
    assert off[0] == 0 and off[-1] == len(arrays["visits"]) == len(arrays["move_x"])
    sums = np.add.reduceat(arrays["visits"], off[:-1])
    assert np.allclose(sums, 1.0, atol=1e-5) and np.all(np.diff(off) >= 2)
    n = int(arrays["players"][0])
    assert np.allclose(arrays["z_win"].sum(1), 1.0) and set(arrays["players"]) == {n} and n in (2, 3)
    assert np.all(arrays["z_win"][:, n:] == 0) and np.all(arrays["z_score"][:, n:] == 0)   # absent seats


def test_playout_cap_randomization_records_only_the_full_searches(tmp_path):
    """Issue 22 item 4 (KataGo's playout-cap randomization): about full_share of the decisions are full
    searches and recorded; the cheap ones play on unrecorded, and the run is as reproducible as before."""
    full, capped, again = (str(tmp_path / name) for name in ("full", "capped", "again"))
    for d in (full, capped, again):
        os.makedirs(d)
    _tiny_run(full, games=1)
    _tiny_run(capped, games=1, full_share=0.25)
    _tiny_run(again, games=1, full_share=0.25)
    every, meta_full = read_shard(list_shards(full)[0])
    some, meta = read_shard(list_shards(capped)[0])
    assert meta["config"]["full_share"] == 0.25 and meta["config"]["cheap_iterations"] == 3
    assert "full_share" not in meta_full["config"]            # runs without it keep their meta
    assert 0 < len(some["seat"]) < 0.5 * len(every["seat"])
    twin = read_shard(list_shards(again)[0])[0]
    assert all(np.array_equal(some[k], twin[k]) for k in ("x", "visits", "move_code", "z_win"))
    sums = np.add.reduceat(some["visits"], some["move_offset"][:-1])
    assert np.allclose(sums, 1.0, atol=1e-5)                  # every recorded decision is a searched one


def test_selfplay_records_the_playouts_mean_as_a_value_target(tmp_path):
    from search.selfplay import load_shards
    from search.train import value_estimate

    with_playouts, without = str(tmp_path / "p"), str(tmp_path / "q")
    os.makedirs(with_playouts)
    os.makedirs(without)
    _tiny_run(with_playouts, games=1, value_playouts=40)
    _tiny_run(without, games=1)
    arrays, meta = read_shard(list_shards(with_playouts)[0])
    assert meta["config"]["value_playouts"] == 40
    n = int(arrays["players"][0])
    p = arrays["p_win"]
    assert not np.isnan(p[:, :n]).any() and np.allclose(p[:, :n].sum(1), 1.0, atol=1e-5)
    assert np.all(p[:, n:] == 0)                                        # absent seats, as z_win
    assert not np.allclose(p[:, 0], arrays["q_win"][:, 0])                # its own estimate, not the search's
    unrecorded = read_shard(list_shards(without)[0])[0]
    assert np.isnan(unrecorded["p_win"][:, :int(unrecorded["players"][0])]).all()
    # shards with and without playouts train together: the estimate is the playouts' where recorded
    data, _ = load_shards(list_shards(with_playouts) + list_shards(without))
    est = value_estimate(data, np.arange(len(data["seat"])))
    k = len(arrays["seat"])
    assert np.allclose(est[:k], p) and np.allclose(est[k:], data["q_win"][k:])


def test_training_is_reproducible_and_its_model_plays(tmp_path):
    from search.train import TrainConfig, train

    out = str(tmp_path / "g0")
    os.makedirs(out)
    _tiny_run(out, games=3)
    cfg = TrainConfig(hidden=(8, 8), epochs=2, batch=64, holdout=0.34, seed=3)
    m1, report = train(list_shards(out), cfg, log=lambda _: None)
    m2, _ = train(list_shards(out), cfg, log=lambda _: None)
    assert m1.version == m2.version and m1.version.startswith("g1-")
    assert report["held"]["ece"] is not None and 0 <= report["held"]["policy_top1"] <= 1
    path = str(tmp_path / "m.npz")
    m1.save(path)
    st = mid_game(2)
    r = ismcts(SPELLBOOK, st, SearchOptions(iterations=100, model=path))
    assert r.model == m1.version
    g1 = str(tmp_path / "g1")
    os.makedirs(g1)
    assert _tiny_run(g1, games=1, model=path)[0]["decisions"] > 0     # expert iteration: its own games


def test_training_on_an_older_feature_version_reads_its_columns(tmp_path):
    """TrainConfig.feature_version: the shards (version 2) name version 1 as their prefix, so a plan made
    before the features grew trains the same kind of model; a version they do not extend is refused."""
    from search.train import TrainConfig, train

    out = str(tmp_path / "g0")
    os.makedirs(out)
    _tiny_run(out, games=2)
    assert read_shard(list_shards(out)[0])[1]["feature_prefix"] == [1, V1]
    cfg = TrainConfig(hidden=(8, 8), epochs=1, batch=64, holdout=0.34, seed=3, feature_version=1)
    model, _ = train(list_shards(out), cfg, log=lambda _: None)
    assert (model.meta["feature_version"], model.meta["state_features"]) == (1, V1)
    assert model.arrays["w1"].shape[0] == V1
    model.network(SPELLBOOK)
    cfg.feature_version = 7
    with pytest.raises(ValueError, match="feature_version"):
        train(list_shards(out), cfg, log=lambda _: None)
    # shards of version 1 (written before the features grew) do not mix with version 2's
    from search.selfplay import write_shard
    arrays, meta = read_shard(list_shards(out)[0])
    arrays["x"] = arrays["x"][:, :V1]
    meta.update(feature_version=1, state_features=V1)
    meta.pop("feature_prefix")
    old = str(tmp_path / "old")
    os.makedirs(old)
    write_shard(os.path.join(old, "shard-00000.npz"), arrays, meta)
    cfg.feature_version = None
    with pytest.raises(ValueError, match="feature layouts"):
        train(list_shards(out) + list_shards(old), cfg, log=lambda _: None)
    assert train(list_shards(old), cfg, log=lambda _: None)[0].meta["feature_version"] == 1


def test_training_continues_from_a_model_and_can_keep_its_value(tmp_path):
    """TrainConfig.init / train_only (issue 52): a fine-tune starts from the model's weights (its widths),
    a policy-only one changes the policy's arrays only and so keeps the value's calibration map and lean; a model of
    another shape, or train_only without init or on a shared trunk, is refused naming the field."""
    from search.train import VALUE_ARRAYS, TrainConfig, train

    out = str(tmp_path / "g0")
    os.makedirs(out)
    _tiny_run(out, games=2)
    base_cfg = TrainConfig(hidden=(8, 8), policy_hidden=(6, 6), epochs=1, batch=64, holdout=0.34, seed=3)
    base, _ = train(list_shards(out), base_cfg, log=lambda _: None)
    base.meta["calibration"] = {"temperature": {"2": 0.7}}
    base.meta["mover_bias"] = {"2": 0.0123}
    init = str(tmp_path / "base.npz")
    base.save(init)
    lines = []
    cfg = TrainConfig(epochs=1, batch=64, holdout=0.34, seed=4, init=init, train_only="policy", lr=1e-2)
    tuned, report = train(list_shards(out), cfg, log=lines.append)
    assert tuned.meta["hidden"] == [8, 8] and tuned.policy_hidden == (6, 6)         # the init's widths
    assert all(np.array_equal(tuned.arrays[k], base.arrays[k]) for k in VALUE_ARRAYS)
    assert not np.array_equal(tuned.arrays["wp"], base.arrays["wp"])
    assert tuned.meta["calibration"] == base.meta["calibration"] and tuned.meta["mover_bias"] == {"2": 0.0123}
    assert tuned.meta["training"]["init"] == base.version and '"epoch": 0' in lines[0]
    assert report["held_before"]["value"] == report["held"]["value"]              # the value did not move
    cfg = TrainConfig(epochs=1, batch=64, holdout=0.34, seed=4, init=init, train_only="value", lr=1e-2)
    tuned, _ = train(list_shards(out), cfg, log=lambda _: None)
    assert np.array_equal(tuned.arrays["pw1"], base.arrays["pw1"]) and "calibration" not in tuned.meta
    assert tuned.meta["mover_bias"] != {"2": 0.0123}                            # measured anew
    assert not np.array_equal(tuned.arrays["w1"], base.arrays["w1"])
    for bad, field in [(TrainConfig(train_only="policy"), "train_only"),
                       (TrainConfig(init=init, train_only="everything"), "train_only"),
                       (TrainConfig(init=init, feature_version=1), "init")]:
        with pytest.raises(ValueError, match=field):
            train(list_shards(out), bad, log=lambda _: None)
    shared = str(tmp_path / "shared.npz")
    train(list_shards(out), TrainConfig(hidden=(8, 8), epochs=1, batch=64, seed=3), log=lambda _: None)[0].save(shared)
    with pytest.raises(ValueError, match="train_only"):
        train(list_shards(out), TrainConfig(init=shared, train_only="policy"), log=lambda _: None)
    from clients.cli import main

    assert main(["train", "--data", out, "--train-only", "policy"]) == 2          # names --train-only
    assert main(["train", "--data", out, "--init", init, "--hidden", "8", "8"]) == 2
    cli_out = str(tmp_path / "cli.npz")
    assert main(["train", "--data", out, "--init", init, "--train-only", "policy", "--epochs", "1",
                 "--lr", "0.01", "--out", cli_out, "--generation", "2"]) == 0
    assert Model.load(cli_out).meta["training"]["init"] == base.version


def test_selfplay_command(tmp_path, capsys):
    from clients.cli import main

    out = str(tmp_path / "cli")
    assert main(["selfplay", "--out", out, "--games", "1", "--players", "2", "--iterations", "8",
                 "--no-progress"]) == 0
    assert len(list_shards(out)) == 1
    assert main(["selfplay", "--out", out, "--games", "1", "--iterations", "0"]) == 2
    assert main(["selfplay", "--out", out, "--games", "1", "--value-playouts", "-1"]) == 2
    with_playouts = str(tmp_path / "cli-playouts")
    assert main(["selfplay", "--out", with_playouts, "--games", "1", "--players", "2", "--iterations", "8",
                 "--value-playouts", "16", "--no-progress"]) == 0
    arrays, meta = read_shard(list_shards(with_playouts)[0])
    assert meta["config"]["value_playouts"] == 16 and not np.isnan(arrays["p_win"][:, :2]).any()


def test_the_training_pipeline_runs_every_stage_and_resumes(tmp_path, monkeypatch):
    """`make train`'s pipeline on a tiny plan: self-play, training, gates, ratings against the rollout
    search, calibration and shipping; a second run finds every stage done and changes nothing."""
    import json

    from clients import train as T

    monkeypatch.setattr(T, "GEN0", {"games": 3, "iterations": 12, "evaluator": "rollout"})
    monkeypatch.setattr(T, "GENERATIONS", [{"games": 2, "iterations": 12}])
    monkeypatch.setattr(T, "GATE", {"pairs": 1, "network_iterations": 10, "rollout_iterations": 10, "elo0": 0.0,
                                    "elo1": 50.0})
    monkeypatch.setattr(T, "CALIBRATION", {"games": 2, "seed": 5, "level": 1})
    monkeypatch.setattr(T, "MODEL_PLAN", {2: {"window": 1, "epochs": 1}})
    monkeypatch.setattr(T, "TREELESS", [{"mode": "policy", "games": 12, "value_playouts": 2, "td_lambda": 0.7},
                                        {"mode": "value", "games": 12, "value_playouts": 0, "td_lambda": 1.0}])
    monkeypatch.setattr(T, "VALUE_MODEL", {"hidden": (8, 8), "epochs": 1, "games_per_shard": 6})
    monkeypatch.setattr(T, "VALUE_WINDOW", 1)
    monkeypatch.setattr(T, "FINAL_SEARCH", {"rollout_mix": 0.0, "iteration_scale": 3.0})   # a model's own search
    monkeypatch.setattr(T, "POLICY_SELFPLAY", {"games": 2, "iterations": 12, "full_share": 0.5, "cheap_iterations": 3})
    run, ship = str(tmp_path / "run"), str(tmp_path / "ship" / "model.npz")
    table = T.run_pipeline(run, ship, jobs=1, executor="inline", treeless=True)
    gens = table["generations"]
    assert [g["generation"] for g in gens] == [1, 2, 3]
    # generation 3: its value from the last tree-less generation, its policy from playout-capped self-play,
    # gated and rated with its own search (value-only leaves, three times the iterations)
    assert gens[2]["trained_on"] == ["t2", "p"] and gens[2]["search"] == T.FINAL_SEARCH
    assert "rollout_mix=0.0" in gens[2]["gate"]["challenger"] and "iterations=30," in gens[2]["gate"]["challenger"]
    assert "rollout_mix" in gens[2]["vs_rollout"]["challenger"]
    assert all(os.path.exists(os.path.join(run, f)) for f in ("v1.npz", "v2.npz"))
    # every model before the final one reads feature version 1, as when the plan was made (D100); the
    # final one the game's current version
    fver = _mcts.feature_info(SPELLBOOK.vtable)[2]
    for name, version in (("m1", 1), ("m2", 1), ("v1", 1), ("v2", 1), ("m3", fver)):
        assert Model.load(os.path.join(run, f"{name}.npz")).meta["feature_version"] == version, name
    # model 2's plan: only the last generation's games, one epoch; its parent named by version
    assert gens[0]["trained_on"] == ["g0"] and gens[1]["trained_on"] == ["g1"]
    m2 = Model.load(os.path.join(run, "m2.npz")).meta["training"]
    assert m2["config"]["epochs"] == 1
    assert m2["parent"] == (gens[0]["version"] if gens[0]["accepted"] else "rollout")
    assert all(g["gate"]["games"] == 2 and g["vs_rollout"]["games"] == 2 for g in gens)
    assert gens[0]["vs_rollout"] == gens[0]["gate"]        # generation 1's gate is its rating
    shipped = Model.load(ship)
    assert shipped.version == gens[table["shipped"]["generation"] - 1]["version"]
    assert shipped.meta.get("search") == (T.FINAL_SEARCH if table["shipped"]["generation"] == 3 else None)
    assert shipped.meta["calibration"]["model"] == shipped.version
    assert shipped.meta["calibration"]["decisions"] > 0 and shipped.meta["calibration"]["level"] == 1
    assert json.load(open(os.path.join(os.path.dirname(ship), "generations.json")))["generations"] == gens
    log_lines = open(os.path.join(run, "pipeline.log")).read().count("\n")
    again = T.run_pipeline(run, ship, jobs=1, executor="inline", treeless=True)
    assert again["generations"] == gens and Model.load(ship).meta == shipped.meta
    stages = [json.loads(line)["stage"] for line in open(os.path.join(run, "pipeline.log"))][log_lines:]
    assert not any(s.startswith(("train", "gate", "rate", "calibrate")) for s in stages)

    # The Reanalyse loop (the stage itself: the next test): two generations after the best model, each from
    # the best before it and with seeds moved by one; a rejected one is not the next one's source.
    calls = []

    def stage(run_dir, gen, source, source_version, jobs, executor, plan):
        calls.append((gen, source, source_version, plan["seed"], plan["train"]["seed"]))
        shutil.copyfile(source, os.path.join(run_dir, f"m{gen}.npz"))
        version = f"g{gen}-fake"
        return {"generation": gen, "version": version, "trained_on": [f"r{gen}"], "init": source_version,
                "gate": {"games": 2, "accepted": gen == 5, "score": 0.5}, "accepted": gen == 5}

    monkeypatch.setattr(T, "_reanalyse_generation", stage)
    # the loop starts from the best accepted model: here generation 3, whatever the tiny gates decided (the
    # table is the pipeline's resumable state)
    saved = json.load(open(os.path.join(run, "generations.json")))
    saved["generations"][2]["accepted"] = True
    json.dump(saved, open(os.path.join(run, "generations.json"), "w"))
    best, version = os.path.join(run, "m3.npz"), gens[2]["version"]
    looped = T.run_pipeline(run, ship, jobs=1, executor="inline", treeless=True, reanalyse=2)
    seed, train_seed = T.REANALYSE_GENERATION["seed"], T.REANALYSE_GENERATION["train"]["seed"]
    assert calls == [(4, best, version, seed, train_seed), (5, best, version, seed + 1, train_seed + 1)]
    assert [g["generation"] for g in looped["generations"]] == [1, 2, 3, 4, 5]
    assert looped["shipped"]["generation"] == 5 and all("vs_rollout" in g for g in looped["generations"])


def test_make_train_runs_the_treeless_stages_unless_told_not_to(monkeypatch):
    """`make train` (`train --pipeline DIR`) reproduces the shipped g6, whose plan ends with the tree-less
    stages (D96) and the Reanalyse generation (D256); `--no-treeless-stages` stops after the search
    generations (g4's plan), `--no-reanalyse-stage` before the Reanalyse generation (g5's)."""
    import argparse

    from clients import train as T

    calls = []
    monkeypatch.setattr(T, "run_pipeline", lambda run_dir, ship, **kw: calls.append((run_dir, ship, kw["treeless"],
                                                                                      kw["reanalyse"])))
    parser = argparse.ArgumentParser()
    T.add_arguments(parser)
    assert T.main(parser.parse_args(["--pipeline", "runs/train", "--ship", "m.npz"])) == 0
    assert T.main(parser.parse_args(["--pipeline", "runs/g4", "--no-treeless-stages"])) == 0
    assert T.main(parser.parse_args(["--pipeline", "runs/g5", "--no-reanalyse-stage"])) == 0
    assert T.main(parser.parse_args(["--pipeline", "runs/g7", "--reanalyse-generations", "2"])) == 0
    assert calls == [("runs/train", "m.npz", True, 1), ("runs/g4", None, False, 1), ("runs/g5", None, True, 0),
                     ("runs/g7", None, True, 2)]
    assert T.main(parser.parse_args(["--pipeline", "runs/x", "--reanalyse-generations", "0"])) == 2


def test_the_reanalyse_generation_fine_tunes_the_policy_on_a_deeper_search(tmp_path, monkeypatch):
    """REANALYSE_GENERATION on a tiny plan: self-play by the source keeping states, its decisions searched
    again deeper, the source fine-tuned on them (value and policy, from its weights), gated against it."""
    from clients import train as T
    from search.train import TrainConfig, train

    monkeypatch.setattr(T, "REANALYSE_GENERATION", {
        "games": 2, "games_per_shard": 1, "players": (2,), "iterations": 8, "seed": 3,
        "reanalyse": {"iterations": 16, "share": 0.5}, "rollout_mix": 0.5,
        "train": {"train_only": "", "lr": 1e-2, "epochs": 1, "q_weight": 0.5, "seed": 4}})
    monkeypatch.setattr(T, "GATE", {"pairs": 1, "network_iterations": 10, "rollout_iterations": 10, "elo0": 0.0,
                                    "elo1": 50.0})
    data = str(tmp_path / "g0")
    os.makedirs(data)
    _tiny_run(data, games=2)
    source = str(tmp_path / "m.npz")
    train(list_shards(data), TrainConfig(hidden=(8, 8), policy_hidden=(6, 6), epochs=1, batch=64, seed=3),
          log=lambda _: None)[0].save(source)
    run = str(tmp_path / "run")
    os.makedirs(run)
    entry = T._reanalyse_generation(run, 7, source, "g1-src", jobs=1, executor="inline")
    assert entry["generation"] == 7 and entry["trained_on"] == ["r7"] and entry["init"] == "g1-src"
    assert len(list_shards(os.path.join(run, "s7"))) == 2 and len(list_shards(os.path.join(run, "r7"))) == 2
    arrays, meta = read_shard(list_shards(os.path.join(run, "r7"))[0])
    assert meta["reanalysed"]["config"]["options"]["iterations"] == 16 and "q_self" in arrays
    tuned, base = Model.load(os.path.join(run, "m7.npz")), Model.load(source)
    assert not np.array_equal(tuned.arrays["w1"], base.arrays["w1"]) and tuned.meta["hidden"] == [8, 8]
    assert tuned.meta["training"]["init"] == base.version and tuned.meta["training"]["parent"] == "g1-src"
    assert tuned.meta["training"]["config"]["q_weight"] == 0.5
    assert entry["gate"]["games"] == 2 and f"model={source}" in entry["gate"]["opponent"]
