"""SpellBook's own engine figures for bench/engine.py (which finds a game's as bench/engine_NAME.py): its compiled
playouts (engine_c/spellbook/_engine.pyx random_playouts: Days a game) for 2, 3 and 4 players, against the
same random games driven from Python."""
from __future__ import annotations

from engine_c.spellbook import State
from engine_c.spellbook._engine import random_playouts
from engine_c.spellbook.state import resolve_spells


def compiled(bench, players: int, spells: list[int], seconds: float, seed: int) -> dict:
    """SpellBook's compiled playouts (mean_days: Days a game)."""
    out = bench.compiled_rates(lambda games, s: random_playouts(players, spells, games, s), 200, seconds, seed)
    out["mean_days"] = out.pop("mean_units")
    return out


def figures(bench, seconds: float, setup: str = "set1") -> dict:
    """The figures of every player count (`setup`: the spells), and `moves_per_s`: 2 players' compiled rate.
    `bench`: bench/engine.py (its compiled_rates and python_driven)."""
    ids = resolve_spells(setup)
    names = [State.new(spells=setup).spells[c] for c in range(7)]
    result: dict = {"spells": setup}
    for n in (2, 3, 4):
        c = compiled(bench, n, ids, seconds, seed=1000 * n)
        p = bench.python_driven(lambda s, n=n: State.new(players=n, spells=names, seed=s), seconds / 2, seed=1000 * n)
        ratio = c["moves_per_s"] / p["moves_per_s"]
        print(f"{n} players: compiled {c['playouts_per_s']:9.0f} playouts/s {c['moves_per_s']:12,.0f} moves/s | "
              f"python-driven {p['moves_per_s']:9,.0f} moves/s | ratio {ratio:6.1f}x | "
              f"mean game {c['mean_moves']:.1f} moves, {c['mean_days']:.1f} Days")
        result[f"p{n}"] = {"compiled_moves_per_s": round(c["moves_per_s"]), "playouts_per_s": round(c["playouts_per_s"], 1),
                           "python_moves_per_s": round(p["moves_per_s"]), "compiled_over_python": round(ratio, 1),
                           "mean_moves": round(c["mean_moves"], 1), "mean_days": round(c["mean_days"], 1)}
    result["moves_per_s"] = result["p2"]["compiled_moves_per_s"]
    return result
