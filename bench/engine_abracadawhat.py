"""Abracada…What?'s own engine figures for bench/engine.py (which finds a game's as bench/engine_NAME.py): its
compiled playouts (engine_c/abracadawhat/_engine.pyx random_playouts: rounds a game) for 2-5 players, against the
same random games driven from Python, and one determinization's cost in µs (XC6: warm = the search's case, the
same observation again; cold = the first of a new observation, with the exact posterior's forward pass), mean
over states sampled mid-game."""
from __future__ import annotations

from engine_c.abracadawhat import _engine as abracadawhat_engine
from engine_c.abracadawhat.state import State as AbracadaState


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


def figures(bench, seconds: float, setup: str = "") -> dict:
    """The figures of every player count (no variants: `setup` is not used by the compiled playouts), and
    `moves_per_s`: 2 players' compiled rate. `bench`: bench/engine.py (its compiled_rates and python_driven)."""
    out: dict = {}
    for n in (2, 3, 4, 5):
        c = bench.compiled_rates(lambda games, s, n=n: abracadawhat_engine.random_playouts(n, 0, games, s), 2000,
                                 seconds, seed=1000 * n)
        p = bench.python_driven(lambda s, n=n: AbracadaState.new(players=n, seed=s), seconds / 2, seed=1000 * n)
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
