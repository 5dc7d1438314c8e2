"""Bots: one interface, `choose(state) -> (move, info)`, for every player the product offers.

All bots are deterministic for a given seed and sequence of calls, and never modify `state`.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Protocol

from search import _mcts
from search.levels import level_options
from search.search import CancelToken, GameAdapter, SearchOptions, TreeReuse, flat_monte_carlo, ismcts


class Bot(Protocol):
    name: str

    def choose(self, state: Any) -> tuple[Any, dict]: ...


def _forced(game: GameAdapter, state: Any) -> tuple[Any, dict] | None:
    moves = game.legal_moves(state)
    if not moves:
        raise ValueError("no legal move: the game is over or a chance event is pending")
    if len(moves) == 1:
        return moves[0], {"forced": True}
    return None


class RandomBot:
    """Uniformly random legal moves."""

    def __init__(self, game: GameAdapter, seed: int = 0):
        self.game, self.name, self.rng = game, "random", random.Random(seed)

    def choose(self, state):
        moves = self.game.legal_moves(state)
        if not moves:
            raise ValueError("no legal move: the game is over or a chance event is pending")
        return self.rng.choice(moves), {}


class GreedyBot:
    """One ply: every legal move is tried and the position after it scored for the mover against the best
    other player. With the game's own one-ply heuristic when it has one (`game.move_values(state, moves,
    seed)`; SpellBook: engine_c/spellbook/heuristic.py, which values progress towards spells and averages the Pouch
    draws over sampled determinizations); otherwise, or with `static=True` (spec `greedy:eval=static`, the
    earlier greedy bot), with the game's static evaluation in C (SpellBook: points + 0.35 a pool token).
    Ties are broken at random (seeded)."""

    def __init__(self, game: GameAdapter, seed: int = 0, static: bool = False):
        self.game, self.name, self.rng = game, "greedy:eval=static" if static else "greedy", random.Random(seed)
        self.heuristic = None if static else game.move_values

    def choose(self, state):
        forced = _forced(self.game, state)
        if forced:
            return forced
        moves = self.game.legal_moves(state)
        if self.heuristic is not None:
            values = self.heuristic(state, moves, self.rng.getrandbits(63))
        else:
            values = _mcts.greedy_values(self.game.vtable, self.game.state_bytes(state),
                                         [self.game.code(m) for m in moves])
        best = max(values)
        ties = [m for m, v in zip(moves, values) if v >= best - 1e-9]
        return self.rng.choice(ties), {"value": best}


class _SearchBot:
    kind = "ismcts"

    def __init__(self, game: GameAdapter, options: SearchOptions, name: str):
        options.validate()
        self.game, self.options, self.name = game, options, name
        self.calls = 0
        self.cancel: CancelToken | None = None
        # ISMCTS with reuse_tree continues its previous tree where the game allows (TreeReuse)
        self.reuse = TreeReuse() if self.kind == "ismcts" and options.reuse_tree else None
        self.beliefs: dict[int, Any] = {}     # options.belief: the game's belief per seat this bot plays

    def observe(self, state: Any, seat: int) -> None:
        """Shown every decision state of the game while playing `seat` (search.arena.play_game does so):
        keeps that seat's belief exact with 3+ seats, where a refill hides a seat's earlier hand from a
        belief that only sees its own turns. Nothing to do without options.belief."""
        if self.options.belief:
            self._belief(state, seat).observe(state)

    def _belief(self, state: Any, seat: int | None = None) -> Any:
        if not self.options.belief:
            return None
        seat = self.game.current_player(state) if seat is None else seat
        if seat not in self.beliefs:
            if self.game.new_belief is None:
                raise ValueError(f"belief: {self.game.name} offers no belief")
            self.beliefs[seat] = self.game.new_belief(seat)
        return self.beliefs[seat]

    def choose(self, state):
        forced = _forced(self.game, state)
        if forced:
            if self.reuse is not None:
                self.reuse.advance(self.game, state, forced[0])
            return forced
        opts = replace(self.options, seed=(self.options.seed + 7919 * self.calls) % 2**64)
        self.calls += 1
        self.cancel = CancelToken()
        belief = self._belief(state)
        if self.kind == "ismcts":
            result = ismcts(self.game, state, opts, self.cancel, reuse=self.reuse, belief=belief)
        else:
            result = flat_monte_carlo(self.game, state, opts, self.cancel, belief=belief)
        return result.move, {"result": result}


class ISMCTSBot(_SearchBot):
    """Determinized ISMCTS with the given options (or a strength level 1-10)."""

    kind = "ismcts"

    def __init__(self, game: GameAdapter, options: SearchOptions | None = None, level: int | None = None,
                 seed: int = 0):
        if options is None:
            options = level_options(level if level is not None else 10, seed, game=game)
        super().__init__(game, options, f"ismcts:level={level}" if level is not None else "ismcts")


class FlatMonteCarloBot(_SearchBot):
    """Flat Monte Carlo over determinizations (PIMC): rollouts spread over the root moves, no tree."""

    kind = "flat"

    def __init__(self, game: GameAdapter, options: SearchOptions | None = None, seed: int = 0):
        super().__init__(game, options or SearchOptions(iterations=2000, seed=seed), "flatmc")


def make_bot(spec: str, game: GameAdapter, seed: int = 0) -> Bot:
    """A bot from a spec: `random`, `greedy` (`greedy:eval=static`: the earlier one), `ismcts:level=7`, `ismcts:iterations=5000,threads=1`,
    `flatmc:iterations=2000` (any SearchOptions field may be given as key=value), or one of the game's
    own bots (`game.bots`: name -> factory(seed, **options), e.g. Abracada…What?'s `counting:threshold=0.2`)."""
    kind, _, params = spec.partition(":")
    kv: dict[str, str] = {}
    for item in filter(None, params.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"bot spec {spec!r}: {item!r} is not key=value")
        kv[key.strip()] = value.strip()
    kind = kind.strip().lower()
    own = game.bots
    if kind in own:
        try:
            bot = own[kind](seed=int(kv.pop("seed", seed)), **kv)
        except TypeError:
            raise ValueError(f"bot spec {spec!r}: unknown option for {kind}") from None
        bot.name = spec
        return bot
    if kind == "random":
        return RandomBot(game, int(kv.get("seed", seed)))
    if kind == "greedy":
        evaluation = kv.pop("eval", "heuristic")
        if evaluation not in ("heuristic", "static") or set(kv) - {"seed"}:
            raise ValueError(f"bot spec {spec!r}: greedy takes eval=heuristic (default) or eval=static, and seed")
        return GreedyBot(game, int(kv.get("seed", seed)), static=evaluation == "static")
    if kind in ("ismcts", "flatmc"):
        level = int(kv.pop("level")) if "level" in kv else None
        evaluator = kv.get("evaluator", "auto")
        base = (level_options(level, seed, evaluator=evaluator, game=game) if level is not None
                else SearchOptions(seed=seed))
        fields = {f: type(getattr(base, f)) for f in base.__dataclass_fields__}
        changes = {}
        for key, value in kv.items():
            if key not in fields:
                raise ValueError(f"bot spec {spec!r}: unknown option {key!r}; options: {', '.join(fields)}")
            typ = fields[key]
            changes[key] = (value.lower() in ("1", "true", "yes")) if typ is bool else typ(value)
        opts = replace(base, **changes)
        if kind == "flatmc":
            bot = FlatMonteCarloBot(game, opts)
        else:
            bot = ISMCTSBot(game, opts)
        bot.name = spec
        return bot
    extra = "".join(f", {name}[:...]" for name in own)
    raise ValueError(f"unknown bot {kind!r}: use random, greedy, ismcts[:...]{extra} or flatmc[:...]")
