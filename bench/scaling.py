"""How the tree search scales with its budget against flat Monte Carlo (issue 11, item 0). One JSON line.

    python bench/scaling.py                                   # 1k / 4k / 16k iterations, both searches
    python bench/scaling.py --budgets 1000 4000 --pairs 20 12 --searches network
    python bench/scaling.py --games-file runs/scaling.jsonl   # resumable: finished games are kept

At each budget N, ISMCTS with N iterations a decision plays flat Monte Carlo with N iterations a decision
(2 players, "classic" spells, seat-swapped pairs on fixed deal seeds: every deal is played twice with
the seats swapped). Two searches are measured against the same flat Monte Carlo on the same deals
(`--opponent rollout`: against the rollout search with N iterations instead, for the learned search):

    rollout   the search before the learned evaluation (evaluator=rollout: UCT over determinizations,
              uniform rollouts to the end): the "before" curve
    network   the learned search (evaluator=network with the shipped or --model model: PUCT with the
              policy's priors, leaves blending the value with one rollout): the "after" curve

Equal iterations is not equal time (the learned search's iteration costs ~1.15x a rollout's; flat Monte
Carlo's is the cheapest): bench/strength.py measures at equal time. Each point reports the tree
search's score (win 1, tie 1/2) with its 95% Wilson interval and the number of games.
"""
from __future__ import annotations

import os
import sys

sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import json
import multiprocessing as mp
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from engine_c.spellbook import State
from engine_c.spellbook.game import SPELLBOOK
from search.arena import play_game, wilson_interval
from search.bots import make_bot

SPELLS = "classic"
DEFAULT_PAIRS = {1000: 20, 4000: 12, 16000: 5}


def tree_spec(search: str, budget: int, model: str, options: str = "") -> str:
    extra = f",model={model}" if (search == "network" and model) else ""
    return f"ismcts:iterations={budget},evaluator={search}{extra}" + (f",{options}" if options else "")


def _play(task: dict) -> dict:
    specs = task["seats"]
    bots = [make_bot(s, SPELLBOOK, seed=task["seed"] * 31 + i) for i, s in enumerate(specs)]
    rec = play_game(lambda sd: State.new(players=2, spells=SPELLS, seed=sd), bots, task["seed"])
    tree_seat = task["tree_seat"]
    score = 0.5 if len(rec.winners) > 1 and tree_seat in rec.winners else float(rec.winners == [tree_seat])
    return {**task, "score": score, "winners": rec.winners, "scores": rec.scores, "seconds": round(rec.seconds, 2)}


OPPONENTS = {"flatmc": "flatmc, equal iterations", "rollout": "the rollout search, equal iterations"}


def opponent_spec(opponent: str, budget: int) -> str:
    return f"flatmc:iterations={budget}" if opponent == "flatmc" else tree_spec("rollout", budget, "")


def plan(searches: list[str], budgets: list[int], pairs: list[int], seed0: int, model: str,
         options: str = "", opponent: str = "flatmc") -> list[dict]:
    tasks = []
    for budget, n in zip(budgets, pairs):
        rival = opponent_spec(opponent, budget)
        for search in searches:
            tree = tree_spec(search, budget, model, options)
            for d in range(n):
                for tree_seat in (0, 1):
                    seats = [tree, rival] if tree_seat == 0 else [rival, tree]
                    tasks.append({"search": search, "budget": budget, "seed": seed0 + d, "tree_seat": tree_seat,
                                  "seats": seats})
    return tasks


def key(t: dict) -> tuple:
    return (t["search"], t["budget"], t["seed"], t["tree_seat"], tuple(t["seats"]))


def summarize(results: list[dict], searches: list[str], budgets: list[int]) -> list[dict]:
    curve = []
    for search in searches:
        for budget in budgets:
            rs = [r for r in results if r["search"] == search and r["budget"] == budget]
            if not rs:
                continue
            wins = sum(r["score"] for r in rs)
            lo, hi = wilson_interval(wins, len(rs))
            curve.append({"search": search, "budget": budget, "games": len(rs), "score": round(wins / len(rs), 4),
                          "score_95": [round(lo, 4), round(hi, 4)],
                          "seconds_per_game": round(sum(r["seconds"] for r in rs) / len(rs), 1)})
    return curve


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--budgets", type=int, nargs="+", default=list(DEFAULT_PAIRS))
    ap.add_argument("--pairs", type=int, nargs="+", default=None,
                    help="seat-swapped deals per budget (default 20, 12, 5 for 1k, 4k, 16k)")
    ap.add_argument("--searches", nargs="+", default=["rollout", "network"], choices=["rollout", "network"])
    ap.add_argument("--opponent", default="flatmc", choices=list(OPPONENTS),
                    help="flat Monte Carlo, or the rollout search (then --searches network only)")
    ap.add_argument("--model", default="", help="model file (default: the shipped one)")
    ap.add_argument("--seed", type=int, default=30_000, help="first deal seed")
    ap.add_argument("--tree-options", default="", help="more SearchOptions for the tree search, e.g. c_puct=2")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--games-file", default=None, help="JSON lines of finished games: kept and resumed")
    a = ap.parse_args()
    pairs = a.pairs or [DEFAULT_PAIRS.get(b, 10) for b in a.budgets]
    if len(pairs) != len(a.budgets):
        ap.error("--pairs needs one count per budget")
    if a.opponent == "rollout" and "rollout" in a.searches:
        ap.error("--opponent rollout measures --searches network (the rollout search against itself is even)")
    tasks = plan(a.searches, a.budgets, pairs, a.seed, a.model, a.tree_options, a.opponent)
    done: list[dict] = []
    if a.games_file and os.path.exists(a.games_file):
        wanted = {key(t) for t in tasks}
        with open(a.games_file) as f:
            done = [r for r in map(json.loads, filter(str.strip, f)) if key(r) in wanted]
    have = {key(r) for r in done}
    todo = [t for t in tasks if key(t) not in have]
    started = time.monotonic()
    out = open(a.games_file, "a") if a.games_file else None
    try:
        with ProcessPoolExecutor(max_workers=a.jobs, mp_context=mp.get_context("spawn")) as pool:
            futures = [pool.submit(_play, t) for t in todo]
            for i, fut in enumerate(as_completed(futures), 1):
                r = fut.result()
                done.append(r)
                if out:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
                print(f"{i}/{len(todo)} {r['search']} {r['budget']}: {r['score']}", file=sys.stderr)
    finally:
        if out:
            out.close()
    from search.model import default_model, load_cached

    model = load_cached(a.model) if a.model else default_model(SPELLBOOK)
    print(json.dumps({"bench": "scaling", "opponent": OPPONENTS[a.opponent], "players": 2, "spells": SPELLS,
                      "tree_options": a.tree_options,
                      "model": model.version if model else "", "curve": summarize(done, a.searches, a.budgets),
                      "seconds": round(time.monotonic() - started)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
