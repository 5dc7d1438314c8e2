"""A game's own training plan (engine_c/NAME/training.py; clients/train_plan.py), what
`make train GAME=spellbooktcg` runs: self-play keeping states, Reanalyse, training, the gate against the
rollout search at the default budget, shipping; resumable; refused clearly for a game without a plan."""
import json
import os

import pytest

from clients import train_plan as P
from clients.cli import main as cli
from engine_c.registry import get_game
from search.model import Model

TINY = {"seed": 7, "generations": [{"games": 2, "iterations": 12}, {"games": 2, "iterations": 12}],
        "rollout_mix": 0.5, "reanalyse": {"iterations": 48, "share": 0.2, "with_model": True}, "window": 2,
        "train": {"hidden": [8, 8], "epochs": 1, "q_weight": 0.8}, "gate": {"pairs": 1, "elo0": 0.0, "elo1": 50.0}}


def test_the_plan_runs_every_stage_ships_and_resumes(tmp_path, monkeypatch):
    game = get_game("spellbooktcg")
    monkeypatch.setattr(game.training, "PLAN", TINY)
    monkeypatch.setattr(P, "default_budget", lambda g: 12)          # the tiny gate's budget
    run, ship = str(tmp_path / "run"), str(tmp_path / "models" / "spellbooktcg.npz")
    table = P.run(game, run, ship, jobs=1, executor="inline")
    gens = table["generations"]
    assert [g["generation"] for g in gens] == [1, 2]
    assert gens[0]["trained_on"] == ["r0"] and gens[1]["trained_on"] == ["r0", "r1"]
    for k in (0, 1):
        assert os.listdir(os.path.join(run, f"r{k}"))                          # Reanalyse ran on each
    g1 = gens[1]["gate"]
    assert g1["games"] == 2 and "iterations=12" in g1["opponent"] and "evaluator=rollout" in g1["opponent"]
    assert "model=" + os.path.join(run, "m2.npz") in g1["challenger"]
    # generation 1's self-play was played by the model m1 (its shards say so)
    meta = json.loads(str(__import__("numpy").load(os.path.join(run, "g1", "shard-00000.npz"))["meta"]))
    assert meta["config"]["model_path"] == os.path.join(run, "m1.npz")
    # and its Reanalyse searched with that model (MuZero's way, "with_model"); g0's with the rollout search
    r1 = json.loads(str(__import__("numpy").load(os.path.join(run, "r1", "shard-00000.npz"))["meta"]))
    r0 = json.loads(str(__import__("numpy").load(os.path.join(run, "r0", "shard-00000.npz"))["meta"]))
    assert r1["reanalysed"]["config"]["model_path"] == os.path.join(run, "m1.npz")
    assert r0["reanalysed"]["config"]["model_path"] is None
    if table["shipped"]:
        shipped = Model.load(ship)
        assert shipped.version == gens[table["shipped"] - 1]["version"] and shipped.use_by_default
        assert shipped.meta["gate"]["levels"]
    else:
        assert not os.path.exists(ship)
    log = open(os.path.join(run, "pipeline.log")).read().count("\n")
    again = P.run(game, run, ship, jobs=1, executor="inline")
    assert again["generations"] == gens
    stages = [json.loads(line)["stage"] for line in open(os.path.join(run, "pipeline.log"))][log:]
    assert not any(s.startswith(("train", "gate")) for s in stages)


def test_a_game_without_a_plan_is_refused_naming_game(capsys, tmp_path):
    assert cli(["train", "--game", "abracadawhat", "--pipeline", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "--game" in err and "training plan" in err


def test_the_tcg_plan_reanalyses_deeper_than_the_default_budget():
    """Issue 52's Reanalyse: at least 4x the default level's budget."""
    game = get_game("spellbooktcg")
    plan = P.plan_of(game)
    assert plan["reanalyse"]["iterations"] >= 4 * P.default_budget(game)
    assert plan["gate"]["pairs"] >= 100
