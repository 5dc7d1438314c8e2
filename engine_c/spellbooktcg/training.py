"""The Spellbook TCG's training plan: what `make train` runs for this game (clients/train_plan.py: self-play,
Reanalyse, training, a gate against the rollout search; docs/learned.md, "The Spellbook TCG's model").

Self-play here is cheap (a game at 400 playouts takes about a second on one core), and the rollout search
keeps gaining up to about 2,500 playouts (the ladder, D187), so the targets come from a deeper search:
a quarter of each generation's decisions searched again at 4x the default budget (Reanalyse), their root
estimates blended with the result (the result alone is one noisy bit per game).
"""

PLAN = {
    "seed": 5000,
    # self-play of generation k: by the rollout search for g0, by the model m{k} after it
    "generations": [
        {"games": 1600, "iterations": 400},
    ],
    "rollout_mix": 0.5,            # the model's leaves: its value blended with one random playout
    "reanalyse": {"iterations": 1600, "share": 0.25},
    "window": 2,
    "train": {"hidden": [64, 64], "epochs": 8, "q_weight": 0.8},
    # against the rollout search at the default level's budget; the bar is +100 Elo over 200 games
    "gate": {"pairs": 100, "elo0": 0.0, "elo1": 50.0, "stop_early": False},
}
