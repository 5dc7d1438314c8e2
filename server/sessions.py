"""Sessions: games hosted by the server, with client seats and bot seats, persisted in SQLite.

The server runs the Pouch (draws use the session's seeded generator), bot seats move by themselves
(ISMCTS at their strength level, seeded from the session seed and the event number, so a session replays
the same way after a restart), and every event is stored before it changes the session in memory, is
acknowledged or published.

The seed is secret: unless the creator fixes it (replay / tournament mode, `fixed_seed`, shown to every
seat), it is drawn from the OS's secure generator, and neither it nor anything derived from it (the bots'
search seeds) leaves the server before the game is over: `export` gives the seed only then.
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import secrets
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import AsyncIterator

from engine_c import IllegalMoveError, NotationError, State, records
from engine_c.game import SPELLBOOK
from search import ismcts
from search.bots import make_bot
from search.levels import level_options
from server.store import SessionStore


log = logging.getLogger("spellbook.server")


def _log_bot_failure(sid: str, task: asyncio.Task) -> None:
    """A bot loop that died of an error leaves its session waiting: say so (it resumes at the next start)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("bot failed", exc_info=task.exception(), extra={"fields": {"session": sid[:4] + "…"}})


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
    kind: str                 # move | draw | end
    seat: int                 # deciding seat; -1 for draws and the end
    move: str                 # engine notation ("drawn Rc" for a draw)
    to_move: int              # who decides next (-2 when over)
    scores: list[int] = field(default_factory=list)   # by seat, after the event
    winners: list[int] = field(default_factory=list)


class _Session:
    def __init__(self, sid: str, players: int, spells: list[str], seed: int, seats: list[SeatSpec],
                 state: State, seq: int, fixed_seed: bool = True):
        self.id, self.players, self.spells, self.seed, self.seats = sid, players, spells, seed, seats
        self.fixed_seed = fixed_seed
        self.owner = ""                       # the fair-share client that created it ("" after a restart)
        self.external = False                 # moves come from outside (a live PlayMatch), not the bot loop
        self.last_active = time.monotonic()   # the last move (idle sessions expire)
        self.state, self.seq = state, seq
        self.lock = asyncio.Lock()
        self.subscribers: list[asyncio.Queue] = []
        self.bot_task: asyncio.Task | None = None


@dataclass
class _Row:
    seq: int
    kind: str
    seat: int
    move: str
    state_after: str


def bot_seed(session_seed: int, seq: int) -> int:
    """A bot's search seed at event `seq`: a keyed hash of the session seed, so that even a bot seed that
    could be inferred from its play says nothing about the session seed (and so the Pouch)."""
    digest = hashlib.blake2b(seq.to_bytes(8, "little"), key=session_seed.to_bytes(8, "little"), digest_size=8)
    return int.from_bytes(digest.digest(), "little")


def secret_seed() -> int:
    """A session seed from the OS's secure generator."""
    return secrets.randbits(64)


class SessionManager:
    """Create, play, observe and resume sessions. Call from one asyncio loop; bot searches run in `executor`."""

    def __init__(self, store: SessionStore, executor: Executor, max_sessions: int = 10_000,
                 per_owner_sessions: int = 0, idle_s: float = 0.0):
        """`per_owner_sessions` (0: no limit): unfinished sessions one creator (`owner` of create) holds;
        `idle_s` (0: never): an unfinished session with no move for that long expires (see expire_idle)."""
        self.store, self.executor, self.max_sessions = store, executor, max_sessions
        self.per_owner_sessions, self.idle_s = per_owner_sessions, idle_s
        self.sessions: dict[str, _Session] = {}
        self._sweeper: asyncio.Task | None = None

    def start_expiry(self) -> None:
        """Expires idle sessions in the background (every quarter of `idle_s`, at most a minute apart)."""
        if self.idle_s > 0 and self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(min(self.idle_s / 4, 60.0))
            self.expire_idle()

    def expire_idle(self, now: float | None = None) -> int:
        """Expires every unfinished session without a move for `idle_s`: its bots stop, its watchers get the
        end of their stream, the store marks it expired (never resumed; its seed stays secret). Returns how
        many expired."""
        now = time.monotonic() if now is None else now
        idle = [s for s in self.sessions.values() if now - s.last_active >= self.idle_s and not s.state.is_terminal()]
        for session in idle:
            self._expire(session)
        return len(idle)

    def _expire(self, session: _Session) -> None:
        if session.bot_task and not session.bot_task.done():
            session.bot_task.cancel()
        self.store.expire(session.id)
        self.sessions.pop(session.id, None)
        for q in session.subscribers:
            q.put_nowait(None)
        log.info("session expired", extra={"fields": {"session": session.id[:4] + "…"}})

    # ---------------------------------------------------------------- lifecycle
    async def resume_all(self) -> int:
        """Loads every unfinished session exactly as last stored and restarts its bots; returns how many."""
        count = 0
        for row in self.store.unfinished():
            last = self.store.last_event(row.id)
            state = State.from_text(last.state_after)
            seats = [SeatSpec(**s) for s in row.seats]
            self.sessions[row.id] = _Session(row.id, row.players, row.spells, row.seed, seats, state, last.seq,
                                             row.fixed_seed)
            self._kick_bots(self.sessions[row.id])
            count += 1
        return count

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for s in self.sessions.values():
            if s.bot_task and not s.bot_task.done():
                s.bot_task.cancel()
        await asyncio.gather(*(s.bot_task for s in self.sessions.values() if s.bot_task), return_exceptions=True)

    # ---------------------------------------------------------------- calls
    async def create(self, players: int, spells: str | list[str], seed: int | None, seats: list[SeatSpec],
                     credentials: dict[str, str] | None = None, owner: str = "", external: bool = False) -> str:
        """A new session; `seed` None draws a secret one. `credentials` (token hash -> role, server/auth.py)
        are stored with it in one transaction."""
        if sum(1 for s in self.sessions.values() if not s.state.is_terminal()) >= self.max_sessions:
            raise SessionError("RESOURCE_EXHAUSTED", "",
                               f"the server holds its maximum of {self.max_sessions} unfinished sessions")
        if self.per_owner_sessions and owner and sum(
                1 for s in self.sessions.values() if s.owner == owner) >= self.per_owner_sessions:
            raise SessionError("RESOURCE_EXHAUSTED", "", f"this client holds its maximum of "
                                                        f"{self.per_owner_sessions} unfinished sessions")
        if len(seats) != players:
            raise SessionError("INVALID_ARGUMENT", "seats", f"give one seat per player: {players} players, {len(seats)} seats")
        for i, seat in enumerate(seats):
            if seat.kind not in ("client", "bot"):
                raise SessionError("INVALID_ARGUMENT", f"seats[{i}].kind", f"seat kind must be client or bot, got {seat.kind!r}")
            if seat.kind == "bot" and not seat.spec and not 1 <= seat.level <= 10:
                raise SessionError("INVALID_ARGUMENT", f"seats[{i}].level", f"a bot's level must be 1 to 10, got {seat.level}")
        fixed_seed = seed is not None
        if seed is None:
            seed = secret_seed()
        try:
            state = State.new(players=players, spells=spells, seed=seed)
        except ValueError as e:
            field_name = "players" if "players" in str(e) else "seed" if "seed" in str(e) else "spells"
            raise SessionError("INVALID_ARGUMENT", field_name, str(e)) from None
        sid = secrets.token_hex(8)
        names = state.spells
        self.store.create(sid, players, names, seed, [s.__dict__ for s in seats], state.to_text(),
                          fixed_seed=fixed_seed, credentials=credentials)
        session = _Session(sid, players, names, seed, list(seats), state, 0, fixed_seed)
        session.owner, session.external = owner, external
        self.sessions[sid] = session
        self._kick_bots(session)
        return sid

    async def submit(self, sid: str, seat: int, move_text: str, expected_seq: int | None = None) -> list[Event]:
        """A client seat's own move; the draws it causes follow. Returns the events stored."""
        session = self._get(sid)
        async with session.lock:
            if expected_seq is not None and expected_seq != session.seq:
                raise SessionError("FAILED_PRECONDITION", "expected_seq",
                                   f"the session is at event {session.seq}, not {expected_seq} (a move was already made)")
            if not 0 <= seat < session.players:
                raise SessionError("INVALID_ARGUMENT", "seat", f"seat must be 0 to {session.players - 1}, got {seat}")
            if session.seats[seat].kind != "client":
                raise SessionError("INVALID_ARGUMENT", "seat", f"seat {seat} is a bot seat; clients move only their own seats")
            state = session.state
            if state.is_terminal():
                raise SessionError("FAILED_PRECONDITION", "session_id", "the game is over")
            if state.current_player != seat:
                raise SessionError("FAILED_PRECONDITION", "seat",
                                   f"it is seat {state.current_player}'s decision ({state.decision}), not seat {seat}'s")
            try:
                move = state.parse_move(move_text)
            except (IllegalMoveError, NotationError) as e:
                raise SessionError("INVALID_ARGUMENT", "move", str(e)) from None
            events = self._apply_and_store(session, seat, move)
        self._kick_bots(session)
        return events

    def view(self, sid: str, seat: int) -> dict:
        """What `seat` observes now: the observation text (never the Pouch order), whose turn, the legal
        moves when it is that seat's decision, scores so far."""
        session = self._get(sid)
        if not 0 <= seat < session.players:
            raise SessionError("INVALID_ARGUMENT", "seat", f"seat must be 0 to {session.players - 1}, got {seat}")
        st = session.state
        return {"session_id": sid, "seq": session.seq, "seat": seat, "observation": st.observation(seat),
                "to_move": st.current_player, "phase": st.phase, "decision": st.decision,
                "legal_moves": [str(m) for m in st.legal_moves()] if st.current_player == seat else [],
                "scores": [s.total for s in st.scores()], "over": st.is_terminal(),
                "winners": st.winners() if st.is_terminal() else [],
                "seats": [s.__dict__ for s in session.seats], "players": session.players, "spells": session.spells,
                "fixed_seed": session.fixed_seed}

    async def watch(self, sid: str, from_seq: int = 1) -> AsyncIterator[Event]:
        """Stored events from `from_seq`, then live ones until the game ends."""
        session = self._get(sid)
        queue: asyncio.Queue = asyncio.Queue()
        session.subscribers.append(queue)
        try:
            last = from_seq - 1
            for row in self.store.events(sid):
                if row.seq >= from_seq and row.kind != "setup":
                    yield self._event_from_row(row)
                    last = row.seq
            if session.state.is_terminal():
                yield self._end_event(session)
                return
            while True:
                ev: Event | None = await queue.get()
                if ev is None:
                    raise SessionError("NOT_FOUND", "session_id", "the session expired after a long time without a move")
                if ev.kind != "end" and ev.seq <= last:
                    continue
                yield ev
                if ev.kind == "end":
                    return
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

    def last_seq(self, sid: str) -> int:
        """The number of the session's last stored event."""
        return self._get(sid).seq

    def history(self, sid: str, from_seq: int = 1) -> list[Event]:
        """The stored events from `from_seq` (no 'end' event)."""
        self._get(sid)
        return [self._event_from_row(r) for r in self.store.events(sid) if r.seq >= from_seq and r.kind != "setup"]

    def export(self, sid: str) -> dict:
        """The game record (engine_c.records, docs/records.md): the setup draws, every move and draw in
        order, and the result when finished. The seed only once the game is over: before, it would reveal
        the Pouch's order (D18; the setup draws are events, so the record replays without it)."""
        row = self.store.session(sid)
        if row is None:
            raise SessionError("NOT_FOUND", "session_id", f"no session {sid!r}")
        events = [dict(e, seq=0) for e in records.setup_events(row.players, row.spells, row.seed)]
        events += [records.event(e.kind, e.seat, e.move, seq=e.seq) for e in self.store.events(sid) if e.kind != "setup"]
        finished = row.status == "finished"
        rec = {"format": records.FORMAT, "version": records.VERSION, "session_id": sid, "players": row.players,
               "spells": row.spells, "seats": [records.seat(s["kind"], s.get("spec", ""), s.get("level", 0)) for s in row.seats],
               "status": "finished" if finished else "active", "fixed_seed": row.fixed_seed}
        if finished:           # secret until the game is over, even a fixed one (D18)
            rec["seed"] = row.seed
        rec.update(events=events, result=row.result if finished else None)
        return rec

    # ---------------------------------------------------------------- internals
    def _get(self, sid: str) -> _Session:
        session = self.sessions.get(sid)
        if session is None:
            # A finished session leaves memory when it ends (and is not loaded by resume_all): read it back.
            row = self.store.session(sid) if sid else None
            last = self.store.last_event(sid) if row else None
            if row is not None and row.status == "expired":
                raise SessionError("NOT_FOUND", "session_id", "the session expired after a long time without a move")
            if row is None or last is None or row.status != "finished":
                raise SessionError("NOT_FOUND", "session_id", f"no session {sid!r}")
            session = _Session(row.id, row.players, row.spells, row.seed, [SeatSpec(**s) for s in row.seats],
                               State.from_text(last.state_after), last.seq, row.fixed_seed)
        return session

    def _apply_and_store(self, session: _Session, seat: int, move, draws: list[str] | None = None) -> list[Event]:
        """Plays `move` and the draws it causes on a copy, stores the events, and only then makes the copy the
        session's state: a refused write (an error from the store) leaves the session as it was."""
        state = session.state.clone()
        state.apply(move)
        rows = [(session.seq + 1, "move", seat, str(move), state.to_text())]
        if draws is None:
            draws = state.resolve_chance()
        else:
            for draw in draws:
                state.apply(draw)
        for draw in draws:
            rows.append((rows[-1][0] + 1, "draw", -1, str(draw), state.to_text()))
        # the draws' intermediate states are stored too (the last text is the current state)
        result = None
        if state.is_terminal():
            result = {"scores": [s.total for s in state.scores()], "winners": state.winners()}
        self.store.append(session.id, rows, result)
        session.state, session.seq = state, rows[-1][0]
        session.last_active = time.monotonic()
        events = [self._event_from_row(_Row(*r)) for r in rows]
        for ev in events:
            self._publish(session, ev)
        if state.is_terminal():
            self._publish(session, self._end_event(session))
            self.sessions.pop(session.id, None)   # finished: read back from the store when asked for
        return events

    def _end_event(self, session: _Session) -> Event:
        st = session.state
        return Event(session.seq, "end", -1, "", -2, [s.total for s in st.scores()], st.winners())

    def _event_from_row(self, row) -> Event:
        st = State.from_text(row.state_after)
        return Event(row.seq, row.kind, row.seat, row.move, st.current_player, [s.total for s in st.scores()])

    def _publish(self, session: _Session, ev: Event) -> None:
        for q in session.subscribers:
            q.put_nowait(ev)

    def record_external(self, sid: str, seat: int, move: str, draws: list[str]) -> list[Event]:
        """A move and the draws that followed it, made outside (a live PlayMatch's own loop): stored, then
        applied, then published, like any move. After a restart the session's bots carry on by themselves."""
        session = self._get(sid)
        return self._apply_and_store(session, seat, session.state.parse_move(move), draws)

    def abandon(self, sid: str) -> None:
        """Ends an unfinished session now (as an idle one expires): a PlayMatch whose call ended early."""
        session = self.sessions.get(sid)
        if session is not None and not session.state.is_terminal():
            self._expire(session)

    def _kick_bots(self, session: _Session) -> None:
        if session.external:
            return
        if session.bot_task is None or session.bot_task.done():
            session.bot_task = asyncio.get_running_loop().create_task(self._run_bots(session))
            session.bot_task.add_done_callback(functools.partial(_log_bot_failure, session.id))

    async def _run_bots(self, session: _Session) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with session.lock:
                st = session.state
                if st.is_terminal() or session.seats[st.current_player].kind != "bot":
                    return
                seat = st.current_player
                legal = st.legal_moves()
                spec = session.seats[seat].spec
                if len(legal) == 1:
                    move = legal[0]
                elif spec:     # a PlayMatch bot, carried on after a restart
                    bot = make_bot(spec, SPELLBOOK, seed=bot_seed(session.seed, session.seq))
                    move, _ = await loop.run_in_executor(self.executor, bot.choose, st.clone())
                else:
                    opts = level_options(session.seats[seat].level, seed=bot_seed(session.seed, session.seq))
                    result = await loop.run_in_executor(self.executor, ismcts, SPELLBOOK, st.clone(), opts)
                    move = result.move
                self._apply_and_store(session, seat, move)
