"""How far each level and budget plays from the best rolled-out move: error rate per decision. One JSON line a game.

    python bench/error_rate.py --game spellbook                       # 60 positions, levels and 4x / 16x
    python bench/error_rate.py --game abracadawhat --positions 40 --rollouts 1000
    python bench/error_rate.py --game spellbook --spec "ismcts:level=10,chance=expected"   # a setting under test

The backgammon programs' yardstick (gnubg's and eXtreme Gammon's "error rate"; issue 44, item 1):
- positions: every `--every`-th non-forced decision of fixed-seed 2-player games between two searches
  at the game's default level (about 400 iterations: SpellBook's level 10, Abracada…What?'s level 6),
  taken in order until `--positions` (the same seeds give the same positions);
- each candidate move (every legal move, or the policy's `--candidates` best plus every move a searcher
  under test chose) is rolled out `--rollouts` times: the position determinized from the mover's view
  (what the mover cannot see is sampled), the move played, then the game played to its end by the
  network at every seat (`--player`: its policy's first choice, or its one-ply value), the mover's win
  share (ties shared) averaged. Rollout r uses the same random numbers after every move (common random
  numbers: search/treeless.pxi `rollout_moves`);
- where the game allows exact endgames (SpellBook: search/endgame.pxi) and every candidate's position
  solves within `--exact-nodes` nodes, the candidates' exact win probabilities replace the rollouts
  (`exact` positions: no noise, no split);
- a searcher's loss at a position is the rolled-out win probability of the best move less that of the
  move it played, in percentage points. The best move is chosen on one half of the rollouts and both
  moves valued on the other (then the halves swap), so the noise of many candidates does not inflate
  the loss by picking a lucky maximum; a loss can come out slightly negative;
- `error_pp`: the mean loss per decision over positions and `--seeds` searcher seeds, with a 95%
  interval over positions; `best_share`: how often the searcher played the rolled-out best move.

The rollout player is weaker than the searches it judges, as gnubg's rollouts at 0-ply are: a rolled-out
"best" move is the best for a game then played by that player, so the figures rank searches against a
fixed, search-free reference; they are not a distance to perfect play. `--player value` (one-ply network)
is the stronger reference, about 3.5x the cost.
"""
from __future__ import annotations

import os
import sys

sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import json
import math
import multiprocessing as mp
import random
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext

SEED = 46_000                      # deals no other bench plays
MAX_LEVEL_STEP = 3                 # the default searchers' levels are at most this far apart


def _adapter(game_name: str):
    from engine_c.registry import get_game

    return get_game(game_name)


def new_state(game_name: str, seed: int):
    """A 2-player deal of the game in its varied setup (Declaration.varied_setup: SpellBook's "classic")."""
    game = _adapter(game_name)
    return game.record.new(2, game.varied_setup, seed)


def default_spec(game_name: str, multiplier: int = 1) -> str:
    from search.levels import default_level, level_options

    adapter = _adapter(game_name).adapter
    level = default_level(adapter)
    if multiplier == 1:
        return f"ismcts:level={level}"
    return f"ismcts:level={level},iterations={level_options(level, 0, game=adapter).iterations * multiplier}"


def spread_levels(default: int, low: int = 1, high: int = 10, step: int = MAX_LEVEL_STEP) -> list[int]:
    """Levels across the table: `low`, the default level and `high`, and between each two of them evenly
    spaced levels at most `step` apart (default 10: 1, 4, 7, 10; default 6: 1, 3, 6, 8, 10)."""
    anchors = sorted({low, default, high})
    out = [low]
    for a, b in zip(anchors, anchors[1:]):
        parts = -(-(b - a) // step)                   # ceil: the fewest parts no longer than `step`
        out += [a + (b - a) * i // parts for i in range(1, parts + 1)]
    return out


def default_specs(game_name: str) -> list[str]:
    """Levels across the table (spread_levels around the game's default level) and the default level at 4x
    and 16x its iterations."""
    from search.levels import default_level

    specs = [f"ismcts:level={lv}" for lv in spread_levels(default_level(_adapter(game_name).adapter))]
    return specs + [default_spec(game_name, 4), default_spec(game_name, 16)]


def replay(game_name: str, seed: int, moves: list, bots=()):
    """The state after `moves` (seat, text) from the deal `seed`; bots that watch the game see each decision."""
    state = new_state(game_name, seed)
    for seat, text in moves:
        if seat >= 0:
            for own, bot in enumerate(bots):
                watch = getattr(bot, "observe", None)
                if watch is not None:
                    watch(state, own)
        state.apply(state.parse_move(text))
    return state


def find_positions(game_name: str, count: int, every: int, seed0: int) -> list[dict]:
    """Positions from games between two default-level searches: each game's every `every`-th non-forced
    decision (from a seeded offset), games in seed order until `count`."""
    from search.arena import play_game
    from search.bots import make_bot

    adapter = _adapter(game_name).adapter
    positions: list[dict] = []
    seed = seed0
    while len(positions) < count:
        bots = [make_bot(default_spec(game_name), adapter, seed=seed * 7 + i) for i in range(2)]
        rec = play_game(lambda sd: new_state(game_name, sd), bots, seed)
        state = new_state(game_name, seed)
        offset = random.Random(seed).randrange(every)
        k = 0
        for i, (seat, text) in enumerate(rec.moves):
            if seat >= 0 and len(state.legal_moves()) > 1:
                if k % every == offset and len(positions) < count:
                    positions.append({"seed": seed, "moves": [list(m) for m in rec.moves[:i]], "mover": seat})
                k += 1
            state.apply(state.parse_move(text))
        seed += 1
    return positions


def _chosen(game_name: str, pos: dict, specs: list[str], seeds: int) -> dict[str, list[str]]:
    """Each searcher's move at the position, for each of `seeds` seeds (watching the game up to it)."""
    from search.bots import make_bot

    adapter = _adapter(game_name).adapter
    out: dict[str, list[str]] = {}
    for spec in specs:
        out[spec] = []
        for k in range(seeds):
            bots = [make_bot(spec, adapter, seed=pos["seed"] * 101 + k * 7 + own) for own in range(2)]
            state = replay(game_name, pos["seed"], pos["moves"], bots)
            move, _ = bots[pos["mover"]].choose(state)
            out[spec].append(str(move))
    return out


def _candidates(game_name: str, state, limit: int, chosen: dict[str, list[str]]) -> list:
    """Every legal move, or the policy's `limit` best and every move a searcher chose."""
    from search import SearchOptions, ismcts

    adapter = _adapter(game_name).adapter
    legal = adapter.legal_moves(state)
    if len(legal) <= limit:
        return legal
    r = ismcts(adapter, state, SearchOptions(iterations=1, evaluator="network", seed=0))
    by_prior = sorted(r.moves, key=lambda m: -m.prior)
    keep = [m.move for m in by_prior[:limit]]
    wanted = {t for moves in chosen.values() for t in moves}
    keep += [m for m in legal if str(m) in wanted and m not in keep]
    return keep


def split_losses(values, chosen: str, names: list[str]) -> tuple[float, bool]:
    """(loss in win probability of `chosen` against the best, one half choosing the best and the other
    valuing both, averaged over the two ways round; whether `chosen` is the best on all rollouts)."""
    import numpy as np

    half = values.shape[1] // 2
    a, b = values[:, :half], values[:, half:2 * half]
    i = names.index(chosen)
    loss = 0.0
    for pick, judge in ((a, b), (b, a)):
        best = int(np.nanargmax(np.nanmean(pick, axis=1)))
        loss += float(np.nanmean(judge[best]) - np.nanmean(judge[i])) / 2
    return loss, int(np.nanargmax(np.nanmean(values, axis=1))) == i


def exact_values(adapter, state, moves: list, mover: int, nodes: int) -> list[float] | None:
    """The mover's exact win probability after each move (an expectimax solve of each), or None when the
    game has no exact endgames or one of them needs more than `nodes` nodes."""
    from search import _mcts

    if nodes <= 0 or not adapter.public_chance:
        return None
    out = []
    for m in moves:
        after = state.copy()
        after.apply(m)
        solved = _mcts.solve(adapter.vtable, adapter.state_bytes(after), nodes)
        if solved is None:
            return None
        out.append(solved[0][mover])
    return out


def evaluate_position(task: dict) -> dict:
    """One position: the searchers' moves, the candidates' rollouts, each searcher's losses."""
    from search import _mcts
    from search.model import default_model

    game_name, pos, a = task["game"], task["position"], task["args"]
    game = _adapter(game_name)
    adapter = game.adapter
    started = time.monotonic()
    chosen = _chosen(game_name, pos, a["specs"], a["seeds"])
    state = replay(game_name, pos["seed"], pos["moves"])
    cands = _candidates(game_name, state, a["candidates"], chosen)
    names = [str(m) for m in cands]
    exact = exact_values(adapter, state, cands, pos["mover"], a.get("exact_nodes", 0))
    if exact is not None:
        best = max(exact)
        losses = {spec: {"loss": [round(best - exact[names.index(m)], 5) for m in moves],
                         "best": [exact[names.index(m)] >= best - 1e-12 for m in moves]}
                  for spec, moves in chosen.items()}
        return {"index": task["index"], "seed": pos["seed"], "ply": len(pos["moves"]), "candidates": len(cands),
                "best": names[exact.index(best)], "spread": round(best - min(exact), 4), "exact": True,
                "losses": losses, "seconds": round(time.monotonic() - started, 2)}
    net = default_model(adapter).network(adapter)
    values = _mcts.rollout_moves(adapter.vtable, adapter.state_bytes(state), pos["mover"],
                                 [adapter.code(m) for m in cands],
                                 {"rollouts": a["rollouts"], "seed": pos["seed"] * 1009 + len(pos["moves"]),
                                  "mode": a["player"]}, net)
    means = values.mean(axis=1)
    losses = {}
    for spec, moves in chosen.items():
        rows = [split_losses(values, m, names) for m in moves]
        losses[spec] = {"loss": [round(r[0], 5) for r in rows], "best": [r[1] for r in rows]}
    return {"index": task["index"], "seed": pos["seed"], "ply": len(pos["moves"]), "candidates": len(cands),
            "best": names[int(means.argmax())], "spread": round(float(means.max() - means.min()), 4),
            "losses": losses, "seconds": round(time.monotonic() - started, 2)}


def summarize(rows: list[dict], specs: list[str]) -> dict:
    out = {}
    for spec in specs:
        per_pos = [sum(r["losses"][spec]["loss"]) / len(r["losses"][spec]["loss"]) for r in rows]
        best = [b for r in rows for b in r["losses"][spec]["best"]]
        n = len(per_pos)
        mean = sum(per_pos) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in per_pos) / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n)
        out[spec] = {"error_pp": round(100 * mean, 2), "error_95": [round(100 * (mean - half), 2),
                                                                    round(100 * (mean + half), 2)],
                     "best_share": round(sum(best) / len(best), 3), "positions": n}
    return out


def main(argv: list[str] | None = None) -> int:
    from engine_c.registry import GAMES

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--game", default=GAMES[0], choices=GAMES)
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--every", type=int, default=8, help="one position every this many non-forced decisions")
    ap.add_argument("--rollouts", type=int, default=1000, help="rollouts per candidate move")
    ap.add_argument("--player", default="policy", choices=["policy", "value"],
                    help="the rollouts' player: the policy's first choice or the one-ply value")
    ap.add_argument("--candidates", type=int, default=12, help="at most this many moves by the policy, plus chosen")
    ap.add_argument("--spec", action="append", default=None, help="a searcher (bot spec); default: levels, 4x, 16x")
    ap.add_argument("--exact-nodes", type=int, default=300_000,
                    help="solve a position exactly when every candidate takes at most this many nodes (0: never)")
    ap.add_argument("--seeds", type=int, default=2, help="searcher seeds per position")
    ap.add_argument("--seed", type=int, default=SEED, help="first deal seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--rows-file", default=None, help="JSON lines of finished positions: kept and resumed")
    a = ap.parse_args(argv)
    specs = a.spec or default_specs(a.game)
    started = time.monotonic()
    positions = find_positions(a.game, a.positions, a.every, a.seed)
    args = {"specs": specs, "seeds": a.seeds, "rollouts": a.rollouts, "player": a.player, "candidates": a.candidates,
            "exact_nodes": a.exact_nodes}
    sig = json.dumps(args, sort_keys=True)
    rows: list[dict] = []
    if a.rows_file and os.path.exists(a.rows_file):
        with open(a.rows_file) as f:
            rows = [r for r in map(json.loads, filter(str.strip, f)) if r.get("sig") == sig]
    have = {r["index"] for r in rows}
    tasks = [{"game": a.game, "position": p, "args": args, "index": i} for i, p in enumerate(positions)
             if i not in have]
    out = open(a.rows_file, "a") if a.rows_file else None
    try:
        with ProcessPoolExecutor(max_workers=a.jobs, mp_context=mp.get_context("spawn")) if a.jobs > 1 \
                else nullcontext() as pool:
            for r in (pool.map if pool else map)(evaluate_position, tasks):
                r["sig"] = sig
                rows.append(r)
                if out:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
                print(f"{len(rows)}/{len(positions)} ply {r['ply']}: {r['candidates']} moves, best {r['best']}, "
                      f"{r['seconds']} s", file=sys.stderr)
    finally:
        if out:
            out.close()
    from search.model import default_model

    model = default_model(_adapter(a.game).adapter)
    print(json.dumps({"bench": "error_rate", "game": a.game, "players": 2, "positions": len(rows),
                      "exact_positions": sum(1 for r in rows if r.get("exact")),
                      "rollouts": a.rollouts, "rollout_player": a.player, "seeds": a.seeds,
                      "model": model.version if model else "", "searchers": summarize(rows, specs),
                      "mean_spread_pp": round(100 * sum(r["spread"] for r in rows) / len(rows), 1),
                      "seconds": round(time.monotonic() - started)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
