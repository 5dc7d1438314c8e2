"""`spellbook-ai train`: train the learned evaluation, one model or the whole expert-iteration pipeline.

    spellbook-ai train --data runs/g0 runs/g1 --out model.npz --generation 2
    spellbook-ai train --game abracadawhat --data runs/aw0 --out data/models/abracadawhat.npz
    spellbook-ai train --pipeline runs/train --ship data/models/spellbook.npz      # what `make train` runs

The pipeline (docs/learned.md) reproduces the shipped model from scratch with fixed seeds: self-play by
the rollout search (generation 0), then per generation a model trained on the latest games, gated by an
SPRT match against the previous generation (the rollout search for the first), and self-play by the
new model for the next one. Then every generation is rated against the rollout search (the same SPRT
match), and the model to ship gets its calibration map (fitted on fresh games at the default hint
level). Every stage writes its output under the run directory and is skipped when that output exists,
so an interrupted run continues where it stopped. After the search generations come the tree-less
ones (issue 22: three generations of 60,000 games played at one ply by the network, value models trained
on them) and a final model, its value from those games and its policy from playout-capped search
self-play, gated against the best search model (`--no-treeless-stages` leaves them out). Last comes the
Reanalyse generation (issue 52): the best model's own self-play searched again at 4x, the model fine-tuned
on those targets and gated against it (`--no-reanalyse-stage` leaves it out). The accepted model of the
last generation is copied to --ship, and the table of generations to generations.json beside it.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass, field

from clients.train_steps import _log, _reanalyse, _run_selfplay, train_one

# The pipeline's fixed plan (changing any of it changes the shipped model: bump the version notes).
SEED = 1000
GEN0 = {"games": 160, "iterations": 400, "evaluator": "rollout"}
GENERATIONS = [  # self-play by the model of the generation before, one entry per generation 2..
    {"games": 400, "iterations": 800},
    {"games": 600, "iterations": 800},
    {"games": 1200, "iterations": 800},
]
# Share of the search's root estimate in the value target, by generation: 160 games are only 160
# independent results, so the first model leans on the rollout search's per-position estimates.
Q_WEIGHT = {1: 0.8}
DEFAULT_Q_WEIGHT = 0.5
# network iterations (with the default rollout_mix 0.5, about 90% of the rollout search's rate) against
# rollout iterations: about equal time per move
GATE = {"pairs": 100, "network_iterations": 360, "rollout_iterations": 400, "elo0": 0.0, "elo1": 50.0}
WINDOW = 2          # a model trains on the games of the last WINDOW self-play generations
# Per-model exceptions to WINDOW and the default epochs. Model 4 learns from three generations (2,200
# games) for 4 epochs: its value head is short of games and memorizes them after 3-4 epochs
# (docs/learned.md, "More games for the value"). Models 1-3 keep their plan, so they stay the same.
MODEL_PLAN = {4: {"window": 3, "epochs": 4}}
# The shipped model's calibration map (search/calibration.py): fitted on games the model never trained
# on (seeds far from self-play's and from bench/strength.py's), each decision searched as a hint is at
# the server's default level, whose reported probabilities it corrects. 2, 3 and 4 players by turns.
CALIBRATION = {"games": 90, "seed": 800_000, "level": None}      # level None: the server's default
# Tree-less generations (issue 22; docs/learned.md, "Tree-less data"): the value's data volume. The
# first plays the best search model's policy prior; each later one plays greedily on the value model
# trained on the one before (TD-Gammon's way). Value models are 128x128, trained for 4 epochs.
TREELESS = [
    {"mode": "policy", "games": 60_000, "value_playouts": 16, "td_lambda": 0.7},
    {"mode": "value", "games": 60_000, "value_playouts": 0, "td_lambda": 1.0},
    {"mode": "value", "games": 60_000, "value_playouts": 0, "td_lambda": 1.0},
]
VALUE_MODEL = {"hidden": (128, 128), "epochs": 4, "games_per_shard": 2000}
# The final model: its value from the last VALUE_WINDOW tree-less generations (their results: TD(1)),
# its policy from playout-cap-randomized search self-play by the best search model (a full search on a
# quarter of the decisions, the only ones recorded).
VALUE_WINDOW = 2
# Its network: the policy head on a trunk of its own (64 x 64), so the policy's gradients do not shape the
# value's features, and the search rows' value target is their game's result (q_weight 0: the searches'
# root estimates lean towards the seat to move). Against the same recipe with one shared trunk and the
# blended target (g5-dbf91a1c): +52 Elo (+6, +101) over 200 games at equal iterations (docs/learned.md, D99).
FINAL_MODEL = {"policy_hidden": (64, 64), "q_weight": 0.0, "feature_version": None}
# Every model before the final one (the search generations m1.., the tree-less value models v1..) reads
# feature version 1, as when this plan was made: their models, and so the games they play, stay what they
# were when the game's features grew to version 2 (whose first columns are version 1's). The final model
# reads the game's current version (FINAL_MODEL's None: the shards' own). D100.
PLAN_FEATURE_VERSION = 1
POLICY_SELFPLAY = {"games": 1500, "iterations": 800, "full_share": 0.25, "cheap_iterations": 100}
# The Reanalyse generation (issue 52; docs/learned.md, "Reanalyse on SpellBook"; `--reanalyse-stage`): after
# the best model, self-play by it keeping the states (its value alone at 400 iterations, half the games at
# 2 seats), a share of those decisions searched again by its default blended search at 4x (1,600
# iterations), and the model fine-tuned from its own weights on them (policy: the deeper search's visits;
# value: half its root estimate, half the result), gated against it like every generation. From g5-bfa8ec5e
# this made g6-23a4e988, shipped since 2026-11-29: +31.8 Elo (+10.1, +53.8) over g5 in 400 seat-swapped pairs
# at level 10 (D256).
REANALYSE_GENERATION = {"games": 1200, "games_per_shard": 20, "players": (2, 2, 3, 4), "iterations": 400,
                        "seed": 52, "reanalyse": {"iterations": 1600, "share": 0.22}, "rollout_mix": 0.5,
                        "train": {"train_only": "", "lr": 5e-4, "epochs": 3, "q_weight": 0.5, "seed": 52}}
# How many Reanalyse generations the pipeline runs (`--reanalyse-generations`), each from the best model
# before it: the k-th (from 0) plays and trains with REANALYSE_GENERATION's seeds + k. The shipped plan runs
# one; more continue the loop (docs/learned.md, "Reanalyse on SpellBook").
REANALYSE_GENERATIONS = 1


def reanalyse_plan(k: int) -> dict:
    """The k-th Reanalyse generation's plan (k from 0): REANALYSE_GENERATION with its seeds moved by k."""
    plan = REANALYSE_GENERATION
    return {**plan, "seed": plan["seed"] + k, "train": {**plan["train"], "seed": plan["train"]["seed"] + k}}
# The search the final model is gated with and, when it ships, carries in its meta ("search"), which the
# strength levels follow (search/levels.py): {"rollout_mix": m, "iteration_scale": k} where it differs from
# the default blended search. Value-only leaves at 3.5x the iterations (about equal CPU time) only drew
# level with g4's blended search, while the same model's blended search led g4 (docs/learned.md, "One
# model from tree-less values"): the default search, until re-tuning at equal time says otherwise.
FINAL_SEARCH: dict = {}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.ArgumentDefaultsHelpFormatter
    p.add_argument("--data", nargs="+", default=[], help="self-play shard directories to train on")
    p.add_argument("--game", default=None,
                   help="the game the shards must be of (default: theirs; the model is for the shards' game)")
    p.add_argument("--out", default="model.npz", help="the model file to write (with --data)")
    p.add_argument("--generation", type=int, default=1, help="the model's generation (its version's prefix)")
    p.add_argument("--parent", default="", help="the version of the model whose games these are")
    p.add_argument("--epochs", type=int, default=None, help="training epochs (default: search.train)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--hidden", type=int, nargs=2, default=None, metavar=("H1", "H2"),
                   help="hidden layer widths (default: search.train's 64 64)")
    p.add_argument("--policy-hidden", type=int, nargs=2, default=None, metavar=("H1", "H2"),
                   help="give the policy head its own trunk of these widths (default: it shares the value's)")
    p.add_argument("--q-weight", type=float, default=None,
                   help="share of the search's root estimate in search rows' value target (default: search.train's)")
    p.add_argument("--td-lambda", type=float, default=None,
                   help="value target of tree-less rows: their TD(lambda) return at this lambda (1: the result)")
    p.add_argument("--feature-version", type=int, default=None,
                   help="train on this older feature version whose columns are a prefix of the shards' "
                        "(default: the shards' own)")
    p.add_argument("--rollout-weight", type=float, default=0.0,
                   help="> 0: also train a rollout head on the playouts' means (p_win), with this loss weight")
    p.add_argument("--init", default="", metavar="MODEL",
                   help="continue from this model file's weights (its widths; its game, features and shape must "
                        "be the shards') instead of fresh ones")
    p.add_argument("--train-only", choices=["policy", "value"], default="",
                   help="with --init: train only this part and keep the other's weights (policy: the value and "
                        "its calibration map stay the init's)")
    p.add_argument("--lr", type=float, default=None, help="peak learning rate (default: search.train's)")
    p.add_argument("--pipeline", default=None, metavar="RUN_DIR",
                   help="run (or continue) the whole expert-iteration pipeline in RUN_DIR")
    p.add_argument("--ship", default=None, help="with --pipeline: copy the final model here")
    p.add_argument("--treeless-stages", action=argparse.BooleanOptionalAction, default=True,
                   help="with --pipeline: after the search generations, the tree-less value generations and the "
                        "final model trained on them (TREELESS: the shipped model's plan since g5); "
                        "--no-treeless-stages stops after the search generations (g4's plan)")
    p.add_argument("--reanalyse-stage", action=argparse.BooleanOptionalAction, default=True,
                   help="with --pipeline: after the best model, the Reanalyse generation (REANALYSE_GENERATION: "
                        "the model fine-tuned on a 4x search's targets for its own self-play; the shipped "
                        "model's plan since g6); --no-reanalyse-stage stops before it (g5's plan)")
    p.add_argument("--reanalyse-generations", type=int, default=REANALYSE_GENERATIONS, metavar="N",
                   help="with --pipeline: how many Reanalyse generations, each fine-tuned from the best model "
                        "before it on its own self-play (1: the shipped model's plan)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--executor", default=None, help="process (default), inline, or dask://scheduler:8786")


def main(args: argparse.Namespace) -> int:
    try:
        if args.pipeline:
            planned = _planned_game(args.game)
            if planned is not None:          # a game with its own plan (engine_c/NAME/training.py)
                from clients import train_plan

                train_plan.run(planned, args.pipeline, args.ship, jobs=args.jobs, executor=args.executor)
                return 0
            if args.reanalyse_generations < 1:
                raise ValueError(f"--reanalyse-generations: must be at least 1, got {args.reanalyse_generations} "
                                 f"(--no-reanalyse-stage runs none)")
            run_pipeline(args.pipeline, args.ship, jobs=args.jobs, executor=args.executor,
                         treeless=args.treeless_stages,
                         reanalyse=args.reanalyse_generations if args.reanalyse_stage else 0)
            return 0
        if not args.data:
            print("train: give --data DIR ... (self-play shards) or --pipeline RUN_DIR", file=sys.stderr)
            return 2
        if args.hidden is not None and min(args.hidden) < 1:
            raise ValueError(f"--hidden: widths must be at least 1, got {args.hidden}")
        if args.policy_hidden is not None and min(args.policy_hidden) < 1:
            raise ValueError(f"--policy-hidden: widths must be at least 1, got {args.policy_hidden}")
        if args.q_weight is not None and not 0.0 <= args.q_weight <= 1.0:
            raise ValueError(f"--q-weight: must be within [0, 1], got {args.q_weight}")
        if args.feature_version is not None and args.feature_version < 1:
            raise ValueError(f"--feature-version: must be at least 1, got {args.feature_version}")
        if args.td_lambda is not None and not 0.0 <= args.td_lambda <= 1.0:
            raise ValueError(f"--td-lambda: must be within [0, 1], got {args.td_lambda}")
        if args.rollout_weight < 0:
            raise ValueError(f"--rollout-weight: must not be negative, got {args.rollout_weight}")
        game = None
        if args.game is not None:
            from clients.args import game_flag

            game = game_flag(args.game).name
        if args.epochs is not None and args.epochs < 1:
            raise ValueError(f"--epochs: must be at least 1, got {args.epochs}")
        if args.lr is not None and not 0 < args.lr < 1:
            raise ValueError(f"--lr: must be within (0, 1), got {args.lr}")
        if args.train_only and not args.init:
            raise ValueError("--train-only: needs --init (the model whose other part is kept)")
        if args.init and (args.hidden is not None or args.policy_hidden is not None):
            raise ValueError("--init: the widths are the init model's; drop --hidden / --policy-hidden")
        if game is not None:
            found = _shards_games(args.data) - {game}
            if found:
                raise ValueError(f"--game: the shards in {', '.join(args.data)} are games of "
                                 f"{', '.join(sorted(found))}, not {game}")
        train_one(args.data, args.out, args.generation, args.parent, args.seed, args.epochs,
                  q_weight=args.q_weight, hidden=tuple(args.hidden) if args.hidden else None,
                  td_lambda=args.td_lambda, rollout_weight=args.rollout_weight, game=game,
                  policy_hidden=tuple(args.policy_hidden) if args.policy_hidden else None,
                  feature_version=args.feature_version, init=args.init, train_only=args.train_only, lr=args.lr)
        return 0
    except (ValueError, RuntimeError) as e:
        print(f"train: {e}", file=sys.stderr)
        return 2


def _planned_game(name: str | None):
    """The game of --game when it declares its own training plan; None for the project's first game (its
    pipeline is this module's run_pipeline) or no --game. ValueError naming --game otherwise."""
    if name is None:
        return None
    from clients.args import game_flag
    from engine_c.registry import DEFAULT_GAME, get_game

    game = game_flag(name)
    if game.training is not None:
        return game
    if game.name == get_game(DEFAULT_GAME).name:
        return None
    raise ValueError(f"--game: {game.title} declares no training plan (engine_c/{game.name}/training.py); "
                     f"train it with --data")


def _shards_games(data_dirs: list[str]) -> set[str]:
    """The games the shards in `data_dirs` are of (their meta's "game"; only the meta is read)."""
    import numpy as np

    from search.selfplay import list_shards

    out = set()
    for path in (p for d in data_dirs for p in list_shards(d)):
        try:
            with np.load(path, allow_pickle=False) as z:
                out.add(str(json.loads(str(z["meta"])).get("game", "?")))
        except (OSError, ValueError, KeyError) as e:
            raise ValueError(f"{path}: not a self-play shard ({e})") from None
    return out


# ----------------------------------------------------------------------------------------------
# Calibration
# ----------------------------------------------------------------------------------------------
def hint_level() -> int:
    """The level a hint searches at when its request names none (the server's default, with the learned
    evaluation: 400 iterations)."""
    from engine_c.spellbook.game import SPELLBOOK
    from search.levels import default_level
    from server.service import ServiceConfig

    return ServiceConfig().default_level or default_level(SPELLBOOK, "network")


def _calibration_game(task: tuple[str, int, int]) -> list:
    from engine_c.spellbook import State
    from engine_c.spellbook.game import SPELLBOOK
    from search.arena import calibration_rows as collect
    from search.levels import level_options
    from search.model import Model

    model_path, seed, level = task
    model = Model.load(model_path)
    raw = Model(arrays=model.arrays, meta={k: v for k, v in model.meta.items() if k != "calibration"})

    def options(k: int):
        opts = level_options(level, seed * 1009 + k, evaluator="network", game=SPELLBOOK)
        opts.temperature = 0.0
        return opts

    return collect(SPELLBOOK, lambda sd: State.new(players=2 + sd % 3, spells="classic", seed=sd), options,
                   seed, raw.network(SPELLBOOK))


def fit_calibration(model_path: str, games: int, seed: int, jobs: int, level: int | None = None) -> dict:
    """The calibration map of a model from `games` fresh games (seeds seed, seed+1, ...; 2/3/4 players
    by seed mod 3), searched at `level` (default: the server's default hint level) on a process pool."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    from tqdm import tqdm

    from search.calibration import fit
    from search.model import Model

    level = level or hint_level()
    tasks = [(model_path, seed + i, level) for i in range(games)]
    start = time.monotonic()
    bar = dict(total=len(tasks), unit="game", desc="calibrate", file=sys.stderr, disable=None)   # a bar on a terminal
    if jobs <= 1:
        per_game = [_calibration_game(t) for t in tqdm(tasks, **bar)]
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn")) as pool:
            per_game = list(tqdm(pool.map(_calibration_game, tasks), **bar))
    rows = [r for game_rows in per_game for r in game_rows]
    cal = fit(rows)
    cal.update({"model": Model.load(model_path).version, "games": games, "seeds": [seed, seed + games - 1],
                "level": level, "seconds": round(time.monotonic() - start, 1)})
    return cal


def calibrate(run_dir: str, model_path: str, jobs: int) -> dict:
    """The pipeline's calibration stage (kept in calibration.json; refitted when the model changes)."""
    from search.model import Model

    path = os.path.join(run_dir, "calibration.json")
    version = Model.load(model_path).version
    if os.path.exists(path):
        cal = json.load(open(path))
        if cal.get("model") == version and "mover" in cal:     # a map without it predates the mover step
            return cal
    cal = fit_calibration(model_path, CALIBRATION["games"], CALIBRATION["seed"], jobs, CALIBRATION["level"])
    with open(path + ".tmp", "w") as f:
        json.dump(cal, f, indent=1)
    os.replace(path + ".tmp", path)
    keys = ("model", "temperature", "mover", "ece_before", "ece_after", "decisions", "seconds")
    _log(run_dir, {"stage": "calibrate", **{k: cal[k] for k in keys}})
    return cal


# ----------------------------------------------------------------------------------------------
# The pipeline
# ----------------------------------------------------------------------------------------------
@dataclass
class Stage:
    name: str
    seconds: float = 0.0
    info: dict = field(default_factory=dict)


def _selfplay(run_dir: str, name: str, games: int, iterations: int, seed: int, model: str, jobs: int,
              executor: str | None, value_playouts: int = 0, extra: tuple[str, ...] = ()) -> float:
    """Search self-play into run_dir/name (resumes by shard); `extra`: more of the command's flags."""
    return _run_selfplay(name, ["--out", os.path.join(run_dir, name), "--games", str(games), "--games-per-shard", "8",
                                "--players", "2", "3", "4", "--spells", "classic", "--iterations", str(iterations),
                                "--evaluator", "network" if model else "rollout", "--model", model,
                                "--rollout-mix", "0", "--explore-decisions", "6", "--value-playouts",
                                str(value_playouts), "--seed", str(seed), "-j", str(jobs), *extra], executor)


def _treeless(run_dir: str, name: str, plan: dict, seed: int, model: str, jobs: int, executor: str | None) -> float:
    """Tree-less self-play (search/treeless.pxi) into run_dir/name by `model`, as `plan` says."""
    return _run_selfplay(name, ["--generator", "treeless", "--mode", plan["mode"], "--model", model,
                                "--out", os.path.join(run_dir, name), "--games", str(plan["games"]),
                                "--games-per-shard", str(VALUE_MODEL["games_per_shard"]), "--players", "2", "3", "4",
                                "--spells", "classic", "--value-playouts", str(plan["value_playouts"]),
                                "--seed", str(seed), "-j", str(jobs)], executor)


def gate(run_dir: str, name: str, new: str, old: str | None, jobs: int, executor: str | None,
         new_search: dict | None = None) -> dict:
    """An SPRT match of the new model against the best accepted one (None: the rollout search, also how
    every generation is rated), seat-swapped pairs at two seats, fixed seeds. Accepted when the SPRT
    accepts H1 (elo1), or when it has not decided after GATE['pairs'] pairs and the new model scored
    above 50%; rejected otherwise. `new_search`: the new model's own search ("rollout_mix", and
    "iteration_scale" of GATE['network_iterations']) where it differs from the default blended search."""
    from clients import ratings as R
    from clients.tournament import make_executor, run_tournament, schedule
    from engine_c.spellbook.game import SPELLBOOK       # the pipeline trains SpellBook's model

    def network_spec(model: str, search: dict | None) -> str:
        search = search or {}
        iterations = round(GATE["network_iterations"] * search.get("iteration_scale", 1.0))
        leaves = f",rollout_mix={search['rollout_mix']}" if "rollout_mix" in search else ""
        return f"ismcts:iterations={iterations}{leaves},evaluator=network,model={model}"

    new_spec = network_spec(new, new_search)
    old_spec = (network_spec(old, None) if old else
                f"ismcts:iterations={GATE['rollout_iterations']},evaluator=rollout")
    test = R.SPRT(GATE["elo0"], GATE["elo1"])
    tasks = schedule([new_spec, old_spec], games=2 * GATE["pairs"], seats=2, seed=SEED + 7, setup="classic",
                     game=SPELLBOOK.name)
    out = os.path.join(run_dir, f"{name}.jsonl")
    with make_executor(executor, jobs) as ex:
        result = run_tournament(tasks, out, ex.executor, slots=ex.slots, resume=True, sprt=test, desc=name)
    sprt = result.sprt or {}
    elo = R.outcome_elo(sprt["pentanomial"]) if sprt.get("pentanomial") else None
    decision = sprt.get("decision") or ("H1" if elo and elo.score > 0.5 else "H0")
    return {"games": elo.games if elo else 0, "score": round(elo.score, 4) if elo else None,
            "sprt": sprt.get("decision"), "llr": round(sprt.get("llr", 0.0), 3), "accepted": decision == "H1",
            "elo": round(elo.elo, 1) if elo else None,
            "elo_95": [round(elo.lo, 1), round(elo.hi, 1)] if elo else None,
            "los": round(elo.los, 4) if elo else None,
            "opponent": old_spec, "challenger": new_spec}


def _value_generations(run_dir: str, source: str, jobs: int, executor: str | None) -> list[str]:
    """The tree-less generations t1, t2, ... (TREELESS) and their value models v1, v2, ...: t1 played by
    `source`'s policy, each later one greedily on the previous value. Their directories, in order."""
    dirs = []
    for k, plan in enumerate(TREELESS, 1):
        name, value_path = f"t{k}", os.path.join(run_dir, f"v{k}.npz")
        seconds = _treeless(run_dir, name, plan, SEED + 10_000 + k, source, jobs, executor)
        _log(run_dir, {"stage": f"tree-less {name}", "model": os.path.basename(source), "seconds": round(seconds, 1)})
        dirs.append(os.path.join(run_dir, name))
        if not os.path.exists(value_path):
            t0 = time.monotonic()
            info = train_one([dirs[-1]], value_path, generation=0, parent=os.path.basename(source),
                             seed=SEED + 10_000 + k, epochs=VALUE_MODEL["epochs"], hidden=VALUE_MODEL["hidden"],
                             td_lambda=plan["td_lambda"], feature_version=PLAN_FEATURE_VERSION)
            _log(run_dir, {"stage": f"train v{k}", "seconds": round(time.monotonic() - t0, 1),
                           "version": info["version"], "winner_brier": info["held"].get("winner_brier")})
        source = value_path
    return dirs


def _final_generation(run_dir: str, gen: int, search_model: str, best: str | None, best_version: str,
                      jobs: int, executor: str | None) -> dict:
    """The model trained on tree-less value rows and playout-cap-randomized search self-play (policy),
    gated at about equal time against the best accepted model (its leaves: the value alone)."""
    value_dirs = _value_generations(run_dir, search_model, jobs, executor)[-VALUE_WINDOW:]
    plan = POLICY_SELFPLAY
    seconds = _selfplay(run_dir, "p", plan["games"], plan["iterations"], SEED + 20_000, search_model, jobs,
                        executor, extra=("--full-share", str(plan["full_share"]),
                                         "--cheap-iterations", str(plan["cheap_iterations"])))
    _log(run_dir, {"stage": "selfplay p (playout-cap randomization)", "model": os.path.basename(search_model),
                   "seconds": round(seconds, 1)})
    data = value_dirs + [os.path.join(run_dir, "p")]
    model_path = os.path.join(run_dir, f"m{gen}.npz")
    t0 = time.monotonic()
    info = train_one(data, model_path, gen, parent=best_version, seed=SEED + gen, epochs=VALUE_MODEL["epochs"],
                     hidden=VALUE_MODEL["hidden"], td_lambda=1.0, q_weight=FINAL_MODEL["q_weight"],
                     policy_hidden=FINAL_MODEL["policy_hidden"], feature_version=FINAL_MODEL["feature_version"])
    train_s = time.monotonic() - t0
    _log(run_dir, {"stage": f"train m{gen}", "seconds": round(train_s, 1), "version": info["version"]})
    g = gate(run_dir, f"gate{gen}", model_path, best, jobs, executor, new_search=FINAL_SEARCH)
    _log(run_dir, {"stage": f"gate m{gen}", **g})
    return {"generation": gen, "version": info["version"], "trained_on": [os.path.basename(d) for d in data],
            "games": info["games"], "decisions": info["decisions"], "train_seconds": round(train_s, 1),
            "held_out": info["held"], "calibration_bins": info["bins"], "gate": g, "accepted": g["accepted"],
            **({"search": dict(FINAL_SEARCH)} if FINAL_SEARCH else {})}


def _reanalyse_generation(run_dir: str, gen: int, source: str, source_version: str, jobs: int,
                          executor: str | None, plan: dict | None = None) -> dict:
    """A Reanalyse generation after `source` (the best model; `plan`: REANALYSE_GENERATION's form, default
    it): self-play s{gen} keeping states, Reanalyse r{gen} with its search at 4x, m{gen} fine-tuned from
    `source` on r{gen}, gated against `source`."""
    from engine_c.spellbook.game import SPELLBOOK

    plan = plan or REANALYSE_GENERATION
    s_dir, r_dir = os.path.join(run_dir, f"s{gen}"), os.path.join(run_dir, f"r{gen}")
    seconds = _run_selfplay(f"s{gen}", [
        "--out", s_dir, "--games", str(plan["games"]), "--games-per-shard", str(plan["games_per_shard"]),
        "--players", *map(str, plan["players"]), "--spells", "classic", "--iterations", str(plan["iterations"]),
        "--evaluator", "network", "--model", source, "--rollout-mix", "0", "--explore-decisions", "6",
        "--keep-states", "--seed", str(plan["seed"]), "-j", str(jobs), "--no-progress"], executor)
    _log(run_dir, {"stage": f"selfplay s{gen} (keeping states)", "model": os.path.basename(source),
                   "seconds": round(seconds, 1)})
    seconds = _reanalyse(SPELLBOOK, s_dir, r_dir, plan["reanalyse"], jobs, executor, source, plan["rollout_mix"])
    _log(run_dir, {"stage": f"reanalyse r{gen}", "seconds": round(seconds, 1)})
    model_path = os.path.join(run_dir, f"m{gen}.npz")
    t0 = time.monotonic()
    train = plan["train"]
    info = train_one([r_dir], model_path, gen, parent=source_version, seed=train["seed"], epochs=train["epochs"],
                     init=source, train_only=train.get("train_only", ""), lr=train["lr"],
                     q_weight=train.get("q_weight"))
    train_s = time.monotonic() - t0
    _log(run_dir, {"stage": f"train m{gen} (from {os.path.basename(source)})", "seconds": round(train_s, 1),
                   "version": info["version"]})
    g = gate(run_dir, f"gate{gen}", model_path, source, jobs, executor)
    _log(run_dir, {"stage": f"gate m{gen}", **g})
    return {"generation": gen, "version": info["version"], "trained_on": [f"r{gen}"], "init": source_version,
            "games": info["games"], "decisions": info["decisions"], "train_seconds": round(train_s, 1),
            "held_out": info["held"], "calibration_bins": info["bins"], "gate": g, "accepted": g["accepted"]}


def run_pipeline(run_dir: str, ship: str | None, jobs: int = 2, executor: str | None = None,
                 treeless: bool = False, reanalyse: int = 0) -> dict:
    """The whole pipeline in run_dir (module docstring); `treeless`: also the tree-less generations and
    the final model trained on them (TREELESS ...), the plan of the next shipped model (docs/learned.md);
    `reanalyse`: then that many Reanalyse generations, each from the best model before it (reanalyse_plan)."""
    os.makedirs(run_dir, exist_ok=True)
    table_path = os.path.join(run_dir, "generations.json")
    table = json.load(open(table_path)) if os.path.exists(table_path) else {"generations": []}
    done = {g["generation"]: g for g in table["generations"]}
    started = time.monotonic()

    def save():
        with open(table_path + ".tmp", "w") as f:
            json.dump(table, f, indent=1)
        os.replace(table_path + ".tmp", table_path)

    seconds = _selfplay(run_dir, "g0", GEN0["games"], GEN0["iterations"], SEED, "", jobs, executor)
    _log(run_dir, {"stage": "selfplay g0", "seconds": round(seconds, 1)})
    best, best_gen, best_version = None, 0, "rollout"
    for gen in range(1, len(GENERATIONS) + 2):
        plan = MODEL_PLAN.get(gen, {})
        window = plan.get("window", WINDOW)
        data = [os.path.join(run_dir, f"g{g}") for g in range(max(0, gen - window), gen)]
        model_path = os.path.join(run_dir, f"m{gen}.npz")
        if gen in done:
            entry = done[gen]
        else:
            t0 = time.monotonic()
            info = train_one(data, model_path, gen, parent=best_version, seed=SEED + gen, epochs=plan.get("epochs"),
                             q_weight=Q_WEIGHT.get(gen, DEFAULT_Q_WEIGHT), feature_version=PLAN_FEATURE_VERSION)
            train_s = time.monotonic() - t0
            _log(run_dir, {"stage": f"train m{gen}", "seconds": round(train_s, 1), "version": info["version"]})
            g = gate(run_dir, f"gate{gen}", model_path, best, jobs, executor)
            _log(run_dir, {"stage": f"gate m{gen}", **g})
            entry = {"generation": gen, "version": info["version"], "trained_on": [os.path.basename(d) for d in data],
                     "games": info["games"], "decisions": info["decisions"], "train_seconds": round(train_s, 1),
                     "held_out": info["held"], "calibration_bins": info["bins"], "gate": g,
                     "accepted": g["accepted"]}
            table["generations"].append(entry)
            save()
        if entry["accepted"]:
            best, best_gen, best_version = model_path, gen, entry["version"]
        if gen - 1 < len(GENERATIONS):
            # As AlphaZero: the newest model plays the next games whether or not its gate accepted it
            # (its searches' visit counts are sharper policy targets than the rollout search's; with the
            # network's value alone, rollout_mix 0, it plays eight times faster); the gate decides what
            # ships, and gates play the default search (leaves blended with a rollout).
            selfplay_plan = GENERATIONS[gen - 1]
            src = model_path
            seconds = _selfplay(run_dir, f"g{gen}", selfplay_plan["games"], selfplay_plan["iterations"],
                                SEED + 100 * gen, src, jobs, executor)
            _log(run_dir, {"stage": f"selfplay g{gen}", "model": os.path.basename(src), "seconds": round(seconds, 1)})
    if treeless and TREELESS:
        final = len(GENERATIONS) + 2
        if final not in done:
            entry = _final_generation(run_dir, final, best or model_path, best, best_version, jobs, executor)
            table["generations"].append(entry)
            save()
        else:
            entry = done[final]
        if entry["accepted"]:
            best, best_gen, best_version = os.path.join(run_dir, f"m{final}.npz"), final, entry["version"]
    first = len(GENERATIONS) + (3 if treeless and TREELESS else 2)       # the generation after the last
    for k in range(int(reanalyse) if REANALYSE_GENERATION and best else 0):
        gen = first + k
        entry = done.get(gen)
        if entry is None:
            entry = _reanalyse_generation(run_dir, gen, best, best_version, jobs, executor, reanalyse_plan(k))
            table["generations"].append(entry)
            save()
        if entry["accepted"]:
            best, best_gen, best_version = os.path.join(run_dir, f"m{gen}.npz"), gen, entry["version"]
    # Ship the last accepted generation as the default evaluation; when no generation passed its gate,
    # ship the one that came closest, used only when a search asks for evaluator=network.
    entries = table["generations"]
    if best is None and entries:
        top = max(entries, key=lambda e: e["gate"].get("score") or 0.0)
        best_gen, best = top["generation"], os.path.join(run_dir, f"m{top['generation']}.npz")
    # Every generation's strength against the rollout search (the first one's gate already is that match)
    for entry in entries:
        if "vs_rollout" not in entry:
            gen = entry["generation"]
            entry["vs_rollout"] = (entry["gate"] if gen == 1 else
                                   gate(run_dir, f"rate{gen}", os.path.join(run_dir, f"m{gen}.npz"), None, jobs,
                                        executor, new_search=entry.get("search")))
            _log(run_dir, {"stage": f"rate m{gen} against the rollout search", **entry["vs_rollout"]})
            save()
    calibration = None
    if best:
        calibration = calibrate(run_dir, best, jobs)
        table["calibration"] = calibration
    table["shipped"] = {"generation": best_gen, "use_by_default": any(e["accepted"] for e in entries)}
    table["pipeline_seconds_this_run"] = round(time.monotonic() - started, 1)
    save()
    if ship and best:
        from search.model import Model

        model = Model.load(best)
        entry = next(e for e in entries if e["generation"] == best_gen)
        model.meta["use_by_default"] = bool(entry["accepted"])
        model.meta["training"]["gate"] = entry["gate"]
        if entry.get("search"):
            model.meta["search"] = entry["search"]          # the leaves and budget it was gated with
        if calibration:
            model.meta["calibration"] = calibration
        os.makedirs(os.path.dirname(os.path.abspath(ship)), exist_ok=True)
        model.save(ship)
        shutil.copyfile(table_path, os.path.join(os.path.dirname(os.path.abspath(ship)), "generations.json"))
        _log(run_dir, {"stage": "ship", "generation": best_gen, "use_by_default": entry["accepted"], "to": ship})
    return table
