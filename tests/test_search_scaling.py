"""Issue 44's parts of the search: chance nodes backed up as expectations (chance="expected"), rollouts
of candidate moves by the network (search/treeless.pxi `rollout_moves`, the error-rate yardstick), and
the benches that measure them (bench/scaling.py --selfplay, bench/error_rate.py)."""
from __future__ import annotations

import importlib.util
import os
import random

import numpy as np
import pytest

from engine_c.abracadawhat.game import ABRACADAWHAT
from engine_c.spellbook import State
from engine_c.spellbook.game import SPELLBOOK
from search import SearchOptions, _mcts, ismcts
from search.model import default_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", os.path.join(ROOT, "bench", f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def midgame(seed: int = 7, decisions: int = 30) -> State:
    """A 2-player SpellBook position after random moves, at a decision with several moves."""
    rng = random.Random(seed)
    s = State.new(players=2, spells="classic", seed=seed)
    k = 0
    while k < decisions or s.is_chance() or len(s.legal_moves()) < 3:
        if s.is_chance():
            s.resolve_chance()
            continue
        s.apply(rng.choice(s.legal_moves()))
        k += 1
    return s


def run_tree(state: State, chance: str, iterations: int = 600) -> _mcts.SearchTree:
    tree = _mcts.SearchTree(1_000_000)
    options = {"iterations": iterations, "deadline": 0.0, "exploration": 1.2, "objective": "win", "blend": 0.5,
               "margin_scale": 20.0, "rollout": "random", "cutoff": 0, "observer": state.current_player,
               "observer_kind": 0, "seed": 3, "chance": chance, "rollout_mix": 0.5,
               "network": default_model(SPELLBOOK).network(SPELLBOOK)}
    _mcts.run_ismcts(SPELLBOOK.vtable, SPELLBOOK.state_bytes(state), options, _mcts.CancelToken(), 1_000_000, tree, 0)
    return tree


def walk(tree: _mcts.SearchTree, node: int, players: int):
    """(node, its children) for every node with children, depth first."""
    kids = tree.children(node, players)
    if kids:
        yield node, kids
    for k in kids:
        yield from walk(tree, k["index"], players)


def test_expected_chance_nodes_are_probability_weighted_means_of_their_outcomes():
    state = midgame()
    tree = run_tree(state, "expected")
    stats = {0: None}
    chance_nodes = 0
    for node, kids in walk(tree, 0, 2):
        seen = [k for k in kids if k["visits"] > 0]
        parent = next((k for _, ks in walk(tree, 0, 2) for k in ks if k["index"] == node), None) if node else None
        if parent is None:
            continue
        if kids[0]["player"] == -1:               # a chance node: the outcomes' probabilities weigh their values
            chance_nodes += 1
            mass = sum(k["prior"] for k in seen)
            assert 0 < mass <= 1 + 1e-6
            for p in range(2):
                want = sum(k["prior"] * k["value"][p] for k in seen) / mass
                assert parent["value"][p] == pytest.approx(want, abs=1e-9)
        else:                                     # a decision: the visit-weighted mean of what lies below
            for p in range(2):
                own = parent["reward"][p] - sum(k["reward"][p] for k in kids)   # its own leaf evaluation(s)
                want = (own + sum(k["value"][p] * k["visits"] for k in kids)) / parent["visits"]
                assert parent["value"][p] == pytest.approx(want, abs=1e-9)
        stats[node] = parent
    assert chance_nodes > 10


def test_keyed_chance_nodes_keep_visit_frequency_means():
    tree = run_tree(midgame(), "keyed", iterations=300)
    for _, kids in walk(tree, 0, 2):
        for k in kids:
            if k["visits"]:
                assert k["value"] == pytest.approx([r / k["visits"] for r in k["reward"]], abs=1e-12)


def test_chance_expected_plays_legal_reproducible_moves():
    state = midgame(3)
    opts = SearchOptions(iterations=300, seed=4, chance="expected", evaluator="network")
    a, b = ismcts(SPELLBOOK, state, opts), ismcts(SPELLBOOK, state, opts)
    assert a.move in SPELLBOOK.legal_moves(state) and a.move == b.move
    assert [(str(m.move), m.visits) for m in a.moves] == [(str(m.move), m.visits) for m in b.moves]


@pytest.mark.parametrize("game, state, options", [(ABRACADAWHAT, lambda: ABRACADAWHAT_STATE(), {}),
                                                  (SPELLBOOK, lambda: midgame(), {"observer_kind": 1})])
def test_chance_expected_is_refused_where_outcome_probabilities_depend_on_hidden_information(game, state, options):
    from search import SearchOptionError

    with pytest.raises(SearchOptionError) as e:
        ismcts(game, state(), SearchOptions(iterations=50, chance="expected", **options))
    assert e.value.field == "chance"


def ABRACADAWHAT_STATE():
    from engine_c.abracadawhat import State as AState

    s = AState.new(players=2, seed=5)
    while s.is_chance():
        s.resolve_chance()
    return s


def test_rollouts_of_moves_share_random_numbers_and_are_win_shares():
    state = midgame()
    moves = state.legal_moves()
    net = default_model(SPELLBOOK).network(SPELLBOOK)
    args = (SPELLBOOK.vtable, SPELLBOOK.state_bytes(state), state.current_player,
            [SPELLBOOK.code(m) for m in moves])
    out = _mcts.rollout_moves(*args, {"rollouts": 40, "seed": 9}, net)
    assert out.shape == (len(moves), 40) and not np.isnan(out).any()
    assert set(np.unique(out)) <= {0.0, 0.5, 1.0}
    again = _mcts.rollout_moves(*args, {"rollouts": 40, "seed": 9}, net)
    assert np.array_equal(out, again)
    # rollout r is the same game whichever moves are asked: the same move twice gives the same results
    twice = _mcts.rollout_moves(*args[:3], [SPELLBOOK.code(moves[0])] * 2, {"rollouts": 40, "seed": 9}, net)
    assert np.array_equal(twice[0], twice[1]) and np.array_equal(twice[0], out[0])


@pytest.mark.parametrize("options, message", [({"rollouts": 0}, "rollouts"), ({"mode": "tree"}, "mode")])
def test_rollouts_refuse_bad_options(options, message):
    state = midgame()
    net = default_model(SPELLBOOK).network(SPELLBOOK)
    with pytest.raises(ValueError, match=message):
        _mcts.rollout_moves(SPELLBOOK.vtable, SPELLBOOK.state_bytes(state), state.current_player,
                            [SPELLBOOK.code(state.legal_moves()[0])], options, net)
    with pytest.raises(ValueError, match="observer"):
        _mcts.rollout_moves(SPELLBOOK.vtable, SPELLBOOK.state_bytes(state), 1 - state.current_player,
                            [SPELLBOOK.code(state.legal_moves()[0])], {}, net)


def test_split_losses_pick_the_best_on_one_half_and_value_on_the_other():
    er = bench("error_rate")
    values = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 0.5, 0.5]])
    # a wins the first half, b the second: each half's pick does worse than c on the other half, so
    # noise cannot make a loss out of a choice the rollouts cannot tell apart from the best
    loss, best = er.split_losses(values, "c", ["a", "b", "c"])
    assert loss == pytest.approx(-0.5) and not best
    loss, _ = er.split_losses(values, "a", ["a", "b", "c"])
    assert loss == pytest.approx(-0.5)
    loss, best = er.split_losses(np.array([[1.0] * 4, [0.0] * 4]), "b", ["a", "b"])
    assert loss == pytest.approx(1.0) and not best


def test_error_rate_bench_ranks_searchers_on_fixed_positions_in_both_games(capsys):
    import json

    for game in ("spellbook", "abracadawhat"):
        er = bench("error_rate")
        assert er.main(["--game", game, "--positions", "2", "--rollouts", "20", "--jobs", "1", "--seeds", "1",
                        "--spec", "ismcts:level=1", "--spec", er.default_spec(game, 4)]) == 0
        line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert line["bench"] == "error_rate" and line["game"] == game and line["positions"] == 2
        for row in line["searchers"].values():
            assert row["positions"] == 2 and -100 <= row["error_pp"] <= 100


def test_selfplay_scaling_plans_seat_swapped_pairs_of_the_default_level():
    sc = bench("scaling")
    tasks = sc.selfplay_plan("abracadawhat", [4], [2], 44_000, "", None)
    assert len(tasks) == 4 and {t["strong_seat"] for t in tasks} == {0, 1}
    strong, rival = sc.selfplay_specs("abracadawhat", 4, "", None)
    assert rival == "ismcts:level=6" and strong == "ismcts:level=6,iterations=1280"
    strong, rival = sc.selfplay_specs("spellbook", 16, "chance=expected", "")
    assert rival == "ismcts:level=10" and strong == "ismcts:level=10,iterations=6400,chance=expected"
    results = [dict(_play(t), multiplier=4) for t in tasks]
    curve, keys = sc.selfplay_summary(results, [4])
    assert keys["games_4x"] == 4 and curve[0]["pentanomial"] and "elo_4x_vs_1x_95" in keys


def _play(task):
    return bench("scaling")._play_selfplay(task)


def brute_force(state, budget: list[int], depth: int = 0):
    """Expectimax by the Python API alone: (win shares, expected scores); each seat maximizes its win
    share, then its score over the other's (as endgame.pxi). OverflowError past the budget or 60 plies."""
    budget[0] -= 1
    if budget[0] < 0 or depth > 60:
        raise OverflowError
    if state.is_terminal():
        won, scores = state.winners(), [float(getattr(x, "total", x)) for x in state.scores()]
        return [1.0 / len(won) if p in won else 0.0 for p in range(len(scores))], scores
    if state.is_chance():
        wins, scores = [0.0, 0.0], [0.0, 0.0]
        for move, p in state.chance_outcomes():
            w, s = brute_force(state.copy().apply(move), budget, depth + 1)
            wins = [a + p * b for a, b in zip(wins, w)]
            scores = [a + p * b for a, b in zip(scores, s)]
        return wins, scores
    cp, best = state.current_player, None
    for move in state.legal_moves():
        w, s = brute_force(state.copy().apply(move), budget, depth + 1)
        key = w[cp] + 1e-6 * (s[cp] - s[1 - cp])
        if best is None or key > best[0]:
            best = (key, w, s)
    return best[1], best[2]


def game_ends(seeds) -> list[State]:
    """The last few decisions of level-4 games (the policy's own moves: fast)."""
    from search.arena import play_game
    from search.bots import make_bot

    out = []
    for seed in seeds:
        bots = [make_bot("ismcts:level=4", SPELLBOOK, seed=seed * 3 + i) for i in range(2)]
        rec = play_game(lambda sd: State.new(players=2, spells="classic", seed=sd), bots, seed)
        state, decisions = State.new(players=2, spells="classic", seed=seed), []
        for seat, text in rec.moves:
            if seat >= 0:
                decisions.append(state.copy())
            state.apply(state.parse_move(text))
        out += decisions[-5:]
    return out


def test_an_exact_endgame_solve_agrees_with_brute_force_and_says_when_it_cannot():
    checked = refused = 0
    for state in game_ends(range(1, 9)):
        solved = _mcts.solve(SPELLBOOK.vtable, SPELLBOOK.state_bytes(state), 20_000)
        try:
            want = brute_force(state, [25_000])
        except OverflowError:
            want = None
        if solved is None:
            refused += 1
            continue
        assert want is not None
        assert solved[0] == pytest.approx(want[0], abs=1e-9) and solved[1] == pytest.approx(want[1], abs=1e-9)
        checked += 1
    assert checked >= 5 and refused >= 1
    assert _mcts.solve(SPELLBOOK.vtable, SPELLBOOK.state_bytes(midgame()), 10_000) is None   # the game goes on


def test_the_search_with_exact_endgames_plays_the_exact_best_move():
    found = 0
    for state in game_ends(range(1, 25)):
        cp, values = state.current_player, {}
        for move in state.legal_moves():
            solved = _mcts.solve(SPELLBOOK.vtable, SPELLBOOK.state_bytes(state.copy().apply(move)), 50_000)
            if solved is None:
                break
            values[str(move)] = solved[0][cp]
        else:
            if len(values) < 2 or max(values.values()) == min(values.values()):
                continue
            opts = SearchOptions(iterations=300, seed=1, temperature=0.0, endgame_nodes=50_000)
            r = ismcts(SPELLBOOK, state, opts)
            assert values[str(r.move)] == pytest.approx(max(values.values()))
            assert r.move == ismcts(SPELLBOOK, state, opts).move
            found += 1
    assert found >= 2


@pytest.mark.parametrize("game, state, options", [
    (ABRACADAWHAT, lambda: ABRACADAWHAT_STATE(), {}),
    (SPELLBOOK, lambda: midgame(), {"observer_kind": 1}),
    (SPELLBOOK, lambda: midgame(), {"evaluator": "rollout"}),
    (SPELLBOOK, lambda: midgame(), {"endgame_nodes": 10**9})])
def test_exact_endgames_are_refused_where_a_solve_would_see_hidden_information(game, state, options):
    from search import SearchOptionError

    with pytest.raises(SearchOptionError) as e:
        ismcts(game, state(), SearchOptions(**{"iterations": 50, "endgame_nodes": 1000, **options}))
    assert e.value.field == "endgame_nodes"
