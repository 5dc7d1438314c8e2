"""The game record: one versioned JSON format for every game the project writes or reads.

This module is the format and knows no game's rules: what only a game knows (its setup, its chance
events, what a viewer may see, SpellBook's older formats) is in the game's folder, engine_c/<game>/record.py,
found through engine_c.registry (`get_game(name).record`).

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

The Spellbook TCG's records carry `"game": "spellbooktcg"`, its `decks` (the card file's digest, the two
decks, and a user's card file itself: engine_c/spellbooktcg/record.py, D174), and a chance event for every
card drawn ("deal", "draw"); a view hides the other seat's draws ("draw ?") and mana cards ("mana ?").

A seat that resigns ends the game: the record's last event is `{"kind": "resign", "seat": s, "move":
"resign"}`, its status `finished` and its result the scores at that moment, the winners the other seats
with the most points, and `"resigned": s` (D130). Such a record replays to the position where it was
resigned (not a game-over state): `resigned(record)` says who resigned.

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
import re
import secrets
from typing import Any, Iterable, Sequence

from engine_c.base import IllegalMoveError, NotationError
from engine_c.contract import Game
from engine_c.registry import DEFAULT_GAME, GAMES, UNNAMED_GAME, get_game

FORMAT = "spellbook-record"
VERSION = 2
STATUSES = ("finished", "active", "unfinished")   # unfinished: stopped by a harness's decision cap (D15)
SEAT_KINDS = ("human", "client", "bot")
RESIGN = "resign"                      # the event (kind and move) of a seat that resigned: the record's last (D130)
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


def event(kind: str, seat_: int, move: Any, seq: int | None = None, zone: str = "",
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
    return _rules(_game_of_state(state)).chance_event(state, outcome, seq)


def setup_events(players: int, spells: str | Sequence[str], seed: int, game: str = DEFAULT_GAME,
                 variants: str | Sequence[str] = (), setup: Any = None) -> list[dict]:
    """The setup's chance events of the game's `State.new(players, ..., seed)`: SpellBook's setup draws
    (S1, S3) as 'setup' events; Abracada…What?'s deal (XS2 in XC5's order) as 'deal' events (`spells`
    is ignored for it; `variants` is ignored for SpellBook); any other game's, its `setup` (None: its
    default setup)."""
    game = _game_name(game)
    rules = _rules(game)
    return rules.setup_events(rules.fresh(players, _setup_arg(game, spells, variants, setup), seed))


def for_viewer(record: dict, viewer: int | None) -> dict:
    """The record as `viewer` (a seat, or None: a spectator) may see it. While the game is not finished,
    every Abracada…What? chance outcome the viewer may not see (its own hand, others' taken secret
    stones, the secret stones; a spectator: every hand) is written "stone ?", and `view` says whose view
    it is; a finished game's record is shown whole, as is every SpellBook record (its draws are public)."""
    rules = game_of(record).record
    if rules.PUBLIC or record.get("status") == "finished":
        return dict(record)
    out = dict(record)
    out.pop("seed", None)            # the seed fixes every hand: never in a view of a live game
    # an optional part of a game's record module: hidden(event) (how a hidden event reads; default: "stone ?")
    hide = getattr(rules, "hidden", None) or (lambda e: dict(e, move=HIDDEN_STONE))
    out["events"] = [e if visible_to(rules, e, viewer) else hide(e) for e in record["events"]]
    out["view"] = "spectator" if viewer is None else f"seat {viewer}"
    return out


def visible_to(rules: Any, event: dict, viewer: int | None) -> bool:
    """Whether `viewer` (a seat, or None: a spectator) may see `event` (a record event: kind, seat, move,
    zone, to) of an unfinished game whose record module is `rules` (get_game(name).record): a resignation
    and a decision always (unless the module's optional SECRET_MOVES says some decisions are hidden too:
    the Spellbook TCG's mana card), a chance outcome as the module's `visible(event, viewer)` says."""
    kind = event.get("kind")
    if kind == RESIGN or (kind == "move" and not getattr(rules, "SECRET_MOVES", False)):
        return True
    return rules.visible(event, viewer)


def build(players: int, spells: Sequence[str], seats: Sequence[dict], events: Sequence[dict],
          final: Any = None, seed: int | None = None, seed_shown: bool = False,
          unfinished: bool = False, game: str = DEFAULT_GAME, variants: Sequence[str] = (), setup: Any = None,
          **extra: Any) -> dict:
    """A record. `final` (the state after the last event) gives the status and the result. The seed is
    kept only if the game is over or `seed_shown` (the players chose it): a live game's seed would
    reveal the Pouch's order (Abracada…What?: the hands). `game` (default: the first listed) and, for
    Abracada…What?, its `variants` (`spells` is then ignored); any other game, its `setup` (its record
    module's setup_list reads it; None: its default). `extra` adds top-level metadata (e.g. session_id,
    tournament)."""
    game = _game_name(game)
    quitter = _resigned_events(events)
    over = final is not None and (final.is_terminal() or quitter is not None)
    status = "finished" if over else "unfinished" if unfinished else "active"
    rec: dict[str, Any] = {"format": FORMAT, "version": VERSION, **game_field(game)}
    rec["players"] = players
    rec[get_game(game).setup] = _rules(game).setup_list(_setup_arg(game, spells, variants, setup))
    rec.update(seats=[dict(s) for s in seats], status=status)
    if seed is not None and (over or unfinished or seed_shown):
        rec["seed"] = seed
    rec["events"] = [dict(e) for e in events]
    result = None
    if final is not None and (over or unfinished):
        scores = totals(final)
        result = {"scores": scores, "winners": list(range(players)) if unfinished and not over else final.winners()}
        if quitter is not None:
            result = {"scores": scores, "winners": resign_winners(scores, quitter), "resigned": quitter}
    rec["result"] = result
    rec.update(extra)
    return rec


def resign_event(seat_: int, seq: int | None = None) -> dict:
    """The event of `seat_` resigning (the record's last; D130)."""
    return event(RESIGN, seat_, RESIGN, seq)


def resign_winners(scores: Sequence[int], quitter: int) -> list[int]:
    """The winners of a game `quitter` resigned: the other seats with the most points (ties share)."""
    others = [p for p in range(len(scores)) if p != quitter]
    best = max(scores[p] for p in others)
    return [p for p in others if scores[p] == best]


def _resigned_events(events: Sequence[dict]) -> int | None:
    return events[-1].get("seat") if events and events[-1].get("kind") == RESIGN else None


def resigned(record: dict) -> int | None:
    """The seat that resigned the game of `record` (its last event is a resignation), else None."""
    return _resigned_events(record.get("events") or [])


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
    if UNNAMED_GAME is None:
        raise RecordError("format", f"not a game record (format {fmt!r}; expected {FORMAT!r})")
    legacy = _rules(UNNAMED_GAME)    # the older formats were the first game's alone
    if fmt == LEGACY_SERVER or (fmt is None and "events" in obj):
        return legacy.from_server_v1(obj)
    if fmt == LEGACY_TERMINAL or (fmt is None and "moves" in obj):
        return legacy.from_moves_format(obj)
    if fmt is None and "key" in obj and "seats" in obj:
        raise RecordError("moves", "this tournament line has no moves (it was written with --no-moves), "
                                   "so the game cannot be replayed")
    raise RecordError("format", f"not a SpellBook game record (format {fmt!r}; expected {FORMAT!r})")


def int_field(obj: dict, key: str, lo: int, hi: int, required: bool = True) -> int | None:
    """obj[key], an integer from lo to hi (RecordError(key) otherwise; None when absent and not required)."""
    if key not in obj or obj[key] is None:
        if required:
            raise RecordError(key, "missing from the record")
        return None
    v = obj[key]
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RecordError(key, f"must be an integer from {lo} to {hi}, got {v!r}")
    return v


def _game_name(name: Any) -> str:
    """The registry's name of a record's game; RecordError('game') for an unknown one."""
    try:
        return get_game(name).name
    except ValueError as e:
        raise RecordError("game", str(e)) from None


def game_of(record: dict) -> Game:
    """The game of a record (or of a record-like dict: a tournament's settings, a request): its "game" field,
    else the game older files name by leaving it out (engine_c.registry.UNNAMED_GAME): the one documented
    reading of a record that names no game. RecordError('game') for an unknown game, or when no game is
    read so."""
    name = record.get("game")
    if name is None:
        if UNNAMED_GAME is None:
            raise RecordError("game", "missing: name the record's game")
        name = UNNAMED_GAME
    return get_game(_game_name(name))


def game_field(game: Any) -> dict:
    """What a record writes of its game: {"game": name}, or {} for the game older files name by leaving it out
    (so its records read as they always have)."""
    g = get_game(game)
    return {} if g.unnamed_in_older_files else {"game": g.name}


def _game_of_state(state) -> str:
    return next(name for name in GAMES if isinstance(state, get_game(name).State))


def _rules(game: str):
    """The game's part of the record (engine_c/<game>/record.py, found through the registry)."""
    return get_game(game).record


def _setup_arg(game: str, spells: Any, variants: Any, setup: Any = None) -> Any:
    """Of a writer's `spells`, `variants` and `setup` arguments, the one the game's setup is: `setup` when
    given, else the older games' own argument (a game whose setup field is another's gets None: its
    record module's default setup)."""
    if setup is not None:
        return setup
    return {"spells": spells, "variants": variants}.get(get_game(game).setup)


def totals(state) -> list[int]:
    """Each seat's score as an integer (SpellBook's Score.total; Abracada…What?'s points)."""
    return [s if isinstance(s, int) else s.total for s in state.scores()]





def played_setup(game: Any, state: Any, setup: Any) -> Any:
    """The setup of a game begun with `setup` as a record writes it (build's `setup`): the State's own value of
    the game's setup field where it has one (SpellBook's 7 spells, a set's names or those drawn for the deal;
    Abracada…What?'s variants), else `setup` itself, for the record module's setup_list (the Spellbook TCG's
    decks)."""
    g = get_game(game)
    value = getattr(state, g.setup, None) if g.setup else None
    return list(value) if value is not None else setup


def new_game(game: str, players: int, setup: Any, seed: int):
    """A new game of `game` set up with `seed`: SpellBook's State.new(players, spells=setup, seed) or
    Abracada…What?'s State.new(players, seed, variants=setup). ValueError names what is wrong (players,
    seed, spells or variants)."""
    return _rules(get_game(game).name).new(players, setup, seed)


def validate(obj: dict) -> dict:
    """A version-2 record, shape-checked and normalized (SpellBook: spells as 7 names; Abracada…What?:
    `game` and `variants`). Moves are checked by replay()."""
    g = game_of(obj)
    game = g.name
    players = int_field(obj, "players", g.min_players, g.max_players)
    seed = int_field(obj, "seed", 0, 2**64 - 1, required=False)
    rules = _rules(game)
    setup = rules.read_setup(obj, seed)
    kinds = rules.EVENT_KINDS
    rules.check_view(obj, players)
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
        if e.get("kind") not in kinds and e.get("kind") != RESIGN:
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
    out[g.setup] = setup
    out.pop("game", None)
    out.update(game_field(g))
    if seed is None:
        out.pop("seed", None)
    return out


# ----------------------------------------------------------------------------------------------
# Replaying
# ----------------------------------------------------------------------------------------------
def replay(record: dict, rng_seed: int | None = None) -> tuple[Any, list[tuple[Any, Any, int]]]:
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
    game = game_of(rec).name
    seed = rec.get("seed")
    if seed is None:
        seed = rng_seed if rng_seed is not None else secrets.randbits(63)
    rules = _rules(game)
    st = rules.fresh(rec["players"], rec[get_game(game).setup], seed)
    move_class = st.Move
    steps: list[tuple[Any, Any, int]] = []
    indices: list[int] = []
    quitter = None
    for i, ev in enumerate(rec["events"]):
        kind, text = ev["kind"], ev["move"]
        if kind == RESIGN:
            who = ev.get("seat")
            if text != RESIGN:
                raise RecordError(f"events[{i}].move", f"a resign event's move is {RESIGN!r}, got {text!r}")
            if i != len(rec["events"]) - 1:
                raise RecordError(f"events[{i}]", "a resignation ends the game: it is the record's last event")
            if not isinstance(who, int) or not 0 <= who < rec["players"]:
                raise RecordError(f"events[{i}].seat", f"the seat that resigns: 0 to {rec['players'] - 1}, got {who!r}")
            if st.is_terminal():
                raise RecordError(f"events[{i}]", "the game is already over")
            quitter = who
            continue
        try:
            if text == HIDDEN_STONE or text.endswith(" ?"):      # "stone ?", the TCG's "draw ?", "mana ?"
                raise RecordError(f"events[{i}].move", f"{'this stone' if text == HIDDEN_STONE else text} is hidden from the record's viewer "
                                                       f"({rec.get('view', 'unknown')}): only the whole record "
                                                       "replays (shown once the game is over)")
            move = move_class.from_text(text)
            if kind != "move":
                if not move.is_chance:
                    raise RecordError(f"events[{i}].move", f"a {kind} event is a chance outcome, got {text!r}")
                if not st.is_chance():
                    raise RecordError(f"events[{i}].kind", "no chance event is pending here")
                rules.check_chance_kind(st, ev, i)
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
    if rec["status"] == "finished" and not st.is_terminal() and quitter is None:
        raise RecordError("events", f"the record says finished, but the game is not over after its "
                                    f"{len(rec['events'])} events")
    if rec["result"] is not None and (st.is_terminal() or quitter is not None):
        scores = totals(st)
        if list(rec["result"]["scores"]) != scores:
            raise RecordError("result", f"the events replay to scores {scores}, the record says "
                                        f"{list(rec['result']['scores'])}")
    return st, steps, indices


# ----------------------------------------------------------------------------------------------
# A record replayed for a review (search/coach.py review_record)
# ----------------------------------------------------------------------------------------------
class Replayed:
    """A record replayed for a review: its game, the final state (the position at a resignation), the
    decisions (state before, move, seat), each decision's event index, the final scores (the scores at a
    resignation), who resigned (None: nobody) and where each decision was (round, label)."""

    def __init__(self, rec: dict):
        self.rec = rec
        self.game = game_of(rec)
        self.final, self.steps, self.events = replay_indexed(rec)     # RecordError names the field
        self.resigned = resigned(rec)
        if not self.final.is_terminal() and self.resigned is None:
            raise RecordError("events", f"the game is not over after its {len(rec.get('events') or [])} "
                                                "events: a review needs a finished (or resigned) game")
        self.players = rec["players"]
        self.final_scores = [float(x) for x in totals(self.final)]
        self.forced = sum(1 for st, _, _ in self.steps if len(st.legal_moves()) == 1)

    def round_of(self, index: int) -> int:
        """The round of decision `index` (SpellBook: the round; Abracada…What?: the round)."""
        return self.game.text.round_of(self.steps[index][0])

    def label(self, index: int) -> str:
        """Where decision `index` was, in a player's words, one label a decision (decision_labels): 'Round 2 ·
        Day of seat 1 · Evening', 'Round 3 · 2nd turn of seat 1 · 3rd decision'."""
        if getattr(self, "_labels", None) is None:
            self._labels = decision_labels(self.game.text, self.steps)
        return self._labels[index]


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def decision_labels(text: Any, steps: Sequence[tuple]) -> list[str]:
    """Each decision's label, distinct within a game (issue 51: nine entries of one round read "Round 3 ·
    your turn"): the game's `text.label(state)` (where it is), the seat's turn when it has several under that
    label (Abracada…What?'s turns of a round: '2nd turn of seat 1'), and the decision's place in the run of
    the seat's consecutive decisions there when the run has more than one ('3rd decision')."""
    bases = [text.label(st) for st, _m, _s in steps]
    runs: list[tuple[int, int]] = []            # (turn number under its label, place in its run) per step
    seen: dict[tuple[str, int], int] = {}
    for i, (_st, _m, seat) in enumerate(steps):
        if i and steps[i - 1][2] == seat and bases[i - 1] == bases[i]:
            runs.append((runs[-1][0], runs[-1][1] + 1))
        else:
            seen[(bases[i], seat)] = seen.get((bases[i], seat), 0) + 1
            runs.append((seen[(bases[i], seat)], 1))
    longest: dict[tuple[str, int, int], int] = {}
    for i, (turn, place) in enumerate(runs):
        key = (bases[i], steps[i][2], turn)
        longest[key] = max(longest.get(key, 0), place)
    out = []
    for i, (turn, place) in enumerate(runs):
        label = bases[i]
        if seen[(bases[i], steps[i][2])] > 1:
            label = re.sub(r"\b(Day|turn) of seat", lambda m: f"{ordinal(turn)} {m.group(1)} of seat", label, count=1) \
                if re.search(r"\b(Day|turn) of seat", label) else f"{label} · {ordinal(turn)} turn"
        if longest[(bases[i], steps[i][2], turn)] > 1:
            label += f" · {ordinal(place)} decision"
        out.append(label)
    return out


def replayed(rec: dict) -> Replayed:
    """The record replayed for a review; RecordError names what does not replay."""
    return Replayed(rec)
