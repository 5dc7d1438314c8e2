"""Tournament plots as PNG (matplotlib with the Agg backend; the `plots` extra).

write_plots(summary, directory) writes elo.png (Bradley-Terry Elo bars with 95% intervals),
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
    rows = summary["bradley_terry"]
    names = [r["name"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    ax.barh(range(len(rows)), [r["elo"] for r in rows], xerr=[r["pm"] for r in rows], color="#4c72b0",
            ecolor="black", capsize=4)
    ax.set_yticks(range(len(rows)), names)
    ax.invert_yaxis()
    ax.axvline(0, color="grey", lw=0.8)
    anchor = f"{summary['anchor']} = 0" if summary.get("anchor") else "mean = 0"
    ax.set_xlabel(f"Elo ({anchor}), 95% interval")
    ax.set_title(f"Bradley-Terry Elo over {summary['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def pairwise_heatmap(summary: dict, path: str) -> str:
    plt = _pyplot()
    import numpy as np

    names = [b["name"] for b in summary["bots"]]
    k = len(names)
    m = np.full((k, k), np.nan)
    for p in summary["pairs"]:
        i, j = names.index(p["a"]), names.index(p["b"])
        m[i, j], m[j, i] = p["rate"], 1 - p["rate"]
    fig, ax = plt.subplots(figsize=(1.2 * k + 3, 1.0 * k + 2))
    im = ax.imshow(m, vmin=0, vmax=1, cmap="RdBu")
    for i in range(k):
        for j in range(k):
            if not np.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_title("score of the row bot against the column bot")
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
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
    ax.set_title(f"SPRT {s['a']} vs {s['b']}")
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def write_plots(summary: dict, directory: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    paths = []
    if summary.get("bradley_terry"):
        paths.append(elo_bars(summary, os.path.join(directory, "elo.png")))
    if summary.get("pairs"):
        paths.append(pairwise_heatmap(summary, os.path.join(directory, "pairwise.png")))
    if summary.get("sprt", {}).get("trace"):
        paths.append(sprt_trace(summary, os.path.join(directory, "sprt.png")))
    return paths
