"""How well do the evaluators predict who wins? One JSON line.

    python bench/value_quality.py            # 80 games (about 5 minutes on 2 cores)
    python bench/value_quality.py --quick    # 12 games (about a minute)
    python bench/value_quality.py --positions runs/vq.json --iterations 0 --model m.npz   # seconds, once cached

A search is only as good as the values at its leaves. This benchmark puts the evaluators side by side
on the same positions: fixed-seed 2-player games ("classic" spells) between two level-4 bots (searching with
a model pinned in bench/reference/, so the positions stay the same when another model ships); about one
decision in eight (a seeded draw) is a test position, judged against the result of the game it came
from (the mover's win share):
- `network`: the model's value for the mover, one evaluation (what a leaf gets with `rollout_mix` 0);
- `rollouts`: the mean result of uniform random playouts from the mover's observation (flat Monte Carlo
  with `--rollouts` iterations, visit-weighted over its root moves: the expectation a leaf's random
  rollout samples);
- `search`: the default search's estimate for its chosen move at `--iterations` (the blend the product
  plays, the figure hints and analysis report before calibration); `--iterations 0` leaves it out.
Per evaluator: Brier score, log loss and correlation with the result, overall and by stage of the game
(thirds of each game's decisions). `network_minus_rollouts` is the paired Brier difference with a 95%
interval from a bootstrap over games (positions of one game are not independent): below 0 the network
predicts results better than random playouts do.
"""
from __future__ import annotations

import os
import sys

sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import base64
import json
import math
import multiprocessing as mp
import random
import time
from concurrent.futures import ProcessPoolExecutor

from engine_c.spellbook import State
from engine_c.spellbook.game import SPELLBOOK
from search import SearchOptions, ismcts
from search.bots import make_bot
from search.model import default_model, load_cached
from search.search import flat_monte_carlo

SPELLS = "classic"
EVALUATORS = ("network", "rollouts", "search")
SAMPLE_SHARE = 0.12


# The level-4 bots that play the test games search with this model, not the shipped one: with the shipped
# model the games (and so the positions) changed whenever a new model shipped, and figures from before and
# after could not be compared. g3-16344fd9 played the games of every line in docs/bench_value_quality.jsonl.
BOTS_MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference", "g3-16344fd9.npz")


def _game(task: tuple) -> list[dict]:
    """One test game's positions: the state (bytes), the mover, the random playouts' estimate and the
    result. Independent of the model under test (the bots search with `bots_model`)."""
    seed, rollouts, bots_model = task
    state = State.new(players=2, spells=SPELLS, seed=seed)
    spec = f"ismcts:iterations=200,temperature=0.2,model={bots_model}"     # level 4 before D104
    bots = [make_bot(spec, SPELLBOOK, seed=seed * 7 + i) for i in range(2)]
    pick = random.Random(seed)
    rows, decision = [], 0
    while not state.is_terminal():
        if state.is_chance():
            state.resolve_chance()
            continue
        mover = state.current_player
        if pick.random() < SAMPLE_SHARE:
            flat = flat_monte_carlo(SPELLBOOK, state, SearchOptions(iterations=rollouts, seed=decision))
            total = sum(m.visits for m in flat.moves)
            rows.append({"mover": mover, "decision": decision,
                         "state": base64.b64encode(SPELLBOOK.state_bytes(state)).decode(),
                         "rollouts": sum(m.visits * m.win_probability[mover] for m in flat.moves) / total})
        move, _ = bots[mover].choose(state)
        state.apply(move)
        decision += 1
    winners = state.winners()
    for r in rows:
        r["result"] = 1.0 / len(winners) if r["mover"] in winners else 0.0
        r["stage"] = min(2, 3 * r["decision"] // max(decision, 1))
        r["game"] = seed
    return rows


def _evaluate(task: tuple) -> list[dict]:
    """The model's estimates for one game's positions: its value (`network`) and, with iterations > 0,
    the default search's estimate for its chosen move (`search`)."""
    rows, iterations, model_path = task
    model = load_cached(model_path) if model_path else default_model(SPELLBOOK)
    net = model.network(SPELLBOOK)
    out = []
    for r in rows:
        state = SPELLBOOK.state_from_bytes(base64.b64decode(r["state"]))
        win, _ = net.evaluate(SPELLBOOK.vtable, SPELLBOOK.state_bytes(state), r["mover"])
        row = {**r, "network": win[r["mover"]]}
        if iterations > 0:
            tree = ismcts(SPELLBOOK, state, SearchOptions(iterations=iterations, evaluator="network",
                                                           model=model_path, seed=r["decision"]))
            row["search"] = tree.moves[0].win_probability[r["mover"]]
        out.append(row)
    return out


def _positions(path: str, key: dict, pool, tasks: list) -> list[list[dict]]:
    """The test positions of every game, from `path` when it holds the same games (`key`), else played
    (and saved there when a path is given)."""
    if path and os.path.exists(path):
        with open(path) as f:
            saved = json.load(f)
        if saved["key"] != key:
            raise SystemExit(f"--positions: {path} holds other games ({saved['key']}); "
                             f"not these ({key}): remove it or name another file")
        return saved["games"]
    games = list(pool.map(_game, tasks))
    if path:
        with open(path, "w") as f:
            json.dump({"key": key, "games": games}, f)
    return games


def _brier(rows: list[dict], key: str) -> float:
    return sum((r[key] - r["result"]) ** 2 for r in rows) / len(rows)


def _scores(rows: list[dict], key: str) -> dict:
    eps = 1e-3
    p = [min(1 - eps, max(eps, r[key])) for r in rows]
    z = [r["result"] for r in rows]
    n = len(rows)
    logloss = -sum(zi * math.log(pi) + (1 - zi) * math.log(1 - pi) for pi, zi in zip(p, z)) / n
    mean_p, mean_z = sum(p) / n, sum(z) / n
    cov = sum((pi - mean_p) * (zi - mean_z) for pi, zi in zip(p, z))
    var = math.sqrt(sum((pi - mean_p) ** 2 for pi in p) * sum((zi - mean_z) ** 2 for zi in z)) or 1.0
    return {"brier": round(_brier(rows, key), 4), "logloss": round(logloss, 4), "corr": round(cov / var, 3),
            "mean": round(mean_p, 3),
            "brier_by_stage": [round(_brier(s, key), 4) if s else None
                               for s in ([r for r in rows if r["stage"] == k] for k in range(3))]}


def _paired_difference(rows: list[dict], a: str, b: str, resamples: int = 2000) -> dict:
    by_game: dict[int, list[float]] = {}
    for r in rows:
        by_game.setdefault(r["game"], []).append((r[a] - r["result"]) ** 2 - (r[b] - r["result"]) ** 2)
    games = list(by_game.values())
    rng = random.Random(0)
    means = []
    for _ in range(resamples):
        pick = [games[rng.randrange(len(games))] for _ in games]
        means.append(sum(sum(g) for g in pick) / sum(len(g) for g in pick))
    means.sort()
    est = sum(sum(g) for g in games) / sum(len(g) for g in games)
    return {"brier_difference": round(est, 4),
            "brier_difference_95": [round(means[int(0.025 * resamples)], 4), round(means[int(0.975 * resamples)], 4)]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="12 games instead of 80")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--rollouts", type=int, default=3000, help="playouts per position for `rollouts`")
    ap.add_argument("--iterations", type=int, default=1000, help="the search's budget for `search`")
    ap.add_argument("--model", default="", help="model file (default: the shipped one)")
    ap.add_argument("--seed", type=int, default=700_000, help="first game seed")
    ap.add_argument("--bots-model", default=BOTS_MODEL, help="the model the games' level-4 bots search with")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--positions", default="", metavar="FILE",
                    help="keep the test positions (and their playouts' estimates) in FILE: the first run "
                         "writes it, later runs with the same games read it and only evaluate the model")
    a = ap.parse_args()
    games = a.games or (12 if a.quick else 80)
    model = load_cached(a.model) if a.model else default_model(SPELLBOOK)
    bots_version = load_cached(a.bots_model).version
    started = time.monotonic()
    key = {"games": games, "seed": a.seed, "rollouts": a.rollouts, "bots_model": bots_version,
           "spells": SPELLS, "sample_share": SAMPLE_SHARE}
    with ProcessPoolExecutor(max_workers=a.jobs, mp_context=mp.get_context("spawn")) as pool:
        positions = _positions(a.positions, key, pool,
                               [(a.seed + g, a.rollouts, a.bots_model) for g in range(games)])
        rows = [r for game in pool.map(_evaluate, [(g, a.iterations, a.model) for g in positions])
                for r in game]
    evaluators = [k for k in EVALUATORS if k != "search" or a.iterations > 0]
    out = {"bench": "value_quality", "model": model.version, "bots_model": bots_version,
           "games": games, "positions": len(rows),
           "playouts_per_position": a.rollouts, "search_iterations": a.iterations,
           **{k: _scores(rows, k) for k in evaluators},
           "brier_of_one_half": round(sum((0.5 - r["result"]) ** 2 for r in rows) / len(rows), 4),
           "network_minus_rollouts": _paired_difference(rows, "network", "rollouts"),
           "seconds": round(time.monotonic() - started)}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
