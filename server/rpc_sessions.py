"""Session RPCs: CreateSession, SubmitMove, GetSession, WatchSession, ExportSession.

The SessionManager (server/sessions.py) runs the sessions; this module turns requests into its calls and
its events into messages. One implementation for every game's service: a servicer names its game
(`game`), its message modules (`spb`, `pb`) and its conversions (`conv`: move_pb, search_options,
search_stats, effective_options and the records', as server/convert.py for SpellBook), and defines
`_event_pb` (an event as a role sees it), CreateSession and GetSession (its own setup and view); a game
whose players see different things overrides `_record_for` (what a role may see of the record).
"""
from __future__ import annotations

import asyncio
import json
from types import ModuleType

import grpc

from engine_c import records
from engine_c.base import IllegalMoveError, NotationError
from server import auth
from server.common_convert import FieldError
from server.fairshare import current_client
from server.rpc_base import RpcBase, rpc
from server.sessions import SeatSpec, SessionError, SessionManager
from server.store import MAX_SEQ
from engine_c.registry import Game, get_game


class SessionRpcs(RpcBase):
    sessions: SessionManager | None
    _stopping: asyncio.Event
    game: Game          # the servicer's game (engine_c.registry), and its message and conversion modules
    spb: ModuleType
    pb: ModuleType
    conv: ModuleType

    def _manager(self) -> SessionManager:
        if self.sessions is None:
            raise SessionError("FAILED_PRECONDITION", "session_id", "this server runs without sessions")
        return self.sessions

    def _authorize(self, context, sid: str, seat: int | None = None, moves: bool = False) -> str:
        """The caller's role in session `sid` from its token (server/auth.py): NOT_FOUND for an unknown
        session, INVALID_ARGUMENT for a seat that does not exist (or a bot seat, when the call `moves`),
        INVALID_ARGUMENT for a session of another game, UNAUTHENTICATED without a token, PERMISSION_DENIED
        for a token of another session, another
        seat's (when `seat` is given) or the spectator's when the call `moves`."""
        mgr = self._manager()
        seats = mgr.seats(sid)
        if mgr.game_of(sid) != self.game.name:     # each game's views and records go through its own service
            raise SessionError("INVALID_ARGUMENT", "session_id",
                               f"session {sid} is a game of {get_game(mgr.game_of(sid)).title}, not {self.game.title}: "
                               "call that game's service")
        if seat is not None:     # a request that can never succeed says so whoever asks
            if not 0 <= seat < len(seats):
                raise SessionError("INVALID_ARGUMENT", "seat", f"seat must be 0 to {len(seats) - 1}, got {seat}")
            if moves and seats[seat].kind != "client":
                raise SessionError("INVALID_ARGUMENT", "seat",
                                   f"seat {seat} is a bot seat; clients move only their own seats")
        token = auth.metadata_value(context, auth.SESSION_TOKEN_HEADER)
        if not token:
            raise auth.AuthError("UNAUTHENTICATED", f"this call needs the session's token in the metadata "
                                                    f"`{auth.SESSION_TOKEN_HEADER}` (CreateSession returns it)")
        role = mgr.role(sid, auth.token_hash(token))
        if role is None:
            raise auth.AuthError("PERMISSION_DENIED", "the token is not one of this session's")
        if role == auth.SPECTATOR:
            if moves:
                raise auth.AuthError("PERMISSION_DENIED", "the spectator token only reads; moves need the seat's token")
        elif seat is not None and role != auth.seat_role(seat):
            raise auth.AuthError("PERMISSION_DENIED", f"the token is {role.replace(':', ' ')}'s, not seat {seat}'s")
        return role

    @staticmethod
    def _record_for(record: dict, role: str) -> dict:
        """The exported record as `role` may see it (SpellBook: whole; the seed is the export's business)."""
        return record

    async def _create_session(self, request, log_extra, setup, seats: list[SeatSpec]):
        """Issues the tokens and creates the session of this servicer's game: (session id, seat tokens,
        spectator token)."""
        seat_tokens, spectator, roles = auth.issue_session_tokens(
            [i for i, s in enumerate(seats) if s.kind == "client"])
        seed = request.seed if request.HasField("seed") else None
        sid = await self._manager().create(request.players or len(seats), setup, seed, seats, roles,
                                           owner=current_client.get(), game=self.game.name)
        log_extra.update(session=auth.redact(sid), fixed_seed=seed is not None)
        return sid, seat_tokens, spectator

    def _session_seats(self, request) -> list[SeatSpec]:
        """The request's seats (FieldError naming seats[i].kind for an unknown kind)."""
        seats = []
        for i, seat in enumerate(request.seats):
            if seat.kind == self.pb.SEAT_KIND_CLIENT:
                seats.append(SeatSpec("client"))
            elif seat.kind == self.pb.SEAT_KIND_BOT:
                seats.append(SeatSpec("bot", seat.level))
            else:
                raise FieldError(f"seats[{i}].kind", "must be SEAT_KIND_CLIENT or SEAT_KIND_BOT")
        if request.players < 0:
            raise FieldError("players", f"must be {self.game.min_players} to {self.game.max_players} (0: the "
                                        f"number of seats), got {request.players}")
        return seats

    @rpc
    async def SubmitMove(self, request, context, log_extra):
        mgr = self._manager()
        log_extra.update(session=auth.redact(request.session_id), seat=request.seat)
        role = self._authorize(context, request.session_id, request.seat, moves=True)
        text = request.move.text.strip()
        if not text:
            raise FieldError("move.text", "give the move text (GetSession lists the legal moves)")
        expected = request.expected_seq if request.HasField("expected_seq") else None
        if expected is not None and not 0 <= expected < MAX_SEQ:
            # a retry is looked up at expected_seq + 1, which must fit the store's 64-bit event numbers
            raise FieldError("expected_seq", f"must be 0 to {MAX_SEQ - 1} (an event number), got {expected}")
        try:
            events = await mgr.submit(request.session_id, request.seat, text, expected)
        except SessionError as e:
            replayed = self._replayed(mgr, request, text, expected) if e.field == "expected_seq" else None
            if replayed is None:
                raise
            log_extra.update(replayed=True)
            return self.spb.SubmitMoveResponse(events=[self._event_pb(ev, role) for ev in replayed],
                                               seq=replayed[-1].seq, to_move=replayed[-1].to_move, replayed=True)
        return self.spb.SubmitMoveResponse(events=[self._event_pb(ev, role) for ev in events], seq=events[-1].seq,
                                           to_move=events[-1].to_move)

    def _replayed(self, mgr: SessionManager, request, text: str, expected: int):
        """A retried submission: when the event right after `expected` is this seat's very same move, the
        stored events of that submission (the move and its draws); otherwise None."""
        history = mgr.history(request.session_id, expected + 1)
        if text.lower() == records.RESIGN:       # a retried resignation: answered from the history too
            ok = history and history[0].seq == expected + 1 and history[0].kind == records.RESIGN \
                and history[0].seat == request.seat
            return history[:1] if ok else None
        if not history or history[0].seq != expected + 1 or history[0].kind != "move" \
                or history[0].seat != request.seat:
            return None
        try:
            if self.game.Move.from_text(text).code != self.game.Move.from_text(history[0].move).code:
                return None
        except (NotationError, IllegalMoveError, ValueError):
            return None
        events = [history[0]]
        for ev in history[1:]:
            if not ev.is_chance:
                break
            events.append(ev)
        return events

    @rpc
    async def WatchSession(self, request, context, log_extra):
        mgr = self._manager()
        if request.from_seq < 0:
            raise FieldError("from_seq", f"must not be negative, got {request.from_seq}")
        log_extra.update(session=auth.redact(request.session_id))
        role = self._authorize(context, request.session_id)
        end = mgr.last_seq(request.session_id) + 1
        if request.from_seq > end:
            raise SessionError("OUT_OF_RANGE", "from_seq", f"the session's next event is {end}; from_seq "
                                                           f"{request.from_seq} is beyond it")
        # a finished game's replay shows what its record shows: every hidden outcome is public by then
        finished = mgr.over(request.session_id)
        events = mgr.watch(request.session_id, max(request.from_seq, 1))
        stopping = asyncio.ensure_future(self._stopping.wait())
        last = request.from_seq - 1
        nxt = None
        try:
            while True:
                nxt = asyncio.ensure_future(events.__anext__())
                await asyncio.wait({nxt, stopping}, return_when=asyncio.FIRST_COMPLETED)
                if not nxt.done():
                    nxt.cancel()
                    await asyncio.gather(nxt, return_exceptions=True)
                    await context.abort(grpc.StatusCode.UNAVAILABLE,
                                        f"the server is shutting down; watch again with from_seq={last + 1}")
                try:
                    ev = nxt.result()
                except StopAsyncIteration:
                    break
                if ev.kind != "end":
                    last = ev.seq
                yield self.spb.WatchSessionResponse(event=self._event_pb(ev, role, finished))
        finally:   # also when the client cancels: stop the pending read first, then close the generator
            stopping.cancel()
            if nxt is not None and not nxt.done():
                nxt.cancel()
                await asyncio.gather(nxt, return_exceptions=True)
            await events.aclose()

    @rpc
    async def ExportSession(self, request, context, log_extra):
        log_extra.update(session=auth.redact(request.session_id))
        role = self._authorize(context, request.session_id)
        record = self._record_for(self._manager().export(request.session_id), role)
        out = self.spb.ExportSessionResponse(record_json=json.dumps(record), fixed_seed=bool(record.get("fixed_seed")))
        self._record_pb(out, record)
        return out
