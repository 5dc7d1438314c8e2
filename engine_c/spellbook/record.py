"""SpellBook's part of the game record: engine_c/records.py is the one format for every game (docs/records.md)
and asks each game's `record` module (engine_c.registry) what only the game knows: its setup (the 7 spells),
its chance events (Pouch draws, all public), a state before setup, and the older formats, which were
SpellBook's alone (the server's "spellbook-record/1", the terminal's "spellbook-ai-game" save, a tournament
JSONL line)."""
from __future__ import annotations

from typing import Any, Iterable

from engine_c import records as R
from engine_c.base import IllegalMoveError, NotationError, _mix_seed
from engine_c.spellbook.state import SPELL_NAMES, Move, State, resolve_spells

EVENT_KINDS = ("setup", "move", "draw")
PUBLIC = True                # every draw is public: a record is shown whole to every viewer


def new(players: int, setup: Any, seed: int) -> State:
    """State.new(players, spells=setup, seed); ValueError names what is wrong."""
    return State.new(players=players, spells=setup, seed=seed)


def fresh(players: int, setup: Any, seed: int) -> State:
    """A state before setup (the Altar and pools still to be drawn) whose generator is `seed`'s; `setup`:
    the spells (names, or a set name drawn with the seed)."""
    st = State()
    st._init(players, resolve_spells(setup, seed), _mix_seed(seed))
    return st


def setup_list(setup: Any) -> list[str]:
    """The record's `spells` from a writer's spell names."""
    return list(setup)


def setup_events(st: State) -> list[dict]:
    """The setup's draws of a fresh state (S1, S3) as 'setup' events, applied."""
    return [R.event("setup", -1, d) for d in st.resolve_chance()]


def read_setup(obj: dict, seed: int | None) -> list[str]:
    """The record's spells as the 7 names in color order (RecordError('spells') otherwise)."""
    spells = obj.get("spells")
    if spells is None:
        raise R.RecordError("spells", "missing from the record")
    if not (isinstance(spells, str) or (isinstance(spells, list) and all(isinstance(s, str) for s in spells))):
        raise R.RecordError("spells", "must be the 7 spell names in color order")
    if isinstance(spells, str) and spells.strip().lower() == "classic" and seed is None:
        raise R.RecordError("spells", "'classic' is drawn with the seed: list the 7 spells instead")
    try:
        ids = resolve_spells(spells, seed or 0)
    except ValueError as e:
        raise R.RecordError("spells", str(e)) from None
    return [SPELL_NAMES[i] for i in ids]


def check_view(obj: dict, players: int) -> None:
    """Nothing to check: a SpellBook record is never a view (its draws are public)."""


def chance_event(state: State, outcome: Any, seq: int | None = None) -> dict:
    """A Pouch draw ('draw') with where it went: `zone` "pool" (and the seat `to`) or "altar"."""
    zone, to = state.draw_destination()
    return R.event("draw", -1, outcome, seq, zone=zone, to=to if to >= 0 else None)


def check_chance_kind(st: State, ev: dict, i: int) -> None:
    """A 'setup' or 'draw' event; a draw's `zone` and `to`, when given (records before them have none), must
    be where the pending draw goes."""
    if ev["kind"] not in ("setup", "draw"):
        raise R.RecordError(f"events[{i}].kind", f"a Pouch draw is a 'setup' or 'draw' event, not {ev['kind']!r}")
    if ev["kind"] == "draw" and ("zone" in ev or "to" in ev):
        zone, to = st.draw_destination()
        want = {"zone": zone, "to": to if to >= 0 else None}
        for key in ("zone", "to"):
            if key in ev and ev[key] != want[key]:
                raise R.RecordError(f"events[{i}].{key}", f"the pending draw goes to {zone}"
                                                          f"{f' of seat {to}' if to >= 0 else ''}, not {ev[key]!r}")


def visible(ev: dict, viewer: int | None) -> bool:
    return True


# ----------------------------------------------------------------------------------------------
# Older formats
# ----------------------------------------------------------------------------------------------
def from_legacy_moves(players: int, spells: list[str], seed: int, moves: Iterable[tuple[int, str, str]]):
    """Replays a legacy move list (seat or -1, move text, field name) from State.new(seed): the setup
    draws come from the seed, as do any draws the list leaves out. Returns (events, final state)."""
    st = fresh(players, spells, seed)
    events = setup_events(st)
    for seat_, text, where in moves:
        try:
            move = Move.from_text(text)
            if move.is_chance:
                if not st.is_chance():
                    raise R.RecordError(where, "no draw is pending here")
                st.parse_move(move)
                st._sample_chance_code()
                st._apply_code(move.code)
                events.append(R.event("draw", -1, move))
                continue
            for d in st.resolve_chance():          # draws a legacy record left out: the seed's
                events.append(R.event("draw", -1, d))
            if st.is_terminal():
                raise R.RecordError(where, "the game is already over")
            if seat_ is not None and seat_ >= 0 and seat_ != st.current_player:
                raise R.RecordError(where, f"seat {st.current_player} decides here, not seat {seat_}")
            events.append(R.event("move", st.current_player, move))
            st.apply(move)
        except (IllegalMoveError, NotationError) as e:
            raise R.RecordError(where, str(e)) from None
    events += [R.event("draw", -1, d) for d in st.resolve_chance()]   # as the recorded game went on at once
    return events, st


def from_server_v1(obj: dict) -> dict:
    """The server's first format: seed, events after setup (draws may be left out), seats, result."""
    players = R.int_field(obj, "players", 2, 4)
    seed = R.int_field(obj, "seed", 0, 2**64 - 1)
    spells = read_setup(obj, seed)
    evs = obj.get("events")
    if not isinstance(evs, list):
        raise R.RecordError("events", "must be a list of events")
    moves = []
    for i, e in enumerate(evs):
        if not isinstance(e, dict) or not isinstance(e.get("move"), str):
            raise R.RecordError(f"events[{i}].move", "each event needs a move text")
        seat_ = e.get("seat", -1)
        moves.append((seat_ if isinstance(seat_, int) and e.get("kind") != "draw" else None, e["move"],
                      f"events[{i}].move"))
    events, final = from_legacy_moves(players, spells, seed, moves)
    seats = []
    for s in obj.get("seats") or []:
        s = s if isinstance(s, dict) else {}
        seats.append(R.seat(s.get("kind") if s.get("kind") in R.SEAT_KINDS else "client", s.get("spec", ""),
                            s.get("level", 0)))
    if seats and len(seats) != players:
        seats = []
    rec = R.build(players, final.spells, seats, events, final, seed=seed, seed_shown=True)
    _check_result(obj.get("result"), rec, "result")
    if obj.get("session_id"):
        rec["session_id"] = obj["session_id"]
    return rec


def from_moves_format(obj: dict) -> dict:
    """The terminal's save ("spellbook-ai-game") and a tournament JSONL line: seed, seats as names,
    `moves` as [seat or -1, text]."""
    players = R.int_field(obj, "players", 2, 4)
    seed = R.int_field(obj, "seed", 0, 2**64 - 1)
    spells = read_setup(obj, seed)
    raw = obj.get("moves")
    if not isinstance(raw, list):
        raise R.RecordError("moves", "must be a list of [seat, move]")
    moves = []
    for i, m in enumerate(raw):
        if not (isinstance(m, list) and len(m) == 2 and isinstance(m[0], int) and isinstance(m[1], str)):
            raise R.RecordError(f"moves[{i}]", "each move is [seat, text] (seat -1 for a draw)")
        moves.append((m[0], m[1], f"moves[{i}]"))
    events, final = from_legacy_moves(players, spells, seed, moves)
    names = obj.get("seats") or []
    seats = ([R.seat_from_spec(s) for s in names]
             if len(names) == players and all(isinstance(s, str) for s in names) else [])
    extra: dict[str, Any] = {}
    if "key" in obj:
        extra["tournament"] = {k: obj[k] for k in ("key", "matchup", "deal", "rotation", "seconds", "worker")
                               if k in obj}
    if obj.get("server_session"):
        extra["session_id"] = obj["server_session"]
    if obj.get("practice"):
        extra["practice"] = True
    rec = R.build(players, final.spells, seats, events, final, seed=seed, seed_shown=True,
                  unfinished=bool(obj.get("unfinished")) and not final.is_terminal(), **extra)
    if "scores" in obj and final.is_terminal():
        _check_result({"scores": obj["scores"]}, rec, "scores")
    return rec


def _check_result(claimed: Any, rec: dict, field: str) -> None:
    if isinstance(claimed, dict) and isinstance(claimed.get("scores"), list) and rec["result"] is not None:
        if list(claimed["scores"]) != rec["result"]["scores"]:
            raise R.RecordError(field, f"the moves replay to scores {rec['result']['scores']}, the record says "
                                       f"{list(claimed['scores'])}")
