"""The training pipeline of a game that declares its own plan (engine_c/NAME/training.py's `PLAN`): expert
iteration with Reanalyse, game-agnostic, what `make train` runs for such a game.

    spellbook-ai train --game spellbooktcg --pipeline runs/train-spellbooktcg --ship data/models/spellbooktcg.npz

Per generation k = 0, 1, ... of the plan's "generations":
1. self-play g{k}: games by the search at the plan's budget, with the rollout search for g0 and the model
   m{k} after it (its leaves blended with a rollout as the plan says), each decision's state kept;
2. Reanalyse r{k} (when the plan has "reanalyse"): a share of g{k}'s decisions searched again by the deeper
   search, the game's rollout search at the plan's iterations (at least 4x the default budget), or with
   "with_model" the search with m{k}, the model that played them (MuZero's way), whose root estimates and
   visit counts become the targets (search/reanalyse.py);
3. the model m{k+1}, trained on the last "window" generations' data (the r dirs, or the g dirs without
   Reanalyse), its value target the blend of the deeper search's estimate and the game's result (q_weight);
4. its gate: seat-swapped pairs on fixed seeds against the rollout search at the game's default level's
   budget, the project's SPRT; accepted on H1, or above 50% when the SPRT has not decided after all pairs.
The accepted model with the best gate score is shipped to --ship, carrying its gate (the budget it passed
at, so search/levels.py searches with it at the levels of that budget) and `use_by_default`; with none
accepted nothing is shipped. Every stage's output lies under the run directory and is skipped when it
exists, so an interrupted run continues where it stopped; everything is seeded, so the same plan gives the
same models. The table of generations goes to RUN_DIR/generations.json.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import time
from typing import Any

from clients.train_steps import _log, _reanalyse, _run_selfplay, train_one

PLAN_KEYS = {"seed", "generations", "reanalyse", "window", "train", "gate", "rollout_mix"}


def plan_of(game: Any) -> dict:
    """The game's training plan (ValueError naming the game when it declares none)."""
    module = getattr(game, "training", None)
    plan = getattr(module, "PLAN", None)
    if plan is None:
        raise ValueError(f"{game.title} declares no training plan (engine_c/{game.name}/training.py PLAN)")
    unknown = set(plan) - PLAN_KEYS
    if unknown:
        raise ValueError(f"engine_c/{game.name}/training.py PLAN: unknown keys {sorted(unknown)}")
    return plan


def default_budget(game: Any) -> int:
    """The iterations of the game's default level (the budget a model must beat the rollout search at)."""
    adapter = game.adapter
    table = adapter.level_table or {}
    from search.levels import DEFAULT_LEVEL

    level = adapter.default_level or DEFAULT_LEVEL
    return int(table[level]["iterations"]) if level in table else 400


def run(game: Any, run_dir: str, ship: str | None, jobs: int = 1, executor: str | None = None) -> dict:
    """The whole plan in run_dir (module docstring); the table of generations."""
    plan = plan_of(game)
    os.makedirs(run_dir, exist_ok=True)
    table_path = os.path.join(run_dir, "generations.json")
    table = json.load(open(table_path)) if os.path.exists(table_path) else {"game": game.name, "generations": []}
    done = {e["generation"]: e for e in table["generations"]}

    def save() -> None:
        with open(table_path + ".tmp", "w") as f:
            json.dump(table, f, indent=1)
        os.replace(table_path + ".tmp", table_path)

    seed, window = int(plan["seed"]), int(plan.get("window", 2))
    data_dirs: list[str] = []
    for k, sp in enumerate(plan["generations"]):
        model = os.path.join(run_dir, f"m{k}.npz") if k else ""
        g_dir = os.path.join(run_dir, f"g{k}")
        seconds = _selfplay(game, g_dir, sp, seed + 100 * k, model, plan.get("rollout_mix", 0.0), jobs, executor)
        _log(run_dir, {"stage": f"selfplay g{k}", "model": os.path.basename(model) or "rollout",
                       "seconds": round(seconds, 1)})
        if plan.get("reanalyse"):
            r_dir = os.path.join(run_dir, f"r{k}")
            # "with_model": the deeper search uses the model that played these games (MuZero's Reanalyse
            # re-searches with the latest network); otherwise, and for g0, the rollout search
            teacher = model if plan["reanalyse"].get("with_model") else ""
            seconds = _reanalyse(game, g_dir, r_dir, plan["reanalyse"], jobs, executor, teacher,
                                 plan.get("rollout_mix", 0.5))
            _log(run_dir, {"stage": f"reanalyse r{k}", "seconds": round(seconds, 1)})
            data_dirs.append(r_dir)
        else:
            data_dirs.append(g_dir)
        gen = k + 1
        if gen in done:
            continue
        out = os.path.join(run_dir, f"m{gen}.npz")
        t0 = time.monotonic()
        tp = plan.get("train", {})
        info = train_one(data_dirs[-window:], out, gen, parent=f"m{k}" if k else "rollout", seed=seed + gen,
                         epochs=tp.get("epochs"), q_weight=tp.get("q_weight"),
                         hidden=tuple(tp["hidden"]) if "hidden" in tp else None,
                         policy_hidden=tuple(tp["policy_hidden"]) if "policy_hidden" in tp else None, game=game.name)
        _log(run_dir, {"stage": f"train m{gen}", "seconds": round(time.monotonic() - t0, 1), "version": info["version"]})
        g = gate(game, run_dir, f"gate{gen}", out, plan, jobs, executor)
        _log(run_dir, {"stage": f"gate m{gen}", **g})
        table["generations"].append({"generation": gen, "version": info["version"],
                                     "trained_on": [os.path.basename(d) for d in data_dirs[-window:]],
                                     "games": info["games"], "decisions": info["decisions"], "held_out": info["held"],
                                     "gate": g, "accepted": g["accepted"]})
        done[gen] = table["generations"][-1]
        save()
    accepted = [e for e in table["generations"] if e["accepted"]]
    best = max(accepted, key=lambda e: e["gate"]["score"]) if accepted else None
    table["shipped"] = best["generation"] if best else None
    save()
    if ship and best:
        _ship(os.path.join(run_dir, f"m{best['generation']}.npz"), best["gate"], ship, plan.get("rollout_mix", 0.0))
    return table


def _selfplay(game: Any, out: str, sp: dict, seed: int, model: str, rollout_mix: float, jobs: int,
              executor: str | None) -> float:
    return _run_selfplay(os.path.basename(out), [
        "--game", game.name, "--out", out, "--games", str(sp["games"]), "--games-per-shard", "8",
        "--iterations", str(sp["iterations"]), "--evaluator", "network" if model else "rollout", "--model", model,
        "--rollout-mix", str(rollout_mix if model else 0.0), "--seed", str(seed), "--keep-states",
        "-j", str(jobs), "--no-progress"], executor)


def gate(game: Any, run_dir: str, name: str, model: str, plan: dict, jobs: int, executor: str | None) -> dict:
    """The model's search against the rollout search, both at the default level's budget: seat-swapped pairs
    on fixed seeds, the project's SPRT (clients/ratings.py)."""
    from clients import ratings as R
    from clients.tournament import make_executor, run_tournament, schedule, summarize

    g = plan["gate"]
    budget = default_budget(game)
    mix = plan.get("rollout_mix", 0.0)
    new_spec = f"ismcts:iterations={budget},evaluator=network,rollout_mix={mix},model={model}"
    old_spec = f"ismcts:iterations={budget},evaluator=rollout"
    test = R.SPRT(float(g.get("elo0", 0.0)), float(g.get("elo1", 50.0)))
    tasks = schedule([new_spec, old_spec], games=2 * int(g["pairs"]), seats=2, seed=int(plan["seed"]) + 7,
                     game=game.name)
    out = os.path.join(run_dir, f"{name}.jsonl")
    stop_early = bool(g.get("stop_early", True))     # False: every pair is played, the SPRT read at the end
    with make_executor(executor, jobs) as ex:
        result = run_tournament(tasks, out, ex.executor, slots=ex.slots, resume=True,
                                sprt=test if stop_early else None, desc=name)
    sprt = summarize(result.records, bots=[new_spec, old_spec], sprt=test).get("sprt") or {}
    pent = sprt.get("pentanomial")
    elo = R.outcome_elo(pent) if pent and sum(pent) else None
    decision = sprt.get("decision") or ("H1" if elo and elo.score > 0.5 else "H0")
    return {"games": elo.games if elo else 0, "score": round(elo.score, 4) if elo else None,
            "sprt": sprt.get("decision"), "llr": round(sprt.get("llr", 0.0), 3), "accepted": decision == "H1",
            "elo": round(elo.elo, 1) if elo else None,
            "elo_95": [round(elo.lo, 1), round(elo.hi, 1)] if elo else None,
            "pentanomial": pent, "challenger": new_spec, "opponent": old_spec,
            "challenger_iterations": budget}


def _ship(path: str, gate_result: dict, ship: str, rollout_mix: float) -> None:
    """The model to --ship with its gate: the budget it passed at (search/levels.py's _gate_passed reads
    `gate.levels`), its leaves (`search.rollout_mix`) and use_by_default."""
    from search.model import Model

    model = Model.load(path)
    model.meta["use_by_default"] = True
    model.meta.setdefault("training", {})["gate"] = gate_result
    model.meta["gate"] = {"levels": {str(gate_result["challenger_iterations"]): {
        "challenger_iterations": gate_result["challenger_iterations"],
        "sprt": "H1" if gate_result["accepted"] else "H0", "elo": gate_result["elo"],
        "elo_95": gate_result["elo_95"], "games": gate_result["games"]}}}
    model.meta["search"] = {"rollout_mix": float(rollout_mix)}
    os.makedirs(os.path.dirname(os.path.abspath(ship)) or ".", exist_ok=True)
    tmp = ship[:-len(".npz")] + ".tmp.npz" if ship.endswith(".npz") else ship + ".tmp.npz"
    model.save(tmp)
    shutil.move(tmp, ship)
    print(f"train: shipped {os.path.basename(path)} ({model.version}) to {ship}", file=sys.stderr)
