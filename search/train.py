"""Training the learned evaluation on self-play shards (game-agnostic; needs the `train` extra: PyTorch).

The network is the one search/net.pxi evaluates (two ReLU layers; value head: a win logit and a final
score per seat relative to the observer; policy head: per-move-feature weights q, a move's logit being
its features · q). Losses, averaged per decision:
- value: cross-entropy of the softmax over the seats present against the target win shares, a blend of
  the game's result and an estimate (`q_weight` of the latter: the result alone is very noisy in a
  luck-heavy game). The estimate is the decision's random playouts' mean (`p_win`) where the shard
  recorded one (`SelfPlayConfig.value_playouts`), else the search's root estimate (`q_win`), which is
  biased by the search's own evaluation (it leans towards the seat to move: `measure_mover_bias`). On
  the same games the two made equally strong models (docs/learned.md, "More games for the value");
- score: squared error of each present seat's final score / score_scale (`score_weight`);
- policy: cross-entropy of the softmax over the legal moves against the root visit shares.
Games, not decisions, are split into training and held-out sets, so held-out figures are honest.
Everything is seeded and single-threaded, so the same data and seed give the same weights.
"""
from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import asdict, dataclass
from typing import Any, Sequence

import numpy as np

from search.calibration import expected_calibration_error
from search.model import MODEL_FORMAT, Model
from search.selfplay import load_shards

MAX_SEATS = 4


@dataclass
class TrainConfig:
    hidden: tuple[int, int] = (64, 64)
    epochs: int = 8
    batch: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-3
    q_weight: float = 0.5          # share of the search's root estimate in the value target
    score_weight: float = 0.5
    policy_weight: float = 1.0
    score_scale: float = 40.0
    holdout: float = 0.1           # share of games held out
    seed: int = 0
    # The value target of decisions whose shard recorded TD(lambda) returns (tree-less shards): the
    # return at this lambda in place of the result/estimate blend. None: always the blend.
    td_lambda: float | None = None
    # > 0: the network gains a rollout head (search/net.pxi) trained, with this weight, on the playouts'
    # means (p_win) of the decisions that recorded them: cross-entropy over the seats present. 0: no head
    # (the model file has no wr/br, and training is exactly as before).
    rollout_weight: float = 0.0
    # The policy head's own trunk (two layers of these widths, search/net.pxi); None: the policy reads the
    # value's trunk. With its own trunk the policy's gradients no longer shape the value's features: on g5's
    # data the value's Brier on the test positions improves by about 0.01 (docs/learned.md).
    policy_hidden: tuple[int, int] | None = None
    # Train on an older feature version whose layout is a prefix of the shards' (their meta's
    # "feature_prefix"): the model reads only those first columns and records that version, so a plan
    # made before the game's features grew trains the same model (docs/learned.md, D100). None: the
    # shards' own version.
    feature_version: int | None = None
    # Continue from a model file's weights instead of fresh ones (KataGo trains its network continuously):
    # the model's widths replace `hidden` / `policy_hidden`, and its game, feature version and shape must
    # be the shards'. "" : from scratch.
    init: str = ""
    # With `init`: train only one part and keep the other's weights as they are. "policy": the policy's own
    # trunk and head (the value, and so its calibration map, stays the init's exactly); "value": the value's
    # trunk and its heads. "": every weight.
    train_only: str = ""


TRAIN_PARTS = ("policy", "value")
# The arrays that make a model's value (and score) prediction: when they are the init's, its calibration
# map (search/calibration.py) and measured lean still describe the new model.
VALUE_ARRAYS = ("w1", "b1", "w2", "b2", "wv", "bv", "ws", "bs")


def _torch():
    try:
        import torch
    except ImportError as e:          # the serving path never needs it
        raise RuntimeError("training needs PyTorch: pip install 'spellbook-ai[train]'") from e
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    return torch


def split_games(data: dict, holdout: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Decision indices of the training and held-out games (whole games on either side)."""
    games = np.unique(data["game"])
    rng = np.random.default_rng(seed)
    held = set(rng.choice(games, size=max(1, int(round(len(games) * holdout))), replace=False).tolist()) \
        if holdout > 0 and len(games) > 1 else set()
    mask = np.array([g in held for g in data["game"]])
    return np.flatnonzero(~mask), np.flatnonzero(mask)


class _Batches:
    """Ragged policy rows gathered for a batch of decisions."""

    def __init__(self, data: dict):
        self.d = data
        self.off = data["move_offset"]

    def rows(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        starts, ends = self.off[idx], self.off[idx + 1]
        counts = ends - starts
        seg = np.repeat(np.arange(len(idx)), counts)
        first = np.repeat(starts - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        return first + np.arange(int(counts.sum())), seg


def _build(torch, nin: int, nmove: int, cfg: TrainConfig, nseat: int = MAX_SEATS):
    nn = torch.nn
    h1, h2 = cfg.hidden

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.l1 = nn.Linear(nin, h1)
            self.l2 = nn.Linear(h1, h2)
            self.v = nn.Linear(h2, nseat)
            self.s = nn.Linear(h2, nseat)
            self.p = nn.Linear(h2, nmove)
            # made last, and only when trained: the other layers' initial weights stay those of a model
            # without the head
            self.r = nn.Linear(h2, nseat) if cfg.rollout_weight > 0 else None
            if cfg.policy_hidden is not None:
                p1, p2 = cfg.policy_hidden
                self.pl1, self.pl2 = nn.Linear(nin, p1), nn.Linear(p1, p2)
                self.p = nn.Linear(p2, nmove)
            else:
                self.pl1 = self.pl2 = None

        def forward(self, x):
            h = torch.relu(self.l2(torch.relu(self.l1(x))))
            hp = h if self.pl1 is None else torch.relu(self.pl2(torch.relu(self.pl1(x))))
            return self.v(h), self.s(h), self.p(hp), (self.r(h) if self.r is not None else None)

    return Net()


def value_estimate(data: dict, idx: np.ndarray) -> np.ndarray:
    """The estimate blended into the value target of decisions `idx`: the playouts' mean where recorded,
    else the search's root estimate."""
    p = data["p_win"][idx]          # load_shards fills it with NaN for shards without playouts
    return np.where(np.isnan(p[:, :1]), data["q_win"][idx], p)


def td_column(data: dict, td_lambda: float | None) -> int | None:
    """The td_win column of `td_lambda` (None: not asked for); ValueError when no shard recorded it."""
    if td_lambda is None:
        return None
    lambdas = [float(v) for v in data.get("td_lambdas", ())]
    for i, v in enumerate(lambdas):
        if abs(v - td_lambda) < 1e-9:
            return i
    raise ValueError(f"td_lambda: {td_lambda} is not among the shards' TD lambdas {lambdas}")


def value_target(data: dict, idx: np.ndarray, cfg: TrainConfig) -> np.ndarray:
    """The win-share target of decisions `idx`: the blend of the result and the estimate, or, with
    `cfg.td_lambda` and where recorded, that TD(lambda) return."""
    target = (1 - cfg.q_weight) * data["z_win"][idx] + cfg.q_weight * value_estimate(data, idx)
    col = td_column(data, cfg.td_lambda)
    if col is not None and "td_win" in data:
        td = data["td_win"][idx, col]
        target = np.where(np.isnan(td[:, :1]), target, td)
    return target


def _losses(torch, net, data: dict, batches: _Batches, idx: np.ndarray, cfg: TrainConfig) -> dict:
    x = torch.from_numpy(data["x"][idx].astype(np.float32))
    players = torch.from_numpy(data["players"][idx].astype(np.int64))
    present = torch.arange(data["z_win"].shape[1])[None, :] < players[:, None]
    target = torch.from_numpy(value_target(data, idx, cfg).astype(np.float32))
    vlogit, score, q, rlogit = net(x)
    vlogit = vlogit.masked_fill(~present, -1e9)
    logp = torch.log_softmax(vlogit, dim=1)
    value_loss = -(target * logp.masked_fill(~present, 0.0)).sum(1).mean()
    rollout_loss = torch.zeros(())
    if rlogit is not None:
        pw = data["p_win"][idx]
        has = torch.from_numpy(~np.isnan(pw[:, 0]))
        if bool(has.any()):
            rlogp = torch.log_softmax(rlogit.masked_fill(~present, -1e9), dim=1).masked_fill(~present, 0.0)
            pwt = torch.from_numpy(np.nan_to_num(pw).astype(np.float32))
            rollout_loss = -(pwt * rlogp).sum(1)[has].mean()
    zs = torch.from_numpy(data["z_score"][idx].astype(np.float32)) / cfg.score_scale
    score_loss = (((score - zs) ** 2) * present).sum(1).mean()
    rows, seg = batches.rows(idx)
    mx = torch.from_numpy(data["move_x"][rows].astype(np.float32))
    pi = torch.from_numpy(data["visits"][rows].astype(np.float32))
    segt = torch.from_numpy(seg)
    logits = (mx * q[segt]).sum(1)
    seg_max = torch.full((len(idx),), -1e30).scatter_reduce(0, segt, logits, reduce="amax")
    ex = torch.exp(logits - seg_max[segt])
    lse = torch.log(torch.zeros(len(idx)).index_add(0, segt, ex)) + seg_max
    # per decision with a policy target: tree-less rows have no moves (search rows always have two or more)
    with_moves = max(1, int((batches.off[idx + 1] > batches.off[idx]).sum()))
    policy_loss = -(pi * (logits - lse[segt])).sum() / with_moves
    total = value_loss + cfg.score_weight * score_loss + cfg.policy_weight * policy_loss
    if rlogit is not None:
        total = total + cfg.rollout_weight * rollout_loss
    return {"total": total, "value": value_loss, "score": score_loss, "policy": policy_loss, "rollout": rollout_loss,
            "win": torch.softmax(vlogit, 1), "logits": logits, "seg": seg}


def _select_feature_version(data: dict, metas: list[dict], version: int | None) -> int:
    """The feature version the model is trained on: the shards' own, or `version` when their meta names
    it as a prefix of theirs ("feature_prefix"), whose columns then replace data["x"]. ValueError otherwise."""
    own = metas[0]["feature_version"]
    if version is None or version == own:
        return own
    prefixes = {tuple(m.get("feature_prefix") or ()) for m in metas}
    prefix = prefixes.pop() if len(prefixes) == 1 else ()
    if len(prefix) != 2 or prefix[0] != version:
        raise ValueError(f"feature_version: the shards have version {own} and do not extend version {version}")
    width = int(prefix[1])
    if not 0 < width <= data["x"].shape[1]:
        raise ValueError(f"feature_version: the shards' prefix of {width} columns does not fit their x")
    data["x"] = data["x"][:, :width]
    return version


def train(shard_paths: Sequence[str], config: TrainConfig | None = None, game: str | None = None,
          generation: int = 1, parent: str = "", log=print) -> tuple[Model, dict]:
    """Trains a model from scratch on the shards; (model, report with held-out metrics). The model is for
    the shards' game (their meta's "game"); ValueError when they are of several games, or of another game
    than `game` when given."""
    cfg = config or TrainConfig()
    torch = _torch()
    torch.manual_seed(cfg.seed)
    start = time.monotonic()
    data, metas = load_shards(shard_paths)
    shards_game = metas[0].get("game", "?")       # one game: load_shards refuses a mix
    if game is not None and shards_game != game:
        raise ValueError(f"the shards are games of {shards_game!r}, not {game!r}")
    game = shards_game
    td_column(data, cfg.td_lambda)          # refuses a lambda the shards lack before any training
    fver = _select_feature_version(data, metas, cfg.feature_version)
    nin, nmove = int(data["x"].shape[1]), int(data["move_x"].shape[1])
    train_idx, held_idx = split_games(data, cfg.holdout, cfg.seed)
    nseat = int(data["z_win"].shape[1])
    init = _init_model(cfg, game, fver, nin, nmove, nseat)
    net = _build(torch, nin, nmove, cfg, nseat)
    batches = _Batches(data)
    held_before = {}
    if init is not None:
        _load_weights(torch, net, init)
        if len(held_idx):
            held_before = {k: v for k, v in evaluate(torch, net, data, batches, held_idx, cfg).items() if k != "bins"}
            log(json.dumps({"epoch": 0, "init": init.version, **{f"held_{k}": v for k, v in held_before.items()}}))
    opt = torch.optim.AdamW(_trainable(net, cfg), lr=cfg.lr, weight_decay=cfg.weight_decay)
    steps_per_epoch = max(1, math.ceil(len(train_idx) / cfg.batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg.lr, total_steps=cfg.epochs * steps_per_epoch)
    rng = np.random.default_rng(cfg.seed)
    history = []
    for epoch in range(cfg.epochs):
        net.train()
        order = rng.permutation(train_idx)
        sums = {"total": 0.0, "value": 0.0, "score": 0.0, "policy": 0.0, "rollout": 0.0}
        for b in range(steps_per_epoch):
            idx = order[b * cfg.batch:(b + 1) * cfg.batch]
            if len(idx) == 0:
                continue
            out = _losses(torch, net, data, batches, idx, cfg)
            opt.zero_grad()
            out["total"].backward()
            opt.step()
            sched.step()
            for k in sums:
                sums[k] += float(out[k].detach()) * len(idx)
        row = {"epoch": epoch + 1, **{k: round(v / max(len(train_idx), 1), 4) for k, v in sums.items()
                                      if k != "rollout" or net.r is not None}}
        if len(held_idx):
            row.update({f"held_{k}": v for k, v in evaluate(torch, net, data, batches, held_idx, cfg).items()
                        if k in ("value", "policy", "score", "rollout")})
        history.append(row)
        log(json.dumps(row))
    report = {"decisions": int(len(data["seat"])), "train_decisions": int(len(train_idx)),
              "held_decisions": int(len(held_idx)),
              "games": int(len(np.unique(data["game"]))), "history": history,
              "held": evaluate(torch, net, data, batches, held_idx, cfg) if len(held_idx) else {},
              "seconds": round(time.monotonic() - start, 1)}
    if init is not None:
        report["init"] = init.version
        report["held_before"] = held_before
    model = export(net, cfg, metas, report, game, generation, parent, nin, nmove, nseat, feature_version=fver)
    if init is not None and _same_value(model, init):
        # a policy-only fine-tune: what describes the value (its calibration map, its measured lean) still holds
        for key in ("calibration", "mover_bias"):
            if key in init.meta:
                model.meta[key] = init.meta[key]
        report["mover_bias"] = model.meta.get("mover_bias")
        return model, report
    # Measured on every game: it compares consecutive estimates with each other, not with the results the
    # model was fitted to, and a tenth of the games alone leaves it too noisy (2 players: 0.016 on the
    # shipped model's held-out tenth, 0.038 on all its games, 0.047 on 160 games it never saw).
    model.meta["mover_bias"] = report["mover_bias"] = measure_mover_bias(model, data, np.arange(len(data["seat"])))
    return model, report


def _init_model(cfg: TrainConfig, game: str, fver: int, nin: int, nmove: int, nseat: int) -> Model | None:
    """The model `cfg.init` names, checked against the shards (ValueError naming `init` or `train_only`),
    with its widths copied into `cfg`; None without one."""
    if cfg.train_only and cfg.train_only not in TRAIN_PARTS:
        raise ValueError(f"train_only: {cfg.train_only!r} is not one of {', '.join(TRAIN_PARTS)}")
    if not cfg.init:
        if cfg.train_only:
            raise ValueError("train_only: needs init (the model whose other part is kept)")
        return None
    init = Model.load(cfg.init)
    have = (init.meta["game"], int(init.meta["feature_version"]),
            int(init.meta["state_features"]), int(init.meta["move_features"]), int(init.meta.get("seats", MAX_SEATS)))
    want = (game, fver, nin, nmove, nseat)
    if have != want:
        raise ValueError(f"init: {cfg.init} is a model of (game, feature version, state features, move features, "
                         f"seats) {have}, the shards are {want}")
    if cfg.rollout_weight > 0 and not init.has_rollout_head:
        raise ValueError(f"init: {cfg.init} has no rollout head to train (rollout_weight > 0)")
    if cfg.train_only == "policy" and init.policy_hidden is None:
        raise ValueError(f"train_only: {cfg.init}'s policy reads the value's trunk, so its policy cannot be "
                         f"trained alone")
    cfg.hidden = tuple(int(v) for v in init.meta["hidden"])
    cfg.policy_hidden = init.policy_hidden
    if init.has_rollout_head and cfg.rollout_weight == 0:
        raise ValueError(f"init: {cfg.init} has a rollout head; give rollout_weight > 0 to keep training it")
    return init


def _load_weights(torch, net, init: Model) -> None:
    """The init model's arrays into the torch network (export's inverse)."""
    a = init.arrays
    pairs = [(net.l1, "w1", "b1"), (net.l2, "w2", "b2"), (net.v, "wv", "bv"), (net.s, "ws", "bs"), (net.p, "wp", "bp")]
    if net.r is not None:
        pairs.append((net.r, "wr", "br"))
    if net.pl1 is not None:
        pairs += [(net.pl1, "pw1", "pb1"), (net.pl2, "pw2", "pb2")]
    with torch.no_grad():
        for layer, w, b in pairs:
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(a[w].T)))
            layer.bias.copy_(torch.from_numpy(a[b]))


def _trainable(net, cfg: TrainConfig) -> list:
    """The parameters training changes (every one unless `cfg.train_only`); the others are frozen."""
    if cfg.train_only == "policy":
        parts = [net.p] + ([net.pl1, net.pl2] if net.pl1 is not None else [])
    elif cfg.train_only == "value":
        parts = [net.l1, net.l2, net.v, net.s] + ([net.r] if net.r is not None else [])
    else:
        return list(net.parameters())
    params = [p for layer in parts for p in layer.parameters()]
    keep = {id(p) for p in params}
    for p in net.parameters():
        p.requires_grad_(id(p) in keep)
    return params


def _same_value(model: Model, init: Model) -> bool:
    """Whether `model` predicts values exactly as `init` does (its value arrays are the init's)."""
    return all(np.array_equal(model.arrays[k], init.arrays[k]) for k in VALUE_ARRAYS)


def measure_mover_bias(model: Model, data: dict, idx: np.ndarray) -> dict[str, float]:
    """{player count: how much the model favours the seat to move}, measured on the decisions `idx`
    (whole games, in play order).

    A value function without such a lean is a martingale along a game: a seat's expected win probability
    does not change, on average, from one decision to the next, whoever decides. The value target blends
    in the search's root estimate, which is the best of the root's moves (and, from the second generation
    on, built from the model's own values), so the model learns to favour whoever is deciding. With a
    lean d for the seat to move (and -d/(n-1) for each other seat), a seat's estimate falls on average by
    d*n/(n-1) when the turn passes to another seat; so d = -(n-1)/n times the mean of those steps. This
    uses consecutive predictions rather than the results, so it is far less noisy than comparing
    predictions with who won. The search removes d from every value when asked (`unbias_mover`), which
    would also keep it out of the next generation's targets."""
    out = {}
    idx = np.sort(idx)
    players = data["players"][idx]
    for n in sorted(set(int(p) for p in players)):
        part = idx[players == n]
        win, _, _ = model.forward(data["x"][part].astype(np.float32), n)
        seat = data["seat"][part].astype(np.int64)
        game = data["game"][part]
        own = win[np.arange(len(part)), 0]                                      # the decider's estimate
        nxt = win[np.arange(1, len(part)), (seat[:-1] - seat[1:]) % n]          # the same seat, one later
        passing = (game[:-1] == game[1:]) & (seat[:-1] != seat[1:])
        if passing.any():
            out[str(n)] = round(float(-(n - 1) / n * np.mean(nxt[passing] - own[:-1][passing])), 4)
    return out


def evaluate(torch, net, data: dict, batches: _Batches, idx: np.ndarray, cfg: TrainConfig) -> dict:
    """Held-out metrics: losses, winner accuracy, policy top-1 agreement, calibration of the observer's
    win probability (expected calibration error over 10 bins)."""
    net.eval()
    out_sums = {"value": 0.0, "score": 0.0, "policy": 0.0, "rollout": 0.0}
    probs, outcomes, top1 = [], [], []
    with torch.no_grad():
        for b in range(0, len(idx), 2048):
            part = idx[b:b + 2048]
            out = _losses(torch, net, data, batches, part, cfg)
            for k in out_sums:
                out_sums[k] += float(out[k]) * len(part)
            probs.append(out["win"][:, 0].numpy())
            outcomes.append(data["z_win"][part, 0])
            logits, seg = out["logits"].numpy(), out["seg"]
            rows, _ = batches.rows(part)
            visits = data["visits"][rows]
            for d in range(len(part)):
                sel = seg == d
                if sel.sum() > 1:
                    top1.append(int(np.argmax(logits[sel]) == np.argmax(visits[sel])))
    p, z = np.concatenate(probs), np.concatenate(outcomes)
    metrics = {k: round(v / len(idx), 4) for k, v in out_sums.items() if k != "rollout" or net.r is not None}
    metrics["winner_brier"] = round(float(np.mean((p - z) ** 2)), 4)
    metrics["policy_top1"] = round(float(np.mean(top1)), 4) if top1 else None
    metrics["ece"], metrics["bins"] = expected_calibration_error(p, z)
    return metrics


def export(net, cfg: TrainConfig, metas: Sequence[dict], report: dict, game: str, generation: int,
           parent: str, nin: int, nmove: int, nseat: int = MAX_SEATS, feature_version: int | None = None) -> Model:
    def arr(t):
        return t.detach().numpy().astype(np.float32)

    arrays = {"w1": arr(net.l1.weight).T.copy(), "b1": arr(net.l1.bias), "w2": arr(net.l2.weight).T.copy(),
              "b2": arr(net.l2.bias), "wv": arr(net.v.weight).T.copy(), "bv": arr(net.v.bias),
              "ws": arr(net.s.weight).T.copy(), "bs": arr(net.s.bias), "wp": arr(net.p.weight).T.copy(),
              "bp": arr(net.p.bias)}
    if net.r is not None:
        arrays.update({"wr": arr(net.r.weight).T.copy(), "br": arr(net.r.bias)})
    if net.pl1 is not None:
        arrays.update({"pw1": arr(net.pl1.weight).T.copy(), "pb1": arr(net.pl1.bias),
                       "pw2": arr(net.pl2.weight).T.copy(), "pb2": arr(net.pl2.bias)})
    digest = hashlib.sha256(b"".join(arrays[k].tobytes() for k in sorted(arrays))).hexdigest()[:8]
    import torch

    meta = {"format": MODEL_FORMAT, "version": f"g{generation}-{digest}", "game": game,
            "feature_version": metas[0]["feature_version"] if feature_version is None else feature_version,
            "state_features": nin, "move_features": nmove,
            "seats": nseat, "hidden": list(cfg.hidden), "score_scale": cfg.score_scale,
            **({"policy_hidden": list(cfg.policy_hidden)} if cfg.policy_hidden is not None else {}),
            "training": {"generation": generation, "parent": parent, "config": asdict(cfg),
                         **({"init": report["init"], "held_out_before": report["held_before"]}
                            if "init" in report else {}),
                         "data": {"shards": len(metas), "games": report["games"],
                                  "decisions": report["decisions"],
                                  "bots": sorted({json.dumps(m["config"], sort_keys=True) for m in metas})},
                         "held_out": {k: v for k, v in report["held"].items() if k != "bins"},
                         "seconds": report["seconds"], "torch": torch.__version__}}
    model = Model(arrays=arrays, meta=meta)
    model.validate()
    return model
