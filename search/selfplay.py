"""Self-play data for a learned evaluation (game-agnostic): games played by a search bot, every decision
recorded as training data, in shards that a run can resume.

What one decision records (the deciding seat's point of view; never hidden information):
- `x`: the game's state features of what the deciding seat observes (GameVTable.state_features),
- the legal moves' features (`move_x`) and the search's root visit share of each (`visits`: the policy
  target), with the move codes,
- the result, relative to the deciding seat (index 0 = that seat, k = k seats to its left): each seat's
  win share (`z_win`, ties shared) and final score (`z_score`),
- the search's own root estimate of each seat's win probability (`q_win`, same order),
- with `SelfPlayConfig.value_playouts` > 0, the mean of that many random playouts from the decision,
  spread evenly over the legal moves (`p_win`, same order; what flat Monte Carlo's estimates converge
  to): a value label with far less variance than the result and without the search's own bias (as a
  training target it made no stronger model than the root estimate: docs/learned.md). NaN where not
  recorded.

Shard format (`shard-NNNNN.npz`, numpy's npz; docs/learned.md): x float16 [D, F]; move_offset int64
[D + 1] (decision d's moves are rows move_offset[d]:move_offset[d+1]); move_x float16 [sum, M];
visits float32 [sum]; move_code uint64 [sum]; seat, players int8 [D]; z_win, z_score, q_win float32
[D, S]; p_win float32 [D, S] (S: 4 seats, or the game's most when it allows more, 5 in Abracada…What?) (optional: NaN when not recorded, and read as NaN from shards without it);
game int32 [D] (game index), and `meta`, a JSON string (format, version, feature sizes and version, the
bot's options, games, seeds, seconds). A shard is written to a temporary file and renamed,
so a shard on disk is always complete: a resumed run skips the shards that exist.

Tree-less shards (`SelfPlayConfig.generator == "treeless"`, search/treeless.pxi) hold value rows only:
a few decisions per game, chosen uniformly, from games played at one ply by the network itself (its
policy prior with a temperature, or greedy on its value), with no moves (move_offset all zero, so no
policy target) and, beside the fields above, `v_win` (the network's own estimate there; also stored as
`q_win`), `td_win` float32 [D, L, S] (TD(lambda) returns along the game for the `td_lambdas` in meta,
lambda = 1 being the result) and `ply` int32 [D]. p_win, when asked for, is the mean of random playouts
from the decider's determinizations. Tens of thousands of games an hour per core instead of about one a
second: the data volume a value head in a luck-heavy game needs (docs/learned.md).
"""
from __future__ import annotations

import json
import math
import os
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from search import _mcts
from search.search import SearchOptions, TreeReuse, flat_monte_carlo, ismcts

SHARD_FORMAT = "spellbook-ai/selfplay"
SHARD_VERSION = 1
MAX_SEATS = 4                 # the seat columns of a shard's per-seat arrays, or the game's most seats if more
MAX_DECISIONS = 5000          # a game still running after this many decisions is dropped (D15)


@dataclass
class SelfPlayConfig:
    """How the self-play bot plays. `options` is the search of every decision (its seed is replaced by
    one derived from the game's seed and the decision); the first `explore_decisions` decisions of each
    seat sample their move in proportion to the root visits (variety between games), later ones play the
    most visited move."""

    options: SearchOptions = field(default_factory=lambda: SearchOptions(iterations=400))
    explore_decisions: int = 6
    model_path: str | None = None     # the learned evaluation to search with (None: rollouts)
    value_playouts: int = 0           # > 0: also record p_win, the mean of this many random playouts
    # "search" (a search every decision) or "treeless" (one ply by the network: search/treeless.pxi);
    # the fields below apply to the tree-less generator only
    generator: str = "search"
    mode: str = "policy"              # "policy": sample the prior ** (1 / temperature); "value": greedy
    temperature: float = 1.0
    epsilon: float = 0.05             # share of uniformly random moves
    keep: int = 4                     # decisions kept per game (uniformly chosen)
    chance_samples: int = 1           # value mode: chance continuations averaged per move
    td_lambdas: tuple[float, ...] = (0.0, 0.5, 0.7, 0.9, 1.0)
    # Playout-cap randomization (KataGo, Wu 2019; search generator only): each decision is a full search
    # (`options.iterations`) with probability `full_share`, else a cheap one of `cheap_iterations`; only
    # full searches are recorded, so every policy target is a full search's visits while the games cost
    # a fraction of full searches everywhere. 1.0: every decision full and recorded (as before).
    full_share: float = 1.0
    cheap_iterations: int = 0
    # Keep each recorded decision's whole state (the game's state bytes, `state` uint8 [D, state size]) so
    # that a later, deeper search can analyse the same positions again (search/reanalyse.py). The states hold
    # hidden information: they are training data, never shown to a player.
    keep_states: bool = False

    def describe(self) -> dict:
        d = asdict(self)
        d["options"] = {k: v for k, v in asdict(self.options).items() if k != "seed"}
        if self.generator == "search":     # a search run's meta stays what it was before the tree-less one
            for k in TREELESS_FIELDS:
                d.pop(k)
        if self.full_share >= 1.0:         # and so does one without playout-cap randomization
            for k in PLAYOUT_CAP_FIELDS:
                d.pop(k)
        if not self.keep_states:           # and one that keeps no states
            d.pop("keep_states")
        return d


# SelfPlayConfig's fields that only the tree-less generator reads
TREELESS_FIELDS = ("generator", "mode", "temperature", "epsilon", "keep", "chance_samples", "td_lambdas")
PLAYOUT_CAP_FIELDS = ("full_share", "cheap_iterations")


def seat_width(game: Any) -> int:
    """The seat columns of `game`'s shards (and models): MAX_SEATS, or the game's most seats when it
    allows more (Abracada…What?: 5), so a SpellBook shard stays what it was."""
    return max(MAX_SEATS, int(_mcts.feature_info(game.vtable)[3]))


def _relative(values: Sequence[float], seat: int, n: int, width: int = MAX_SEATS) -> list[float]:
    out = [0.0] * width
    for k in range(n):
        out[k] = float(values[(seat + k) % n])
    return out


def play_game(game: Any, new_state: Callable[[int], Any], seed: int, config: SelfPlayConfig,
              network: Any = None) -> dict | None:
    """One self-play game from `new_state(seed)`; its decisions as arrays (see the module docstring),
    or None when it did not finish within MAX_DECISIONS. `network` is a search.model network or None."""
    state = new_state(seed)
    rng = random.Random(seed ^ 0x5E1F)
    n = game.num_players(state)
    reuse = [TreeReuse() for _ in range(n)]
    seat_decisions = [0] * n
    rows: list[dict] = []
    decisions = 0
    while not state.is_terminal():
        if state.is_chance():
            state.resolve_chance()
            continue
        if decisions >= MAX_DECISIONS:
            return None
        decisions += 1
        seat = game.current_player(state)
        legal = game.legal_moves(state)
        if len(legal) == 1:
            reuse[seat].advance(game, state, legal[0])
            state.apply(legal[0])
            continue
        opts = SearchOptions(**{**asdict(config.options), "seed": rng.getrandbits(63), "temperature": 0.0,
                                "stop_early": False, "threads": 1})
        # a cheap search plays the move and records nothing (no draw without playout-cap randomization,
        # so those runs replay as before)
        full = config.full_share >= 1.0 or rng.random() < config.full_share
        if not full:
            opts.iterations = config.cheap_iterations
        result = ismcts(game, state, opts, reuse=reuse[seat], network=network)
        if full:
            rows.append(_decision_row(game, state, seat, n, legal, result, config, rng))
        move = result.move
        if seat_decisions[seat] < config.explore_decisions:
            # another move than the searched best: the kept tree no longer matches, and TreeReuse
            # starts a new one by itself at the next decision
            move = _sample_by_visits(result, rng)
        seat_decisions[seat] += 1
        state.apply(move)
    wins, scores = _final_values(game, state, n)
    return _to_arrays(rows, n, wins, scores, seat_width(game))


def _final_values(game, state, n: int) -> tuple[list[float], list[float]]:
    """Each seat's win share (ties shared) and final score: the adapter's final_values when it has one
    (a score may be a number, Abracada…What?'s, or have a `total`, SpellBook's Score)."""
    return game.final_values(state)


def _decision_row(game, state, seat: int, n: int, legal: list, result, config: SelfPlayConfig,
                  rng: random.Random) -> dict:
    """One recorded decision (module docstring): features, the root's visit shares, its estimates."""
    visits = {game.code(s.move): s.visits for s in result.moves}
    total = sum(visits.values()) or 1
    codes = [game.code(m) for m in legal]
    raw = game.state_bytes(state)
    root_wins = _root_win_estimate(result, n)
    playout_wins = _playout_mean(game, state, config.value_playouts, rng.getrandbits(63), n) \
        if config.value_playouts > 0 else [math.nan] * n
    row = {"x": _mcts.state_features(game.vtable, raw, seat), "move_x": _mcts.move_features(game.vtable, raw, codes),
           "codes": codes, "visits": [visits.get(c, 0) / total for c in codes],
           "seat": seat, "q_win": _relative(root_wins, seat, n, seat_width(game)),
           "p_win": _relative(playout_wins, seat, n, seat_width(game))}
    if config.keep_states:
        row["state"] = raw
    return row


def _root_win_estimate(result, n: int) -> list[float]:
    visits = sum(s.visits for s in result.moves)
    if visits == 0:
        return [1.0 / n] * n
    return [sum(s.win_probability[p] * s.visits for s in result.moves) / visits for p in range(n)]


def _playout_mean(game, state, playouts: int, seed: int, n: int) -> list[float]:
    """Each seat's win share averaged over `playouts` random playouts from `state` (flat Monte Carlo's
    visits are spread evenly over the legal moves, so this is the playouts' mean from the state itself)."""
    result = flat_monte_carlo(game, state, SearchOptions(iterations=playouts, seed=seed, threads=1))
    return _root_win_estimate(result, n)


def _sample_by_visits(result, rng: random.Random):
    weights = [s.visits for s in result.moves]
    if sum(weights) <= 0:
        return result.move
    return rng.choices([s.move for s in result.moves], weights=weights)[0]


def _to_arrays(rows: list[dict], n: int, wins: list[float], scores: list[float], width: int = MAX_SEATS) -> dict:
    d = len(rows)
    counts = [len(r["codes"]) for r in rows]
    offsets = np.zeros(d + 1, np.int64)
    offsets[1:] = np.cumsum(counts)
    nf = len(rows[0]["x"]) // 4 if rows else 0
    x = np.frombuffer(b"".join(r["x"] for r in rows), np.float32).reshape(d, nf) if d else np.zeros((0, 0))
    mx = np.frombuffer(b"".join(r["move_x"] for r in rows), np.float32)
    mx = mx.reshape(int(offsets[-1]), -1) if d else np.zeros((0, 0))
    return {
        "x": x.astype(np.float16), "move_offset": offsets, "move_x": mx.astype(np.float16),
        "visits": np.array([v for r in rows for v in r["visits"]], np.float32),
        "move_code": np.array([c for r in rows for c in r["codes"]], np.uint64),
        "seat": np.array([r["seat"] for r in rows], np.int8),
        "players": np.full(d, n, np.int8),
        "z_win": np.array([_relative(wins, r["seat"], n, width) for r in rows], np.float32).reshape(d, width),
        "z_score": np.array([_relative(scores, r["seat"], n, width) for r in rows], np.float32).reshape(d, width),
        "q_win": np.array([r["q_win"] for r in rows], np.float32).reshape(d, width),
        "p_win": np.array([r["p_win"] for r in rows], np.float32).reshape(d, width),
        **({"state": np.frombuffer(b"".join(r["state"] for r in rows), np.uint8).reshape(d, -1)}
           if d and "state" in rows[0] else {}),
    }


def concat(parts: Sequence[dict]) -> dict:
    """Several games' (or shards') arrays as one, offsets and game indices renumbered."""
    parts = [p for p in parts if p is not None and len(p["seat"])]
    if not parts:
        raise ValueError("no decisions to concatenate")
    widths = {int(p["z_win"].shape[1]) for p in parts}
    if len(widths) > 1:
        raise ValueError(f"shards with different seat widths {sorted(widths)} (different games?); train on one game")
    seats = widths.pop()
    out: dict = {}
    for key in ("x", "move_x", "visits", "move_code", "seat", "players", "z_win", "z_score", "q_win"):
        out[key] = np.concatenate([p[key] for p in parts])
    # shards written before p_win existed have none: NaN, as for a decision without playouts
    out["p_win"] = np.concatenate([p["p_win"] if "p_win" in p else np.full((len(p["seat"]), seats), np.nan,
                                                                            np.float32) for p in parts])
    if any("td_win" in p for p in parts):
        # tree-less rows beside search rows, which have no estimate, TD returns or ply: NaN (ply -1)
        widths = {p["td_win"].shape[1] for p in parts if "td_win" in p}
        if len(widths) > 1:
            raise ValueError(f"shards with different numbers of TD lambdas {sorted(widths)}; train on one set")
        width = widths.pop()
        out["v_win"] = np.concatenate([p["v_win"] if "v_win" in p else
                                       np.full((len(p["seat"]), seats), np.nan, np.float32) for p in parts])
        out["td_win"] = np.concatenate([p["td_win"] if "td_win" in p else
                                        np.full((len(p["seat"]), width, seats), np.nan, np.float32) for p in parts])
        out["ply"] = np.concatenate([p["ply"] if "ply" in p else np.full(len(p["seat"]), -1, np.int32)
                                     for p in parts])
    if all("state" in p for p in parts) and len({p["state"].shape[1] for p in parts}) == 1:
        out["state"] = np.concatenate([p["state"] for p in parts])
    offs, base = [np.zeros(1, np.int64)], 0
    for p in parts:
        offs.append(p["move_offset"][1:] + base)
        base += int(p["move_offset"][-1])
    out["move_offset"] = np.concatenate(offs)
    games, g0 = [], 0
    for p in parts:
        gi = p.get("game", np.zeros(len(p["seat"]), np.int32))
        games.append(gi + g0)
        g0 += int(gi.max()) + 1 if len(gi) else 0
    out["game"] = np.concatenate(games).astype(np.int32)
    return out


# ----------------------------------------------------------------------------------------------
# Shards
# ----------------------------------------------------------------------------------------------
def shard_path(out_dir: str, index: int) -> str:
    return os.path.join(out_dir, f"shard-{index:05d}.npz")


def write_shard(path: str, arrays: dict, meta: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        np.savez_compressed(f, meta=np.array(json.dumps(meta)), **arrays)
    os.replace(tmp, path)


def read_shard(path: str) -> tuple[dict, dict]:
    """(arrays, meta) of a shard; ValueError naming the file when it is not one."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            arrays = {k: z[k] for k in z.files if k != "meta"}
    except (OSError, ValueError, KeyError) as e:
        raise ValueError(f"{path}: not a self-play shard ({e})") from None
    if meta.get("format") != SHARD_FORMAT:
        raise ValueError(f"{path}: format {meta.get('format')!r}, expected {SHARD_FORMAT!r}")
    if meta.get("version") != SHARD_VERSION:
        raise ValueError(f"{path}: shard version {meta.get('version')}, this code reads {SHARD_VERSION}")
    return arrays, meta


def list_shards(out_dir: str) -> list[str]:
    if not os.path.isdir(out_dir):
        return []
    return sorted(os.path.join(out_dir, f) for f in os.listdir(out_dir)
                  if f.startswith("shard-") and f.endswith(".npz"))


def load_shards(paths: Sequence[str]) -> tuple[dict, list[dict]]:
    """(the shards' arrays as one, their metas). `td_lambdas` (float64 [L]) names the columns of td_win;
    every tree-less shard of one load must have the same lambdas, and every shard the same game and
    feature layout (ValueError naming the files)."""
    parts, metas = [], []
    for p in paths:
        arrays, meta = read_shard(p)
        arrays.pop("state", None)          # Reanalyse's positions: not training data, and large
        parts.append(arrays)
        metas.append(meta)
    games = {m.get("game", "?") for m in metas}
    if len(games) > 1:
        raise ValueError(f"shards of different games {sorted(games)}; a model is for one game: {', '.join(paths)}")
    layouts = {(m.get("feature_version"), m.get("state_features"), m.get("move_features")) for m in metas}
    if len(layouts) > 1:
        raise ValueError(f"shards of different feature layouts (version, state, move features) "
                         f"{sorted(layouts, key=str)}; train on one version: {', '.join(paths)}")
    lambdas = {tuple(m["td_lambdas"]) for m in metas if "td_lambdas" in m}
    if len(lambdas) > 1:
        raise ValueError(f"shards with different TD lambdas {sorted(lambdas)}: {', '.join(paths)}")
    data = concat(parts)
    data["td_lambdas"] = np.array(lambdas.pop() if lambdas else (), np.float64)
    return data, metas


@dataclass
class ShardTask:
    """Everything a worker process needs to play one shard (picklable: no Python game objects)."""

    index: int
    seeds: list[int]
    path: str
    config: dict              # SelfPlayConfig as a dict
    game_factory: str         # "module:function": f(**game_args) -> (game adapter, new_state(seed))
    game_args: dict = field(default_factory=dict)


def run_shard(task: dict) -> dict:
    """Plays the games of one shard and writes it; returns a summary. Runs in a worker process."""
    import importlib

    t = ShardTask(**task)
    module, _, fn = t.game_factory.partition(":")
    game, new_state = getattr(importlib.import_module(module), fn)(**t.game_args)
    cfg = SelfPlayConfig(**{**t.config, "options": SearchOptions(**t.config["options"])})
    network = None
    if cfg.model_path:
        from search.model import Model

        network = Model.load(cfg.model_path).network(game)
    if cfg.generator == "treeless":
        return _write_treeless_shard(t, game, new_state, cfg, network)
    start = time.monotonic()
    games = []
    for i, seed in enumerate(t.seeds):
        arrays = play_game(game, new_state, seed, cfg, network)
        if arrays is not None and len(arrays["seat"]):
            arrays["game"] = np.full(len(arrays["seat"]), i, np.int32)
            games.append(arrays)
    merged = concat(games) if games else None
    nf, nm, fver, _ = _mcts.feature_info(game.vtable)
    meta = {"format": SHARD_FORMAT, "version": SHARD_VERSION, "game": game.name,
            "feature_version": fver, "state_features": nf, "move_features": nm, **feature_prefix_meta(game),
            "config": t.config, "game_args": t.game_args, "seeds": t.seeds, "games": len(games),
            "seconds": round(time.monotonic() - start, 2)}
    if merged is None:
        merged = {"x": np.zeros((0, nf), np.float16), "move_offset": np.zeros(1, np.int64),
                  "move_x": np.zeros((0, nm), np.float16), "visits": np.zeros(0, np.float32),
                  "move_code": np.zeros(0, np.uint64), "seat": np.zeros(0, np.int8),
                  "players": np.zeros(0, np.int8), "z_win": np.zeros((0, seat_width(game)), np.float32),
                  "z_score": np.zeros((0, seat_width(game)), np.float32),
                  "q_win": np.zeros((0, seat_width(game)), np.float32),
                  "game": np.zeros(0, np.int32)}
    write_shard(t.path, merged, meta)
    return {"index": t.index, "games": len(games), "decisions": int(len(merged["seat"])),
            "seconds": meta["seconds"]}


def treeless_arrays(game: Any, new_state: Callable[[int], Any], seeds: Sequence[int], config: SelfPlayConfig,
                    network: Any = None) -> tuple[dict, dict]:
    """The tree-less generator's games from `new_state(seed)` for each seed, as shard arrays (module
    docstring), and counts {games, dropped, decisions}. Game i's moves depend only on seeds[i]'s deal,
    the config, the network and the shard's first seed, so a shard replays exactly."""
    roots = [game.state_bytes(new_state(seed)) for seed in seeds]
    out = _mcts.treeless_games(game.vtable, roots, {
        "mode": config.mode, "temperature": config.temperature, "epsilon": config.epsilon, "keep": config.keep,
        "playouts": config.value_playouts, "chance_samples": config.chance_samples,
        "lambdas": list(config.td_lambdas), "max_decisions": MAX_DECISIONS,
        "seed": (seeds[0] if seeds else 0) ^ 0x7E1E55}, network)
    d = len(out["seat"])
    nf, nm, _, _ = _mcts.feature_info(game.vtable)
    width, keep = out["z_win"].shape[1], seat_width(game)
    if width > keep and d and int(out["players"].max()) > keep:
        raise ValueError(f"the shard format holds {keep} seats; a game had {int(out['players'].max())}")

    def seats(a: np.ndarray) -> np.ndarray:        # the generator's seat width -> the shard's
        a = a[..., :keep]
        pad = keep - a.shape[-1]
        return np.concatenate([a, np.zeros(a.shape[:-1] + (pad,), a.dtype)], -1) if pad > 0 else a

    arrays = {"x": out["x"].astype(np.float16), "move_offset": np.zeros(d + 1, np.int64),
              "move_x": np.zeros((0, nm), np.float16), "visits": np.zeros(0, np.float32),
              "move_code": np.zeros(0, np.uint64), "seat": out["seat"], "players": out["players"],
              "z_win": seats(out["z_win"]), "z_score": seats(out["z_score"]),
              # without a network the generator has no estimate: the uniform share stands in for it
              "q_win": np.where(np.isnan(seats(out["v_win"])), (1.0 / np.maximum(out["players"], 1))[:, None]
                                * (np.arange(keep)[None, :] < out["players"][:, None]),
                                seats(out["v_win"])).astype(np.float32),
              "v_win": seats(out["v_win"]), "p_win": seats(out["p_win"]), "td_win": seats(out["td_win"]),
              "ply": out["ply"], "game": out["game"]}
    return arrays, {k: out[k] for k in ("games", "dropped", "decisions")}


def feature_prefix_meta(game: Any) -> dict:
    """The shard meta's "feature_prefix": [version, state features] of the older feature version whose
    layout is the first columns of x (GameVTable.prefix_feature_version), so a model of that version can
    be trained on these shards (TrainConfig.feature_version); nothing when the game has none."""
    prefix = _mcts.feature_prefix(game.vtable)
    return {"feature_prefix": list(prefix)} if prefix is not None else {}


def _write_treeless_shard(t: ShardTask, game: Any, new_state: Callable[[int], Any], cfg: SelfPlayConfig,
                          network: Any) -> dict:
    start = time.monotonic()
    arrays, counts = treeless_arrays(game, new_state, t.seeds, cfg, network)
    nf, nm, fver, _ = _mcts.feature_info(game.vtable)
    meta = {"format": SHARD_FORMAT, "version": SHARD_VERSION, "game": game.name,
            "feature_version": fver, "state_features": nf, "move_features": nm, **feature_prefix_meta(game),
            "generator": "treeless",
            "td_lambdas": list(cfg.td_lambdas), "config": t.config, "game_args": t.game_args, "seeds": t.seeds,
            "games": counts["games"], "dropped": counts["dropped"], "decisions_played": counts["decisions"],
            "seconds": round(time.monotonic() - start, 2)}
    write_shard(t.path, arrays, meta)
    return {"index": t.index, "games": counts["games"], "decisions": int(len(arrays["seat"])),
            "seconds": meta["seconds"]}


def plan_shards(out_dir: str, games: int, games_per_shard: int, seed: int, config: SelfPlayConfig,
                game_factory: str, game_args: dict | None = None) -> list[ShardTask]:
    """The shards of a run that are not on disk yet (resume: existing shards are skipped)."""
    cfg = config.describe()
    cfg["options"] = {**cfg["options"]}
    tasks = []
    for index in range((games + games_per_shard - 1) // games_per_shard):
        first = index * games_per_shard
        seeds = [seed * 1_000_003 + g for g in range(first, min(first + games_per_shard, games))]
        path = shard_path(out_dir, index)
        if os.path.exists(path):
            continue
        tasks.append(ShardTask(index=index, seeds=seeds, path=path, config=cfg, game_factory=game_factory,
                               game_args=dict(game_args or {})))
    return tasks
