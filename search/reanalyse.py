"""Reanalyse (game-agnostic): stored self-play positions searched again by a deeper search, so a network
learns what that search finds (MuZero's Reanalyse, Schrittwieser et al. 2021, appendix; KataGo's targets
from search, Wu 2019).

Self-play run with `SelfPlayConfig.keep_states` keeps each recorded decision's whole state. A reanalysis
reads such a shard and, for a chosen share of its decisions, runs the deeper search from that state (as the
seat that decided there: the search determinizes what that seat cannot see, so nothing hidden enters a
target), then writes a shard of those decisions only, the same arrays with two targets replaced:
- `visits`: the deeper search's root visit shares over the decision's legal moves (the policy target);
- `q_win`: its root estimate of each seat's win probability, relative to the deciding seat (the value
  target, mixed with the game's result by training's `q_weight`);
and `r_win` (the same estimate, kept under its own name) with the source's `q_win` as `q_self`. The game's
result (`z_win`, `z_score`) and features stay what they were. The output is an ordinary shard (format
search/selfplay.py) that `spellbook-ai train` reads, without the states.

Work is per shard (resumable: an output shard that exists is skipped), seeded from the shard's path and the
decision, so the same inputs give the same shard.
"""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from search.search import SearchOptions, ismcts
from search.selfplay import _relative, _root_win_estimate, list_shards, read_shard, seat_width, write_shard

DROP = ("state",)            # what a reanalysed shard does not carry on


@dataclass
class ReanalyseConfig:
    """The deeper search (`options`; its seed is replaced per decision), the learned evaluation it searches
    with (None: its own evaluator), and the share of each shard's decisions searched again."""

    options: SearchOptions = field(default_factory=lambda: SearchOptions(iterations=1600))
    model_path: str | None = None
    share: float = 1.0

    def describe(self) -> dict:
        d = asdict(self)
        d["options"] = {k: v for k, v in asdict(self.options).items() if k != "seed"}
        return d


@dataclass
class ReanalyseTask:
    """One shard's reanalysis (picklable: a worker process builds the game from its registry name)."""

    source: str
    path: str
    game: str
    config: dict


def _seed(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little") >> 1


def chosen_decisions(n: int, share: float, seed: int) -> np.ndarray:
    """The decisions (ascending indices) a reanalysis searches again: all at share 1, else a seeded sample."""
    if share >= 1.0:
        return np.arange(n)
    k = int(round(n * share))
    return np.sort(np.random.default_rng(seed).choice(n, size=k, replace=False))


def reanalyse_arrays(game: Any, arrays: dict, config: ReanalyseConfig, seed: int, network: Any = None) -> dict:
    """The reanalysed arrays of one shard's `arrays` (module docstring); ValueError when they kept no states."""
    if "state" not in arrays:
        raise ValueError("the shard kept no states (self-play with --keep-states): nothing to search again")
    offsets, codes = arrays["move_offset"], arrays["move_code"]
    picked = chosen_decisions(len(arrays["seat"]), config.share, seed)
    width = seat_width(game)
    visits, r_win = [], []
    for d in picked:
        state = game.state_from_bytes(arrays["state"][d].tobytes())
        seat = game.current_player(state)
        if seat != int(arrays["seat"][d]):
            raise ValueError(f"decision {d}: the stored state is seat {seat}'s decision, the shard says "
                             f"{int(arrays['seat'][d])}")
        opts = SearchOptions(**{**asdict(config.options), "seed": _seed(f"{seed}:{d}"), "temperature": 0.0,
                                "stop_early": False, "threads": 1})
        result = ismcts(game, state, opts, network=network)
        by_code = {game.code(s.move): s.visits for s in result.moves}
        row = codes[offsets[d]:offsets[d + 1]]
        total = sum(by_code.values()) or 1
        visits.append(np.array([by_code.get(int(c), 0) / total for c in row], np.float32))
        n = game.num_players(state)
        r_win.append(_relative(_root_win_estimate(result, n), seat, n, width))
    return _subset(arrays, picked, visits, np.array(r_win, np.float32).reshape(len(picked), width))


def _subset(arrays: dict, picked: np.ndarray, visits: list, r_win: np.ndarray) -> dict:
    """The picked decisions' rows with the new targets (move rows and offsets renumbered)."""
    offsets = arrays["move_offset"]
    spans = [np.arange(offsets[d], offsets[d + 1]) for d in picked]
    rows = np.concatenate(spans) if spans else np.zeros(0, np.int64)
    out = {}
    for key, a in arrays.items():
        if key in DROP or key in ("move_offset", "td_lambdas"):
            continue
        if key in ("move_x", "move_code", "visits"):
            out[key] = a[rows]
        elif len(a) == len(arrays["seat"]):
            out[key] = a[picked]
    out["move_offset"] = np.concatenate([[0], np.cumsum([len(s) for s in spans])]).astype(np.int64)
    out["visits"] = np.concatenate(visits).astype(np.float32) if visits else np.zeros(0, np.float32)
    out["q_self"] = out["q_win"]
    out["q_win"] = r_win
    out["r_win"] = r_win
    return out


def plan(sources: list[str], out_dir: str, game: str, config: ReanalyseConfig) -> list[ReanalyseTask]:
    """One task per source shard whose reanalysed shard is not in out_dir yet (resume)."""
    tasks = []
    for j, d in enumerate(sources):
        for src in list_shards(d):
            # named after its source (one source directory: the same name), so a source that grows later
            # (a self-play run still going) maps each shard to the same output
            name = os.path.basename(src) if len(sources) == 1 else f"shard-d{j}-{os.path.basename(src)[6:]}"
            path = os.path.join(out_dir, name)
            if os.path.exists(path):
                continue
            tasks.append(ReanalyseTask(source=src, path=path, game=game, config=config.describe()))
    return tasks


def run_task(task: dict) -> dict:
    """Reanalyses one shard and writes it; returns a summary. Runs in a worker process."""
    from engine_c.registry import get_game

    t = ReanalyseTask(**task)
    game = get_game(t.game).adapter
    cfg = ReanalyseConfig(**{**t.config, "options": SearchOptions(**t.config["options"])})
    network = None
    if cfg.model_path:
        from search.model import Model

        network = Model.load(cfg.model_path).network(game)
    start = time.monotonic()
    arrays, meta = read_shard(t.source)
    if meta.get("game") != game.name:
        raise ValueError(f"{t.source}: a shard of {meta.get('game')}, not {game.name}")
    out = reanalyse_arrays(game, arrays, cfg, _seed(os.path.basename(t.source) + meta.get("game", "")), network)
    meta = {**meta, "reanalysed": {"source": os.path.abspath(t.source), "config": t.config,
                                   "decisions": int(len(out["seat"])),
                                   "seconds": round(time.monotonic() - start, 2)}}
    write_shard(t.path, out, meta)
    return {"source": t.source, "decisions": int(len(out["seat"])), "seconds": meta["reanalysed"]["seconds"]}
