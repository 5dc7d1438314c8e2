"""Tournament plots as PNG (matplotlib with the Agg backend; the `plots` extra).

write_plots(summary, directory) writes elo.png (the rating table: Bradley-Terry Elo bars with 95% intervals),
pairwise.png (the pairwise score heatmap) and, when the summary has an SPRT, sprt.png (the LLR trace
between its bounds). `summary` is clients.tournament.summarize()'s output.
"""
from __future__ import annotations

import os


def _pyplot():
    try:
        import matplotlib
    except ImportError as e:
        raise ImportError("plots need matplotlib: pip install 'spellbook-ai[plots]'") from e
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def elo_bars(summary: dict, path: str) -> str:
    plt = _pyplot()
    rows = summary["rating_table"]
    names = [r["name"] for r in rows]
    width = max(len(n) for n in names)
    fig, ax = plt.subplots(figsize=(7 + 0.08 * width, 0.5 * len(rows) + 1.8))
    ax.barh(range(len(rows)), [r["elo"] for r in rows], xerr=[r["pm"] for r in rows], color="#4c72b0",
            ecolor="black", capsize=4)
    ax.set_yticks(range(len(rows)), [f"{n} ({r['games']} games)" for n, r in zip(names, rows)], fontsize=10)
    ax.invert_yaxis()
    ax.axvline(0, color="grey", lw=0.8)
    anchor = f"{summary['anchor']} = 0" if summary.get("anchor") else "mean = 0"
    ax.set_xlabel(f"Elo ({anchor}); bars: 95% interval")
    ax.set_title(f"Rating table (Bradley-Terry fit of all {summary['games']} games)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _short(name: str, limit: int = 22) -> str:
    """A bot name for an axis: long specs wrapped at their commas so labels stay readable."""
    if len(name) <= limit:
        return name
    return name.replace(",", ",\n").replace(":", ":\n", 1)


def pairwise_heatmap(summary: dict, path: str) -> str:
    plt = _pyplot()
    import numpy as np

    names = [b["name"] for b in summary["bots"]]
    k = len(names)
    m = np.full((k, k), np.nan)
    games = np.zeros((k, k), dtype=int)
    for p in summary["pairs"]:
        i, j = names.index(p["a"]), names.index(p["b"])
        m[i, j], m[j, i] = p["rate"], 1 - p["rate"]
        games[i, j] = games[j, i] = p["games"]
    size = 1.6 * k + 3.5
    fig, ax = plt.subplots(figsize=(size, size * 0.85))
    im = ax.imshow(m, vmin=0, vmax=1, cmap="RdBu")
    for i in range(k):
        for j in range(k):
            if not np.isnan(m[i, j]):
                dark = abs(m[i, j] - 0.5) > 0.3           # white text on the saturated cells
                ax.text(j, i, f"{m[i, j]:.2f}\n({games[i, j]} g)", ha="center", va="center", fontsize=11,
                        color="white" if dark else "black")
    labels = [_short(n) for n in names]
    ax.set_xticks(range(k), labels, rotation=35, ha="right", rotation_mode="anchor", fontsize=10)
    ax.set_yticks(range(k), labels, fontsize=10)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("bot (row)")
    ax.set_title("Score of the row bot against the column bot\n(1 = always ahead, 0.5 = even)")
    bar = fig.colorbar(im, ax=ax, fraction=0.046)
    bar.set_label("score")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def sprt_trace(summary: dict, path: str) -> str:
    plt = _pyplot()
    s = summary["sprt"]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(range(1, len(s["trace"]) + 1), s["trace"], color="#4c72b0", label="LLR")
    ax.axhline(s["upper"], color="green", ls="--", label=f"accept H1 (elo1 = {s['elo1']:g})")
    ax.axhline(s["lower"], color="red", ls="--", label=f"accept H0 (elo0 = {s['elo0']:g})")
    ax.set_xlabel("game pairs")
    ax.set_ylabel("log-likelihood ratio")
    e = s.get("elo", {})
    measured = f": Elo {e['elo']:+.1f} ± {e['pm']:.1f}" if e and all(map(_finite, (e["elo"], e["pm"]))) else ""
    ax.set_title(f"SPRT {s['a']} vs {s['b']}{measured} after {s['pairs']} pairs")
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _finite(x: float) -> bool:
    import math

    return math.isfinite(x)


def write_plots(summary: dict, directory: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    paths = []
    if summary.get("rating_table"):
        paths.append(elo_bars(summary, os.path.join(directory, "elo.png")))
    if summary.get("pairs"):
        paths.append(pairwise_heatmap(summary, os.path.join(directory, "pairwise.png")))
    if summary.get("sprt", {}).get("trace"):
        paths.append(sprt_trace(summary, os.path.join(directory, "sprt.png")))
    return paths


def win_probability_graph(graph: list[tuple[int, list[float]]], names: list[str], path: str,
                          marks: list[tuple[int, int, str]] | None = None) -> str:
    """The review's win-probability graph as a PNG: one line per seat over the game's decisions.
    graph: (decision index, every seat's win probability); marks: (decision index, seat, class) of the
    mistakes and blunders, drawn as points on the decider's line."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 3.6))
    xs = [i + 1 for i, _ in graph]
    for seat, name in enumerate(names):
        ax.plot(xs, [100 * w[seat] for _, w in graph], label=name, linewidth=1.6)
    colors = {"inaccuracy": "#f0c000", "mistake": "#f07000", "blunder": "#d00000"}
    at = {i: w for i, w in graph}
    for index, seat, cls in marks or []:
        if cls in colors and index in at:
            ax.scatter([index + 1], [100 * at[index][seat]], color=colors[cls], s=22, zorder=3)
    ax.set_ylim(0, 100)
    ax.set_xlabel("decision")
    ax.set_ylabel("win probability (%)")
    ax.axhline(100 / max(len(names), 1), color="grey", linewidth=0.6, linestyle=":")
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title("Win probability before each decision (dots: inaccuracies, mistakes, blunders)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
