"""The game record: one versioned JSON format for every game the project writes or reads.

Schema and examples: docs/records.md. In short (format "spellbook-record", version 2):

    {"format": "spellbook-record", "version": 2, "players": 2, "spells": [7 names in color order],
     "seats": [{"kind": "human"|"client"|"bot", "spec": "ismcts:level=5", "level": 5}, ...],
     "status": "finished"|"active"|"unfinished",
     "seed": 7,                                   # only when it may be shown (see below)
     "events": [{"kind": "setup", "seat": -1, "move": "drawn Rc"}, ...,
                {"kind": "move", "seat": 0, "move": "take Rc"}, {"kind": "draw", "seat": -1, "move": "drawn Gt"}],
     "result": {"scores": [..], "winners": [..]} or null}

Abracada…What? records carry `"game": "abracadawhat"` (absent: SpellBook, so every older record
still reads), `variants` instead of `spells`, and a chance event for every stone dealt, refilled or
taken and every die roll ("deal", "refill", "secret", "roll", with the `zone` and seat `to` it went to).
A stone the record's viewer may not see is written "stone ?" and the record says whose view it is
(`"view": "seat 1"` or `"spectator"`); `for_viewer()` makes such a record. Such a record does not
replay until the game is over and the full record may be shown.

Every Pouch draw is an event (the setup's too), so a record replays without its seed. The seed fixes
the Pouch's future, so a record carries it only when it may be shown: after the game, or for a game
started from a seed the players chose. Writers use `build()`, which applies that rule.

`load()` also reads the formats that came before (the server's "spellbook-record/1", the terminal's
"spellbook-ai-game" save, a tournament JSONL line) and converts them; anything else is a RecordError
whose `field` names what is wrong (e.g. "events[12].move"). `replay()` turns a record into engine
states.
"""
from __future__ import annotations

import json
import secrets
from typing import Any, Iterable, Sequence

from engine_c.registry import get_game
from engine_c.spellbook.state import IllegalMoveError, Move, NotationError, State, _mix_seed, resolve_spells

FORMAT = "spellbook-record"
VERSION = 2
STATUSES = ("finished", "active", "unfinished")   # unfinished: stopped by a harness's decision cap (D15)
EVENT_KINDS = ("setup", "move", "draw")
SEAT_KINDS = ("human", "client", "bot")
SPELLBOOK = "spellbook"                # the game of a record without a "game" field
ABRACADAWHAT = "abracadawhat"
AW_EVENT_KINDS = ("deal", "refill", "secret", "roll", "move")
HIDDEN_STONE = "stone ?"               # a chance outcome hidden from the record's viewer
LEGACY_SERVER = "spellbook-record/1"
LEGACY_TERMINAL = "spellbook-ai-game"


class RecordError(ValueError):
    """A record that is malformed or does not replay; `field` names where (e.g. 'events[12].move')."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


# ----------------------------------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------------------------------
def seat(kind: str, spec: str = "", level: int = 0) -> dict:
    """A seat entry: a human at the terminal, a client of a server session, or a bot (its spec)."""
    out: dict[str, Any] = {"kind": kind}
    if spec:
        out["spec"] = spec
    if level:
        out["level"] = level
    return out


def seat_from_spec(spec: str) -> dict:
    """A terminal/tournament seat name ("human" or a bot spec) as a seat entry."""
    return seat("human") if spec == "human" else seat("bot", spec)


def seat_name(entry: dict) -> str:
    """A short name of a seat entry: the bot spec, "level N", or the kind."""
    if entry.get("spec"):
        return entry["spec"]
    if entry.get("kind") == "bot" and entry.get("level"):
        return f"level {entry['level']}"
    return entry.get("kind", "?")


def event(kind: str, seat_: int, move: Move | str, seq: int | None = None, zone: str = "",
          to: int | None = None) -> dict:
    """An event. `zone` and `to` (Abracada…What?'s chance events): where the outcome went ('removed',
    'hand', 'secret', 'taken') and the seat whose hand or secret stones it joined."""
    out: dict[str, Any] = {"kind": kind, "seat": seat_, "move": str(move)}
    if zone:
        out["zone"] = zone
    if to is not None:
        out["to"] = to
    if seq is not None:
        out["seq"] = seq
    return out


def chance_event(state, outcome: Any, seq: int | None = None) -> dict:
    """The event of `outcome`, a chance outcome pending in `state` (before it is applied): a SpellBook
    Pouch draw ('draw'), or an Abracada…What? stone or roll with its kind, zone and seat."""
    if _game_of_state(state) == SPELLBOOK:
        return event("draw", -1, outcome, seq)
    from engine_c.abracadawhat.state import chance_destination

    kind, zone, to = chance_destination(state)
    return event(kind, -1, outcome, seq, zone=zone, to=to if to >= 0 else None)


def setup_events(players: int, spells: str | Sequence[str], seed: int, game: str = SPELLBOOK,
                 variants: str | Sequence[str] = ()) -> list[dict]:
    """The setup's chance events of the game's `State.new(players, ..., seed)`: SpellBook's setup draws
    (S1, S3) as 'setup' events; Abracada…What?'s deal (XS2 in XC5's order) as 'deal' events (`spells`
    is ignored for it; `variants` is ignored for SpellBook)."""
    game = _game_name(game)
    st = _fresh(players, resolve_spells(spells, seed) if game == SPELLBOOK else list(variants), seed, game)
    if game == SPELLBOOK:
        return [event("setup", -1, d) for d in st.resolve_chance()]
    out = []
    while st.is_chance():
        outcome = st.Move(st._sample_chance_code())
        out.append(chance_event(st, outcome))
        st._apply_code(outcome.code)
    return out


def for_viewer(record: dict, viewer: int | None) -> dict:
    """The record as `viewer` (a seat, or None: a spectator) may see it. While the game is not finished,
    every Abracada…What? chance outcome the viewer may not see (its own hand, others' taken secret
    stones, the secret stones; a spectator: every hand) is written "stone ?", and `view` says whose view
    it is; a finished game's record is shown whole, as is every SpellBook record (its draws are public)."""
    if _game_name(record.get("game", SPELLBOOK)) == SPELLBOOK or record.get("status") == "finished":
        return dict(record)
    from engine_c.abracadawhat.state import outcome_visible_to

    out = dict(record)
    out.pop("seed", None)            # the seed fixes every hand: never in a view of a live game
    out["events"] = [e if e.get("kind") == "move" or outcome_visible_to(e.get("zone", ""), e.get("to", -1), viewer)
                     else dict(e, move=HIDDEN_STONE) for e in record["events"]]
    out["view"] = "spectator" if viewer is None else f"seat {viewer}"
    return out


def build(players: int, spells: Sequence[str], seats: Sequence[dict], events: Sequence[dict],
          final: Any = None, seed: int | None = None, seed_shown: bool = False,
          unfinished: bool = False, game: str = SPELLBOOK, variants: Sequence[str] = (), **extra: Any) -> dict:
    """A record. `final` (the state after the last event) gives the status and the result. The seed is
    kept only if the game is over or `seed_shown` (the players chose it): a live game's seed would
    reveal the Pouch's order (Abracada…What?: the hands). `game` (default SpellBook) and, for
    Abracada…What?, its `variants` (`spells` is then ignored). `extra` adds top-level metadata (e.g.
    session_id, tournament)."""
    game = _game_name(game)
    over = final is not None and final.is_terminal()
    status = "finished" if over else "unfinished" if unfinished else "active"
    rec: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if game != SPELLBOOK:
        rec.update(game=game, players=players, variants=[str(v).lower() for v in variants])
    else:
        rec.update(players=players, spells=list(spells))
    rec.update(seats=[dict(s) for s in seats], status=status)
    if seed is not None and (over or unfinished or seed_shown):
        rec["seed"] = seed
    rec["events"] = [dict(e) for e in events]
    result = None
    if final is not None and (over or unfinished):
        scores = totals(final)
        result = {"scores": scores, "winners": list(range(players)) if unfinished and not over else final.winners()}
    rec["result"] = result
    rec.update(extra)
    return rec


def dumps(record: dict, indent: int | None = None) -> str:
    return json.dumps(record, indent=indent, separators=None if indent else (",", ":"))


# ----------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------
def loads(text: str, field: str = "") -> dict:
    """A record from JSON text (any supported format), converted and checked."""
    try:
        obj = json.loads(text)
    except (ValueError, TypeError) as e:
        raise RecordError(field, f"not valid JSON: {e}") from None
    except RecursionError:
        raise RecordError(field, "nested too deeply (a record is a flat object of events)") from None
    return load(obj, field)


def load(obj: Any, field: str = "") -> dict:
    """A record (version 2) from a parsed JSON object in any supported format. Legacy formats are
    converted by replaying them with their seed; a version-2 record is shape-checked (replay() checks
    the moves). RecordError names the bad field, prefixed with `field` when given."""
    try:
        return _load(obj)
    except RecordError as e:
        if field:
            raise RecordError(f"{field}.{e.field}" if e.field else field, e.message) from None
        raise


def load_file(path: str) -> list[dict]:
    """Every record in a file: one JSON record, a JSON list of records, or JSON lines (a tournament's
    results). OSError if unreadable; RecordError naming the line (`line 3: ...`) or the field."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    stripped = text.strip()
    if not stripped:
        raise RecordError("", f"{path} is empty")
    try:
        whole = json.loads(stripped)
    except ValueError:
        whole = None
    if isinstance(whole, list):
        return [load(r, f"[{i}]") for i, r in enumerate(whole)]
    if whole is not None:
        return [load(whole)]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            if n == len(text.splitlines()) and not text.endswith("\n"):
                break          # a last line cut short by an interrupted writer
            raise RecordError(f"line {n}", f"not valid JSON: {e}") from None
        out.append(load(obj, f"line {n}"))
    return out


def _load(obj: Any) -> dict:
    if not isinstance(obj, dict):
        raise RecordError("", f"a game record is a JSON object, got {type(obj).__name__}")
    fmt = obj.get("format")
    if fmt == FORMAT:
        version = obj.get("version")
        if version != VERSION:
            raise RecordError("version", f"this version reads spellbook-record version {VERSION}, got {version!r}")
        return validate(obj)
    if fmt == LEGACY_SERVER or (fmt is None and "events" in obj):
        return _from_server_v1(obj)
    if fmt == LEGACY_TERMINAL or (fmt is None and "moves" in obj):
        return _from_moves_format(obj)
    if fmt is None and "key" in obj and "seats" in obj:
        raise RecordError("moves", "this tournament line has no moves (it was written with --no-moves), "
                                   "so the game cannot be replayed")
    raise RecordError("format", f"not a SpellBook game record (format {fmt!r}; expected {FORMAT!r})")


def _int(obj: dict, key: str, lo: int, hi: int, required: bool = True) -> int | None:
    if key not in obj or obj[key] is None:
        if required:
            raise RecordError(key, "missing from the record")
        return None
    v = obj[key]
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RecordError(key, f"must be an integer from {lo} to {hi}, got {v!r}")
    return v


def _spells(obj: dict, seed: int | None) -> list[str]:
    spells = obj.get("spells")
    if spells is None:
        raise RecordError("spells", "missing from the record")
    if not (isinstance(spells, str) or (isinstance(spells, list) and all(isinstance(s, str) for s in spells))):
        raise RecordError("spells", "must be the 7 spell names in color order")
    if isinstance(spells, str) and spells.strip().lower() == "classic" and seed is None:
        raise RecordError("spells", "'classic' is drawn with the seed: list the 7 spells instead")
    try:
        ids = resolve_spells(spells, seed or 0)
    except ValueError as e:
        raise RecordError("spells", str(e)) from None
    from engine_c.spellbook.state import SPELL_NAMES

    return [SPELL_NAMES[i] for i in ids]


def _game_name(name: Any) -> str:
    """The registry's name of a record's game; RecordError('game') for an unknown one."""
    try:
        return get_game(name).name
    except ValueError as e:
        raise RecordError("game", str(e)) from None


def _game_of_state(state) -> str:
    return SPELLBOOK if isinstance(state, State) else ABRACADAWHAT


def _variants(obj: dict) -> list[str]:
    from engine_c.abracadawhat.state import VARIANTS

    variants = obj.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) and v.lower() in VARIANTS for v in variants):
        raise RecordError("variants", f"must be a list of variant names ({', '.join(VARIANTS)}), got {variants!r}")
    return sorted({v.lower() for v in variants})


def totals(state) -> list[int]:
    """Each seat's score as an integer (SpellBook's Score.total; Abracada…What?'s points)."""
    return [s if isinstance(s, int) else s.total for s in state.scores()]





def new_game(game: str, players: int, setup: Any, seed: int):
    """A new game of `game` set up with `seed`: SpellBook's State.new(players, spells=setup, seed) or
    Abracada…What?'s State.new(players, seed, variants=setup). ValueError names what is wrong (players,
    seed, spells or variants)."""
    g = get_game(game)
    if g.name == SPELLBOOK:
        return g.State.new(players=players, spells=setup, seed=seed)
    return g.State.new(players=players, seed=seed, variants=setup or ())


def validate(obj: dict) -> dict:
    """A version-2 record, shape-checked and normalized (SpellBook: spells as 7 names; Abracada…What?:
    `game` and `variants`). Moves are checked by replay()."""
    game = _game_name(obj.get("game", SPELLBOOK))
    g = get_game(game)
    players = _int(obj, "players", g.min_players, g.max_players)
    seed = _int(obj, "seed", 0, 2**64 - 1, required=False)
    if game == SPELLBOOK:
        spells = _spells(obj, seed)
        kinds = EVENT_KINDS
    else:
        variants = _variants(obj)
        kinds = AW_EVENT_KINDS
        view = obj.get("view")
        if view is not None and not (view == "spectator" or (isinstance(view, str) and view.startswith("seat ")
                                                              and view[5:].isdigit() and int(view[5:]) < players)):
            raise RecordError("view", f"must be 'spectator' or 'seat N' (N from 0 to {players - 1}), got {view!r}")
    seats = obj.get("seats", [])
    if not isinstance(seats, list) or (seats and len(seats) != players):
        raise RecordError("seats", f"must list the {players} seats")
    for i, s in enumerate(seats):
        if not isinstance(s, dict) or s.get("kind") not in SEAT_KINDS:
            raise RecordError(f"seats[{i}].kind", f"must be one of {', '.join(SEAT_KINDS)}")
        if "spec" in s and not isinstance(s["spec"], str):
            raise RecordError(f"seats[{i}].spec", "must be a string")
        if "level" in s and (not isinstance(s["level"], int) or isinstance(s["level"], bool)):
            raise RecordError(f"seats[{i}].level", "must be an integer")
    status = obj.get("status", "active")
    if status not in STATUSES:
        raise RecordError("status", f"must be one of {', '.join(STATUSES)}, got {status!r}")
    events = obj.get("events")
    if not isinstance(events, list):
        raise RecordError("events", "must be a list of events")
    for i, e in enumerate(events):
        if not isinstance(e, dict) or not isinstance(e.get("move"), str):
            raise RecordError(f"events[{i}].move", "each event needs a move text")
        if e.get("kind") not in kinds:
            raise RecordError(f"events[{i}].kind", f"must be one of {', '.join(kinds)}, got {e.get('kind')!r}")
        if not isinstance(e.get("seat", -1), int) or isinstance(e.get("seat", -1), bool):
            raise RecordError(f"events[{i}].seat", "must be an integer")
    result = obj.get("result")
    if result is not None:
        if not (isinstance(result, dict) and isinstance(result.get("scores"), list)
                and isinstance(result.get("winners", []), list)):
            raise RecordError("result", 'must be {"scores": [...], "winners": [...]} or null')
        if len(result["scores"]) != players or not all(isinstance(x, int) for x in result["scores"]):
            raise RecordError("result.scores", f"must be {players} integer scores")
    out = dict(obj)
    out.update(players=players, seats=seats, status=status, events=events, result=result)
    if game == SPELLBOOK:
        out.update(spells=spells)
        out.pop("game", None)
    else:
        out.update(game=game, variants=variants)
    if seed is None:
        out.pop("seed", None)
    return out


# ----------------------------------------------------------------------------------------------
# Replaying
# ----------------------------------------------------------------------------------------------
def _fresh(players: int, spell_ids: list, seed: int, game: str = SPELLBOOK):
    """A state before setup (SpellBook: the Altar and pools still to be drawn; Abracada…What?: before the
    deal, `spell_ids` then being its variants) whose generator is `seed`'s."""
    if game == SPELLBOOK:
        st = State()
        st._init(players, spell_ids, _mix_seed(seed))
        return st
    from engine_c.abracadawhat.state import variant_bits

    st = get_game(game).State()
    st._init(players, variant_bits(spell_ids), _mix_seed(seed))
    return st


def replay(record: dict, rng_seed: int | None = None) -> tuple[State, list[tuple[State, Move, int]]]:
    """The state after the record's last event and the (state before, move, seat) of every decision.

    Any supported format is accepted (load() converts it). The record's draws are applied as recorded;
    when the record has its seed, the state's generator is kept in step, so a continued game draws what
    the original would have. Without a seed the Pouch's future is unknown: the generator is seeded with
    `rng_seed`, or at random."""
    final, steps, _ = replay_indexed(record, rng_seed)
    return final, steps


def replay_indexed(record: dict, rng_seed: int | None = None):
    """replay(), plus the index in record["events"] of each decision (for event-level references).
    The record must already be version 2 for the indices to refer to its events."""
    rec = record if record.get("format") == FORMAT and record.get("version") == VERSION else load(record)
    rec = validate(rec)
    game = _game_name(rec.get("game", SPELLBOOK))
    seed = rec.get("seed")
    if seed is None:
        seed = rng_seed if rng_seed is not None else secrets.randbits(63)
    setup = resolve_spells(rec["spells"]) if game == SPELLBOOK else rec["variants"]
    st = _fresh(rec["players"], setup, seed, game)
    move_class = st.Move
    steps: list[tuple[Any, Any, int]] = []
    indices: list[int] = []
    for i, ev in enumerate(rec["events"]):
        kind, text = ev["kind"], ev["move"]
        try:
            if text == HIDDEN_STONE:
                raise RecordError(f"events[{i}].move", f"this stone is hidden from the record's viewer "
                                                       f"({rec.get('view', 'unknown')}): only the whole record "
                                                       "replays (shown once the game is over)")
            move = move_class.from_text(text)
            if kind != "move":
                if not move.is_chance:
                    raise RecordError(f"events[{i}].move", f"a {kind} event is a chance outcome, got {text!r}")
                if not st.is_chance():
                    raise RecordError(f"events[{i}].kind", "no chance event is pending here")
                _check_chance_kind(st, ev, i)
                move = st.parse_move(move)
                st._sample_chance_code()          # keeps the generator in step with the recorded game
                st._apply_code(move.code)
                continue
            if move.is_chance:
                raise RecordError(f"events[{i}].kind", f"{text!r} is a chance outcome, not a move")
            if st.is_chance():
                raise RecordError(f"events[{i}]", "a chance event is pending here: the record must list it "
                                                  "before the next move")
            if st.is_terminal():
                raise RecordError(f"events[{i}]", "the game is already over")
            seat_ = st.current_player
            if ev.get("seat", seat_) != seat_:
                raise RecordError(f"events[{i}].seat", f"seat {seat_} decides here, not seat {ev['seat']}")
            before = st.clone()
            st.apply(move)
            steps.append((before, move, seat_))
            indices.append(i)
        except (IllegalMoveError, NotationError) as e:
            raise RecordError(f"events[{i}].move", str(e)) from None
    if rec["status"] == "finished" and not st.is_terminal():
        raise RecordError("events", f"the record says finished, but the game is not over after its "
                                    f"{len(rec['events'])} events")
    if rec["result"] is not None and st.is_terminal():
        scores = totals(st)
        if list(rec["result"]["scores"]) != scores:
            raise RecordError("result", f"the events replay to scores {scores}, the record says "
                                        f"{list(rec['result']['scores'])}")
    return st, steps, indices


def _check_chance_kind(st, ev: dict, i: int) -> None:
    """A chance event's kind (and Abracada…What?'s zone and seat, when given) must be the pending one's."""
    if _game_of_state(st) == SPELLBOOK:
        if ev["kind"] not in ("setup", "draw"):
            raise RecordError(f"events[{i}].kind", f"a Pouch draw is a 'setup' or 'draw' event, not {ev['kind']!r}")
        return
    want = chance_event(st, "")
    for key in ("kind", "zone", "to"):
        if key in ev and ev[key] != want.get(key) or key == "kind" and ev[key] != want[key]:
            raise RecordError(f"events[{i}].{key}", f"the pending chance event is "
                                                    f"{dict((k, want[k]) for k in ('kind', 'zone', 'to') if k in want)}"
                                                    f", not {ev[key]!r}")


# ----------------------------------------------------------------------------------------------
# Older formats
# ----------------------------------------------------------------------------------------------
def _from_legacy_moves(players: int, spells: list[str], seed: int, moves: Iterable[tuple[int, str, str]]):
    """Replays a legacy move list (seat or -1, move text, field name) from State.new(seed): the setup
    draws come from the seed, as do any draws the list leaves out. Returns (events, final state)."""
    st = _fresh(players, resolve_spells(spells, seed), seed)
    events = [event("setup", -1, d) for d in st.resolve_chance()]
    for seat_, text, where in moves:
        try:
            move = Move.from_text(text)
            if move.is_chance:
                if not st.is_chance():
                    raise RecordError(where, "no draw is pending here")
                st.parse_move(move)
                st._sample_chance_code()
                st._apply_code(move.code)
                events.append(event("draw", -1, move))
                continue
            for d in st.resolve_chance():          # draws a legacy record left out: the seed's
                events.append(event("draw", -1, d))
            if st.is_terminal():
                raise RecordError(where, "the game is already over")
            if seat_ is not None and seat_ >= 0 and seat_ != st.current_player:
                raise RecordError(where, f"seat {st.current_player} decides here, not seat {seat_}")
            events.append(event("move", st.current_player, move))
            st.apply(move)
        except (IllegalMoveError, NotationError) as e:
            raise RecordError(where, str(e)) from None
    events += [event("draw", -1, d) for d in st.resolve_chance()]   # as the recorded game went on at once
    return events, st


def _from_server_v1(obj: dict) -> dict:
    """The server's first format: seed, events after setup (draws may be left out), seats, result."""
    players = _int(obj, "players", 2, 4)
    seed = _int(obj, "seed", 0, 2**64 - 1)
    spells = _spells(obj, seed)
    evs = obj.get("events")
    if not isinstance(evs, list):
        raise RecordError("events", "must be a list of events")
    moves = []
    for i, e in enumerate(evs):
        if not isinstance(e, dict) or not isinstance(e.get("move"), str):
            raise RecordError(f"events[{i}].move", "each event needs a move text")
        seat_ = e.get("seat", -1)
        moves.append((seat_ if isinstance(seat_, int) and e.get("kind") != "draw" else None, e["move"],
                      f"events[{i}].move"))
    events, final = _from_legacy_moves(players, spells, seed, moves)
    seats = []
    for s in obj.get("seats") or []:
        s = s if isinstance(s, dict) else {}
        seats.append(seat(s.get("kind") if s.get("kind") in SEAT_KINDS else "client", s.get("spec", ""),
                          s.get("level", 0)))
    if seats and len(seats) != players:
        seats = []
    rec = build(players, final.spells, seats, events, final, seed=seed, seed_shown=True)
    _check_result(obj.get("result"), rec, "result")
    if obj.get("session_id"):
        rec["session_id"] = obj["session_id"]
    return rec


def _from_moves_format(obj: dict) -> dict:
    """The terminal's save ("spellbook-ai-game") and a tournament JSONL line: seed, seats as names,
    `moves` as [seat or -1, text]."""
    players = _int(obj, "players", 2, 4)
    seed = _int(obj, "seed", 0, 2**64 - 1)
    spells = _spells(obj, seed)
    raw = obj.get("moves")
    if not isinstance(raw, list):
        raise RecordError("moves", "must be a list of [seat, move]")
    moves = []
    for i, m in enumerate(raw):
        if not (isinstance(m, list) and len(m) == 2 and isinstance(m[0], int) and isinstance(m[1], str)):
            raise RecordError(f"moves[{i}]", "each move is [seat, text] (seat -1 for a draw)")
        moves.append((m[0], m[1], f"moves[{i}]"))
    events, final = _from_legacy_moves(players, spells, seed, moves)
    names = obj.get("seats") or []
    seats = [seat_from_spec(s) for s in names] if len(names) == players and all(isinstance(s, str) for s in names) else []
    extra: dict[str, Any] = {}
    if "key" in obj:
        extra["tournament"] = {k: obj[k] for k in ("key", "matchup", "deal", "rotation", "seconds", "worker")
                               if k in obj}
    if obj.get("server_session"):
        extra["session_id"] = obj["server_session"]
    if obj.get("practice"):
        extra["practice"] = True
    rec = build(players, final.spells, seats, events, final, seed=seed, seed_shown=True,
                unfinished=bool(obj.get("unfinished")) and not final.is_terminal(), **extra)
    if "scores" in obj and final.is_terminal():
        _check_result({"scores": obj["scores"]}, rec, "scores")
    return rec


def _check_result(claimed: Any, rec: dict, field: str) -> None:
    if isinstance(claimed, dict) and isinstance(claimed.get("scores"), list) and rec["result"] is not None:
        if list(claimed["scores"]) != rec["result"]["scores"]:
            raise RecordError(field, f"the moves replay to scores {rec['result']['scores']}, the record says "
                                     f"{list(claimed['scores'])}")
