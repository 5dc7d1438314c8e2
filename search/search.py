"""Python face of the compiled search: options, results, ISMCTS and flat Monte Carlo with root parallelism.

Game-agnostic: a game is an adapter of the game contract (engine_c.contract.GameAdapter: its `vtable`, a
PyCapsule of engine_c/game.pxd's GameVTable, its conversions and its optional parts with their defaults).
"""
from __future__ import annotations

import contextlib
import math
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, asdict
from typing import Any, Iterator, Protocol, Sequence

from engine_c.contract import GameAdapter
from search import _mcts
from search._mcts import CancelToken
from search.calibration import calibrate

OBJECTIVES = ("win", "margin", "blend")
ROLLOUTS = ("random", "heuristic")
CHANCE_MODES = ("keyed", "open", "expected")
MAX_ENDGAME_NODES = 10_000_000       # one exact solve's nodes (about a second)
MAX_OBSERVER_KIND = 255              # observer kinds are a game's few named cases; the C field is an int
DEFAULT_ENDGAME_HORIZON = 12
EXPANSIONS = ("random", "prior")
EVALUATORS = ("auto", "network", "rollout")


class SearchOptionError(ValueError):
    """An option out of range; `field` names it."""

    def __init__(self, field_name: str, message: str):
        super().__init__(f"{field_name}: {message}")
        self.field = field_name


@dataclass
class SearchOptions:
    """What a search may spend and how it plays. At least one budget (iterations, time_ms, deadline).

    iterations: total over all threads (split evenly; with a fixed seed, threads and iterations the
    result is reproducible). time_ms: wall-clock budget from the call (run in slices under a `Slicer`:
    the search's own CPU time). deadline: absolute `time.monotonic()` seconds. The search stops at
    whichever comes first, or when cancelled.
    """

    iterations: int = 1000
    time_ms: float = 0.0
    deadline: float = 0.0
    threads: int = 1
    exploration: float = 1.2           # UCB constant; swept 0.3-2.6 against flat MC, best at 1.2 (docs/search.md)
    objective: str = "win"            # win probability (ties shared), final-score margin, or a blend
    blend: float = 0.5                # weight of the win probability in "blend"
    margin_scale: float = 20.0        # points of margin that map to the full reward range
    rollout: str = "random"           # "random" (uniform) or "heuristic" (the game's cheap move prior)
    cutoff: int = 0                   # rollout decisions before a static evaluation (0: to the end)
    reuse_tree: bool = False          # bots continue their previous tree when the game allows (TreeReuse)
    stop_early: bool = False          # stop once the chosen move is settled (same move, less time; temperature 0, 1 thread)
    expand: str = "random"            # which untried move a node tries next: "random" or "prior" (the game's move prior)
    fpu: float = 0.0                  # first-play urgency of untried moves (0: expand all before revisiting)
    chance: str = "keyed"             # "keyed": chance outcomes are tree nodes; "open": open loop
    temperature: float = 0.0          # 0: most visits (see lcb_stdevs); > 0: sample root moves ∝ visits^(1/T)
    # The network search at temperature 0 plays the most visited move unless another with at least
    # LCB_MIN_VISIT_SHARE of its visits has a higher lower confidence bound of its mean reward (mean less
    # this many standard errors; KataGo's lcbStdevs 5, minVisitPropForLCB 0.15). PUCT's visits follow the
    # policy's prior: a move the search found late (a win the value did not foresee) has then been proven
    # by thousands of visits but still trails in visits; the bound plays it. 0: most visits only. The
    # rollout search (UCB1: visits follow the means) plays the most visited. docs/search.md, "Which move
    # is played".
    lcb_stdevs: float = 5.0
    # Which kind of observer the searching seat is, passed to the game's determinize (engine_c/game.pxd's
    # observer_kind). 0: the seat as the rules make it. A game may define more; SpellBook's 1 is a seat
    # that does not remember the Discard box. A kind other than 0 makes chance depend on what the seat
    # cannot see, even in a game with GameAdapter.public_chance.
    observer_kind: int = 0
    seed: int = 0
    max_nodes: int = 4_000_000        # per thread
    # The evaluation (docs/learned.md): "network" = PUCT with the learned policy's priors and the learned
    # value at the leaves; "rollout" = UCB with random rollouts (the search before the learned one, kept
    # for comparison); "auto" = "network" when `model` names a model file, or when the game ships one
    # marked use_by_default (it passed its gate against the rollout search), else "rollout". `exploration`, `rollout`, `cutoff`, `expand` and `fpu` apply to the rollout search;
    # c_puct, fpu_reduction and rollout_mix to the network search.
    evaluator: str = "auto"
    model: str = ""                   # a model file ("" = the game's default model)
    # PUCT constant (rewards in [0, 1]). 1.0 by measurement: swept again for g5-bfa8ec5e at about 400 ms a
    # move, 0.5 and 0.7 played level with it and 1.5 no better (docs/learned.md, "Re-tuning the search").
    c_puct: float = 1.0
    fpu_reduction: float = 0.1        # an unvisited move's value: its parent's mean less this
    # Weight of one random rollout mixed into each network leaf value (AlphaGo's lambda). 0.5 by
    # measurement: with the first generations' value alone the search lost to the rollout search at
    # equal time; blended it won 81% of 40 games (docs/learned.md). Swept again for g5-bfa8ec5e at about
    # 400 ms a move: 0.25 level, 0.75 and 0 (the value alone, 5-10x the iterations) clearly worse.
    rollout_mix: float = 0.5
    # Take that rollout share from the model's rollout head (the random playouts' mean it was trained on:
    # no rollout played, no rollout noise; needs a model trained with playout labels) instead of one
    # uniformly random rollout. Off by default: not yet measured in play (docs/learned.md).
    rollout_head: bool = False
    # > 1: Sequential Halving at the root of the network search with an iteration budget: the policy's
    # `root_halving` best moves share the budget evenly, and after each phase the worse half by mean value
    # is dropped (the last eighth goes to the survivor, the move played). 0: PUCT at the root too. Off by
    # default: better against flat Monte Carlo at 4,000 iterations, worse head to head (docs/search.md).
    root_halving: int = 0
    # Remove the model's measured lean towards the seat to move (meta "mover_bias", per player count, from
    # search/train.py) from every network value. Off by default: the lean is real (a seat's estimate drops
    # by 0.08 when the turn passes, 2 players), but removing it did not show a gain against flat Monte
    # Carlo at 4,000 iterations (0.36 over 22 games; docs/search.md), so the defaults stay as measured.
    unbias_mover: bool = False
    # Other seats decide from their own view (re-determinizing ISMCTS, Goodman 2019): before another seat
    # decides inside the tree, the world is resampled from that seat's view. False: they decide in the
    # searcher's determinization (single-observer ISMCTS: where the searcher sees their hidden part, as
    # Abracada's hands, they act knowing it). docs/search.md, "Abracada…What?".
    redeterminize: bool = False
    # Root determinizations from the game's belief over the searcher's hidden part (a game offering
    # `new_belief`, Abracada…What?'s: weighted by what the other seats' moves reveal); False: uniform.
    belief: bool = False
    # > 0: in the rollout search, other seats' decisions are chosen by PUCT over the game's move prior
    # (GameVTable.decision_prior, else move_weight, normalized over the legal moves) with this constant, an
    # untried move valued at its parent's mean; the searcher's own decisions keep UCB with `expand` and
    # `fpu`. 0: UCB at every decision (every untried move once first). A simulated opponent then plays what
    # a player reasoning from the prior would, and other moves only as the search finds them better. With
    # `redeterminize` that player decides from its own view. Ignored by the network search (its priors
    # already apply at every seat). docs/search.md, "Abracada…What?".
    opponent_prior: float = 0.0
    # > 0: the move is the learned policy's, not the search's (the weak strength levels, search/levels.py,
    # D140): sampled ∝ prior^(1/policy_temperature) among the `policy_top_k` moves with the highest
    # priors (0: all) whose prior is at least `policy_floor` times the best one's, leaving out the moves the
    # game calls senseless (GameAdapter.senseless_moves, when it has one: Abracada…What?'s impossible
    # casts). Seeded by `seed`. A mistake's size is then bounded by the policy (a move it rates at least a
    # fraction of its first choice) and its frequency set by the temperature. Needs the network search;
    # one iteration is enough (the root's priors).
    policy_temperature: float = 0.0
    policy_top_k: int = 0
    policy_floor: float = 0.0
    # The final choice leaves out the moves the game calls senseless (GameAdapter.senseless_moves), unless
    # every move is: Abracada…What?'s levels (D143: its small searches announced impossible spells in 3-5%
    # of their decisions). The tree and the statistics reported are unchanged.
    avoid_senseless: bool = False
    # > 0: the network search solves the end of the game exactly (search/endgame.pxi): a leaf whose
    # random rollout ended within `endgame_horizon` decisions is solved by expectimax over every move and
    # chance outcome within this many nodes, and its exact value replaces the network's. Only for a game
    # whose hidden information is the order of future chance (GameAdapter.public_chance), searched by the
    # seat as the rules make it (observer_kind 0). 0: off.
    endgame_nodes: int = 0
    endgame_horizon: int = 0          # 0: DEFAULT_ENDGAME_HORIZON decisions

    def validate(self) -> None:
        def bad(name: str, msg: str) -> None:
            raise SearchOptionError(name, msg)

        for name in ("iterations", "threads", "cutoff", "seed", "max_nodes", "root_halving", "policy_top_k",
                     "endgame_nodes", "endgame_horizon", "observer_kind"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                bad(name, f"must be an integer, got {v!r}")
            if v < 0:
                bad(name, f"must not be negative, got {v}")
        for name in ("time_ms", "deadline", "exploration", "blend", "margin_scale", "temperature", "fpu",
                     "c_puct", "fpu_reduction", "rollout_mix", "opponent_prior", "lcb_stdevs", "policy_temperature",
                     "policy_floor"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or math.isnan(v):
                bad(name, f"must be a number, got {v!r}")
            if v < 0:
                bad(name, f"must not be negative, got {v}")
        if self.iterations == 0 and self.time_ms == 0 and self.deadline == 0:
            bad("iterations", "give a budget: iterations, time_ms or deadline")
        if not 1 <= self.threads <= 64:
            bad("threads", f"must be 1 to 64, got {self.threads}")
        if self.blend > 1:
            bad("blend", f"must be within 0..1, got {self.blend}")
        if self.margin_scale == 0:
            bad("margin_scale", "must be positive")
        if self.objective not in OBJECTIVES:
            bad("objective", f"must be one of {', '.join(OBJECTIVES)}, got {self.objective!r}")
        if self.rollout not in ROLLOUTS:
            bad("rollout", f"must be one of {', '.join(ROLLOUTS)}, got {self.rollout!r}")
        if self.chance not in CHANCE_MODES:
            bad("chance", f"must be one of {', '.join(CHANCE_MODES)}, got {self.chance!r}")
        if self.expand not in EXPANSIONS:
            bad("expand", f"must be one of {', '.join(EXPANSIONS)}, got {self.expand!r}")
        if self.evaluator not in EVALUATORS:
            bad("evaluator", f"must be one of {', '.join(EVALUATORS)}, got {self.evaluator!r}")
        if not isinstance(self.redeterminize, bool):
            bad("redeterminize", f"must be true or false, got {self.redeterminize!r}")
        if not isinstance(self.belief, bool):
            bad("belief", f"must be true or false, got {self.belief!r}")
        if not isinstance(self.avoid_senseless, bool):
            bad("avoid_senseless", f"must be true or false, got {self.avoid_senseless!r}")
        if math.isinf(self.opponent_prior):
            bad("opponent_prior", "must be finite (0: off)")
        if math.isinf(self.lcb_stdevs):
            bad("lcb_stdevs", "must be finite (0: most visits only)")
        if self.root_halving == 1 or self.root_halving > 64:
            bad("root_halving", f"must be 0 (off) or 2 to 64, got {self.root_halving}")
        if self.rollout_mix > 1:
            bad("rollout_mix", f"must be within 0..1, got {self.rollout_mix}")
        if not isinstance(self.rollout_head, bool):
            bad("rollout_head", f"must be true or false, got {self.rollout_head!r}")
        if not isinstance(self.model, str):
            bad("model", f"must be a file path, got {self.model!r}")
        if self.seed >= 2**64:
            bad("seed", "must fit in 64 bits")
        if self.observer_kind > MAX_OBSERVER_KIND:
            bad("observer_kind", f"must be at most {MAX_OBSERVER_KIND} (a kind the game defines), "
                                 f"got {self.observer_kind}")
        if self.max_nodes < 2:
            bad("max_nodes", "must be at least 2")
        if self.policy_floor > 1:
            bad("policy_floor", f"must be within 0..1 (a share of the best prior), got {self.policy_floor}")
        if math.isinf(self.policy_temperature):
            bad("policy_temperature", "must be finite (0: the search chooses)")
        if self.endgame_nodes > MAX_ENDGAME_NODES:
            bad("endgame_nodes", f"must be at most {MAX_ENDGAME_NODES:,} (0: off), got {self.endgame_nodes}")
        if self.endgame_horizon > 64:
            bad("endgame_horizon", f"must be at most 64 decisions, got {self.endgame_horizon}")
        if self.endgame_nodes and self.evaluator == "rollout":
            bad("endgame_nodes", "solves the network search's leaves: not with evaluator=rollout")
        if self.policy_temperature > 0 and self.evaluator == "rollout":
            bad("policy_temperature", "needs the learned policy: the network search, not evaluator=rollout")

    def absolute_deadline(self, start: float) -> float:
        ends = [d for d in (self.deadline, start + self.time_ms / 1000.0 if self.time_ms else 0.0) if d > 0]
        return min(ends) if ends else 0.0


@dataclass
class MoveStats:
    """Statistics of one root move. Per-player lists are indexed by seat."""

    move: Any
    visits: int
    availability: int
    mean_reward: float                 # for the player to move at the root
    win_probability: list[float]
    expected_score: list[float]
    score_std: list[float]             # across determinizations (and chance)
    prior: float = 0.0                 # the learned policy's prior (0 for the rollout search)
    # A move the search never tried (visits 0: PUCT can leave a move with a tiny prior untried) has no
    # estimate: its win_probability, expected_score and score_std are all zero, which is not a loss.


@dataclass
class SearchResult:
    move: Any
    moves: list[MoveStats]             # sorted by visits, best first
    principal_variation: list[Any]
    iterations: int
    elapsed_s: float
    seed: int
    player: int
    threads: int = 1
    nodes: int = 0
    mean_decisions: float = 0.0           # per iteration: tree decisions + rollout decisions
    cut_short: bool = False            # stopped by the deadline or a cancel before the iteration budget
    stopped_early: bool = False        # stopped because more iterations could not change the move (stop_early)
    evaluator: str = "rollout"         # the evaluation used: "network" or "rollout"
    model: str = ""                    # the learned model's version ("" for rollouts)
    opponent_tree_moves: int = 0       # other seats' decisions inside the tree that could fail (casts; not rollouts)
    opponent_tree_fails: int = 0       # of which failed (games with GameVTable.move_fails; 0 otherwise)
    # The measured variance of one visit's win value for the seat to move (search/hints.py `merge_halves`:
    # from two independent halves of the budget); None when not measured (hints then bound it).
    noise_variance: float | None = None
    score_noise_variance: float | None = None   # the same for the final score (points^2), from the same searches

    def stats_for(self, move: Any) -> MoveStats | None:
        for s in self.moves:
            if s.move == move:
                return s
        return None

    @property
    def chosen(self) -> MoveStats:
        """The statistics of the move the search chose (`move`): usually the most visited, moves[0],
        but the network search may choose another by its lower confidence bound (lcb_stdevs)."""
        return self.stats_for(self.move) or self.moves[0]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["move"] = str(self.move)
        d["principal_variation"] = [str(m) for m in self.principal_variation]
        for m in d["moves"]:
            m["move"] = str(m["move"])
        return d


class Slicer(Protocol):
    """A scheduler that runs searches in slices (server/fairshare.py): `ismcts` run inside `slicing(slicer)`
    searches for about `slice_s` seconds at a time and calls `pause()` in between, which returns when the
    search may go on (its tree and generator are kept meanwhile, so the result is the one an unsliced
    search with the same seed and iteration budget gives). Its time budget (`time_ms`) then counts the
    search's own CPU time, not the pauses; the options' `deadline` still ends it."""

    slice_s: float

    def pause(self) -> None: ...


_slicing = threading.local()


@contextlib.contextmanager
def slicing(slicer: Slicer | None) -> Iterator[None]:
    """Every ismcts call of this thread inside the block runs in slices under `slicer` (None: unsliced)."""
    before = getattr(_slicing, "slicer", None)
    _slicing.slicer = slicer
    try:
        yield
    finally:
        _slicing.slicer = before


def pause_point() -> None:
    """Lets the thread's slicer (if any) hand the worker to another job: for long work between searches."""
    slicer = getattr(_slicing, "slicer", None)
    if slicer is not None:
        slicer.pause()


def _thread_seeds(seed: int, threads: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(64) for _ in range(threads)]


def _split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def _merge(game: GameAdapter, children_lists: list[list[dict]], player: int) -> list[MoveStats]:
    """Root statistics of all threads' trees, summed by move."""
    if len(children_lists) == 1:                     # one tree: nothing to sum
        merged = {c["move"]: c for c in children_lists[0]}
    else:
        merged = _sum_children(children_lists)
    out = []
    for code, m in merged.items():
        v = max(m["visits"], 1)
        mean = [s / v for s in m["score"]]
        std = [math.sqrt(max(sq / v - mu * mu, 0.0)) for sq, mu in zip(m["score_sq"], mean)]
        out.append(MoveStats(move=game.move(code), visits=m["visits"], availability=m["avail"],
                             mean_reward=m["reward"][player] / v, win_probability=[w / v for w in m["wins"]],
                             expected_score=mean, score_std=std, prior=m.get("prior", 0.0)))
    out.sort(key=lambda s: (-s.visits, -s.mean_reward, game.code(s.move)))
    return out


def _sum_children(children_lists: list[list[dict]]) -> dict[int, dict]:
    merged: dict[int, dict] = {}
    for children in children_lists:
        for c in children:
            m = merged.setdefault(c["move"], {"visits": 0, "avail": 0, "reward": None, "score": None,
                                              "score_sq": None, "wins": None, "prior": 0.0, "trees": 0})
            m["visits"] += c["visits"]
            m["avail"] += c["avail"]
            m["trees"] += 1
            m["prior"] += (c.get("prior", 0.0) - m["prior"]) / m["trees"]
            for key in ("reward", "score", "score_sq", "wins"):
                m[key] = list(c[key]) if m[key] is None else [a + b for a, b in zip(m[key], c[key])]
    return merged


LCB_MIN_VISIT_SHARE = 0.15      # a move needs this share of the leader's visits for its bound to count


def lower_confidence_bound(s: MoveStats, stdevs: float) -> float:
    """The mover's mean reward less `stdevs` standard errors. Rewards lie in [0, 1], so their variance
    is at most q(1 - q): the bound never trusts a mean more than its visits allow."""
    q = min(1.0, max(0.0, s.mean_reward))
    return q - stdevs * math.sqrt(q * (1.0 - q) / max(s.visits, 1))


def choose_final(stats: list[MoveStats], temperature: float, seed: int, lcb_stdevs: float = 0.0) -> MoveStats:
    """With temperature 0: the most visited move (`stats` is sorted by visits, ties by mean reward),
    unless `lcb_stdevs` > 0 and another move with at least LCB_MIN_VISIT_SHARE of its visits is proven
    better: the highest lower confidence bound among them, when it exceeds the leader's mean (not only
    the leader's bound: near-equal moves near a certain result have tiny bounds, and choosing between
    them by noise would make hints flip from seed to seed). Else sampled ∝ visits^(1/T) with a seeded
    generator."""
    if temperature <= 0 or len(stats) == 1:
        leader = stats[0]
        if lcb_stdevs <= 0 or leader.visits <= 0:
            return leader
        eligible = [s for s in stats if s.visits >= LCB_MIN_VISIT_SHARE * leader.visits]
        best = max(eligible, key=lambda s: lower_confidence_bound(s, lcb_stdevs))
        return best if lower_confidence_bound(best, lcb_stdevs) > leader.mean_reward else leader
    weights = [max(s.visits, 0) ** (1.0 / temperature) if s.visits else 0.0 for s in stats]
    if sum(weights) <= 0:
        return stats[0]
    return random.Random(seed ^ 0x5EED).choices(stats, weights=weights)[0]


def _sensible(game: GameAdapter, state: Any, stats: list[MoveStats]) -> list[MoveStats]:
    """`stats` without the moves the game calls senseless (all of them when every move is; the same
    order)."""
    bad = set(game.senseless_moves(state, [s.move for s in stats]))
    return [s for s in stats if s.move not in bad] or stats


def choose_by_policy(game: GameAdapter, state: Any, stats: list[MoveStats], opts: SearchOptions) -> MoveStats:
    """The move of a policy level (opts.policy_temperature > 0): sampled from the root's priors among the
    best `policy_top_k` whose prior reaches `policy_floor` times the best, never a move the game calls
    senseless unless every move is (see SearchOptions.policy_temperature)."""
    bad = set(game.senseless_moves(state, [s.move for s in stats]))
    pool = [s for s in stats if s.move not in bad] or list(stats)
    pool.sort(key=lambda s: (-s.prior, str(s.move)))
    top = pool[0].prior
    pool = [s for s in pool if s.prior >= opts.policy_floor * top]
    if opts.policy_top_k:
        pool = pool[:opts.policy_top_k]
    weights = [max(s.prior, 1e-12) ** (1.0 / opts.policy_temperature) for s in pool]
    return random.Random(opts.seed ^ 0x9011C7).choices(pool, weights=weights)[0]


def _check_root(game: GameAdapter, state: Any) -> int:
    player = game.current_player(state)
    if player == -2:
        raise ValueError("the game is over: there is no move to search")
    if player == -1:
        raise ValueError("a chance event (a draw) is pending: resolve it before searching")
    return player


class TreeReuse:
    """One searcher's tree, kept from one decision to the next (single-threaded searches).

    After a search it holds the tree, the state searched and the move chosen. When the next search
    starts exactly where that move leads (the same player decides again with no chance event in
    between, e.g. the successive decisions of one turn), it continues below
    that move's node: the iterations spent there already count, and an iteration budget is topped up to
    its total rather than spent again. Any other state starts a new tree. The same seeds and calls give
    the same results; a tree is dropped once it holds more than half of `max_nodes`."""

    def __init__(self) -> None:
        self.tree: _mcts.SearchTree | None = None
        self.node = -1               # the node below which the next search can continue (-1: none)
        self.expected: Any = None    # the state that node stands for

    def locate(self, game: GameAdapter, state: Any, max_nodes: int) -> tuple[Any, int]:
        """(tree, node) to search `state` from: below the last move played, or a new tree's root."""
        if (self.tree is not None and self.node >= 0 and self.tree.max_nodes == max_nodes
                and self.tree.nodes <= max_nodes // 2 and self.expected == state):
            return self.tree, self.node
        return _mcts.SearchTree(max_nodes), 0

    def advance(self, game: GameAdapter, state: Any, move: Any) -> None:
        """`move` was played from `state` without a search (a forced move): follow it down the tree."""
        if self.tree is not None and self.node >= 0 and self.expected == state:
            self.remember(game, self.tree, self.node, state, move)

    def remember(self, game: GameAdapter, tree: Any, node: int, state: Any, move: Any) -> None:
        """After searching `state` from `node`: the next search may start where `move` leads."""
        self.tree, self.node, self.expected = tree, -1, None
        # a game whose moves' outcomes hang on hidden information says `tree_reuse = False` (Abracada…What?:
        # the node below a cast pools determinizations where it failed with ones where it succeeded)
        if game.tree_reuse:
            self.node = tree.child(node, game.code(move))
            self.expected = game.child(state, move) if self.node >= 0 else None


def resolve_network(game: GameAdapter, opts: SearchOptions) -> tuple[Any, str]:
    """(compiled network or None, model version or "") for the options' evaluator (see SearchOptions).
    SearchOptionError("model"/"evaluator") when a network is asked for and none can be had."""
    if opts.evaluator == "rollout":
        return None, ""
    from search import model as model_mod

    try:
        model = model_mod.load_cached(opts.model) if opts.model else model_mod.default_model(game)
        if model is None:
            if opts.evaluator == "network":
                raise SearchOptionError("evaluator", f"{game.name} ships no model; "
                                        "use evaluator=rollout or give a model file")
            return None, ""
        if opts.evaluator == "auto" and not opts.model and not model.use_by_default:
            return None, ""          # shipped, but not (yet) better than the rollout search: opt-in only
        return model.network(game), model.version
    except (OSError, ValueError) as e:
        if isinstance(e, SearchOptionError):
            raise
        raise SearchOptionError("model", str(e)) from None


def mover_bias_of(network: Any, players: int) -> float:
    """The network's measured optimism for the seat to move at this player count (0 when unmeasured)."""
    table = getattr(network, "mover_bias", None) or {}
    return float(table.get(str(players), 0.0))


def root_hypotheses(game: GameAdapter, state: Any, opts: SearchOptions, belief: Any = None) -> list | None:
    """The root determinizations' hypotheses [(id, weight)] when the options ask for a belief: from
    `belief` (kept by a bot through the game) or one rebuilt from `state`'s public log
    (`game.new_belief(seat)`); None for a uniform root. SearchOptionError("belief") when the game has none."""
    if not opts.belief:
        return None
    if belief is None:
        if game.new_belief is None:
            raise SearchOptionError("belief", f"{game.name} offers no belief")
        belief = game.new_belief(game.current_player(state))
    return belief.hypotheses(state)


def ismcts(game: GameAdapter, state: Any, options: SearchOptions | None = None,
           cancel: CancelToken | None = None, reuse: TreeReuse | None = None,
           network: Any = None, belief: Any = None) -> SearchResult:
    """Determinized ISMCTS from the deciding player's point of view (see _mcts.pyx): single-observer, or
    re-determinizing at other seats' decisions (options.redeterminize). With `reuse` (one thread),
    the search continues the tree of the previous decision when it can. `network` (a compiled
    search.model network) overrides the options' evaluator and model. With options.belief the root's
    hidden part is drawn from `belief` (the deciding seat's, kept through the game; rebuilt from the
    state's log when None)."""
    opts = options or SearchOptions()
    opts.validate()
    player = _check_root(game, state)
    hypotheses = root_hypotheses(game, state, opts, belief)
    version = ""
    if network is None:
        network, version = resolve_network(game, opts)
    else:
        version = getattr(network, "version", "") or "given"
    public_chance = game.public_chance and opts.observer_kind == 0
    if opts.chance == "expected" and not public_chance:
        raise SearchOptionError("chance", "'expected' weighs chance outcomes by their probabilities, which in this "
                                "game (or for this kind of observer) depend on what the searcher cannot see: "
                                "use 'keyed' or 'open'")
    if opts.endgame_nodes and not public_chance:
        raise SearchOptionError("endgame_nodes", "the searcher cannot see more than the order of future "
                                "draws (in this game, or as this kind of observer): an exact solve would see it")
    if opts.rollout_head and not (network is not None and network.has_rollout_head):
        raise SearchOptionError("rollout_head", f"needs a model with a rollout head; "
                                f"{version or 'the rollout search'} has none")
    start = time.monotonic()
    root = game.state_bytes(state)
    cancel = cancel or CancelToken()
    deadline = opts.absolute_deadline(start)
    seeds = _thread_seeds(opts.seed, opts.threads)
    budgets = _split(opts.iterations, opts.threads) if opts.iterations else [0] * opts.threads
    tree, node = None, 0
    if reuse is not None and opts.threads == 1:
        tree, node = reuse.locate(game, state, opts.max_nodes)
        if opts.iterations:          # the visits already below this node count towards the budget
            budgets = [max(opts.iterations - tree.visits(node), 1)]
    lcb_stdevs = opts.lcb_stdevs if network is not None else 0.0     # the rollout search: most visits (D101)
    base = {"deadline": deadline, "exploration": opts.exploration, "objective": opts.objective,
            "blend": opts.blend, "margin_scale": opts.margin_scale, "rollout": opts.rollout,
            "cutoff": opts.cutoff, "observer": player, "observer_kind": opts.observer_kind,
            "chance": opts.chance, "fpu": opts.fpu, "expand": opts.expand,
            "stop_early": opts.stop_early and opts.temperature == 0 and opts.threads == 1,
            "lcb_min_share": LCB_MIN_VISIT_SHARE if lcb_stdevs > 0 else 0.0,
            "network": network, "c_puct": opts.c_puct, "fpu_reduction": opts.fpu_reduction,
            "rollout_mix": opts.rollout_mix, "rollout_head": opts.rollout_head,
            "mover_bias": mover_bias_of(network, game.num_players(state)) if opts.unbias_mover else 0.0,
            "root_halving": opts.root_halving, "redeterminize": opts.redeterminize, "hypotheses": hypotheses,
            "opponent_prior": opts.opponent_prior, "solve_nodes": opts.endgame_nodes,
            "solve_horizon": opts.endgame_horizon or DEFAULT_ENDGAME_HORIZON}

    slicer = getattr(_slicing, "slicer", None)
    cut_by_deadline = False
    if slicer is not None:
        runs, elapsed, cut_by_deadline = _run_in_slices(game, root, base, budgets, seeds, opts, cancel, tree, node,
                                                        slicer)
    else:
        def one(i: int):
            return _mcts.run_ismcts(game.vtable, root, dict(base, iterations=budgets[i], seed=seeds[i]),
                                    cancel, opts.max_nodes, tree, node)

        if opts.threads == 1:
            runs = [one(0)]
        else:
            with ThreadPoolExecutor(max_workers=opts.threads) as pool:
                runs = list(pool.map(one, range(opts.threads)))
        elapsed = time.monotonic() - start
    iterations = sum(r[0] for r in runs)
    budget_left = sum(budgets) if opts.iterations else 0
    early = any(r[5] for r in runs)
    stats = _merge(game, [r[2] for r in runs], player)
    if node:
        # a reused tree's node may hold moves of other determinizations' positions: only this state's count
        legal = {game.code(m) for m in game.legal_moves(state)}
        stats = [s for s in stats if game.code(s.move) in legal]
    calibration = getattr(network, "calibration", None) if network is not None else None
    if calibration:      # reported probabilities only: the tree above chose with the raw values
        for s in stats:
            s.win_probability = calibrate(s.win_probability, calibration, player)
    if not stats:  # not even one iteration: fall back to the first legal move
        legal = game.legal_moves(state)
        stats = [MoveStats(legal[0], 0, 0, 0.0, [0.0] * game.num_players(state),
                           [0.0] * game.num_players(state), [0.0] * game.num_players(state))]
    if opts.policy_temperature > 0:
        if network is None:
            raise SearchOptionError("policy_temperature", "needs the learned policy: this game has no model in use")
        best = choose_by_policy(game, state, stats, opts)
    else:
        best = choose_final(_sensible(game, state, stats) if opts.avoid_senseless else stats, opts.temperature,
                            opts.seed, lcb_stdevs)
    if tree is not None:
        reuse.remember(game, tree, node, state, best.move)
    pv = [game.move(code) for code, _, _ in max(runs, key=lambda r: r[4])[3]]
    return SearchResult(move=best.move, moves=stats, principal_variation=pv, iterations=iterations,
                        elapsed_s=elapsed, seed=opts.seed, player=player, threads=opts.threads,
                        nodes=sum(r[4] for r in runs),
                        mean_decisions=sum(r[1] for r in runs) / max(iterations, 1),
                        cut_short=(bool(opts.iterations) and iterations < budget_left and not early) or cut_by_deadline,
                        stopped_early=early, evaluator="network" if network is not None else "rollout",
                        model=version, opponent_tree_moves=sum(r[6] for r in runs),
                        opponent_tree_fails=sum(r[7] for r in runs))


def _run_in_slices(game: GameAdapter, root: bytes, base: dict, budgets: list[int], seeds: list[int],
                   opts: SearchOptions, cancel: CancelToken, tree: Any, node: int,
                   slicer: Slicer) -> tuple[list[tuple], float, bool]:
    """The search of `ismcts` in slices of slicer.slice_s, pausing in between; every thread keeps its tree
    and generator (SearchProgress), so the iterations are those of one uninterrupted run. The time budget
    counts the threads' CPU time (their mean), the deadline wall-clock time. Returns the runs as run_ismcts
    gives them (iterations and rollout decisions summed over the slices), the seconds spent searching, and
    whether the deadline ended the search before its budget."""
    threads = len(budgets)
    trees = [tree if tree is not None and i == 0 else _mcts.SearchTree(opts.max_nodes) for i in range(threads)]
    nodes = [node if tree is not None and i == 0 else 0 for i in range(threads)]
    progress = [_mcts.SearchProgress() for _ in range(threads)]
    totals = [[0, 0.0, 0, 0] for _ in range(threads)]
    budget_s = opts.time_ms / 1000.0 if opts.time_ms else math.inf
    cpu_s = searched_s = 0.0
    pool = ThreadPoolExecutor(max_workers=threads) if threads > 1 else None

    def one(i: int, options: dict) -> tuple[tuple, float]:
        t0 = time.thread_time()
        run = _mcts.run_ismcts(game.vtable, root, dict(options, iterations=budgets[i], seed=seeds[i]), cancel,
                               opts.max_nodes, trees[i], nodes[i], progress[i])
        return run, time.thread_time() - t0

    try:
        while True:
            now = time.monotonic()
            left = budget_s - cpu_s          # wall time >= CPU time: a slice never overspends the budget
            ends = [d for d in (opts.deadline, now + left if left < math.inf else 0.0) if d > 0]
            end = min(ends) if ends else 0.0
            options = dict(base, deadline=end, pause_at=now + slicer.slice_s)
            outs = [one(0, options)] if pool is None else list(pool.map(lambda i: one(i, options), range(threads)))
            searched_s += time.monotonic() - now
            cpu_s += sum(cpu for _, cpu in outs) / threads
            for total, (run, _) in zip(totals, outs):
                total[0] += run[0]
                total[1] += run[1]
                total[2] += run[6]
                total[3] += run[7]
            runs = [(total[0], total[1]) + run[2:6] + (total[2], total[3]) for total, (run, _) in zip(totals, outs)]
            by_deadline = bool(opts.deadline) and time.monotonic() >= opts.deadline
            done = (cancel.cancelled or any(r[5] for r in runs) or by_deadline or budget_s - cpu_s < 0.001
                    or (bool(opts.iterations) and all(p.iterations >= b for p, b in zip(progress, budgets))))
            if done:
                return runs, searched_s, by_deadline and budget_s - cpu_s >= 0.001 and not cancel.cancelled
            slicer.pause()
    finally:
        if pool is not None:
            pool.shutdown()


def flat_monte_carlo(game: GameAdapter, state: Any, options: SearchOptions | None = None,
                     cancel: CancelToken | None = None, moves: Sequence[Any] | None = None,
                     belief: Any = None) -> SearchResult:
    """PIMC baseline: determinized rollouts spread evenly over the root moves (or `moves`), no tree
    (with options.belief, determinized from the belief as ismcts does)."""
    opts = options or SearchOptions()
    opts.validate()
    player = _check_root(game, state)
    hypotheses = root_hypotheses(game, state, opts, belief)
    start = time.monotonic()
    root = game.state_bytes(state)
    codes = [game.code(m) for m in (game.legal_moves(state) if moves is None else moves)]
    cancel = cancel or CancelToken()
    seeds = _thread_seeds(opts.seed, opts.threads)
    budgets = _split(opts.iterations, opts.threads) if opts.iterations else [0] * opts.threads
    base = {"deadline": opts.absolute_deadline(start), "exploration": 0.0, "objective": opts.objective,
            "blend": opts.blend, "margin_scale": opts.margin_scale, "rollout": opts.rollout,
            "cutoff": opts.cutoff, "observer": player, "observer_kind": opts.observer_kind,
            "hypotheses": hypotheses}

    def one(i: int):
        return _mcts.run_flat(game.vtable, root, codes, dict(base, iterations=budgets[i], seed=seeds[i]), cancel)

    if opts.threads == 1:
        runs = [one(0)]
    else:
        with ThreadPoolExecutor(max_workers=opts.threads) as pool:
            runs = list(pool.map(one, range(opts.threads)))
    iterations = sum(r[0] for r in runs)
    stats = _merge(game, [r[2] for r in runs], player)
    stats.sort(key=lambda s: (-s.mean_reward if s.visits else 1.0, game.code(s.move)))
    best = stats[0]
    return SearchResult(move=best.move, moves=stats, principal_variation=[best.move], iterations=iterations,
                        elapsed_s=time.monotonic() - start, seed=opts.seed, player=player, threads=opts.threads,
                        mean_decisions=sum(r[1] for r in runs) / max(iterations, 1),
                        cut_short=bool(opts.iterations) and iterations < opts.iterations)


def raw_playout_rate(game: GameAdapter, state: Any, games: int = 200, seed: int = 0) -> float:
    """Random-playout decisions per second through the same C interface (for search_efficiency)."""
    decisions, seconds = _mcts.random_playouts(game.vtable, game.state_bytes(state), games, seed)
    return decisions / seconds if seconds > 0 else float("inf")
