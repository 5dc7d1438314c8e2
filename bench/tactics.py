"""Does the search find the only good move? One JSON line.

    python bench/tactics.py --positions runs/tactics.json                  # finds the positions once (~10 min on 2 cores)
    python bench/tactics.py --positions runs/tactics.json --model a.npz --model b.npz   # then minutes
    python bench/tactics.py --positions runs/tactics.json --spec "ismcts:evaluator=network,c_puct=2"   # a setting

A model can win more games on average and still miss a move that decides the game: a value that
misjudges one kind of position is averaged away in a strength match. This benchmark collects such
moves from realistic games and asks each search to find them:
- games: fixed-seed 2-player games ("classic" spells) between two rollout searches (`--bot`; no model,
  so the positions do not change when a model ships);
- candidates: the last `--tail` decisions of each game (where single moves decide games);
- a position is *decisive* when a long rollout search (`--reference` iterations, two seeds) agrees on
  its best move, rates it at least `--win` for the mover, and rates every other move it tried at
  least `--gap` lower (the mover's win probability: a lichess "blunder" when missed);
- then every searcher under test (each `--model` with the network search, and the rollout search as
  the baseline) searches each decisive position at each of `--budgets` iterations: `found` is the
  share that plays the decisive move, with a 95% Wilson interval. `--spec` adds a search setting under
  test: a bot spec of search/bots.py whose iterations and seed each position's budget and decision replace.
The reference is a rollout search, so the rollout search's own figure is flattered (it agrees with a
longer run of itself); the figures compare models and search settings with each other.
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
import time
from dataclasses import replace
from concurrent.futures import ProcessPoolExecutor

from engine_c.spellbook import State
from engine_c.spellbook.game import SPELLBOOK
from search import SearchOptions, ismcts
from search.bots import make_bot
from search.model import load_cached

SPELLS = "classic"
SCREEN_ITERATIONS = 3000


def _win(result, move: str, mover: int) -> tuple[float, int]:
    for m in result.moves:
        if str(m.move) == move:
            return m.win_probability[mover], m.visits
    return 0.0, 0


def _decisive(state: State, mover: int, iterations: int, win: float, gap: float, seeds: tuple) -> dict | None:
    """The position's decisive move and its margin, or None: every search (one per seed) must agree."""
    best_move, margins = None, []
    for seed in seeds:
        r = ismcts(SPELLBOOK, state, SearchOptions(iterations=iterations, evaluator="rollout", seed=seed))
        tried = [m for m in r.moves if m.visits > 0]
        if len(tried) < 2:
            return None
        best = max(tried, key=lambda m: m.visits)
        others = max(m.win_probability[mover] for m in tried if m is not best)
        if best.win_probability[mover] < win or best.win_probability[mover] - others < gap:
            return None
        if best_move not in (None, str(best.move)):
            return None
        best_move = str(best.move)
        margins.append(best.win_probability[mover] - others)
    return {"move": best_move, "margin": round(min(margins), 3)}


def _game(task: tuple) -> list[dict]:
    """The decisive positions of one game (its last `tail` decisions), model-independent."""
    seed, bot, tail, reference, win, gap = task
    state = State.new(players=2, spells=SPELLS, seed=seed)
    bots = [make_bot(bot, SPELLBOOK, seed=seed * 7 + i) for i in range(2)]
    history = []
    while not state.is_terminal():
        if state.is_chance():
            state.resolve_chance()
            continue
        history.append((state.current_player, SPELLBOOK.state_bytes(state)))
        move, _ = bots[state.current_player].choose(state)
        state.apply(move)
    found, start = [], max(0, len(history) - tail)
    for k, (mover, raw) in enumerate(history[start:]):
        pos = SPELLBOOK.state_from_bytes(raw)
        if len(pos.legal_moves()) < 2:
            continue
        # a cheap screen first: the long searches only where a short one already sees a decisive move
        if _decisive(pos, mover, SCREEN_ITERATIONS, win - 0.05, gap - 0.05, (seed,)) is None:
            continue
        hit = _decisive(pos, mover, reference, win, gap, (seed + 1, seed + 2))
        if hit:
            found.append({"game": seed, "decision": start + k,
                          "mover": mover, "state": base64.b64encode(raw).decode(), **hit})
    return found


def _solve(task: tuple) -> list[int]:
    """1 where the searcher plays the decisive move, per budget."""
    pos, searcher, budgets = task
    state = SPELLBOOK.state_from_bytes(base64.b64decode(pos["state"]))
    out = []
    for it in budgets:
        if searcher.startswith("ismcts:"):
            opts = replace(make_bot(searcher, SPELLBOOK).options, iterations=it, seed=pos["decision"], time_ms=0.0)
        elif searcher == "rollout":
            opts = SearchOptions(iterations=it, evaluator="rollout", seed=pos["decision"])
        else:
            opts = SearchOptions(iterations=it, evaluator="network", model=searcher, seed=pos["decision"])
        out.append(int(str(ismcts(SPELLBOOK, state, opts).move) == pos["move"]))
    return out


def _wilson(k: int, n: int) -> list[float]:
    if n == 0:
        return [0.0, 1.0]
    z, p = 1.96, k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, c - h), 3), round(min(1.0, c + h), 3)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=810_000, help="first game seed")
    ap.add_argument("--bot", default="ismcts:iterations=400,evaluator=rollout", help="the games' two players")
    ap.add_argument("--tail", type=int, default=40, help="last decisions of each game screened")
    ap.add_argument("--reference", type=int, default=30_000, help="the reference search's iterations")
    ap.add_argument("--win", type=float, default=0.8, help="the decisive move's least win probability")
    ap.add_argument("--gap", type=float, default=0.25, help="its least margin over every other move")
    ap.add_argument("--budgets", default="1000,4000,16000", help="iterations of the searches under test")
    ap.add_argument("--model", action="append", default=[], help="model file (repeatable; default: shipped)")
    ap.add_argument("--spec", action="append", default=[],
                    help="a search setting as an ismcts bot spec, e.g. ismcts:evaluator=network,c_puct=2 (repeatable)")
    ap.add_argument("--no-rollout", action="store_true", help="leave out the rollout search's baseline row")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--positions", default="", metavar="FILE",
                    help="keep the decisive positions in FILE: the first run finds and writes them, later "
                         "runs with the same settings read them and only search")
    a = ap.parse_args()
    budgets = [int(b) for b in a.budgets.split(",")]
    models = a.model or ([] if a.spec else [SPELLBOOK.default_model_path])
    for spec in a.spec:
        if not spec.startswith("ismcts:"):
            ap.error(f"--spec must be an ismcts bot spec (ismcts:key=value,...), got {spec!r}")
        try:
            make_bot(spec, SPELLBOOK)
        except ValueError as e:      # names the field
            ap.error(f"--spec: {e}")
    searchers = {**({} if a.no_rollout else {"rollout": "rollout"}),
                 **{load_cached(m).version: m for m in models}, **{s: s for s in a.spec}}
    started = time.monotonic()
    key = {"games": a.games, "seed": a.seed, "bot": a.bot, "tail": a.tail, "reference": a.reference,
           "win": a.win, "gap": a.gap, "spells": SPELLS}
    with ProcessPoolExecutor(max_workers=a.jobs, mp_context=mp.get_context("spawn")) as pool:
        if a.positions and os.path.exists(a.positions):
            with open(a.positions) as f:
                saved = json.load(f)
            if saved["key"] != key:
                raise SystemExit(f"--positions: {a.positions} holds other settings ({saved['key']}); "
                                 f"not these ({key}): remove it or name another file")
            positions = saved["positions"]
        else:
            tasks = [(a.seed + g, a.bot, a.tail, a.reference, a.win, a.gap) for g in range(a.games)]
            positions = [p for game in pool.map(_game, tasks) for p in game]
            if a.positions:
                with open(a.positions, "w") as f:
                    json.dump({"key": key, "positions": positions}, f)
        results = {}
        for name, searcher in searchers.items():
            hits = list(pool.map(_solve, [(p, searcher, budgets) for p in positions]))
            n = len(hits)
            results[name] = {str(b): {"found": round(sum(h[i] for h in hits) / n, 3) if n else None,
                                      "found_95": _wilson(sum(h[i] for h in hits), n)}
                             for i, b in enumerate(budgets)}
            results[name]["missed"] = [f"{p['game']}:{p['decision']}" for p, h in zip(positions, hits) if not h[-1]]
    print(json.dumps({"bench": "tactics", "date": time.strftime("%Y-%m-%d"), "games": a.games, "positions": len(positions),
                      "lcb_stdevs": SearchOptions().lcb_stdevs,    # the network searches' move choice (D101)
                      "settings": key, "budgets": budgets, "searchers": results,
                      "seconds": round(time.monotonic() - started)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
