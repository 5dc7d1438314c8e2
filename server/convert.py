"""SpellBook's messages (proto/spellbook/v1) from and to engine objects: its states (text, observation and
the structured StateView), moves with their words, hints, insight and game records, and the search options and
statistics with the field only SpellBook has (`knows_discard`, its observer kind). What every game's messages
share is server/common_convert.py's; this is the spellbook.v1 servicer's `conv`.

Nothing here knows a rule or a search technique: states are parsed and validated by the engine's
notation (a structured StateView is written out as notation text first, so both forms go through the
same checks), search options by SearchOptions.validate(). Every refusal is a FieldError naming the
request field, which the servicer turns into INVALID_ARGUMENT with a google.rpc.BadRequest.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine_c import records
from engine_c.spellbook import Move, NotationError, State
from engine_c.spellbook.game import SPELLBOOK
from engine_c.spellbook.move_words import move_words
from engine_c.spellbook.notation import _frame_text
from engine_c.spellbook.reasons import Reason
from engine_c.spellbook.state import COLORS, NTYPE, PHASES, RUNES, SPELL_NAMES, format_counts, parse_token
from search.hints import Hint
from search.search import SearchOptions, SearchResult
from server import common_convert as common
from server._gen.spellbook.v1 import types_pb2 as pb
from server.common_convert import Caps, FieldError, fill_record, loaded_record

# SearchOptions.observer_kind of a seat that does not remember the Discard box (the engine's determinize with
# knows_discard=False); 0 is the seat as the rules make it.
NO_DISCARD_MEMORY = 1


def remembers_discard(opts: SearchOptions) -> bool:
    """Whether a search's seat remembers the Discard box: observer kind 0 (the engine's determinize reads
    every other kind as a seat without that memory)."""
    return opts.observer_kind == 0


# ----------------------------------------------------------------------------------------------
# States
# ----------------------------------------------------------------------------------------------
@dataclass
class ParsedState:
    state: State
    observer: int | None = None      # set when the input was an observation
    knows_discard: bool = True       # False for an observation without Discard-box memory


def _counts_text(items, field: str) -> str:
    counts = [0] * NTYPE
    for i, tc in enumerate(items):
        try:
            t = parse_token(tc.token)
        except NotationError as e:
            raise FieldError(f"{field}[{i}].token", str(e)) from None
        counts[t] += tc.count
    return format_counts(counts)


def view_to_text(v: pb.StateView, field: str) -> tuple[str, bool]:
    """Notation text of a structured state, and whether it is an observation (empty rng)."""
    if not 2 <= v.players <= 4:
        raise FieldError(f"{field}.players", f"must be 2 to 4, got {v.players}")
    if len(v.seats) != v.players:
        raise FieldError(f"{field}.seats", f"lists {len(v.seats)} seats for {v.players} players")
    if v.phase not in PHASES:
        raise FieldError(f"{field}.phase", f"must be one of {', '.join(PHASES)}, got {v.phase!r}")
    for name, val in (("day", v.day), ("active_player", v.active_player), ("pouch_size", v.pouch_size),
                      ("observer", v.observer)):
        if val < 0:
            raise FieldError(f"{field}.{name}", f"must not be negative, got {val}")
    words = ["sb1", f"n={v.players}", "spells=" + ",".join(v.spells), f"day={v.day}",
             f"active={v.active_player}", f"phase={v.phase}", f"end={int(v.end_triggered)}",
             f"over={int(v.over)}", f"altar={_counts_text(v.altar, field + '.altar')}"]
    if v.unseen:
        words += [f"unseen={_counts_text(v.unseen, field + '.unseen')}", f"pouchsize={v.pouch_size}"]
    else:
        words += [f"pouch={_counts_text(v.pouch, field + '.pouch')}",
                  f"discard={_counts_text(v.discard, field + '.discard')}"]
    for i, seat in enumerate(v.seats):
        sf = f"{field}.seats[{i}]"
        learned = []
        for j, ls in enumerate(seat.spells):
            if ls.rune not in tuple(RUNES) or ls.level not in (3, 4, 5) or ls.learned_day < 0:
                raise FieldError(f"{sf}.spells[{j}]", "needs level 3-5, rune c/t/s and learned_day >= 0")
            learned.append(f"{ls.spell}{ls.level}{ls.rune}@{ls.learned_day}")
        words.append(f"p{i}=pool:{_counts_text(seat.pool, sf + '.pool')};"
                     f"fam:{_counts_text(seat.familiar, sf + '.familiar')};spells:{','.join(learned) or '-'}")
    words += ["stack=" + (",".join(v.stack) or "-"), f"taken={_counts_text(v.taken, field + '.taken')}",
              f"given={_counts_text(v.given, field + '.given')}",
              f"justdisc={_counts_text(v.justdisc, field + '.justdisc')}"]
    if v.rng:
        return " ".join(words + [f"rng={v.rng}"]), False
    return " ".join(words + [f"observer={v.observer}"]), True


# NotationError messages -> the StateView field they are about.
_VIEW_FIELDS = [
    (re.compile(r"player (\d+)'s pool"), "seats[{0}].pool"),
    (re.compile(r"player (\d+)'s familiar"), "seats[{0}].familiar"),
    (re.compile(r"player (\d+)(?:'s spell| has learned| lists|'s \w+ (?:is at|was learned))"), "seats[{0}].spells"),
    (re.compile(r"^(?:spells=|unknown spell)"), "spells"),
    (re.compile(r"^stack"), "stack"),
    (re.compile(r"^rng"), "rng"),
    (re.compile(r"^justdisc"), "justdisc"),
    (re.compile(r"^(?:unseen|pouchsize)"), "unseen"),
    (re.compile(r"^(altar|pouch|discard|taken|given|phase|day|over|observer)\b"), "{0}"),
    (re.compile(r"^active="), "active_player"),
    (re.compile(r"^end="), "end_triggered"),
]


def _view_field(field: str, message: str) -> str:
    for pattern, sub in _VIEW_FIELDS:
        m = pattern.search(message)
        if m:
            return f"{field}.{sub.format(*m.groups())}"
    return field


def parse_state(si: pb.StateInput, field: str = "state") -> ParsedState:
    """The engine state of a StateInput; FieldError names what is wrong."""
    form = si.WhichOneof("form")
    if form is None:
        raise FieldError(field, "give the state as text, observation or view")
    if form == "view":
        text, is_obs = view_to_text(si.view, f"{field}.view")
        sub = f"{field}.view"
    else:
        text, is_obs, sub = getattr(si, form), form == "observation", f"{field}.{form}"
    try:
        if is_obs:
            st = State.from_observation(text, seed=si.determinize_seed)
            m = re.search(r"(?:^|\s)observer=(\d+)", text)
            return ParsedState(st, int(m.group(1)) if m else 0, "unseen=" not in text)
        return ParsedState(State.from_text(text))
    except (NotationError, ValueError) as e:
        raise FieldError(_view_field(sub, str(e)) if form == "view" else sub, str(e)) from None


def token_counts(counts) -> list[pb.TokenCount]:
    from engine_c.spellbook.state import token_name

    return [pb.TokenCount(token=token_name(t), count=n) for t, n in enumerate(counts) if n]


def state_view(state: State, parsed: ParsedState | None = None) -> pb.StateView:
    raw = state._to_raw()
    obs = parsed is not None and parsed.observer is not None
    v = pb.StateView(players=raw["players"], spells=state.spells, day=raw["day"], active_player=raw["active"],
                     phase=PHASES[raw["phase"]], end_triggered=bool(raw["end_triggered"]), over=bool(raw["over"]),
                     altar=token_counts(raw["altar"]), stack=[_frame_text(f) for f in raw["stack"]],
                     taken=token_counts(raw["taken"]), given=token_counts(raw["given"]),
                     justdisc=token_counts(raw["justdisc"]), current_player=state.current_player,
                     decision=state.decision)
    if obs and not parsed.knows_discard:
        v.unseen.extend(token_counts([raw["pouch"][t] + raw["discard"][t] - raw["justdisc"][t] for t in range(NTYPE)]))
        v.pouch_size = sum(raw["pouch"])
    else:
        v.pouch.extend(token_counts(raw["pouch"]))
        v.discard.extend(token_counts(raw["discard"]))
    if obs:
        v.observer = parsed.observer
    else:
        v.rng = f"{raw['rng']:016x}"
    scores = state.scores()
    for p in range(raw["players"]):
        seat = v.seats.add(seat=p, pool=token_counts(raw["pool"][p]), familiar=token_counts(raw["fam"][p]))
        for c in range(len(COLORS)):
            if raw["level"][p][c]:
                seat.spells.add(spell=SPELL_NAMES[raw["spell"][c]], color=COLORS[c], level=raw["level"][p][c],
                                rune=RUNES[raw["rune"][p][c]], learned_day=raw["learned_day"][p][c])
        s = scores[p]
        seat.score.CopyFrom(pb.Score(total=s.total, spells=s.spells, familiar=s.familiar, feast=s.feast,
                                     knowledge=s.knowledge, communion=s.communion))
    return v


def game_state(state: State, parsed: ParsedState | None = None) -> pb.GameState:
    """Both forms of a state; an observation input is answered in the observation form (no Pouch order)."""
    if parsed is not None and parsed.observer is not None:
        text = state.observation(parsed.observer, parsed.knows_discard)
    else:
        text = state.to_text()
    return pb.GameState(text=text, view=state_view(state, parsed))


# ----------------------------------------------------------------------------------------------
# Moves
# ----------------------------------------------------------------------------------------------
def move_pb(move: Move) -> pb.Move:
    """The Move message: its text, code, kind and its words for a player (engine_c/spellbook/move_words.py)."""
    text = str(move)
    return pb.Move(text=text, code=move.code, kind=move.kind, words=move_words(text))


def set_move(dst: pb.Move, move: Move) -> None:
    """Writes `move` into the Move field `dst` in place, as move_pb(move) would make it (building a message
    and then copying it into its parent costs several times as much)."""
    common.set_move(dst, move, move_words)


def parse_move(state: State, move: pb.Move, field: str = "move") -> Move:
    """The legal move `move.text` names in `state` (FieldError naming `field.text` otherwise)."""
    return common.parse_move(state, move, field, example="take Rc")


# ----------------------------------------------------------------------------------------------
# Search options
# ----------------------------------------------------------------------------------------------
def search_options(req, caps: Caps, parsed: ParsedState | None = None) -> tuple[SearchOptions, int]:
    """SearchOptions of a spellbook.v1 search or review request and the strength level used (0: none), as
    common_convert.search_options makes them, with SpellBook's observer: a seat without Discard-box memory
    (NO_DISCARD_MEMORY) when `parsed` is an observation that lacks it (unseen=) or `options.knows_discard`
    is false. `options.knows_discard = true` for such an observation is refused: the memory is not there."""
    remembers = parsed is None or parsed.knows_discard
    asked = req.options.HasField("knows_discard") if req.HasField("options") else False
    if asked and not req.options.knows_discard:
        remembers = False
    opts, level = common.search_options(req, caps, SPELLBOOK, 0 if remembers else NO_DISCARD_MEMORY)
    if asked and req.options.knows_discard and not remembers:
        raise FieldError("options.knows_discard", "the observation has no Discard-box memory (unseen=)")
    return opts, level


def effective_options(opts: SearchOptions, level: int, result: SearchResult | None = None) -> pb.EffectiveOptions:
    """The options a search used, with whether the searching seat remembered the Discard box."""
    out = common.effective_options(opts, level, result, pb.EffectiveOptions(), SPELLBOOK)
    out.knows_discard = remembers_discard(opts)
    return out


def search_stats(result: SearchResult, opts: SearchOptions, level: int, cut_short: bool,
                 hide_moves: bool = False, out: pb.SearchStats | None = None) -> pb.SearchStats:
    """The SearchStats of a search (common_convert.search_stats with SpellBook's move words and
    `knows_discard`), written into `out` when given."""
    stats = common.search_stats(result, opts, level, cut_short, pb.SearchStats() if out is None else out,
                                hide_moves, move_words)
    stats.options.knows_discard = remembers_discard(opts)
    return stats


def mistake_class(name: str) -> int:
    """spellbook.v1's MistakeClass of a search/hints.py class name."""
    return common.mistake_class(name, pb)


def _reasons_pb(reasons) -> list[pb.Reason]:
    return [pb.Reason(kind=r.kind, value=r.value, items=r.items, text=r.text, aspect=r.aspect) for r in reasons]


def hint_pb(h: Hint, reasons: list[Reason], hide_move: bool = False, veiled_reasons=()) -> pb.Hint:
    out = pb.Hint(rank=h.rank, win_probability=h.win_probability, expected_score=h.expected_score, loss=h.loss,
                  loss_points=h.loss_points, mistake_class=mistake_class(h.mistake_class), visits=h.visits,
                  about_equal=h.about_equal, loss_margin=h.loss_margin, score_spread=h.score_spread,
                  reasons=_reasons_pb(reasons), veiled_reasons=_reasons_pb(veiled_reasons), verdict=h.verdict)
    if not hide_move:
        out.move.CopyFrom(move_pb(h.move))
        out.variants.extend(move_pb(m) for m in h.variants)
        out.note = h.note
    return out


# ----------------------------------------------------------------------------------------------
# Insight
# ----------------------------------------------------------------------------------------------
@dataclass
class InsightSpec:
    """Validated InsightOptions (defaults filled in)."""

    beliefs: bool
    within_draws: int
    what_if: bool
    what_if_move: str             # "" = the search's best move
    what_if_iterations: int
    value_spread: bool
    spread_moves: int
    worlds: int
    rollouts: int

    @property
    def any(self) -> bool:
        return self.beliefs or self.what_if or self.value_spread


# field: (default, cap)
INSIGHT_NUMBERS = {"within_draws": (5, 20), "what_if_iterations": (100, 5000), "spread_moves": (5, 20),
                   "worlds": (16, 256), "rollouts": (4, 64)}
MAX_SPREAD_ROLLOUTS = 100_000


def insight_options(o: pb.InsightOptions, field: str = "insight") -> InsightSpec:
    """Checks the numbers (negative or above the caps: FieldError naming the field) and fills defaults."""
    values = {}
    for name, (default, cap) in INSIGHT_NUMBERS.items():
        v = getattr(o, name)
        if v < 0 or v > cap:
            raise FieldError(f"{field}.{name}", f"must be 0 to {cap} (0: {default}), got {v}")
        values[name] = v or default
    if o.value_spread and values["worlds"] * values["rollouts"] * values["spread_moves"] > MAX_SPREAD_ROLLOUTS:
        raise FieldError(f"{field}.worlds", f"worlds * rollouts * spread_moves must be at most {MAX_SPREAD_ROLLOUTS}, "
                                            f"got {values['worlds'] * values['rollouts'] * values['spread_moves']}")
    if o.HasField("what_if_move") and o.what_if_move.text.strip() and not o.what_if:
        raise FieldError(f"{field}.what_if", "set what_if to use what_if_move")
    return InsightSpec(beliefs=o.beliefs, what_if=o.what_if, what_if_move=o.what_if_move.text.strip(),
                       value_spread=o.value_spread, **values)


def insight_pb(observer: int, knows_discard: bool, beliefs=None, what_if_move: Move | None = None,
               what_if=None, spread=None, hide_what_if_move: bool = False) -> pb.Insight:
    out = pb.Insight(observer=observer, knows_discard=knows_discard)
    for b in beliefs or []:
        out.beliefs.add(token=b.token, expected_in_pouch=b.expected_in_pouch, p_next=b.p_next, p_within=b.p_within)
    if what_if_move is not None and not hide_what_if_move:
        out.what_if_move.CopyFrom(move_pb(what_if_move))
    for d in what_if or []:
        # a SpellBook draw outcome reads "drawn Rc": the token is its second word
        o = out.what_if.add(token=str(d.outcome).split()[1], probability=d.probability, decider=d.decider,
                            win_probability=d.win_probability, expected_score=d.expected_score)
        if d.best_reply is not None:
            o.best_reply.CopyFrom(move_pb(d.best_reply))
    for s in spread or []:
        out.value_spread.add(move=move_pb(s.move), margin_q05=s.margin_q05, margin_q50=s.margin_q50,
                             margin_q95=s.margin_q95, best_share=s.best_share)
    return out


# ----------------------------------------------------------------------------------------------
# Game records
# ----------------------------------------------------------------------------------------------
record_from_json = common.record_from_json        # records.loads reads every game's records


def record_pb(rec: dict) -> pb.GameRecord:
    """A record dict (engine_c.records, version 2) as a GameRecord message."""
    out = pb.GameRecord(format=rec.get("format", records.FORMAT), version=rec.get("version", records.VERSION),
                        session_id=rec.get("session_id") or "", players=rec["players"], spells=rec["spells"],
                        status=rec.get("status", ""))
    fill_record(out, rec)
    return out


def record_from_pb(r: pb.GameRecord, field: str = "record") -> dict:
    """A GameRecord message as a version-2 record dict (checked; FieldError names the bad field)."""
    events = [{"kind": e.kind, "seat": e.seat, "move": e.move} for e in r.events]
    if r.format in ("", records.LEGACY_SERVER) and not r.version:     # the first format: events after setup
        rec = {"format": records.LEGACY_SERVER, "players": r.players, "spells": list(r.spells), "events": events}
    else:
        rec = {"format": r.format, "version": r.version, "players": r.players,
               "spells": list(r.spells), "status": r.status or ("finished" if r.HasField("result") else "active"),
               "seats": [{k: v for k, v in (("kind", s.kind), ("spec", s.spec), ("level", s.level)) if v}
                         for s in r.seats],
               "events": events}
    return loaded_record(r, rec, field)
