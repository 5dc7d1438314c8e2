"""What every game's messages share, and names no game: the refusal of a request field (FieldError), the
server's caps (Caps), the search options of a request and the options and statistics a search reports, the
mistake classes, moves written into a Move message, and game records read from and written into messages.

Every game's package (spellbook.v1, abracadawhat.v1, games.v1) spells these messages with the same field names
and enum values, so one implementation fills any of them: the caller passes its package's message to fill
(`out`), its types module, or its game's search adapter (`game`). A game's own views (its states, hints and
insight) are in its converter: server/convert.py (SpellBook's), server/aw_convert.py (Abracada…What?'s), and
server/games_service.py's `_Conv` (games.v1, any game).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any, Callable

from engine_c import records
from engine_c.base import IllegalMoveError, NotationError
from search.levels import default_level, level_options
from search.model import default_model
from search.search import SearchOptionError, SearchOptions, SearchResult


class FieldError(ValueError):
    """A request field the server refuses: (field path, why)."""

    def __init__(self, field: str, description: str):
        super().__init__(f"{field}: {description}")
        self.field = field
        self.description = description


# ----------------------------------------------------------------------------------------------
# Moves
# ----------------------------------------------------------------------------------------------
def parse_move(state, move, field: str = "move", example: str = ""):
    """The legal move a Move message's text names in `state` (its engine's parse_move), or a FieldError naming
    `field.text`. `example`: a move of the game, shown when the text is empty."""
    if not move.text.strip():
        shown = f", e.g. '{example}'" if example else ""
        raise FieldError(f"{field}.text", f"give the move text{shown} (see ListLegalMoves)")
    try:
        return state.parse_move(move.text)
    except (NotationError, IllegalMoveError) as e:
        raise FieldError(f"{field}.text", str(e)) from None


def set_move(dst, move, words: Callable[[str], str] | None = None) -> None:
    """Writes `move` into the Move field `dst` of any package in place (building a message and then copying it
    into its parent costs several times as much): its text, code and kind, and its words for a player when the
    game's `words` (text -> words) is given."""
    text = str(move)
    dst.text, dst.code, dst.kind = text, move.code, move.kind
    if words is not None:
        dst.words = words(text)


# ----------------------------------------------------------------------------------------------
# Search options
# ----------------------------------------------------------------------------------------------
@dataclass
class Caps:
    """The server's limits on one search (ServiceConfig.caps())."""

    max_iterations: int
    max_time_ms: float
    max_threads: int
    max_nodes: int
    default_level: int


_LIMIT_FIELDS = ("iterations", "time_ms", "threads")
_OPTION_FIELDS = ("exploration", "objective", "blend", "margin_scale", "rollout", "cutoff", "temperature",
                  "max_nodes", "c_puct", "root_halving", "lcb_stdevs")
_EFFECTIVE_FIELDS = ("level", "iterations", "time_ms", "threads", "exploration", "objective", "blend",
                     "margin_scale", "rollout", "cutoff", "temperature", "max_nodes", "stop_early", "evaluator",
                     "model", "c_puct", "root_halving", "lcb_stdevs")


@functools.cache
def _fields_in(descriptor, names: tuple[str, ...]) -> tuple[str, ...]:
    """The fields of `names` a message type has (a package may lack some; looked up once per type)."""
    return tuple(n for n in names if n in descriptor.fields_by_name)


def search_options(req, caps: Caps, game, observer_kind: int = 0) -> tuple[SearchOptions, int]:
    """SearchOptions of a GetBestMove/GetHints/Analyze/AnalyzeGame request of any package, and the strength
    level used (0: none).

    Level first (or the default search options when only explicit options are given, or the server's
    default level when neither), then the explicit options the request's package has, then the limits.
    `limits.time_ms` without `limits.iterations` makes the search time-bound. Every search is capped at
    `caps.max_time_ms`. `game`: the search adapter whose levels and model apply. `observer_kind`: the
    searching seat's kind of observer (SearchOptions.observer_kind), as the game's converter reads it from
    the request's state and the package's own options; 0 leaves the level's.
    """
    lim = req.limits
    for name in _LIMIT_FIELDS:
        if getattr(lim, name) < 0:
            raise FieldError(f"limits.{name}", f"must not be negative, got {getattr(lim, name)}")
    if lim.iterations > caps.max_iterations:
        raise FieldError("limits.iterations", f"at most {caps.max_iterations} (server cap), got {lim.iterations}")
    if lim.time_ms > caps.max_time_ms:
        raise FieldError("limits.time_ms", f"at most {caps.max_time_ms:g} ms (server cap), got {lim.time_ms:g}")
    if lim.threads > caps.max_threads:
        raise FieldError("limits.threads", f"at most {caps.max_threads} (server cap), got {lim.threads}")
    if req.level and not 1 <= req.level <= 10:
        raise FieldError("level", f"must be 1 to 10 (0: the server's default), got {req.level}")
    has_options = req.HasField("options")
    level = req.level or (0 if has_options else caps.default_level or default_level(game))
    evaluator = _evaluator(req.options, game) if has_options else "auto"
    opts = level_options(level, req.seed, evaluator=evaluator, game=game) if level else None
    changes: dict[str, Any] = {}
    if observer_kind:
        changes["observer_kind"] = observer_kind
    if has_options:
        o = req.options
        for name in _fields_in(o.DESCRIPTOR, _OPTION_FIELDS):
            if o.HasField(name):
                changes[name] = getattr(o, name)
        if o.HasField("max_nodes") and o.max_nodes > caps.max_nodes:
            raise FieldError("options.max_nodes", f"at most {caps.max_nodes} (server cap), got {o.max_nodes}")
    if lim.iterations:
        changes["iterations"] = int(lim.iterations)
    if lim.time_ms:
        changes["time_ms"] = float(lim.time_ms)
        if not lim.iterations:
            changes["iterations"] = 0
    if lim.threads:
        changes["threads"] = int(lim.threads)
    # without a level: the defaults with the changes, made in one step (replace() on a default SearchOptions
    # would cost as much again as the rest of this function)
    opts = replace(opts, **changes) if opts is not None else SearchOptions(seed=req.seed, evaluator=evaluator,
                                                                           **changes)
    opts.time_ms = min(opts.time_ms or caps.max_time_ms, caps.max_time_ms)
    opts.max_nodes = min(opts.max_nodes, caps.max_nodes)
    if opts.iterations > caps.max_iterations:
        opts.iterations = caps.max_iterations
    try:
        opts.validate()
    except SearchOptionError as e:
        prefix = "limits" if e.field in _LIMIT_FIELDS else "options"
        raise FieldError(f"{prefix}.{e.field}", str(e).split(": ", 1)[-1]) from None
    return opts, level


def _evaluator(o, game) -> str:
    """The request's evaluator ("auto" when not given); FieldError when unknown or not available."""
    if not o.HasField("evaluator") or o.evaluator == "":
        return "auto"
    if o.evaluator not in ("network", "rollout"):
        raise FieldError("options.evaluator", f"must be network or rollout, got {o.evaluator[:40]!r}")
    if o.evaluator == "network" and default_model(game) is None:
        raise FieldError("options.evaluator", "this server has no learned model (GetServerInfo.model); use rollout")
    return o.evaluator


def effective_options(opts: SearchOptions, level: int, result: SearchResult | None, out, game=None):
    """The options a search used, written into the EffectiveOptions message `out` (any package's: the fields
    it has) and returned. Without `result` (a search not yet run), the evaluator and model are the ones `game`'s
    search adapter would use."""
    if result is not None:
        evaluator, model = result.evaluator, result.model
    else:
        m = default_model(game) if opts.evaluator != "rollout" else None
        use = m is not None and (opts.evaluator == "network" or m.use_by_default)
        evaluator, model = ("network", m.version) if use else ("rollout", "")
    values = dict(level=level, iterations=opts.iterations, time_ms=opts.time_ms, threads=opts.threads,
                  exploration=opts.exploration, objective=opts.objective, blend=opts.blend,
                  margin_scale=opts.margin_scale, rollout=opts.rollout, cutoff=opts.cutoff,
                  temperature=opts.temperature, max_nodes=opts.max_nodes, stop_early=opts.stop_early,
                  evaluator=evaluator, model=model, c_puct=opts.c_puct, root_halving=opts.root_halving,
                  lcb_stdevs=opts.lcb_stdevs)
    for name in _fields_in(out.DESCRIPTOR, _EFFECTIVE_FIELDS):
        setattr(out, name, values[name])
    return out


def search_stats(result: SearchResult, opts: SearchOptions, level: int, cut_short: bool, out,
                 hide_moves: bool = False, words: Callable[[str], str] | None = None):
    """The SearchStats of a search, written into `out` (any package's SearchStats; an empty field of the
    response: filling it in place spares the copy a response constructor makes of a finished message) and
    returned. `words`: the game's move words, for a package whose Move has them."""
    stats = out
    stats.iterations, stats.elapsed_ms, stats.seed = result.iterations, result.elapsed_s * 1000.0, result.seed
    stats.player, stats.threads, stats.nodes = result.player, result.threads, result.nodes
    stats.mean_decisions, stats.cut_short, stats.stopped_early = result.mean_decisions, cut_short, result.stopped_early
    effective_options(opts, level, result, stats.options)
    if not hide_moves:
        for s in result.moves:
            set_move(stats.moves.add(visits=s.visits, availability=s.availability, mean_reward=s.mean_reward,
                                     win_probability=s.win_probability, expected_score=s.expected_score,
                                     score_std=s.score_std, prior=s.prior).move, s.move, words)
        for m in result.principal_variation:
            set_move(stats.principal_variation.add(), m, words)
    return stats


def mistake_class(name: str, types) -> int:
    """The MistakeClass enum value of a search/hints.py class name ("best" ... "blunder") in the package whose
    types module is `types`."""
    return types.MistakeClass.Value(f"MISTAKE_CLASS_{name.upper()}")


# ----------------------------------------------------------------------------------------------
# Game records
# ----------------------------------------------------------------------------------------------
def fill_record(out, rec: dict) -> None:
    """The seed, seats, events and result of a record dict into a GameRecord message of any game's package
    (they share these fields)."""
    if rec.get("seed") is not None:
        out.seed = rec["seed"]
    for s in rec.get("seats") or []:
        out.seats.add(kind=s.get("kind", ""), level=s.get("level", 0), spec=s.get("spec", ""))
    for e in rec.get("events", []):
        out.events.add(seq=e.get("seq", 0), kind=e.get("kind", ""), seat=e.get("seat", -1), move=e["move"])
    if rec.get("result"):
        out.result.scores.extend(rec["result"]["scores"])
        out.result.winners.extend(rec["result"]["winners"])
        if rec["result"].get("resigned") is not None:
            out.result.resigned = rec["result"]["resigned"]


def loaded_record(r, rec: dict, field: str) -> dict:
    """`rec` (a record dict made from the GameRecord `r` of any game's package) with r's seed and result,
    loaded and checked (FieldError names the bad field)."""
    if r.HasField("seed"):
        rec["seed"] = r.seed
    if r.HasField("result"):
        rec["result"] = {"scores": list(r.result.scores), "winners": list(r.result.winners)}
        if r.result.HasField("resigned"):
            rec["result"]["resigned"] = r.result.resigned
    try:
        return records.load(rec)
    except records.RecordError as e:
        raise FieldError(f"{field}.{e.field}" if e.field else field, e.message) from None


def record_from_json(text: str, field: str = "record_json") -> dict:
    """A JSON record in any format engine_c.records reads, as a version-2 dict (FieldError names the field)."""
    try:
        return records.loads(text)
    except records.RecordError as e:
        raise FieldError(f"{field}.{e.field}" if e.field else field, e.message) from None
