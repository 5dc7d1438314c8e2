"""How the tree search scales with its budget against flat Monte Carlo (issue 11, item 0). One JSON line.

    python bench/scaling.py                                   # 1k / 4k / 16k iterations, both searches
    python bench/scaling.py --budgets 1000 4000 --pairs 20 12 --searches network
    python bench/scaling.py --games-file runs/scaling.jsonl   # resumable: finished games are kept
    python bench/scaling.py --selfplay --game abracadawhat --multipliers 4 16 --pairs 100 100   # issue 44's curve

At each budget N, ISMCTS with N iterations a decision plays flat Monte Carlo with N iterations a decision
(2 players, "classic" spells, seat-swapped pairs on fixed deal seeds: every deal is played twice with
the seats swapped). Two searches are measured against the same flat Monte Carlo on the same deals
(`--opponent rollout`: against the rollout search with N iterations instead, for the learned search):

    rollout   the search before the learned evaluation (evaluator=rollout: UCT over determinizations,
              uniform rollouts to the end): the "before" curve
    network   the learned search (evaluator=network with the shipped or --model model: PUCT with the
              policy's priors, leaves blending the value with one rollout): the "after" curve

`--selfplay` measures how the shipped search turns more iterations into strength (issue 44): the
game's default level (about 400 iterations: SpellBook's level 10, Abracada…What?'s level 6) with k times
its iterations plays the same level at 1x, seat-swapped pairs on fixed deals, 2 players, for each
`--multipliers` k. Each game's line carries `elo_<k>x_vs_1x` with its 95% interval (pentanomial over
the pairs, as the tournament's) and the games. `--tree-options` changes both sides (the search under
test); `--rival-options` the 1x side alone (e.g. a new search at k x against the shipped one at 1x).

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

from engine_c.registry import DEFAULT_GAME, GAMES
from engine_c.spellbook import State            # the curve against flat Monte Carlo is SpellBook's (issue 11)
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


SELFPLAY_SEED = 44_000          # deals no other bench plays


def selfplay_specs(game_name: str, multiplier: int, tree_options: str, rival_options: str) -> tuple[str, str]:
    """(the k-times search, the 1x search) as bot specs of the game's default level."""
    from engine_c.registry import get_game
    from search.levels import default_level, level_options

    adapter = get_game(game_name).adapter
    level = default_level(adapter)
    base = level_options(level, 0, game=adapter).iterations
    opts = lambda extra: "".join(f",{o}" for o in filter(None, extra.split(",")))
    strong = f"ismcts:level={level},iterations={base * multiplier}{opts(tree_options)}"
    rival = f"ismcts:level={level}{opts(tree_options if rival_options is None else rival_options)}"
    return strong, rival


def selfplay_plan(game_name: str, multipliers: list[int], pairs: list[int], seed0: int, tree_options: str,
                  rival_options: str) -> list[dict]:
    """The curve's games as clients/tournament.py run_game_task takes them, each set up with the game's varied
    setup (Declaration.varied_setup: SpellBook's spells drawn for each deal)."""
    from clients.tournament import game_setup, setup_flags
    from engine_c.registry import get_game

    game = get_game(game_name)
    setup, flags = game_setup(game, game.varied_setup), [list(f) for f in setup_flags(game, game.varied_setup)]
    tasks = []
    for k, n in zip(multipliers, pairs):
        strong, rival = selfplay_specs(game_name, k, tree_options, rival_options)
        for d in range(n):
            for strong_seat in (0, 1):
                seats = [strong, rival] if strong_seat == 0 else [rival, strong]
                tasks.append({"key": f"{game_name}|{k}|{seed0 + d}|{strong_seat}|{'|'.join(seats)}", "matchup": k,
                              "deal": d, "rotation": strong_seat, "seed": seed0 + d, "seats": seats,
                              "game": game.name, "setup": setup, "flags": flags, "multiplier": k,
                              "strong_seat": strong_seat})
    return tasks


def _play_selfplay(task: dict) -> dict:
    from clients.tournament import run_game_task

    rec = run_game_task(task)
    winners = rec["result"]["winners"]
    seat = task["strong_seat"]
    score = (0.5 if seat in winners else 0.0) if len(winners) > 1 else float(winners == [seat])
    return {"key": task["key"], "multiplier": task["multiplier"], "search": task["seats"][task["strong_seat"]], "seed": task["seed"], "strong_seat": seat,
            "score": score, "scores": rec["result"]["scores"], "decisions": rec["tournament"]["decisions"],
            "seconds": rec["tournament"]["seconds"]}


def selfplay_summary(results: list[dict], multipliers: list[int]) -> tuple[list[dict], dict]:
    """Per multiplier: games, score, Elo with its 95% interval over seat-swapped pairs (pentanomial)."""
    from clients.ratings import outcome_elo

    curve, keys = [], {}
    for k in multipliers:
        rs = [r for r in results if r["multiplier"] == k]
        pairs: dict[int, list[float]] = {}
        for r in rs:
            pairs.setdefault(r["seed"], []).append(r["score"])
        counts = [0] * 5
        for scores in pairs.values():
            if len(scores) == 2:
                counts[int(round(sum(scores) * 2))] += 1
        if not sum(counts):
            continue
        e = outcome_elo(counts)
        point = {"multiplier": k, "search": rs[0]["search"], "games": e.games, "score": round(e.score, 4), "elo": round(e.elo, 1),
                 "elo_95": [round(e.lo, 1), round(e.hi, 1)], "pentanomial": counts,
                 "seconds_per_game": round(sum(r["seconds"] for r in rs) / len(rs), 2)}
        curve.append(point)
        keys[f"elo_{k}x_vs_1x"] = point["elo"]
        keys[f"elo_{k}x_vs_1x_95"] = point["elo_95"]
        keys[f"games_{k}x"] = point["games"]
    return curve, keys


def run_pool(todo: list[dict], fn, games_file: str | None, jobs: int, label) -> list[dict]:
    """Runs `fn` over the tasks in a spawn pool, appending each finished one to `games_file` at once."""
    done = []
    out = open(games_file, "a") if games_file else None
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn")) as pool:
            futures = [pool.submit(fn, t) for t in todo]
            for i, fut in enumerate(as_completed(futures), 1):
                r = fut.result()
                done.append(r)
                if out:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
                print(f"{i}/{len(todo)} {label(r)}", file=sys.stderr)
    finally:
        if out:
            out.close()
    return done


def load_done(games_file: str | None, wanted: set, key_of) -> list[dict]:
    if not (games_file and os.path.exists(games_file)):
        return []
    with open(games_file) as f:
        return [r for r in map(json.loads, filter(str.strip, f)) if key_of(r) in wanted]


def selfplay_main(a) -> int:
    from engine_c.registry import get_game
    from search.model import default_model

    multipliers = a.multipliers
    pairs = a.pairs or [100] * len(multipliers)
    if len(pairs) != len(multipliers):
        raise SystemExit("--pairs needs one count per multiplier")
    tasks = selfplay_plan(a.game, multipliers, pairs, a.seed if a.seed != 30_000 else SELFPLAY_SEED,
                          a.tree_options, a.rival_options)
    done = load_done(a.games_file, {t["key"] for t in tasks}, lambda r: r["key"])
    have = {r["key"] for r in done}
    started = time.monotonic()
    done += run_pool([t for t in tasks if t["key"] not in have], _play_selfplay, a.games_file, a.jobs,
                     lambda r: f"{r['multiplier']}x seat {r['strong_seat']}: {r['score']}")
    curve, keys = selfplay_summary(done, multipliers)
    game = get_game(a.game)
    rival = selfplay_specs(a.game, 1, a.tree_options, a.rival_options)[1]
    model = default_model(game.adapter)
    print(json.dumps({"bench": "scaling", "mode": "selfplay", "game": a.game, "players": 2,
                      game.setup or "setup": game.varied_setup, "base": rival,
                      "model": model.version if model else "", **keys, "curve": curve,
                      "seconds": round(time.monotonic() - started)}))
    return 0


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
    ap.add_argument("--rival-options", default=None,
                    help="--selfplay: SearchOptions of the 1x side alone (\"\": the shipped level; default: --tree-options)")
    ap.add_argument("--selfplay", action="store_true", help="the default level at k x its iterations against 1x")
    ap.add_argument("--game", default=DEFAULT_GAME, help=f"--selfplay: the game ({', '.join(GAMES)})")
    ap.add_argument("--multipliers", type=int, nargs="+", default=[4, 16], help="--selfplay: k of k x against 1x")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--games-file", default=None, help="JSON lines of finished games: kept and resumed")
    a = ap.parse_args()
    if a.selfplay:
        return selfplay_main(a)
    pairs = a.pairs or [DEFAULT_PAIRS.get(b, 10) for b in a.budgets]
    if len(pairs) != len(a.budgets):
        ap.error("--pairs needs one count per budget")
    if a.opponent == "rollout" and "rollout" in a.searches:
        ap.error("--opponent rollout measures --searches network (the rollout search against itself is even)")
    tasks = plan(a.searches, a.budgets, pairs, a.seed, a.model, a.tree_options, a.opponent)
    done = load_done(a.games_file, {key(t) for t in tasks}, key)
    have = {key(r) for r in done}
    started = time.monotonic()
    done += run_pool([t for t in tasks if key(t) not in have], _play, a.games_file, a.jobs,
                     lambda r: f"{r['search']} {r['budget']}: {r['score']}")
    from search.model import default_model, load_cached

    model = load_cached(a.model) if a.model else default_model(SPELLBOOK)
    print(json.dumps({"bench": "scaling", "opponent": OPPONENTS[a.opponent], "players": 2, "spells": SPELLS,
                      "tree_options": a.tree_options,
                      "model": model.version if model else "", "curve": summarize(done, a.searches, a.budgets),
                      "seconds": round(time.monotonic() - started)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
