"""Sessions: games hosted by the server, with client seats and bot seats, persisted in a SessionStore.

The server runs the Pouch (draws use the session's seeded generator), bot seats move by themselves
(ISMCTS at their strength level, seeded from the session seed and the event number, so a session replays
the same way after a restart), and every event is stored before it changes the session in memory, is
acknowledged or published.

One implementation for every game of engine_c.registry: a session knows its game (stored with it) and
reaches its rules, bots and record through it. Chance events are stored with their kind ('draw' for a
SpellBook Pouch draw; Abracada…What?'s 'deal', 'refill', 'secret', 'roll' with the zone and seat a stone
went to), so the RPCs can hide from each caller what it may not see.

The seed is secret: unless the creator fixes it (replay / tournament mode, `fixed_seed`, shown to every
seat), it is drawn from the OS's secure generator, and neither it nor anything derived from it (the bots'
search seeds) leaves the server before the game is over: `export` gives the seed only then.

Several replicas (processes or machines) may share one database. The database is the truth; what a
manager keeps in memory (`sessions`) is a cache that it brings up to date whenever the database is ahead:
- every move goes through `store.advance()`, which serializes a session's moves across replicas and hands
  over the latest stored state (the `expected_seq` check runs against it, so a retry sent to another
  replica is still recognized);
- a bot seat is driven only by the replica holding the session's bot lease, renewed while it searches;
  a sweeper takes over sessions whose lease ran out (its holder died) and expires idle sessions;
- events stored elsewhere reach this replica's watchers through the store's notifications (PostgreSQL)
  or by polling (SQLite), and a watcher fills any gap from the store, so it never skips an event.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import os
import secrets
import socket
import threading
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import AsyncIterator

from engine_c import records
from engine_c.contract import tells_events
from engine_c.base import IllegalMoveError, NotationError
from engine_c.registry import DEFAULT_GAME, Game, get_game
from search import ismcts
from search.bots import make_bot
from search.levels import level_options
from server import auth, metrics
from server.store import Advance, Expired, SessionStore


log = logging.getLogger("spellbook.server")


def _log_task_failure(what: str, sid: str, task: asyncio.Task) -> None:
    """A background loop that died of an error: say so (a bot resumes through the sweeper)."""
    if not task.cancelled() and task.exception() is not None:
        log.error(f"{what} failed", exc_info=task.exception(), extra={"fields": {"session": auth.redact(sid)}})


_EXPIRED = "the session expired after a long time without a move"
_STOPPED = object()     # to a session's watchers: its match was stopped before the game's end


class SessionError(Exception):
    """A refused session call. `code` is a gRPC status name; `field` names the offending request field."""

    def __init__(self, code: str, field: str, message: str):
        super().__init__(message)
        self.code, self.field, self.message = code, field, message


@dataclass
class SeatSpec:
    kind: str                 # "client" (a human or an app) or "bot"
    level: int = 0            # bot strength 1-10
    spec: str = ""            # a match bot's spec (PlayMatch: "greedy", "ismcts:iterations=500"...); "" for levels


@dataclass
class Event:
    seq: int
    kind: str                 # move | resign | end | a chance event: draw (SpellBook), deal | refill | secret | roll
    seat: int                 # deciding seat; -1 for chance events and the end
    move: str                 # engine notation ("drawn Rc", "stone 3", "roll 4" for a chance outcome)
    to_move: int              # who decides next (-2 when over)
    scores: list[int] = field(default_factory=list)   # by seat, after the event
    winners: list[int] = field(default_factory=list)
    zone: str = ""            # Abracada…What?'s chance events: removed | hand | secret | taken ("" for a roll)
    to: int = -1              # ... and the seat the stone went to
    # a move of a game that tells what the table saw (its text module's event_lines): the state before
    # the move, the state after the chance events it set off, and the die rolls among them
    context: tuple = ()

    @property
    def is_chance(self) -> bool:
        return self.kind not in ("move", "end", records.RESIGN)


def _chance_row(state, outcome) -> tuple[str, int]:
    """How a chance outcome pending in `state` is stored: (kind, seat column). The kind carries the zone
    ('deal:hand'), the seat column the seat the stone went to (-1: none)."""
    ev = records.chance_event(state, outcome)
    return (f"{ev['kind']}:{ev['zone']}" if ev.get("zone") else ev["kind"]), ev.get("to", -1)


def _resolve(state) -> list[tuple[object, str, int]]:
    """Resolves the pending chance events of `state` with its own generator: (outcome, kind, seat) each."""
    out = []
    while state.is_chance():
        outcome = state.sample_chance()
        kind, to = _chance_row(state, outcome)
        state.apply(outcome)
        out.append((outcome, kind, to))
    return out


class _Session:
    def __init__(self, sid: str, players: int, spells: list[str], seed: int, seats: list[SeatSpec],
                 state, seq: int, fixed_seed: bool = True, game: Game | None = None):
        self.id, self.players, self.spells, self.seed, self.seats = sid, players, spells, seed, seats
        self.game = game or get_game(DEFAULT_GAME)    # spells: the game's setup options (Abracada: variants)
        self.fixed_seed = fixed_seed
        self.owner = ""                       # the fair-share client that created it
        self.external = False                 # a live PlayMatch plays it (holding its bot lease), not the bots
        self.renew_task: asyncio.Task | None = None
        self.state, self.seq = state, seq
        self.status = "active"
        self.lock = asyncio.Lock()
        self.subscribers: list[asyncio.Queue] = []
        self.bot_task: asyncio.Task | None = None
        self.resigned: int | None = None      # the seat that resigned: the game ended there (D130)

    @property
    def over(self) -> bool:
        return self.state.is_terminal() or self.resigned is not None

    def bot_turn(self) -> bool:
        st = self.state
        return not self.over and self.seats[st.current_player].kind == "bot"


@dataclass
class _Row:
    seq: int
    kind: str
    seat: int
    move: str
    state_after: str


class _StaleSeq(Exception):
    """A bot's move was searched at an event another replica has since moved past: not stored."""


def _applied(state, draws: list[str]) -> list[tuple[object, str, int]]:
    """Resolves the pending chance events of `state` with its own seeded generator, which must give `draws`
    (those a live PlayMatch made on its copy of the same state): so the stored state's generator is where the
    live game's is, and a match carried on after a restart draws what the live one would have. Returns them
    as _resolve() does."""
    made = _resolve(state)
    if [str(d) for d, _, _ in made] != list(draws):
        raise SessionError("FAILED_PRECONDITION", "session_id", "the match's draws differ from the session's Pouch")
    return made


def bot_seed(session_seed: int, seq: int) -> int:
    """A bot's search seed at event `seq`: a keyed hash of the session seed, so that even a bot seed that
    could be inferred from its play says nothing about the session seed (and so the Pouch)."""
    digest = hashlib.blake2b(seq.to_bytes(8, "little"), key=session_seed.to_bytes(8, "little"), digest_size=8)
    return int.from_bytes(digest.digest(), "little")


def secret_seed() -> int:
    """A session seed from the OS's secure generator."""
    return secrets.randbits(64)


@dataclass
class Coordination:
    """How replicas share sessions. lease_s: a bot lease's length (renewed every third of it while a bot
    searches; a dead holder's sessions move on after it runs out). sweep_s: how often to look for sessions
    whose bots nobody drives. poll_s: how often watchers poll a database without notifications."""
    lease_s: float = 10.0
    sweep_s: float = 1.0
    poll_s: float = 0.1


class SessionManager:
    """Create, play, observe and resume sessions. Call from one asyncio loop; bot searches run in `executor`."""

    def __init__(self, store: SessionStore, executor: Executor, max_sessions: int = 10_000,
                 per_owner_sessions: int = 0, idle_s: float = 0.0, coordination: Coordination | None = None):
        """`per_owner_sessions` (0: no limit): unfinished sessions one creator (`owner` of create) holds;
        `idle_s` (0: never): an unfinished session with no move for that long expires (see expire_idle)."""
        self.store, self.executor, self.max_sessions = store, executor, max_sessions
        self.per_owner_sessions, self.idle_s = per_owner_sessions, idle_s
        self.coord = coordination or Coordination()
        # (spec, seed) -> the bot of a PlayMatch seat for one decision; the servicer sets its own (MatchRpcs
        # .match_bot, with the server's caps), so a match carried on after a restart plays as it would have
        self.bot_factory = lambda spec, seed, game=get_game(DEFAULT_GAME).adapter: make_bot(spec, game, seed=seed)
        self._next_expiry = 0.0
        self.sessions: dict[str, _Session] = {}
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._background: list[asyncio.Task] = []
        self._listen_stop = threading.Event()
        self._listener: threading.Thread | None = None
        self._closing = False

    # ---------------------------------------------------------------- lifecycle
    async def resume_all(self) -> int:
        """Loads every unfinished session as last stored, starts driving the bots nobody drives and the
        background loops (sweeper; notifications or polling). Returns how many sessions are unfinished."""
        rows = self.store.unfinished()
        for row in rows:
            self._load(row.id)
        self._start_background()
        await self._sweep_once()
        metrics.SESSIONS_OPEN.set(len(rows))
        return len(rows)

    async def close(self) -> None:
        self._closing = True
        self._listen_stop.set()
        for t in self._background:
            t.cancel()
        tasks = [s.bot_task for s in self.sessions.values() if s.bot_task and not s.bot_task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*self._background, *tasks, return_exceptions=True)
        if self._listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._listener.join, 5)

    def start_expiry(self) -> None:
        """Expires idle sessions in the background (the sweeper does it every quarter of `idle_s`, at most a
        minute apart; resume_all starts it)."""
        self._start_background()

    def expire_idle(self, now: float | None = None) -> int:
        """Expires every unfinished session (in the database: of any replica) without a move for `idle_s`:
        the store marks it expired (never resumed, never exported; its seed stays secret), and here its bots
        stop and its watchers get the end of their stream. `now` is a time.monotonic() value (default: now).
        Returns how many expired."""
        if self.idle_s <= 0:
            return 0
        wall = time.time() + ((now - time.monotonic()) if now is not None else 0.0)
        expired = self.store.expire_idle(self.idle_s, wall)
        for sid in expired:
            session = self.sessions.get(sid)
            if session is not None:
                self._drop_expired(session)
            log.info("session expired", extra={"fields": {"session": auth.redact(sid)}})
        if expired:
            metrics.SESSIONS_EXPIRED.inc(len(expired))
        return len(expired)

    def _start_background(self) -> None:
        if self._background:
            return
        loop = asyncio.get_running_loop()
        self._background.append(loop.create_task(self._sweeper()))

        def on_event(sid: str, seq: int) -> None:
            loop.call_soon_threadsafe(self._remote_event, sid, seq)

        def listen():
            try:
                if not self.store.listen(on_event, self._listen_stop):
                    loop.call_soon_threadsafe(self._start_polling)
            except Exception:
                log.exception("listening for session events failed; polling instead")
                loop.call_soon_threadsafe(self._start_polling)

        self._listener = threading.Thread(target=listen, name="session-events", daemon=True)
        self._listener.start()

    def _start_polling(self) -> None:
        if not self._closing:
            self._background.append(asyncio.get_running_loop().create_task(self._poller()))

    # ---------------------------------------------------------------- calls
    async def create(self, players: int, spells: str | list[str], seed: int | None, seats: list[SeatSpec],
                     credentials: dict[str, str] | None = None, owner: str = "", external: bool = False,
                     fixed_seed: bool | None = None, game: str = DEFAULT_GAME) -> str:
        """A new session; `seed` None draws a secret one. `credentials` (token hash -> role, server/auth.py)
        are stored with it in one transaction. `external`: a PlayMatch plays it (record_external) while it
        holds the session's bot lease; end_external hands it back. `fixed_seed` False: `seed` is a secret
        the caller drew (a PlayMatch without a seed), kept as a drawn one is. `game`: a name of
        engine_c.registry; `spells` is its setup (Abracada…What?: the variants)."""
        g = get_game(game)
        open_now = self.store.count_active()
        if open_now >= self.max_sessions:
            raise SessionError("RESOURCE_EXHAUSTED", "",
                               f"the server holds its maximum of {self.max_sessions} unfinished sessions")
        if self.per_owner_sessions and owner and self.store.count_active(owner) >= self.per_owner_sessions:
            raise SessionError("RESOURCE_EXHAUSTED", "", f"this client holds its maximum of "
                                                        f"{self.per_owner_sessions} unfinished sessions")
        if len(seats) != players:
            raise SessionError("INVALID_ARGUMENT", "seats", f"give one seat per player: {players} players, {len(seats)} seats")
        for i, seat in enumerate(seats):
            if seat.kind not in ("client", "bot"):
                raise SessionError("INVALID_ARGUMENT", f"seats[{i}].kind", f"seat kind must be client or bot, got {seat.kind!r}")
            if seat.kind == "bot" and not seat.spec and not 1 <= seat.level <= 10:
                raise SessionError("INVALID_ARGUMENT", f"seats[{i}].level", f"a bot's level must be 1 to 10, got {seat.level}")
        fixed_seed = seed is not None if fixed_seed is None else fixed_seed and seed is not None
        if seed is None:
            seed = secret_seed()
        try:
            state = records.new_game(g.name, players, spells, seed)
        except ValueError as e:
            field_name = "players" if "players" in str(e) else "seed" if "seed" in str(e) else g.setup
            raise SessionError("INVALID_ARGUMENT", field_name, str(e)) from None
        sid = secrets.token_hex(8)
        # the setup as the record writes it: SpellBook's spells (a set's names), Abracada…What?'s variants, or
        # (a game whose State does not name it) the game record module's own (the Spellbook TCG's decks)
        names = records.played_setup(g, state, None)
        names = names if names is not None else g.record.setup_list(spells)
        session = _Session(sid, players, names, seed, list(seats), state, 0, fixed_seed, g)
        self.store.create(sid, players, names, seed, [s.__dict__ for s in seats], state.to_text(),
                          bot_turn=session.bot_turn() and not external, fixed_seed=fixed_seed,
                          credentials=credentials, owner=owner, game=g.name)
        session.owner, session.external = owner, external
        if external:
            self.store.take_lease(sid, self.holder, self.coord.lease_s)
            session.renew_task = asyncio.get_running_loop().create_task(self._renew(sid))
        self.sessions[sid] = session
        metrics.SESSIONS_OPEN.set(open_now + 1)
        self._kick_bots(session)
        return sid

    async def submit(self, sid: str, seat: int, move_text: str, expected_seq: int | None = None) -> list[Event]:
        """A client seat's own move; the draws it causes follow. Returns the events stored. The move text
        "resign" resigns the game for that seat (resign())."""
        if move_text.strip().lower() == records.RESIGN:
            return await self.resign(sid, seat, expected_seq)
        session = self._get(sid)
        async with session.lock:
            def check(state, seq: int):
                if expected_seq is not None and expected_seq != seq:
                    raise SessionError("FAILED_PRECONDITION", "expected_seq",
                                       f"the session is at event {seq}, not {expected_seq} (a move was already made)")
                if not 0 <= seat < session.players:
                    raise SessionError("INVALID_ARGUMENT", "seat", f"seat must be 0 to {session.players - 1}, got {seat}")
                if session.seats[seat].kind != "client":
                    raise SessionError("INVALID_ARGUMENT", "seat", f"seat {seat} is a bot seat; clients move only their own seats")
                if state.is_terminal() or session.resigned is not None:
                    raise SessionError("FAILED_PRECONDITION", "session_id", "the game is over")
                if state.current_player != seat:
                    what = f" ({state.decision})" if hasattr(state, "decision") else ""
                    raise SessionError("FAILED_PRECONDITION", "seat",
                                       f"it is seat {state.current_player}'s decision{what}, not seat {seat}'s")
                try:
                    return state.parse_move(move_text)
                except (IllegalMoveError, NotationError) as e:
                    raise SessionError("INVALID_ARGUMENT", "move", str(e)) from None

            events = self._apply_and_store(session, seat, check)
        self._kick_bots(session)
        return events

    async def resign(self, sid: str, seat: int, expected_seq: int | None = None) -> list[Event]:
        """Client seat `seat` resigns, at any time before the end (its decision or not): the game ends with
        the scores as they stand, the other seats with the most points win, and the record's last event
        says who resigned (D130). Returns the stored 'resign' event."""
        session = self._get(sid)
        async with session.lock:
            if not 0 <= seat < session.players:
                raise SessionError("INVALID_ARGUMENT", "seat", f"seat must be 0 to {session.players - 1}, got {seat}")
            if session.seats[seat].kind != "client":
                raise SessionError("INVALID_ARGUMENT", "seat", f"seat {seat} is a bot seat; only a client seat resigns")

            def step(seq: int, text: str) -> Advance:
                if expected_seq is not None and expected_seq != seq:
                    raise SessionError("FAILED_PRECONDITION", "expected_seq",
                                       f"the session is at event {seq}, not {expected_seq} (a move was already made)")
                state = session.game.State.from_text(text)
                if state.is_terminal() or session.resigned is not None:
                    raise SessionError("FAILED_PRECONDITION", "session_id", "the game is over")
                scores = records.totals(state)
                result = {"scores": scores, "winners": records.resign_winners(scores, seat), "resigned": seat}
                return Advance([(seq + 1, records.RESIGN, seat, records.RESIGN, text)], result, False, value=state)

            out = self._store_advance(session, step)
            session.state, session.seq, session.resigned = out.value, out.events[-1][0], seat
            ev = self._event_from_row(_Row(*out.events[-1]), session.game)
            self._publish(session, ev)
            self._finished(session)
        return [ev]

    def over(self, sid: str) -> bool:
        """Whether the session's game is over (played to its end, or resigned)."""
        return self._get(sid, fresh=True).over

    def view(self, sid: str, seat: int) -> dict:
        """What `seat` observes now: the observation text (never the Pouch order), whose turn, the legal
        moves when it is that seat's decision, scores so far."""
        session = self._get(sid, fresh=True)
        if not 0 <= seat < session.players:
            raise SessionError("INVALID_ARGUMENT", "seat", f"seat must be 0 to {session.players - 1}, got {seat}")
        st = session.state
        mine = st.current_player == seat and not session.over
        return {"session_id": sid, "seq": session.seq, "seat": seat, "observation": st.observation(seat),
                "to_move": -2 if session.over else st.current_player, "phase": st.phase, "decision": st.decision,
                "legal_moves": [str(m) for m in st.legal_moves()] if mine else [],
                "scores": records.totals(st), "over": session.over,
                "winners": self._winners(session) if session.over else [], "resigned": session.resigned,
                "seats": [s.__dict__ for s in session.seats], "players": session.players, "spells": session.spells,
                "fixed_seed": session.fixed_seed}

    def snapshot(self, sid: str) -> tuple[object, int, str]:
        """The session's current state (a copy: the whole truth, for the RPCs to show each caller only its
        view), its last event's number and its game's name; NOT_FOUND for an unknown session."""
        session = self._get(sid, fresh=True)
        return session.state.clone(), session.seq, session.game.name

    async def watch(self, sid: str, from_seq: int = 1) -> AsyncIterator[Event]:
        """Stored events from `from_seq`, then live ones (from any replica) until the game ends."""
        session = self._get(sid, fresh=True)
        queue: asyncio.Queue = asyncio.Queue()
        session.subscribers.append(queue)
        try:
            last = from_seq - 1
            for event in self._events(sid, self.store.events(sid, from_seq), session.game):
                yield event
                last = event.seq
            if session.over:
                yield self._end_event(session)
                return
            if session.status == "stopped":
                return
            while True:
                ev: Event | None = await queue.get()
                if ev is _STOPPED:
                    return                      # a match stopped before its end: nothing more will happen
                if ev is None:
                    raise SessionError("NOT_FOUND", "session_id", _EXPIRED)
                if ev.seq > last + (ev.kind != "end"):       # fill a gap from the store first
                    for event in self._events(sid, self.store.events(sid, last + 1), session.game):
                        if event.seq > (ev.seq if ev.kind == "end" else ev.seq - 1):
                            break
                        yield event
                        last = event.seq
                if ev.kind != "end" and ev.seq <= last:
                    continue
                yield ev
                if ev.kind == "end":
                    return
                last = ev.seq
        finally:
            session.subscribers.remove(queue)

    def role(self, sid: str, token_hash: str) -> str | None:
        """The role of a credential (by its token's hash, server/auth.py) in session `sid`; NOT_FOUND for an
        unknown session."""
        self._get(sid)
        return self.store.credential_role(sid, token_hash)

    def seats(self, sid: str) -> list[SeatSpec]:
        """The session's seats; NOT_FOUND for an unknown session."""
        return list(self._get(sid).seats)

    def game_of(self, sid: str) -> str:
        """The registry name of the session's game; NOT_FOUND for an unknown session."""
        return self._get(sid).game.name

    def last_seq(self, sid: str) -> int:
        """The number of the session's last stored event (by any replica)."""
        return self._get(sid, fresh=True).seq

    def history(self, sid: str, from_seq: int = 1) -> list[Event]:
        """The stored events from `from_seq` (no 'end' event)."""
        game = self._get(sid).game
        return self._events(sid, self.store.events(sid, from_seq), game)

    def export(self, sid: str) -> dict:
        """The whole game record (engine_c.records, docs/records.md): the setup's chance events, every move
        and chance event in order, and the result when finished. The seed only once the game is over: before,
        it would reveal the Pouch's order or the hands (D18; the setup is events, so the record replays
        without it). An Abracada…What? record holds every hand: callers show it through
        records.for_viewer()."""
        row = self.store.session(sid)
        if row is None or row.status == "expired":
            raise SessionError("NOT_FOUND", "session_id", _EXPIRED if row else f"no session {sid!r}")
        game = row.game
        events = [dict(e, seq=0) for e in records.setup_events(row.players, row.spells, row.seed, game=game,
                                                               setup=row.spells)]
        for e in self.store.events(sid):
            if e.kind == "setup":
                continue
            if e.kind == records.RESIGN:
                events.append(records.resign_event(e.seat, seq=e.seq))
                continue
            kind, _, zone = e.kind.partition(":")
            chance = kind != "move"
            events.append(records.event(kind, -1 if chance else e.seat, e.move, seq=e.seq, zone=zone,
                                        to=e.seat if chance and e.seat >= 0 else None))
        finished = row.status == "finished"
        rec = {"format": records.FORMAT, "version": records.VERSION, "session_id": sid, **records.game_field(game)}
        rec.update(players=row.players)
        rec[get_game(game).setup] = row.spells     # the game's setup field: spells, variants, decks
        rec.update(seats=[records.seat(s["kind"], s.get("spec", ""), s.get("level", 0)) for s in row.seats],
                   status="finished" if finished else "unfinished" if row.status == "stopped" else "active",
                   fixed_seed=row.fixed_seed)
        if finished:           # secret until the game is over, even a fixed one (D18)
            rec["seed"] = row.seed
        rec.update(events=events, result=row.result if finished else None)
        return rec

    # ---------------------------------------------------------------- internals
    def _load(self, sid: str) -> _Session | None:
        """Reads a session from the store; an unfinished one joins the cache."""
        row = self.store.session(sid) if sid else None
        last = self.store.last_event(sid) if row else None
        if row is None or last is None:
            return None
        game = get_game(row.game)
        session = _Session(row.id, row.players, row.spells, row.seed, [SeatSpec(**s) for s in row.seats],
                           game.State.from_text(last.state_after), last.seq, row.fixed_seed, game)
        session.owner, session.status = row.owner, row.status
        if last.kind == records.RESIGN:
            session.resigned = last.seat
        if row.status == "active":
            self.sessions[sid] = session
        return session

    def _get(self, sid: str, fresh: bool = False) -> _Session:
        """The session (NOT_FOUND when there is none). `fresh`: first catch up with events another replica
        stored (one small query)."""
        session = self.sessions.get(sid)
        if session is None:
            session = self._load(sid)
            if session is None:
                raise SessionError("NOT_FOUND", "session_id", f"no session {sid!r}")
            if session.status == "expired":
                raise SessionError("NOT_FOUND", "session_id", _EXPIRED)
        elif fresh:
            seq = self.store.seqs([sid]).get(sid, session.seq)
            if seq == -1:
                self._drop_expired(session)
                raise SessionError("NOT_FOUND", "session_id", _EXPIRED)
            if seq > session.seq:
                self._catch_up(session)
        return session

    def _catch_up(self, session: _Session, rows=None) -> None:
        """Brings a cached session up to the store (events another replica stored) and publishes them."""
        rows = rows if rows is not None else self.store.events(session.id, session.seq + 1)
        rows = [r for r in rows if r.seq > session.seq]
        if not rows:
            return
        events = self._events(session.id, rows, session.game, before=session.state.to_text())
        session.state, session.seq = session.game.State.from_text(rows[-1].state_after), rows[-1].seq
        if rows[-1].kind == records.RESIGN:
            session.resigned = rows[-1].seat
        for ev in events:
            self._publish(session, ev)
        if session.over:
            self._finished(session)

    def _apply_and_store(self, session: _Session, seat: int, choose, draws: list[str] | None = None) -> list[Event]:
        """Stores `seat`'s move and the draws it causes, serialized by the database. choose(state, seq) runs on
        the latest stored state and returns the move (or raises: nothing is stored)."""
        behind, before = [], []

        def step(seq: int, text: str) -> Advance:
            # Another replica moved on: continue from the stored state (its events are published after).
            state = session.state.clone() if seq == session.seq else session.game.State.from_text(text)
            if seq != session.seq:
                behind.append(seq)
            move = choose(state, seq)
            before.append(state.to_text())
            state.apply(move)
            rows = [(seq + 1, "move", seat, str(move), state.to_text())]
            for outcome, kind, to in _resolve(state) if draws is None else _applied(state, draws):
                rows.append((rows[-1][0] + 1, kind, to, str(outcome), state.to_text()))
            result = None
            if state.is_terminal():
                result = {"scores": records.totals(state), "winners": state.winners()}
            bot_turn = not state.is_terminal() and session.seats[state.current_player].kind == "bot"
            return Advance(rows, result, bot_turn, value=state)

        try:
            out = self._store_advance(session, step)
        finally:
            if behind:
                self._catch_up(session)
        events = self._events(session.id, [_Row(*r) for r in out.events], session.game, before=before[-1])
        if session.seq >= out.events[-1][0]:    # (caught up past them: already published)
            return events
        session.state, session.seq = out.value, out.events[-1][0]
        for ev in events:
            self._publish(session, ev)
        if session.state.is_terminal():
            self._finished(session)
        return events

    def _finished(self, session: _Session) -> None:
        self._publish(session, self._end_event(session))
        self.sessions.pop(session.id, None)   # finished: read back from the store when asked for

    def _end_event(self, session: _Session) -> Event:
        return Event(session.seq, "end", -1, "", -2, records.totals(session.state), self._winners(session))

    @staticmethod
    def _winners(session: _Session) -> list[int]:
        """The winners of a finished game: the rules', or the resignation's (D130)."""
        if session.resigned is not None:
            return records.resign_winners(records.totals(session.state), session.resigned)
        return session.state.winners()

    def _store_advance(self, session: _Session, step):
        """store.advance(step) for `session`, its refusals as the RPCs' errors."""
        try:
            return self.store.advance(session.id, step)
        except KeyError:
            raise SessionError("NOT_FOUND", "session_id", f"no session {session.id!r}") from None
        except Expired:
            self.sessions.pop(session.id, None)
            raise SessionError("NOT_FOUND", "session_id", _EXPIRED) from None

    def _events(self, sid: str, rows, game: Game, before: str | None = None) -> list[Event]:
        """The events of stored rows (setup rows left out). A move of a game that tells what the table saw
        (text.event_lines, engine_c.contract.tells_events) gets its context: the state before it (`before`: the state before the
        first row, else read from the store), the state after the chance events it set off (they are
        stored with it, in one transaction, so `rows` never end within them) and the die rolls among them."""
        rows = [r for r in rows if r.kind != "setup"] if rows else []
        events = [self._event_from_row(r, game) for r in rows]
        if not rows or not tells_events(game.text):
            return events
        for i, (row, ev) in enumerate(zip(rows, events)):
            if row.kind != "move":
                continue
            if i:
                previous = rows[i - 1].state_after
            elif before is not None:
                previous = before
            else:
                earlier = self.store.events(sid, row.seq - 1)
                if not earlier or earlier[0].seq != row.seq - 1:
                    continue
                previous = earlier[0].state_after
            batch = [row]           # rows always run to a batch's end: a move and its chance are stored at once
            for r in rows[i + 1:]:
                if r.kind in ("move", "setup", records.RESIGN):
                    break
                batch.append(r)
            rolls = tuple(int(r.move.split()[1]) for r in batch if r.kind == "roll")
            ev.context = (previous, batch[-1].state_after, rolls)
        return events

    def _event_from_row(self, row, game: Game) -> Event:
        st = game.State.from_text(row.state_after)
        kind, _, zone = row.kind.partition(":")
        if kind == records.RESIGN:      # the game ends here: nobody decides next
            scores = records.totals(st)
            return Event(row.seq, kind, row.seat, "", -2, scores, records.resign_winners(scores, row.seat))
        if kind == "move":
            return Event(row.seq, kind, row.seat, row.move, st.current_player, records.totals(st))
        return Event(row.seq, kind, -1, row.move, st.current_player, records.totals(st), zone=zone, to=row.seat)

    def _publish(self, session: _Session, ev: Event) -> None:
        for q in session.subscribers:
            q.put_nowait(ev)

    # ---------------------------------------------------------------- other replicas' events
    def _remote_event(self, sid: str, seq: int) -> None:
        session = self.sessions.get(sid)
        if session is None:
            return
        if seq == -1:              # expired (by any replica): bots stop, watchers get the end of their stream
            self._drop_expired(session)
        elif seq > session.seq and session.subscribers:
            self._catch_up(session)

    def _drop_expired(self, session: _Session) -> None:
        self.sessions.pop(session.id, None)
        if session.bot_task and not session.bot_task.done():
            session.bot_task.cancel()
        for q in session.subscribers:
            q.put_nowait(None)

    async def _poller(self) -> None:
        """Without notifications: the sessions someone watches here, polled every poll_s."""
        while True:
            await asyncio.sleep(self.coord.poll_s)
            watched = [sid for sid, s in self.sessions.items() if s.subscribers]
            if watched:
                for sid, seq in self.store.seqs(watched).items():
                    self._remote_event(sid, seq)

    # ---------------------------------------------------------------- bots
    def record_external(self, sid: str, seat: int, move: str, draws: list[str]) -> list[Event]:
        """A move and the draws that followed it, played by a live PlayMatch: stored, then applied and
        published like any move."""
        session = self._get(sid)
        seq0 = session.seq

        def same_position(state, seq: int):
            if seq != seq0:
                raise SessionError("FAILED_PRECONDITION", "session_id", "the match's session moved on elsewhere")
            return state.parse_move(move)
        return self._apply_and_store(session, seat, same_position, draws)

    def end_external(self, sid: str, keep: bool) -> None:
        """The PlayMatch playing `sid` ended. Unfinished and `keep` (the server is going down): its bot lease
        is released, so the bots carry the match on (after a restart, or on another replica). Unfinished
        otherwise (the call was cancelled or ran out of time): the session is stopped where it was, readable
        and exportable as an unfinished game, and its watchers' streams end."""
        session = self.sessions.get(sid)
        if session is None:
            return
        session.external = False
        if session.renew_task is not None:
            session.renew_task.cancel()
        if not keep and not session.state.is_terminal():
            self.store.stop(sid)
            session.status = "stopped"
            self.sessions.pop(sid, None)
            for q in session.subscribers:
                q.put_nowait(_STOPPED)
        self.store.release_lease(sid, self.holder)

    def _kick_bots(self, session: _Session) -> None:
        if self._closing or session.external or not session.bot_turn():
            return
        if session.bot_task is None or session.bot_task.done():
            session.bot_task = asyncio.get_running_loop().create_task(self._drive_bots(session))
            session.bot_task.add_done_callback(functools.partial(_log_task_failure, "bot", session.id))

    async def _drive_bots(self, session: _Session) -> None:
        """Plays the bot seats while this replica holds the session's lease; releases it when a client (or
        nobody) is to move, then looks once more in case a client moved meanwhile on another replica."""
        while not self._closing:
            if not self.store.take_lease(session.id, self.holder, self.coord.lease_s):
                return        # another replica drives them
            renew = asyncio.get_running_loop().create_task(self._renew(session.id))
            try:
                await self._run_bots(session)
            finally:   # also at shutdown: another replica may take over at once
                renew.cancel()
                self.store.release_lease(session.id, self.holder)
            row = self.store.session(session.id)
            if self._closing or row is None or not row.bot_turn or row.status != "active":
                return
            self._catch_up(session)

    async def _renew(self, sid: str) -> None:
        while True:
            await asyncio.sleep(self.coord.lease_s / 3)
            if not self.store.take_lease(sid, self.holder, self.coord.lease_s):
                log.warning("bot lease lost", extra={"fields": {"session": auth.redact(sid)}})
                return

    async def _run_bots(self, session: _Session) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with session.lock:
                self._catch_up(session)
                if not session.bot_turn() or session.id not in self.sessions:
                    return
                # still ours? (a lease that ran out while this replica stalled belongs to another now)
                if not self.store.take_lease(session.id, self.holder, self.coord.lease_s):
                    return
                st, seq = session.state, session.seq
                seat = st.current_player
                legal = st.legal_moves()
                spec = session.seats[seat].spec
                if len(legal) == 1:
                    move = legal[0]
                elif spec:     # a PlayMatch bot whose match the server carries on, made as the match made it
                    bot = self.bot_factory(spec, bot_seed(session.seed, seq), session.game.adapter)
                    move, _ = await loop.run_in_executor(self.executor, bot.choose, st.clone())
                else:
                    opts = level_options(session.seats[seat].level, seed=bot_seed(session.seed, seq),
                                         game=session.game.adapter)
                    metrics.SEARCHES_RUNNING.inc()
                    try:
                        result = await loop.run_in_executor(self.executor, ismcts, session.game.adapter,
                                                            st.clone(), opts)
                    finally:
                        metrics.SEARCHES_RUNNING.dec()
                    metrics.observe_search(result.iterations, result.elapsed_s)
                    move = result.move

                def same_decision(state, stored_seq: int):
                    if stored_seq != seq:      # moved on elsewhere (a lease that ran out): search again
                        raise _StaleSeq()
                    return move

                try:
                    self._apply_and_store(session, seat, same_decision)
                except _StaleSeq:
                    continue

    async def _sweeper(self) -> None:
        """Takes over bots nobody drives (their replica died) and expires idle sessions."""
        while True:
            await asyncio.sleep(self.coord.sweep_s)
            try:
                await self._sweep_once()
            except Exception:
                log.exception("session sweep failed")

    async def _sweep_once(self) -> None:
        for sid in self.store.waiting_for_bots():
            session = self.sessions.get(sid) or self._load(sid)
            if session is not None and sid in self.sessions and (session.bot_task is None or session.bot_task.done()):
                log.info("taking over bots", extra={"fields": {"session": auth.redact(sid)}})
                self._catch_up(session)
                self._kick_bots(session)
        if self.idle_s > 0 and time.monotonic() >= self._next_expiry:
            self._next_expiry = time.monotonic() + min(self.idle_s / 4, 60.0)
            self.expire_idle()
        metrics.SESSIONS_OPEN.set(self.store.count_active())
