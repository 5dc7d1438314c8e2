"""The Spellbook TCG's own engine figures for bench/engine.py (which finds a game's as bench/engine_NAME.py): the
starter decks' random games (decisions/s, compiled and Python-driven, mean decisions and turns a game) and one
determinization's cost in µs (TI-5, a fresh copy each, as a search iteration does), mean over states sampled
mid-game; targets ≥ 1,000,000 decisions/s and ≤ 20 µs."""
from __future__ import annotations

import random

from engine_c.spellbooktcg import _engine as tcg_engine
from engine_c.spellbooktcg.state import State as TCGState


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


def figures(bench, seconds: float, setup: str = "") -> dict:
    """The starter decks' figures (`setup` is not used), `moves_per_s` the compiled rate. `bench`: bench/engine.py
    (its compiled_rates and python_driven)."""
    start = TCGState.new(seed=0, deal=False)._state_bytes()     # the setup's draws pending: each game its own
    c = bench.compiled_rates(lambda games, s: tcg_engine.random_playouts(start, games, s), 500, seconds, seed=3000)
    p = bench.python_driven(lambda s: TCGState.new(seed=s), seconds / 2, seed=3000)
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
