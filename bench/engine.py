"""Engine benchmark: whole random games from the initial state, in compiled code and driven from Python.

SpellBook: playouts/s, decisions (moves)/s, mean game length in moves and Days for 2, 3 and 4 players, and
the compiled / Python-driven ratio. Abracada…What?: the same for 2-5 players (rounds in place of Days), and
one determinization's cost in µs (XC6: warm = the search's case, the same observation again; cold = the
first of a new observation, with the exact posterior's forward pass), mean over states sampled mid-game.
Spellbook TCG: the starter decks' random games (decisions/s, compiled and Python-driven, mean decisions and
turns a game) and one determinization's cost in µs (TI-5, a fresh copy each, as a search iteration does),
mean over states sampled mid-game; targets ≥ 1,000,000 decisions/s and ≤ 20 µs.
All on one core. The last line is one JSON object: `moves_per_s` = SpellBook's 2-player compiled rate,
`abracadawhat` and `spellbooktcg` = those games' figures (their `moves_per_s`: 2 players).
Usage: python bench/engine.py [--seconds 3] [--spells set1] [--game spellbook|abracadawhat|spellbooktcg|all]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from engine_c.spellbook import State
from engine_c.spellbook._engine import random_playouts
from engine_c.abracadawhat import _engine as abracadawhat_engine
from engine_c.abracadawhat.state import State as AbracadaState
from engine_c.spellbook.state import resolve_spells
from engine_c.spellbooktcg import _engine as tcg_engine
from engine_c.spellbooktcg.state import State as TCGState


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


def compiled(players: int, spells: list[int], seconds: float, seed: int) -> dict:
    """SpellBook's compiled playouts (mean_days: Days a game)."""
    out = compiled_rates(lambda games, s: random_playouts(players, spells, games, s), 200, seconds, seed)
    out["mean_days"] = out.pop("mean_units")
    return out


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


def determinization_us(players: int, states: int = 200, seed: int = 11) -> dict:
    """Mean µs of one determinization for the deciding seat over `states` states sampled mid-game."""
    _, _, _, samples = abracadawhat_engine.random_games_checked(players, 0, states, seed)
    warm = cold = 0.0
    for data in samples:
        st = AbracadaState()
        st._load_state_bytes(data)
        seat = max(st.current_player, 0)
        warm += abracadawhat_engine.time_determinize(data, seat, 2000, seed) / 2000
        cold += abracadawhat_engine.time_determinize(data, seat, 20, seed, True) / 20
    return {"warm": warm / len(samples) * 1e6, "cold": cold / len(samples) * 1e6}


def bench_abracadawhat(seconds: float) -> dict:
    out: dict = {}
    for n in (2, 3, 4, 5):
        c = compiled_rates(lambda games, s, n=n: abracadawhat_engine.random_playouts(n, 0, games, s), 2000,
                           seconds, seed=1000 * n)
        p = python_driven(lambda s, n=n: AbracadaState.new(players=n, seed=s), seconds / 2, seed=1000 * n)
        d = determinization_us(n)
        ratio = c["moves_per_s"] / p["moves_per_s"]
        print(f"Abracada…What? {n} players: compiled {c['playouts_per_s']:9.0f} playouts/s "
              f"{c['moves_per_s']:12,.0f} moves/s | python-driven {p['moves_per_s']:9,.0f} moves/s | ratio "
              f"{ratio:6.1f}x | mean game {c['mean_moves']:.1f} moves, {c['mean_units']:.1f} rounds | "
              f"determinization {d['warm']:.2f} µs warm, {d['cold']:.1f} µs cold")
        out[f"p{n}"] = {"compiled_moves_per_s": round(c["moves_per_s"]), "playouts_per_s": round(c["playouts_per_s"], 1),
                        "python_moves_per_s": round(p["moves_per_s"]), "compiled_over_python": round(ratio, 1),
                        "mean_moves": round(c["mean_moves"], 1), "mean_rounds": round(c["mean_units"], 2),
                        "determinize_us": round(d["warm"], 3), "determinize_cold_us": round(d["cold"], 2)}
    out["moves_per_s"] = out["p2"]["compiled_moves_per_s"]
    out["determinize_us"] = max(out[f"p{n}"]["determinize_us"] for n in (2, 3, 4, 5))
    out["determinize_cold_us"] = max(out[f"p{n}"]["determinize_cold_us"] for n in (2, 3, 4, 5))
    return out


def tcg_determinization_us(states: int = 200, seed: int = 11, count: int = 5000) -> float:
    """Mean µs of one Spellbook TCG determinization for the deciding seat, over `states` random mid-game
    decisions (each on a fresh copy of the state, as a search iteration does)."""
    rng = random.Random(seed)
    total = 0.0
    taken = 0
    while taken < states:
        st = TCGState.new(seed=seed + taken)
        for _ in range(rng.randrange(20, 400)):
            if st.is_terminal():
                break
            st.apply(st.sample_chance() if st.is_chance() else rng.choice(st.legal_moves()))
        if st.current_player < 0:
            continue
        total += tcg_engine.time_determinize(st._state_bytes(), st.current_player, count, seed) / count
        taken += 1
    return total / states * 1e6


def bench_spellbooktcg(seconds: float) -> dict:
    start = TCGState.new(seed=0, deal=False)._state_bytes()     # the setup's draws pending: each game its own
    c = compiled_rates(lambda games, s: tcg_engine.random_playouts(start, games, s), 500, seconds, seed=3000)
    p = python_driven(lambda s: TCGState.new(seed=s), seconds / 2, seed=3000)
    d = tcg_determinization_us()
    ratio = c["moves_per_s"] / p["moves_per_s"]
    print(f"Spellbook TCG 2 players: compiled {c['playouts_per_s']:9.0f} playouts/s {c['moves_per_s']:12,.0f} "
          f"decisions/s | python-driven {p['moves_per_s']:9,.0f} decisions/s | ratio {ratio:6.1f}x | mean game "
          f"{c['mean_moves']:.1f} decisions, {c['mean_units']:.1f} turns | determinization {d:.2f} µs")
    return {"compiled_moves_per_s": round(c["moves_per_s"]), "playouts_per_s": round(c["playouts_per_s"], 1),
            "python_moves_per_s": round(p["moves_per_s"]), "compiled_over_python": round(ratio, 1),
            "mean_moves": round(c["mean_moves"], 1), "mean_turns": round(c["mean_units"], 1),
            "determinize_us": round(d, 3), "moves_per_s": round(c["moves_per_s"]),
            "state_bytes": tcg_engine.STATE_SIZE}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--spells", default="set1")
    ap.add_argument("--game", choices=("spellbook", "abracadawhat", "spellbooktcg", "all"), default="all")
    args = ap.parse_args()
    ids = resolve_spells(args.spells)
    names = [State.new(spells=args.spells).spells[c] for c in range(7)]
    result: dict = {"spells": args.spells}
    if args.game in ("spellbooktcg", "all"):
        result["spellbooktcg"] = bench_spellbooktcg(args.seconds)
        if args.game == "spellbooktcg":
            print(json.dumps(result))
            return
    if args.game != "spellbook":
        result["abracadawhat"] = bench_abracadawhat(args.seconds)
        if args.game == "abracadawhat":
            print(json.dumps(result))
            return
    for n in (2, 3, 4):
        c = compiled(n, ids, args.seconds, seed=1000 * n)
        p = python_driven(lambda s, n=n: State.new(players=n, spells=names, seed=s), args.seconds / 2,
                          seed=1000 * n)
        ratio = c["moves_per_s"] / p["moves_per_s"]
        print(f"{n} players: compiled {c['playouts_per_s']:9.0f} playouts/s {c['moves_per_s']:12,.0f} moves/s | "
              f"python-driven {p['moves_per_s']:9,.0f} moves/s | ratio {ratio:6.1f}x | "
              f"mean game {c['mean_moves']:.1f} moves, {c['mean_days']:.1f} Days")
        result[f"p{n}"] = {"compiled_moves_per_s": round(c["moves_per_s"]), "playouts_per_s": round(c["playouts_per_s"], 1),
                           "python_moves_per_s": round(p["moves_per_s"]), "compiled_over_python": round(ratio, 1),
                           "mean_moves": round(c["mean_moves"], 1), "mean_days": round(c["mean_days"], 1)}
    result["moves_per_s"] = result["p2"]["compiled_moves_per_s"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
