"""`spellbook-ai selfplay`: self-play games recorded as training data for the learned evaluation.

    spellbook-ai selfplay --out runs/g0 --games 400 --players 2 3 4 --iterations 400 -j 2
    spellbook-ai selfplay --out runs/g1 --games 400 --model data/models/spellbook.npz --iterations 800
    spellbook-ai selfplay --game abracadawhat --out runs/aw0 --games 200 --players 2 3 4 5 --iterations 200

Each game seats every count the game allows (cycling through --players), set up as the game's varied
setup says (SpellBook: a random spell per color, "classic", every spell choice, from its own seed; or
--spells; Abracada…What?: --variants); a search bot plays every seat (rollout search, or the
learned one with --model). Shards of --games-per-shard games are written to --out as they finish
(format: search/selfplay.py, docs/learned.md); running the same command again resumes, skipping the
shards on disk. -j N plays shards on N processes; --executor dask://host:8786 on a Dask cluster.

    spellbook-ai selfplay --generator treeless --model data/models/spellbook.npz --out runs/t1 \
        --games 100000 --value-playouts 16 -j 2

--generator treeless plays without a tree, one ply by the network (search/treeless.pxi): its policy
prior at --temperature (--mode policy) or greedy on its value (--mode value), --epsilon random moves,
keeping --keep decisions a game with their TD(lambda) returns for each of --td-lambdas. Without --model
it plays uniformly random moves (rows without estimates). Value rows only: no policy targets.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from search.search import EVALUATORS, SearchOptions
from search.selfplay import SelfPlayConfig, plan_shards, run_shard

GAME_FACTORY = "clients.selfplay:registry_game"      # every game, through engine_c.registry


def registry_game(game: str, players: list[int] | None = None, **setup):
    """(game adapter, new_state(seed)) of a game of engine_c.registry: the seat count cycles through `players`
    by seed (default: every count the game allows), every game set up through its record module's `new` with
    `setup`, given by the game's setup field (spells=..., variants=...; absent: the game's varied setup,
    Declaration.varied_setup: SpellBook's spells drawn for each deal)."""
    from engine_c.registry import get_game

    g = get_game(game)
    unknown = sorted(set(setup) - {g.setup})
    if unknown:
        raise ValueError(f"{g.title} has no setup {unknown[0]!r}")
    counts = list(players or range(g.min_players, g.max_players + 1))
    chosen = setup.get(g.setup, g.varied_setup) if g.setup else g.varied_setup

    def new_state(seed: int):
        return g.record.new(counts[seed % len(counts)], chosen, seed)

    return g.adapter, new_state


def game_search_fields(adapter) -> dict:
    """The search fields of a game's own default level beside its budget (its adapter's level_table at
    `default_level`, e.g. Abracada…What?'s chance="open", rollout="heuristic": the search its models are
    gated and trained with; its top levels key chance nodes since D154); {} for a game without one
    (SpellBook)."""
    table = adapter.level_table
    if not table:
        return {}
    row = table[adapter.default_level or max(table)]
    return {k: row[k] for k in ("chance", "rollout") if k in row}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.ArgumentDefaultsHelpFormatter
    from clients.args import add_game_flags

    add_game_flags(p, setup=False)
    p.add_argument("--out", required=True, help="directory of the shards (created; resumed when it has some)")
    p.add_argument("--games", type=int, default=200, help="games in the whole run")
    p.add_argument("--games-per-shard", type=int, default=None,
                   help="games per shard file, the unit of resume (default: 4; tree-less: 1000)")
    p.add_argument("--players", type=int, nargs="+", default=None,
                   help="seat counts, cycled through game by game (default: every count the game allows)")
    p.add_argument("--spells", default=None,
                   help="SpellBook: spell choice of every game (default classic: random per color)")
    p.add_argument("--variants", nargs="+", default=None, metavar="VARIANT",
                   help="Abracada…What?: rule variants of every game (xv1 easy, xv2 last magician standing)")
    p.add_argument("--belief", action="store_true",
                   help="games with a belief (Abracada…What?): root determinizations drawn from it")
    p.add_argument("--iterations", type=int, default=400, help="search iterations per decision")
    p.add_argument("--evaluator", default="rollout", choices=EVALUATORS,
                   help="the bot's evaluation; --model implies network")
    p.add_argument("--model", default="", help="a model file for the learned search")
    p.add_argument("--rollout-mix", type=float, default=0.0,
                   help="the learned search's leaf blend with one rollout (self-play: 0, eight times faster)")
    p.add_argument("--explore-decisions", type=int, default=6,
                   help="each seat's first N decisions sample moves by visit counts")
    p.add_argument("--full-share", type=float, default=1.0,
                   help="playout-cap randomization: share of decisions searched with --iterations and recorded; "
                        "the others get --cheap-iterations and are not recorded")
    p.add_argument("--cheap-iterations", type=int, default=100,
                   help="playout-cap randomization: iterations of an unrecorded cheap search")
    p.add_argument("--value-playouts", type=int, default=0, metavar="N",
                   help="also record p_win, the mean of N random playouts per decision (a value target)")
    p.add_argument("--keep-states", action="store_true",
                   help="keep each recorded decision's whole state, so `spellbook-ai reanalyse` can search it "
                        "again (training data only: the states hold hidden cards)")
    p.add_argument("--generator", default="search", choices=["search", "treeless"],
                   help="a search every decision, or one ply by the network without a tree")
    p.add_argument("--mode", default="policy", choices=["policy", "value"],
                   help="tree-less: sample the network's policy prior, or play greedily on its value")
    p.add_argument("--temperature", type=float, default=1.0, help="tree-less policy mode: prior ** (1/T)")
    p.add_argument("--epsilon", type=float, default=0.05, help="tree-less: share of uniformly random moves")
    p.add_argument("--keep", type=int, default=4, help="tree-less: decisions kept per game (uniformly chosen)")
    p.add_argument("--chance-samples", type=int, default=1,
                   help="tree-less value mode: chance continuations averaged per move")
    p.add_argument("--td-lambdas", type=float, nargs="+", default=[0.0, 0.5, 0.7, 0.9, 1.0],
                   help="tree-less: record the TD(lambda) return of each kept decision for these lambdas")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (game seeds derive from it)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--executor", default=None, help="process (default), inline, or dask://scheduler:8786")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(args: argparse.Namespace) -> int:
    from clients.tournament import make_executor

    treeless = args.generator == "treeless"
    if args.games_per_shard is None:
        args.games_per_shard = 1000 if treeless else 4
    if args.games < 1 or args.games_per_shard < 1 or args.iterations < 1:
        print("selfplay: --games, --games-per-shard and --iterations must be at least 1", file=sys.stderr)
        return 2
    if args.value_playouts < 0:
        print("selfplay: --value-playouts must be 0 or more", file=sys.stderr)
        return 2
    if not 0.0 < args.full_share <= 1.0 or args.cheap_iterations < 1:
        print("selfplay: --full-share must be in (0, 1] and --cheap-iterations at least 1", file=sys.stderr)
        return 2
    if treeless:
        problem = _treeless_problem(args)
        if problem:
            print(f"selfplay: {problem}", file=sys.stderr)
            return 2
    try:
        factory, game_args, adapter = _game_setup(args)
    except ValueError as e:
        print(f"selfplay: {e}", file=sys.stderr)
        return 2
    evaluator = "network" if args.model else args.evaluator
    opts = SearchOptions(iterations=args.iterations, evaluator=evaluator, model=args.model,
                         rollout_mix=args.rollout_mix, belief=args.belief, **game_search_fields(adapter))
    try:
        opts.validate()
        if args.model:
            from search.model import Model

            try:
                Model.load(args.model).network(adapter)      # refuses another game's model
            except ValueError as e:
                raise ValueError(f"--model: {e}") from None
    except ValueError as e:
        print(f"selfplay: {e}", file=sys.stderr)
        return 2
    config = SelfPlayConfig(options=opts, explore_decisions=args.explore_decisions, model_path=args.model or None,
                            value_playouts=args.value_playouts, generator=args.generator, mode=args.mode,
                            temperature=args.temperature, epsilon=args.epsilon, keep=args.keep,
                            chance_samples=args.chance_samples, td_lambdas=tuple(args.td_lambdas),
                            full_share=args.full_share, cheap_iterations=args.cheap_iterations,
                            keep_states=args.keep_states)
    os.makedirs(args.out, exist_ok=True)
    tasks = plan_shards(args.out, args.games, args.games_per_shard, args.seed, config, factory, game_args)
    total = (args.games + args.games_per_shard - 1) // args.games_per_shard
    print(f"selfplay: {total - len(tasks)} of {total} shards already in {args.out}; playing {len(tasks)}",
          file=sys.stderr)
    if not tasks:
        return 0
    from tqdm import tqdm

    log_path = os.path.join(args.out, "selfplay.log")
    start = time.monotonic()
    with make_executor(args.executor, args.jobs) as ex, open(log_path, "a") as log:
        bar = tqdm(total=len(tasks), unit="shard", disable=args.no_progress)
        for summary in ex.results(run_shard, [vars(t) for t in tasks]):
            summary["elapsed_s"] = round(time.monotonic() - start, 1)
            log.write(json.dumps(summary) + "\n")
            log.flush()
            bar.update(1)
        bar.close()
    return 0


def _game_setup(args: argparse.Namespace) -> tuple[str, dict, object]:
    """(shard factory, its arguments, the game's adapter) for the flags; ValueError naming the flag."""
    from clients.args import game_flag

    g = game_flag(args.game)
    players = args.players or list(range(g.min_players, g.max_players + 1))
    bad = [n for n in players if not g.min_players <= n <= g.max_players]
    if bad:
        raise ValueError(f"--players: {g.title} seats {g.min_players} to {g.max_players} players, got {bad}")
    if args.belief and g.adapter.new_belief is None:
        raise ValueError(f"--belief: {g.title} offers no belief")
    given = {"spells": args.spells, "variants": args.variants}    # this command's setup flags
    setup = given.pop(g.setup, None)
    for flag, value in given.items():
        if value is not None:
            raise ValueError(f"--{flag}: {g.title} has no {flag}")
    chosen = g.varied_setup if setup is None else setup
    try:
        g.record.new(players[0], chosen, 0)
    except ValueError as e:
        raise ValueError(f"--{g.setup}: {e}") from None
    # the shards' meta names the setup by the game's field, as it always has ("spells", "variants")
    return GAME_FACTORY, {"game": g.name, "players": players, **({g.setup: chosen} if g.setup else {})}, g.adapter


def _treeless_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the tree-less generator's flags, naming the flag; None when nothing."""
    if args.mode == "value" and not args.model:
        return "--mode value needs --model (it plays greedily on the network's value)"
    if not 0.0 <= args.epsilon <= 1.0:
        return f"--epsilon must be within [0, 1], got {args.epsilon}"
    if not 1 <= args.keep <= 64:
        return f"--keep must be 1..64, got {args.keep}"
    if args.chance_samples < 1:
        return f"--chance-samples must be at least 1, got {args.chance_samples}"
    if not 1 <= len(args.td_lambdas) <= 8 or any(not 0.0 <= v <= 1.0 for v in args.td_lambdas):
        return f"--td-lambdas takes 1 to 8 values within [0, 1], got {args.td_lambdas}"
    return None
