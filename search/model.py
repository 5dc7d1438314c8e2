"""A learned evaluation's weights: one small, versioned numpy file (game-agnostic; numpy only).

A model is an `.npz` holding the float32 arrays of the network in search/net.pxi (w1 b1 w2 b2 wv bv ws
bs wp bp, every matrix [inputs][outputs]) and `meta`, a JSON string:

    {"format": "spellbook-ai/model", "version": "g2-…", "game": "spellbook", "feature_version": 1,
     "state_features": 337, "move_features": 69, "seats": 4, "hidden": [64, 64], "score_scale": 40.0,
     "training": {...how it was made: data, generations, seeds, times, losses...}}

plus, optionally: "use_by_default" (it passed its gate), "search" (the search it was gated with: D77),
"levels" (the strength levels where that gate passed; "auto" searches at other levels keep the game's
rollout search), "gate" (the gate's record), "mover_bias", "calibration".

`version` is part of every answer that used the model (SearchResult.model, GetServerInfo). The search
evaluates it in C without the GIL (`network(game)`); `forward` is the same network in numpy, the
reference the tests hold the compiled one to.
"""
from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from search import _mcts

MODEL_FORMAT = "spellbook-ai/model"
ARRAYS = ("w1", "b1", "w2", "b2", "wv", "bv", "ws", "bs", "wp", "bp")
# The rollout head (h2 wr + br: random playouts' mean win shares per relative seat), in models trained
# with playout labels (TrainConfig.rollout_weight > 0); both or neither.
ROLLOUT_ARRAYS = ("wr", "br")
# The policy's own trunk (relu(relu(x pw1 + pb1) pw2 + pb2), then wp/bp), in models trained with
# TrainConfig.policy_hidden (meta "policy_hidden": its widths); all four or none. Without it the policy
# head reads the value's trunk.
POLICY_TRUNK_ARRAYS = ("pw1", "pb1", "pw2", "pb2")
OPTIONAL_ARRAYS = ROLLOUT_ARRAYS + POLICY_TRUNK_ARRAYS


@dataclass
class Model:
    arrays: dict[str, np.ndarray]
    meta: dict
    _networks: dict = field(default_factory=dict, repr=False, compare=False)

    # ------------------------------------------------------------------ identity
    @property
    def version(self) -> str:
        return str(self.meta.get("version", ""))

    @property
    def use_by_default(self) -> bool:
        """Whether searches with evaluator "auto" use this model: set when it passed its gate against the
        search it replaces (clients/train.py); a model that did not is used only when asked for."""
        return bool(self.meta.get("use_by_default", False))

    @property
    def levels(self) -> list[int] | None:
        """The strength levels at which "auto" searches use this model (meta "levels": where its gate against
        the game's own level search passed); None: every level (SpellBook's models)."""
        levels = self.meta.get("levels")
        return None if levels is None else list(levels)

    @property
    def has_rollout_head(self) -> bool:
        return all(k in self.arrays for k in ROLLOUT_ARRAYS)

    @property
    def policy_hidden(self) -> tuple[int, int] | None:
        """The policy trunk's widths, or None when the policy head reads the value's trunk."""
        ph = self.meta.get("policy_hidden")
        return None if ph is None else (int(ph[0]), int(ph[1]))

    @property
    def sizes(self) -> tuple[int, int, int, int, int]:
        """(state features, hidden 1, hidden 2, move features, seats)."""
        h1, h2 = self.meta["hidden"]
        return (self.meta["state_features"], h1, h2, self.meta["move_features"], self.meta["seats"])

    # ------------------------------------------------------------------ files
    @classmethod
    def load(cls, path: str) -> "Model":
        """The model in `path`; ValueError naming the file and what is wrong with it."""
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                arrays = {k: np.ascontiguousarray(z[k], dtype=np.float32) for k in ARRAYS + OPTIONAL_ARRAYS
                          if k in ARRAYS or k in z.files}
        except FileNotFoundError:
            raise ValueError(f"model file {path} does not exist") from None
        except (OSError, ValueError, KeyError) as e:
            raise ValueError(f"{path}: not a model file ({e})") from None
        model = cls(arrays=arrays, meta=meta)
        model.validate(path)
        return model

    def save(self, path: str) -> None:
        self.validate(path)
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            np.savez(f, meta=np.array(json.dumps(self.meta, sort_keys=True)),
                     **{k: self.arrays[k].astype(np.float32) for k in ARRAYS + OPTIONAL_ARRAYS if k in self.arrays})
        os.replace(tmp, path)

    def validate(self, where: str = "model") -> None:
        if self.meta.get("format") != MODEL_FORMAT:
            raise ValueError(f"{where}: format {self.meta.get('format')!r}, expected {MODEL_FORMAT!r}")
        for key in ("version", "game", "feature_version", "state_features", "move_features", "seats",
                    "hidden", "score_scale"):
            if key not in self.meta:
                raise ValueError(f"{where}: meta lacks {key!r}")
        nin, h1, h2, nm, ns = self.sizes
        want = {"w1": (nin, h1), "b1": (h1,), "w2": (h1, h2), "b2": (h2,), "wv": (h2, ns), "bv": (ns,),
                "ws": (h2, ns), "bs": (ns,), "wp": (h2, nm), "bp": (nm,)}
        if any(k in self.arrays for k in ROLLOUT_ARRAYS):
            want.update({"wr": (h2, ns), "br": (ns,)})
        ph = self.meta.get("policy_hidden")
        if ph is not None and not (isinstance(ph, list) and len(ph) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in ph)):
            raise ValueError(f"{where}: policy_hidden must be two widths of at least 1, got {ph!r}")
        if ph is not None or any(k in self.arrays for k in POLICY_TRUNK_ARRAYS):
            if ph is None:
                raise ValueError(f"{where}: policy trunk arrays without meta policy_hidden")
            want.update({"pw1": (nin, ph[0]), "pb1": (ph[0],), "pw2": (ph[0], ph[1]), "pb2": (ph[1],),
                         "wp": (ph[1], nm)})
        for k, shape in want.items():
            a = self.arrays.get(k)
            if a is None or tuple(a.shape) != shape:
                raise ValueError(f"{where}: array {k} has shape {None if a is None else a.shape}, expected {shape}")
            if not np.all(np.isfinite(a)):
                raise ValueError(f"{where}: array {k} has values that are not finite")
        lean = self.meta.get("mover_bias")
        if lean is not None and not (isinstance(lean, dict) and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and -0.5 < v < 0.5 for v in lean.values())):
            raise ValueError(f"{where}: mover_bias must map player counts to numbers within (-0.5, 0.5), "
                             f"got {lean!r}")
        levels = self.meta.get("levels")
        if levels is not None and not (isinstance(levels, list) and all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 10 for v in levels)):
            raise ValueError(f"{where}: levels must list the strength levels (1-10) the model's gate passed at, "
                             f"got {levels!r}")
        search = self.meta.get("search")
        if search is not None and not _valid_search(search):
            raise ValueError(f"{where}: search must be {{'rollout_mix': 0..1, 'iteration_scale': 0.1..100}}, "
                             f"got {search!r}")

    # ------------------------------------------------------------------ evaluation
    def network(self, game: Any) -> "_mcts.Network":
        """The compiled network for `game` (built once per game; shared by every search thread).
        ValueError when the model was trained on another game or feature layout."""
        nin, nf_move, fver, _ = _mcts.feature_info(game.vtable)
        name = game.name
        if self.meta["game"] != name:
            raise ValueError(f"model {self.version} is for {self.meta['game']!r}, not {name!r}")
        readable = readable_feature_versions(game)
        if self.meta["feature_version"] not in readable:
            raise ValueError(f"model {self.version} was trained on feature version "
                             f"{self.meta['feature_version']}; the game has {fver}")
        if self.meta["state_features"] != readable[self.meta["feature_version"]]:
            raise ValueError(f"model {self.version}: feature version {self.meta['feature_version']} has "
                             f"{readable[self.meta['feature_version']]} state features, the model "
                             f"{self.meta['state_features']}")
        key = id(game.vtable)
        net = self._networks.get(key)
        if net is None:
            n_in, h1, h2, nm, ns = self.sizes
            ph1, ph2 = self.policy_hidden or (0, 0)
            net = _mcts.Network(n_in, h1, h2, nm, ns, float(self.meta["score_scale"]),
                                {k: a.reshape(-1) for k, a in self.arrays.items()}, ph1, ph2, nin)
            net.check_game(game.vtable)
            net.version = self.version
            net.calibration = self.meta.get("calibration")
            net.mover_bias = self.meta.get("mover_bias")
            self._networks[key] = net
        return net

    def forward(self, x: np.ndarray, players: np.ndarray | int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """numpy reference: for features x [B, F] -> (win probabilities [B, seats] over the seats present,
        final scores [B, seats], policy weights q [B, M]), seats relative to the observer. F may be longer
        than the model's inputs (the game's newer feature version): the model reads its prefix."""
        a = self.arrays
        x = self._inputs(x)
        h = np.maximum(x @ a["w1"] + a["b1"], 0)
        h = np.maximum(h @ a["w2"] + a["b2"], 0)
        win = _softmax_present(h @ a["wv"] + a["bv"], players)
        scores = (h @ a["ws"] + a["bs"]) * float(self.meta["score_scale"])
        if self.policy_hidden is not None:
            h = np.maximum(np.maximum(x @ a["pw1"] + a["pb1"], 0) @ a["pw2"] + a["pb2"], 0)
        return win, scores, h @ a["wp"] + a["bp"]

    def rollout(self, x: np.ndarray, players: np.ndarray | int) -> np.ndarray:
        """numpy reference of the rollout head: mean playout win shares [B, seats], relative seats."""
        if not self.has_rollout_head:
            raise ValueError(f"model {self.version} has no rollout head")
        a = self.arrays
        x = self._inputs(x)
        h = np.maximum(np.maximum(x @ a["w1"] + a["b1"], 0) @ a["w2"] + a["b2"], 0)
        return _softmax_present(h @ a["wr"] + a["br"], players)

    def _inputs(self, x: np.ndarray) -> np.ndarray:
        """x as float32 rows of the model's inputs: its first state_features columns."""
        x = np.atleast_2d(np.asarray(x, np.float32))
        nin = int(self.meta["state_features"])
        if x.shape[1] < nin:
            raise ValueError(f"model {self.version} reads {nin} state features; got {x.shape[1]}")
        return x[:, :nin]


def readable_feature_versions(game: Any) -> dict[int, int]:
    """{feature version: state features} of the models `game` can evaluate: its current version and the
    older one whose layout is a prefix of it (GameVTable.prefix_feature_version), if any."""
    nf, _, fver, _ = _mcts.feature_info(game.vtable)
    out = {fver: nf}
    prefix = _mcts.feature_prefix(game.vtable)
    if prefix is not None:
        out[prefix[0]] = prefix[1]
    return out


def _softmax_present(logits: np.ndarray, players: np.ndarray | int) -> np.ndarray:
    """Softmax of each row over its first `players` columns (the seats present); 0 elsewhere."""
    n = np.broadcast_to(np.asarray(players), (len(logits),))
    mask = np.arange(logits.shape[1])[None, :] < n[:, None]
    logits = np.where(mask, logits, -np.inf)
    logits = logits - logits.max(axis=1, keepdims=True)
    out = np.exp(logits)
    return out / out.sum(axis=1, keepdims=True)


_cache: dict[str, tuple[float, Model]] = {}
_cache_lock = threading.Lock()


def load_cached(path: str) -> Model:
    """Model.load, kept in memory per file (reloaded when the file changes)."""
    mtime = os.path.getmtime(path)
    with _cache_lock:
        hit = _cache.get(path)
        if hit is not None and hit[0] == mtime:
            return hit[1]
    model = Model.load(path)
    with _cache_lock:
        _cache[path] = (mtime, model)
    return model


def _valid_search(search: Any) -> bool:
    """The model's own search settings (levels follow them: search/levels.py) are within range."""
    def number(v: Any, lo: float, hi: float) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool) and lo <= v <= hi

    return (isinstance(search, dict) and set(search) <= {"rollout_mix", "iteration_scale"}
            and number(search.get("rollout_mix", 0.5), 0.0, 1.0)
            and number(search.get("iteration_scale", 1.0), 0.1, 100.0))


def default_model(game: Any) -> Model | None:
    """The model a game ships (its adapter's `default_model_path`), or None when it has none. Whether
    "auto" searches use it is its `use_by_default`."""
    path = game.default_model_path
    if not path or not os.path.exists(path):
        return None
    return load_cached(path)
