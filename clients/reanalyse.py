"""`spellbook-ai reanalyse`: stored self-play positions searched again by a deeper search (search/reanalyse.py),
so the value learns the deeper search's root estimates and the policy its visit counts.

    spellbook-ai selfplay --game spellbooktcg --out runs/g0 --games 400 --keep-states
    spellbook-ai reanalyse --game spellbooktcg --data runs/g0 --out runs/r0 --iterations 1600 --share 0.25 -j 2
    spellbook-ai train --game spellbooktcg --data runs/r0 --out model.npz

Every shard of --data (kept with --keep-states) becomes one shard in --out holding the --share of its
decisions searched again; running the same command again resumes, skipping the shards on disk. The search is
the game's default level's kind (its chance and rollout fields) at --iterations, with --model's network when
given (MuZero's Reanalyse re-searches with the latest network). -j N on N processes; --executor dask://host:8786
on a Dask cluster.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from clients.args import add_game_flags


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.ArgumentDefaultsHelpFormatter
    add_game_flags(p, setup=False)
    p.add_argument("--data", nargs="+", required=True, help="self-play shard directories (kept with --keep-states)")
    p.add_argument("--out", required=True, help="directory of the reanalysed shards (created; resumed)")
    p.add_argument("--iterations", type=int, default=1600, help="the deeper search's iterations per decision")
    p.add_argument("--model", default="", help="search with this model's network (default: the rollout search)")
    p.add_argument("--rollout-mix", type=float, default=0.5, help="with --model: the leaves' blend with a rollout")
    p.add_argument("--share", type=float, default=1.0, help="share of each shard's decisions searched again")
    p.add_argument("-j", "--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--executor", default=None, help="process (default), inline, or dask://scheduler:8786")


def options(args: argparse.Namespace, adapter):
    """The deeper search's options for the flags (ValueError naming the flag)."""
    from clients.selfplay import game_search_fields
    from search.search import SearchOptions

    if args.iterations < 1:
        raise ValueError(f"--iterations: must be at least 1, got {args.iterations}")
    if not 0.0 < args.share <= 1.0:
        raise ValueError(f"--share: must be within (0, 1], got {args.share}")
    opts = SearchOptions(iterations=args.iterations, evaluator="network" if args.model else "rollout",
                         model=args.model, rollout_mix=args.rollout_mix if args.model else 0.0,
                         **game_search_fields(adapter))
    opts.validate()
    if args.model:
        from search.model import Model

        try:
            Model.load(args.model).network(adapter)      # refuses another game's model
        except (OSError, ValueError) as e:
            raise ValueError(f"--model: {e}") from None
    return opts


def main(args: argparse.Namespace) -> int:
    from clients.tournament import make_executor
    from clients.args import game_flag
    from search import reanalyse as R

    try:
        g = game_flag(args.game)
        missing = [d for d in args.data if not os.path.isdir(d)]
        if missing:
            raise ValueError(f"--data: no directory {missing[0]}")
        config = R.ReanalyseConfig(options=options(args, g.adapter), model_path=args.model or None,
                                   share=args.share)
    except ValueError as e:
        print(f"reanalyse: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    tasks = R.plan(args.data, args.out, g.name, config)
    print(f"reanalyse: {len(tasks)} shards to search again into {args.out}", file=sys.stderr)
    start = time.monotonic()
    try:
        with make_executor(args.executor, args.jobs) as ex, open(os.path.join(args.out, "reanalyse.log"), "a") as log:
            for summary in ex.results(R.run_task, [vars(t) for t in tasks]):
                summary["elapsed_s"] = round(time.monotonic() - start, 1)
                log.write(json.dumps(summary) + "\n")
                log.flush()
    except ValueError as e:
        print(f"reanalyse: {e}", file=sys.stderr)
        return 2
    return 0
