"""Reanalyse (search/reanalyse.py, `spellbook-ai reanalyse`) and the self-play it reads, on the Spellbook TCG:
stored positions searched again, deeper, as the deciding seat; and a reused search tree that never offers a
move the real position does not allow."""
import os

import numpy as np
import pytest

from clients.cli import main as cli
from engine_c.spellbooktcg import State
from engine_c.spellbooktcg.game import TCG
from search.reanalyse import ReanalyseConfig, reanalyse_arrays
from search.search import SearchOptions
from search.selfplay import SelfPlayConfig, list_shards, load_shards, play_game, read_shard


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("g0"))
    assert cli(["selfplay", "--game", "spellbooktcg", "--out", out, "--games", "2", "--games-per-shard", "2",
                "--iterations", "30", "--keep-states", "--no-progress", "--seed", "3"]) == 0
    return out


def test_reused_tree_plays_only_legal_moves(monkeypatch):
    """With tree reuse forced on, the node below a move pools positions where the other seat cast with ones
    where the mover chose a target: the search must still answer a move legal where it stands (seed 3 played
    `pass` in a target step before)."""
    monkeypatch.setattr(type(TCG), "tree_reuse", True)
    cfg = SelfPlayConfig(options=SearchOptions(iterations=100), explore_decisions=0)
    for seed in range(5):
        assert play_game(TCG, lambda s: State.new(seed=s), seed, cfg) is not None


def test_kept_states_are_the_recorded_decisions(shards):
    arrays, meta = read_shard(list_shards(shards)[0])
    assert meta["config"]["keep_states"] is True
    assert arrays["state"].shape[0] == len(arrays["seat"])
    for d in range(0, len(arrays["seat"]), 17):
        st = TCG.state_from_bytes(arrays["state"][d].tobytes())
        assert st.current_player == int(arrays["seat"][d])
        row = arrays["move_code"][arrays["move_offset"][d]:arrays["move_offset"][d + 1]]
        assert sorted(int(c) for c in row) == sorted(m.code for m in st.legal_moves())
    data, _ = load_shards(list_shards(shards))             # training never loads the states
    assert "state" not in data


def test_reanalyse_replaces_targets_with_the_deeper_searchs(shards):
    arrays, _ = read_shard(list_shards(shards)[0])
    cfg = ReanalyseConfig(options=SearchOptions(iterations=120), share=0.25)
    out = reanalyse_arrays(TCG, arrays, cfg, seed=1)
    again = reanalyse_arrays(TCG, arrays, cfg, seed=1)
    n = len(out["seat"])
    assert n == round(len(arrays["seat"]) * 0.25) and "state" not in out
    for k in out:                                                               # seeded: the same shard
        np.testing.assert_array_equal(out[k], again[k])
    sums = np.add.reduceat(out["visits"], out["move_offset"][:-1])
    assert np.allclose(sums, 1.0, atol=1e-5)                                   # a policy target per decision
    assert np.allclose(out["q_win"][:, :2].sum(axis=1), 1.0, atol=1e-4)        # win shares of two seats
    assert not np.array_equal(out["q_win"], out["q_self"])                     # the deeper search's own
    picked = [int(np.flatnonzero((arrays["x"] == out["x"][i]).all(axis=1))[0]) for i in range(n)]
    assert np.array_equal(out["z_win"], arrays["z_win"][picked])               # the result stays the game's


def test_reanalyse_command_resumes_and_refuses_bad_input(shards, tmp_path, capsys):
    out = str(tmp_path / "r0")
    args = ["reanalyse", "--game", "spellbooktcg", "--data", shards, "--out", out, "--iterations", "60",
            "--share", "0.1"]
    assert cli(args) == 0
    first = open(list_shards(out)[0], "rb").read()
    assert cli(args) == 0 and open(list_shards(out)[0], "rb").read() == first      # resumed: nothing redone
    assert "0 shards" in capsys.readouterr().err
    assert cli(args[:-2] + ["--share", "0"]) == 2
    assert "--share" in capsys.readouterr().err
    assert cli(["reanalyse", "--game", "spellbooktcg", "--data", str(tmp_path / "none"), "--out", out]) == 2
    assert "--data" in capsys.readouterr().err
    plain = str(tmp_path / "plain")
    assert cli(["selfplay", "--game", "spellbooktcg", "--out", plain, "--games", "1", "--games-per-shard", "1",
                "--iterations", "10", "--no-progress"]) == 0
    assert cli(["reanalyse", "--game", "spellbooktcg", "--data", plain, "--out", str(tmp_path / "r1")]) == 2
    assert "--keep-states" in capsys.readouterr().err
