"""Engine benchmark: whole random games from the initial state, in compiled code and driven from Python.

For every game of the registry (or `--game NAME`): its own figures where it has them (bench/engine_NAME.py's
`figures`: SpellBook's playouts/s, decisions/s, mean game length in moves and Days for 2, 3 and 4 players and
the compiled / Python-driven ratio; Abracada…What?'s the same for 2-5 players with rounds, and one
determinization's cost in µs; the Spellbook TCG's starter decks and determinization, targets ≥ 1,000,000
decisions/s and ≤ 20 µs), else the figures every game has through the contract: random games from the game's
initial state in its default setup, compiled through its vtable (search/_mcts.pyx random_playouts) and driven
from Python, decisions/s for each player count.
All on one core. The last line is one JSON object with a key per game (its `moves_per_s`: 2 players' compiled
rate, or its fewest players').
Usage: python bench/engine.py [--seconds 3] [--game all|NAME] [each game's setup flag: --spells set1, ...]
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from clients.args import add_game_flags  # noqa: E402
from engine_c.contract import command_setup  # noqa: E402
from engine_c.registry import GAMES, get_game  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def compiled_rates(playouts, games: int, seconds: float, seed: int) -> dict:
    """Batches of `playouts(games, seed) -> (decisions, rounds or Days)` until `seconds` pass; rates are
    medians over batches, the mean game length over every game played."""
    rates, moves_total, units_total, games_total = [], 0, 0, 0
    start = time.perf_counter()
    batch = 0
    while time.perf_counter() - start < seconds or batch < 3:
        t0 = time.perf_counter()
        moves, units = playouts(games, seed + batch)
        dt = time.perf_counter() - t0
        rates.append((moves / dt, games / dt))
        moves_total, units_total, games_total = moves_total + moves, units_total + units, games_total + games
        batch += 1
    return {"moves_per_s": statistics.median(r[0] for r in rates),
            "playouts_per_s": statistics.median(r[1] for r in rates),
            "mean_moves": moves_total / games_total, "mean_units": units_total / games_total}


def python_driven(new_state, seconds: float, seed: int) -> dict:
    """The same random games, one move at a time through the Python API (`new_state(seed)` starts one)."""
    rng = random.Random(seed)
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < 2:
        st = new_state(seed + games)
        while not st.is_terminal():
            if st.is_chance():
                st.apply(st.sample_chance())
                continue
            st.apply(rng.choice(st.legal_moves()))
            moves += 1
        games += 1
    dt = time.perf_counter() - start
    return {"moves_per_s": moves / dt, "playouts_per_s": games / dt}


def vtable_figures(game, seconds: float, setup) -> dict:
    """What every game has: random games of each player count, compiled through the game's vtable (decisions a
    second; the start's pending chance resolved afresh each game) and driven from Python."""
    from search import _mcts

    out: dict = {}
    for n in range(game.min_players, game.max_players + 1):
        start = game.adapter.state_bytes(game.record.new(n, setup, 1000 * n))

        def playouts(games: int, seed: int, start=start) -> tuple[float, int]:
            decisions, _elapsed = _mcts.random_playouts(game.adapter.vtable, start, games, seed)
            return decisions, 0

        c = compiled_rates(playouts, 200, seconds, seed=1000 * n)
        p = python_driven(lambda s, n=n: game.record.new(n, setup, s), seconds / 2, seed=1000 * n)
        ratio = c["moves_per_s"] / p["moves_per_s"]
        print(f"{game.title} {n} players: compiled {c['moves_per_s']:12,.0f} decisions/s | python-driven "
              f"{p['moves_per_s']:9,.0f} decisions/s | ratio {ratio:6.1f}x | mean game {c['mean_moves']:.1f} decisions")
        out[f"p{n}"] = {"compiled_moves_per_s": round(c["moves_per_s"]), "python_moves_per_s": round(p["moves_per_s"]),
                        "compiled_over_python": round(ratio, 1), "mean_moves": round(c["mean_moves"], 1)}
    out["moves_per_s"] = out[f"p{max(2, game.min_players)}"]["compiled_moves_per_s"]
    return out


def own_figures(name: str):
    """bench/engine_NAME.py, a game's own engine figures, or None."""
    path = os.path.join(HERE, f"engine_{name}.py")
    if not os.path.exists(path):
        return None
    found = importlib.util.spec_from_file_location(f"bench_engine_{name}", path)
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    add_game_flags(ap, default="all")
    args = ap.parse_args()
    names = GAMES if args.game == "all" else (get_game(args.game).name,)
    result: dict = {}
    for name in names:
        game = get_game(name)
        text = getattr(args, game.setup) if game.setup else ""
        options = {flag: getattr(args, flag.replace("-", "_")) for flag, _, _ in game.flags}
        module = own_figures(name)
        if module is not None:
            result[name] = module.figures(sys.modules[__name__], args.seconds, text)
        else:
            result[name] = vtable_figures(game, args.seconds, command_setup(game.record)(text, **options))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
