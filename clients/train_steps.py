"""Steps every training pipeline shares (clients/train.py's, SpellBook's; clients/train_plan.py's, a game's own
plan): training one model on shards, running self-play and Reanalyse through their commands, and the pipeline's
log."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any


def train_one(data_dirs: list[str], out: str, generation: int, parent: str = "", seed: int = 0,
              epochs: int | None = None, log=None, q_weight: float | None = None,
              hidden: tuple[int, int] | None = None, td_lambda: float | None = None,
              rollout_weight: float = 0.0, game: str | None = None,
              policy_hidden: tuple[int, int] | None = None, feature_version: int | None = None,
              init: str = "", train_only: str = "", lr: float | None = None) -> dict:
    from search.selfplay import list_shards
    from search.train import TrainConfig, train

    paths = [p for d in data_dirs for p in list_shards(d)]
    if not paths:
        raise ValueError(f"no self-play shards in {', '.join(data_dirs)}")
    cfg = TrainConfig(seed=seed)
    if epochs is not None:
        cfg.epochs = epochs
    if q_weight is not None:
        cfg.q_weight = q_weight
    if hidden is not None:
        cfg.hidden = hidden
    cfg.td_lambda, cfg.rollout_weight, cfg.policy_hidden = td_lambda, rollout_weight, policy_hidden
    cfg.feature_version = feature_version
    cfg.init, cfg.train_only = init, train_only
    if lr is not None:
        cfg.lr = lr
    model, report = train(paths, cfg, game=game, generation=generation, parent=parent,
                          log=log or (lambda line: print(line, file=sys.stderr)))
    model.save(out)
    print(f"train: wrote {out} ({model.version}): held-out {json.dumps(report['held'].get('ece'))} ECE, "
          f"policy top-1 {report['held'].get('policy_top1')}", file=sys.stderr)
    return {"version": model.version, "seconds": report["seconds"], "decisions": report["decisions"],
            "games": report["games"], "held": {k: v for k, v in report["held"].items() if k != "bins"},
            "bins": report["held"].get("bins", [])}


def _log(run_dir: str, entry: dict) -> None:
    entry = {"ts": round(time.time(), 1), **entry}
    with open(os.path.join(run_dir, "pipeline.log"), "a") as f:
        f.write(json.dumps(entry) + "\n")
    print(json.dumps(entry), file=sys.stderr)


def _run_selfplay(name: str, argv: list[str], executor: str | None) -> float:
    from clients import selfplay

    # through the command's own parser, so every flag not named here keeps the command's default
    parser = argparse.ArgumentParser()
    selfplay.add_arguments(parser)
    ns = parser.parse_args(argv)
    ns.executor = executor
    start = time.monotonic()
    if selfplay.main(ns) != 0:
        raise RuntimeError(f"self-play {name} failed")
    return time.monotonic() - start


def _reanalyse(game: Any, source: str, out: str, plan: dict, jobs: int, executor: str | None, model: str = "",
               rollout_mix: float = 0.5) -> float:
    """Reanalyse `source` into `out` (plan: "iterations", "share") through the command's own parser; its seconds."""
    from clients import reanalyse

    parser = argparse.ArgumentParser()
    reanalyse.add_arguments(parser)
    ns = parser.parse_args(["--game", game.name, "--data", source, "--out", out, "--iterations",
                            str(plan["iterations"]), "--share", str(plan.get("share", 1.0)), "-j", str(jobs),
                            *(["--model", model, "--rollout-mix", str(rollout_mix)] if model else [])])
    ns.executor = executor
    start = time.monotonic()
    if reanalyse.main(ns) != 0:
        raise RuntimeError(f"reanalyse {out} failed")
    return time.monotonic() - start
