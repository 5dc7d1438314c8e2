"""Python clients of the SpellBook gRPC service: `SpellBookClient` (blocking) and `AsyncSpellBookClient`.

They take and return engine objects (`engine_c.State`, `engine_c.Move`); an observation (a state text
without the Pouch order, `State.observation(p)`) is passed as `Observation(text)`.

    from clients.client import SpellBookClient

    with SpellBookClient("127.0.0.1:50051") as client:
        state = client.new_game(players=2, spells="set1", seed=7)
        best = client.best_move(state, level=3, seed=1)
        state, draws = client.play(state, best.move)

Every call has a deadline (`timeout`, seconds; the client's default otherwise). Calls that fail with
UNAVAILABLE or RESOURCE_EXHAUSTED are retried with exponential backoff and jitter (honoring the server's
`grpc-retry-pushback-ms`), within the call's deadline. Other failures raise `ServiceError` (`InvalidArgument`
for INVALID_ARGUMENT, whose `field_violations` name the request fields).
"""
from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import AsyncIterator, Callable, Iterator, Sequence, Union

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engine_c import Move, State
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb

DEFAULT_TARGET = "127.0.0.1:50051"
RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED)
MISTAKE_CLASS_NAMES = {pb.MISTAKE_CLASS_BEST: "best", pb.MISTAKE_CLASS_GOOD: "good",
                       pb.MISTAKE_CLASS_INACCURACY: "inaccuracy", pb.MISTAKE_CLASS_MISTAKE: "mistake",
                       pb.MISTAKE_CLASS_BLUNDER: "blunder"}


@dataclass(frozen=True)
class Observation:
    """What one seat sees (State.observation(p)): sent as is; the server samples a Pouch order from `seed`."""

    text: str
    seed: int = 0


StateLike = Union[State, Observation]


class ServiceError(Exception):
    """A call that failed; `code` is the gRPC status code."""

    def __init__(self, code: grpc.StatusCode, details: str, field_violations: Sequence[tuple[str, str]] = (),
                 retry_after_ms: int | None = None):
        super().__init__(f"{code.name}: {details}")
        self.code, self.details = code, details
        self.field_violations = list(field_violations)
        self.retry_after_ms = retry_after_ms

    @property
    def fields(self) -> list[str]:
        return [f for f, _ in self.field_violations]


class InvalidArgument(ServiceError):
    """INVALID_ARGUMENT: `field_violations` say which request fields and why."""


def _error_from(err: grpc.RpcError) -> ServiceError:
    code = err.code()
    violations: list[tuple[str, str]] = []
    status = None
    try:
        status = rpc_status.from_call(err)
    except Exception:  # a status without matching details: keep the plain code/message
        status = None
    if status is not None:
        for detail in status.details:
            if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                br = error_details_pb2.BadRequest()
                detail.Unpack(br)
                violations += [(v.field, v.description) for v in br.field_violations]
    cls = InvalidArgument if code == grpc.StatusCode.INVALID_ARGUMENT else ServiceError
    return cls(code, err.details() or "", violations, _pushback_ms(err))


def _pushback_ms(err: grpc.RpcError) -> int | None:
    try:
        for key, value in err.trailing_metadata() or ():
            if key == "grpc-retry-pushback-ms":
                return int(value)
    except Exception:
        return None
    return None


@dataclass
class BestMove:
    move: Move
    stats: pb.SearchStats

    @property
    def cut_short(self) -> bool:
        return self.stats.cut_short


@dataclass
class Reason:
    kind: str
    value: float
    items: list[str]
    text: str


@dataclass
class Hint:
    move: Move | None              # None for the hidden best move (hide_best)
    rank: int
    win_probability: float
    expected_score: float
    loss: float
    loss_points: float
    mistake_class: str
    visits: int
    reasons: list[Reason] = field(default_factory=list)


@dataclass
class Hints:
    hints: list[Hint]
    stats: pb.SearchStats


@dataclass
class AnalysisUpdate:
    final: bool
    best_move: Move
    stats: pb.SearchStats
    hints: list[Hint]


# ----------------------------------------------------------------------------------------------
# Request building and response reading (shared by both clients)
# ----------------------------------------------------------------------------------------------
def state_input(state: StateLike) -> pb.StateInput:
    if isinstance(state, State):
        return pb.StateInput(text=state.to_text())
    if isinstance(state, Observation):
        return pb.StateInput(observation=state.text, determinize_seed=state.seed)
    raise TypeError(f"state must be an engine State or an Observation, got {type(state).__name__}")


def _state_out(gs: pb.GameState, like: StateLike) -> StateLike:
    if isinstance(like, Observation):
        return Observation(gs.text, like.seed)
    return State.from_text(gs.text)


def _move(m: pb.Move) -> Move:
    return Move(m.code) if m.code or m.text == "pass" else Move.from_text(m.text)


def _hint(h: pb.Hint) -> Hint:
    return Hint(move=_move(h.move) if h.move.text else None, rank=h.rank, win_probability=h.win_probability,
                expected_score=h.expected_score, loss=h.loss, loss_points=h.loss_points,
                mistake_class=MISTAKE_CLASS_NAMES.get(h.mistake_class, "unspecified"), visits=h.visits,
                reasons=[Reason(r.kind, r.value, list(r.items), r.text) for r in h.reasons])


def _search_fields(state: StateLike, seat: int | None, level: int, iterations: int, time_ms: float, threads: int,
                   options: dict | None, seed: int) -> dict:
    kw = dict(state=state_input(state), level=level, seed=seed,
              limits=pb.SearchLimits(iterations=iterations, time_ms=time_ms, threads=threads))
    if seat is not None:
        kw["seat"] = seat
    if options:
        kw["options"] = pb.SearchOptions(**options)
    return kw


class _Retry:
    """Backoff schedule: base * 2^attempt with full jitter, capped; the server's pushback wins when given."""

    def __init__(self, retries: int, base_s: float, max_s: float):
        self.retries, self.base_s, self.max_s = retries, base_s, max_s

    def delay(self, attempt: int, err: ServiceError) -> float:
        if err.retry_after_ms is not None:
            return min(err.retry_after_ms / 1000.0, self.max_s) * (1 + random.random() * 0.2)
        return random.uniform(0, min(self.max_s, self.base_s * 2 ** attempt))


# ----------------------------------------------------------------------------------------------
# Blocking client
# ----------------------------------------------------------------------------------------------
class SpellBookClient:
    """Blocking client. `timeout` is the default deadline of a call in seconds."""

    def __init__(self, target: str = DEFAULT_TARGET, *, timeout: float = 30.0, retries: int = 4,
                 backoff_s: float = 0.05, max_backoff_s: float = 2.0, channel: grpc.Channel | None = None):
        self.timeout = timeout
        self._retry = _Retry(retries, backoff_s, max_backoff_s)
        self.channel = channel or grpc.insecure_channel(target)
        self.stub = service_pb2_grpc.SpellBookServiceStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> "SpellBookClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _call(self, method: Callable, request, timeout: float | None):
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        attempt = 0
        while True:
            try:
                return method(request, timeout=max(deadline - time.monotonic(), 0.0))
            except grpc.RpcError as e:
                err = _error_from(e)
                if err.code not in RETRYABLE or attempt >= self._retry.retries:
                    raise err from None
                pause = self._retry.delay(attempt, err)
                if time.monotonic() + pause >= deadline:
                    raise err from None
                time.sleep(pause)
                attempt += 1

    # -------------------------------------------------------------- rules
    def server_info(self, timeout: float | None = None) -> spb.GetServerInfoResponse:
        return self._call(self.stub.GetServerInfo, spb.GetServerInfoRequest(), timeout)

    def new_game(self, players: int = 2, spells: str = "set1", seed: int = 0, timeout: float | None = None) -> State:
        resp = self._call(self.stub.NewGame, spb.NewGameRequest(players=players, spells=spells, seed=seed), timeout)
        return State.from_text(resp.state.text)

    def legal_moves(self, state: StateLike, timeout: float | None = None) -> list[Move]:
        resp = self._call(self.stub.ListLegalMoves, spb.ListLegalMovesRequest(state=state_input(state)), timeout)
        return [_move(m) for m in resp.moves]

    def chance_outcomes(self, state: StateLike, timeout: float | None = None) -> list[tuple[Move, float]]:
        resp = self._call(self.stub.ListLegalMoves, spb.ListLegalMovesRequest(state=state_input(state)), timeout)
        return [(_move(c.move), c.probability) for c in resp.chance_outcomes]

    def apply_move(self, state: StateLike, move: Move | str, timeout: float | None = None) -> StateLike:
        """The state after `move` (stopping at any draw it causes)."""
        return self.play(state, move, resolve_chance=False, timeout=timeout)[0]

    def play(self, state: StateLike, move: Move | str, resolve_chance: bool = True,
             timeout: float | None = None) -> tuple[StateLike, list[Move]]:
        """The state after `move` and the draws that follow (resolved with the state's own generator)."""
        req = spb.ApplyMoveRequest(state=state_input(state), move=pb.Move(text=str(move)), resolve_chance=resolve_chance)
        resp = self._call(self.stub.ApplyMove, req, timeout)
        return _state_out(resp.state, state), [_move(d) for d in resp.draws]

    def resolve_chance(self, state: StateLike, seed: int | None = None,
                       timeout: float | None = None) -> tuple[StateLike, list[Move]]:
        req = spb.ResolveChanceRequest(state=state_input(state))
        if seed is not None:
            req.seed = seed
        resp = self._call(self.stub.ResolveChance, req, timeout)
        return _state_out(resp.state, state), [_move(d) for d in resp.draws]

    # -------------------------------------------------------------- search
    def best_move(self, state: StateLike, *, seat: int | None = None, level: int = 0, iterations: int = 0,
                  time_ms: float = 0.0, threads: int = 0, options: dict | None = None, seed: int = 0,
                  timeout: float | None = None) -> BestMove:
        """The search's move. `options`: SearchOptions fields (exploration, objective, rollout, ...)."""
        req = spb.GetBestMoveRequest(**_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        resp = self._call(self.stub.GetBestMove, req, timeout)
        return BestMove(_move(resp.move), resp.stats)

    def hints(self, state: StateLike, *, top_k: int = 3, hide_best: bool = False, seat: int | None = None,
              level: int = 0, iterations: int = 0, time_ms: float = 0.0, threads: int = 0,
              options: dict | None = None, seed: int = 0, timeout: float | None = None) -> Hints:
        req = spb.GetHintsRequest(top_k=top_k, hide_best=hide_best,
                                  **_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        resp = self._call(self.stub.GetHints, req, timeout)
        return Hints([_hint(h) for h in resp.hints], resp.stats)

    def analyze(self, state: StateLike, *, report_every_ms: int = 250, top_k: int = 3, seat: int | None = None,
                level: int = 0, iterations: int = 0, time_ms: float = 0.0, threads: int = 0,
                options: dict | None = None, seed: int = 0, timeout: float | None = None) -> Iterator[AnalysisUpdate]:
        """Progress updates, then one with `final` set. Retried only before the first update."""
        req = spb.AnalyzeRequest(report_every_ms=report_every_ms, top_k=top_k,
                                 **_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        attempt = 0
        while True:
            received = False
            call = self.stub.Analyze(req, timeout=max(deadline - time.monotonic(), 0.0))
            try:
                for r in call:
                    received = True
                    yield AnalysisUpdate(r.final, _move(r.best_move), r.stats, [_hint(h) for h in r.hints])
                return
            except grpc.RpcError as e:
                err = _error_from(e)
                if received or err.code not in RETRYABLE or attempt >= self._retry.retries:
                    raise err from None
                pause = self._retry.delay(attempt, err)
                if time.monotonic() + pause >= deadline:
                    raise err from None
                time.sleep(pause)
                attempt += 1
            finally:
                call.cancel()


# ----------------------------------------------------------------------------------------------
# Async client
# ----------------------------------------------------------------------------------------------
class AsyncSpellBookClient:
    """asyncio client (grpc.aio); the same methods as SpellBookClient, as coroutines."""

    def __init__(self, target: str = DEFAULT_TARGET, *, timeout: float = 30.0, retries: int = 4,
                 backoff_s: float = 0.05, max_backoff_s: float = 2.0, channel: grpc.aio.Channel | None = None):
        self.timeout = timeout
        self._retry = _Retry(retries, backoff_s, max_backoff_s)
        self.channel = channel or grpc.aio.insecure_channel(target)
        self.stub = service_pb2_grpc.SpellBookServiceStub(self.channel)

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> "AsyncSpellBookClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def _call(self, method: Callable, request, timeout: float | None):
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        attempt = 0
        while True:
            try:
                return await method(request, timeout=max(deadline - time.monotonic(), 0.0))
            except grpc.RpcError as e:
                err = _error_from(e)
                if err.code not in RETRYABLE or attempt >= self._retry.retries:
                    raise err from None
                pause = self._retry.delay(attempt, err)
                if time.monotonic() + pause >= deadline:
                    raise err from None
                await asyncio.sleep(pause)
                attempt += 1

    async def server_info(self, timeout: float | None = None) -> spb.GetServerInfoResponse:
        return await self._call(self.stub.GetServerInfo, spb.GetServerInfoRequest(), timeout)

    async def new_game(self, players: int = 2, spells: str = "set1", seed: int = 0,
                       timeout: float | None = None) -> State:
        resp = await self._call(self.stub.NewGame, spb.NewGameRequest(players=players, spells=spells, seed=seed), timeout)
        return State.from_text(resp.state.text)

    async def legal_moves(self, state: StateLike, timeout: float | None = None) -> list[Move]:
        resp = await self._call(self.stub.ListLegalMoves, spb.ListLegalMovesRequest(state=state_input(state)), timeout)
        return [_move(m) for m in resp.moves]

    async def play(self, state: StateLike, move: Move | str, resolve_chance: bool = True,
                   timeout: float | None = None) -> tuple[StateLike, list[Move]]:
        req = spb.ApplyMoveRequest(state=state_input(state), move=pb.Move(text=str(move)), resolve_chance=resolve_chance)
        resp = await self._call(self.stub.ApplyMove, req, timeout)
        return _state_out(resp.state, state), [_move(d) for d in resp.draws]

    async def apply_move(self, state: StateLike, move: Move | str, timeout: float | None = None) -> StateLike:
        return (await self.play(state, move, resolve_chance=False, timeout=timeout))[0]

    async def resolve_chance(self, state: StateLike, seed: int | None = None,
                             timeout: float | None = None) -> tuple[StateLike, list[Move]]:
        req = spb.ResolveChanceRequest(state=state_input(state))
        if seed is not None:
            req.seed = seed
        resp = await self._call(self.stub.ResolveChance, req, timeout)
        return _state_out(resp.state, state), [_move(d) for d in resp.draws]

    async def best_move(self, state: StateLike, *, seat: int | None = None, level: int = 0, iterations: int = 0,
                        time_ms: float = 0.0, threads: int = 0, options: dict | None = None, seed: int = 0,
                        timeout: float | None = None) -> BestMove:
        req = spb.GetBestMoveRequest(**_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        resp = await self._call(self.stub.GetBestMove, req, timeout)
        return BestMove(_move(resp.move), resp.stats)

    async def hints(self, state: StateLike, *, top_k: int = 3, hide_best: bool = False, seat: int | None = None,
                    level: int = 0, iterations: int = 0, time_ms: float = 0.0, threads: int = 0,
                    options: dict | None = None, seed: int = 0, timeout: float | None = None) -> Hints:
        req = spb.GetHintsRequest(top_k=top_k, hide_best=hide_best,
                                  **_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        resp = await self._call(self.stub.GetHints, req, timeout)
        return Hints([_hint(h) for h in resp.hints], resp.stats)

    async def analyze(self, state: StateLike, *, report_every_ms: int = 250, top_k: int = 3,
                      seat: int | None = None, level: int = 0, iterations: int = 0, time_ms: float = 0.0,
                      threads: int = 0, options: dict | None = None, seed: int = 0,
                      timeout: float | None = None) -> AsyncIterator[AnalysisUpdate]:
        req = spb.AnalyzeRequest(report_every_ms=report_every_ms, top_k=top_k,
                                 **_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        attempt = 0
        while True:
            received = False
            call = self.stub.Analyze(req, timeout=max(deadline - time.monotonic(), 0.0))
            try:
                async for r in call:
                    received = True
                    yield AnalysisUpdate(r.final, _move(r.best_move), r.stats, [_hint(h) for h in r.hints])
                return
            except grpc.RpcError as e:
                err = _error_from(e)
                if received or err.code not in RETRYABLE or attempt >= self._retry.retries:
                    raise err from None
                pause = self._retry.delay(attempt, err)
                if time.monotonic() + pause >= deadline:
                    raise err from None
                await asyncio.sleep(pause)
                attempt += 1
            finally:
                call.cancel()
