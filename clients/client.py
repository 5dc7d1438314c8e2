"""Python clients of the server's APIs: `GameClient` (games.v1, the game-neutral API: one class for every
game, the game from the constructor or per call), and SpellBook's own `SpellBookClient` (blocking) and
`AsyncSpellBookClient`, and `AbracadaWhatClient` (the per-game APIs, kept for existing apps).

They take and return engine objects (`engine_c.State`, `engine_c.Move`); an observation (a state text
without the Pouch order, `State.observation(p)`) is passed as `Observation(text)`.

    from clients.client import SpellBookClient

    with SpellBookClient("127.0.0.1:50051") as client:
        state = client.new_game(players=2, spells="set1", seed=7)
        best = client.best_move(state, level=3, seed=1)
        state, draws = client.play(state, best.move)

`target` is one address ("127.0.0.1:50051"), several (a list, or "10.0.0.1:50051,10.0.0.2:50051"), or a
DNS name whose addresses are the replicas ("dns:///spellbook.internal:50051"): calls are spread over them
round-robin (gRPC's `round_robin` policy), and a replica that is gone is skipped, so a retry goes to
another one. Each call carries an `x-request-id` (the same on its retries), which the server's log lines
show.

Every call has a deadline (`timeout`, seconds; the client's default otherwise). Calls that fail with
UNAVAILABLE or RESOURCE_EXHAUSTED are retried by gRPC itself, by the retry policy in the channel's
service config (`retry_service_config`: exponential backoff with jitter, the server's
`grpc-retry-pushback-ms` honoured, at most 5 attempts, all within the call's deadline), and only where a
retry is safe: `create_session` is never retried (a lost answer could mean a second session),
`submit_move` only when it gives `expected_seq` (the server answers a repeated submission from its history,
never applying it twice; one without goes through a second channel that never retries), streams only
before their first message; `watch_session`, broken later, resumes from the next event with a new call.
Each client has its own connection: a server without API keys shares its workers among connections.
Other failures raise `ServiceError` (`InvalidArgument` for INVALID_ARGUMENT, whose `field_violations` name
the request fields; FAILED_PRECONDITION carries `precondition_violations`, (type, subject, description)).

Sessions:

    sid = client.create_session(["client", "bot:3"])  # the server draws a secret seed (seed=7: fixed)
    view = client.get_session(sid, seat=0)          # .observation, .legal_moves, .seq, .to_move, ...
    client.submit_move(sid, 0, view.legal_moves[0], expected_seq=view.seq)
    for event in client.watch_session(sid): ...     # moves, draws, then the "end" event

Credentials. `create_session` returns a `CreatedSession` (a str: the id) that also holds the secret token
of each client seat (`.seat_tokens`) and the read-only `.spectator_token`; the client remembers them and
sends the right one with each session call (metadata `spellbook-session-token`). Give a seat's token to
that seat's player only: another process joins with `client.add_session_token(sid, token, seat=1)` (or
passes `token=` to a call). A server with API keys needs `api_key=`; TLS: `tls=True` (system roots) or
`root_certificates=` (PEM bytes), and for mutual TLS `client_certificate=` / `client_key=`.
"""
from __future__ import annotations

import ipaddress
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable, Iterator, Sequence, Union

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engine_c.spellbook import Move, State
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb

DEFAULT_TARGET = "127.0.0.1:50051"
RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED)
SERVICE = "spellbook.v1.SpellBookService"
# Every method a retry cannot harm: all but CreateSession (a lost answer could mean a second session).
# SubmitMove only with expected_seq: the clients send one without it through a channel that never retries.
RETRIED_METHODS = ("GetServerInfo", "NewGame", "ListLegalMoves", "ApplyMove", "ResolveChance", "GetBestMove",
                   "GetHints", "Analyze", "SubmitMove", "GetSession", "WatchSession", "ExportSession",
                   "PlayMatch", "AnalyzeGame")
AW_SERVICE = "abracadawhat.v1.AbracadaWhatService"
# The same for Abracada…What?'s service (AbracadaWhatClient), on the same retry policy.
AW_RETRIED_METHODS = ("GetRules", "NewGame", "ListLegalMoves", "ApplyMove", "GetBestMove", "GetHints", "Analyze",
                      "SubmitMove", "GetSession", "WatchSession", "ExportSession", "PlayMatch", "AnalyzeGame")
GAMES_SERVICE = "games.v1.GameService"
# The same for the game-neutral API (GameClient), on the same retry policy.
GAMES_RETRIED_METHODS = ("ListGames",) + AW_RETRIED_METHODS[1:]
MAX_ATTEMPTS = 5      # gRPC clamps a retry policy's maxAttempts to 5
SESSION_TOKEN_HEADER = "spellbook-session-token"
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
                 retry_after_ms: int | None = None,
                 precondition_violations: Sequence[tuple[str, str, str]] = ()):
        super().__init__(f"{code.name}: {details}")
        self.code, self.details = code, details
        self.field_violations = list(field_violations)
        self.retry_after_ms = retry_after_ms
        self.precondition_violations = list(precondition_violations)

    @property
    def fields(self) -> list[str]:
        """The request fields named by BadRequest (INVALID_ARGUMENT) or PreconditionFailure subjects."""
        return [f for f, _ in self.field_violations] + [s for _, s, _ in self.precondition_violations]


class InvalidArgument(ServiceError):
    """INVALID_ARGUMENT: `field_violations` say which request fields and why."""


def _error_from(err: grpc.RpcError) -> ServiceError:
    code = err.code()
    violations: list[tuple[str, str]] = []
    preconditions: list[tuple[str, str, str]] = []
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
            elif detail.Is(error_details_pb2.PreconditionFailure.DESCRIPTOR):
                pf = error_details_pb2.PreconditionFailure()
                detail.Unpack(pf)
                preconditions += [(v.type, v.subject, v.description) for v in pf.violations]
    cls = InvalidArgument if code == grpc.StatusCode.INVALID_ARGUMENT else ServiceError
    return cls(code, err.details() or "", violations, _pushback_ms(err), preconditions)


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
    aspect: str = ""               # "gains", "enables", "gives_up" or "leaves" (engine_c/spellbook/reasons.py)


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
    about_equal: bool = False      # within the search's noise of the best (rank 1: another move is; D155)
    loss_margin: float = 0.0       # ~95% half-width of `loss`
    score_spread: float = 0.0      # std of the final score across the search's simulated games
    verdict: str = ""              # the move's verdict in words (search/hints.py `verdict`)


@dataclass
class Hints:
    hints: list[Hint]
    stats: pb.SearchStats
    insight: pb.Insight | None = None     # when the request asked for insight
    confidence: pb.HintConfidence | None = None   # GetHints: whether the top move was settled


@dataclass
class AnalysisUpdate:
    final: bool
    best_move: Move
    stats: pb.SearchStats
    hints: list[Hint]
    insight: pb.Insight | None = None     # on the final update, when the request asked for insight


@dataclass(frozen=True)
class Seat:
    """A session seat: `Seat("client")` or `Seat("bot", level)`; the strings "client" and "bot:3" work too."""

    kind: str
    level: int = 0


@dataclass
class SessionEvent:
    seq: int
    kind: str                      # move | draw | end
    seat: int                      # deciding seat (-1 for draws and the end)
    move: Move | None              # None for the end
    to_move: int                   # who decides next (-2: over)
    scores: list[int]
    winners: list[int]


@dataclass
class SessionView:
    session_id: str
    seq: int                       # pass as submit_move(expected_seq=...)
    seat: int
    observation: Observation       # what the seat sees (no Pouch order); usable with best_move/hints
    to_move: int
    phase: str
    decision: str
    legal_moves: list[Move]        # empty unless it is the seat's decision
    scores: list[int]
    over: bool
    winners: list[int]
    seats: list[Seat]
    players: int
    spells: list[str]
    fixed_seed: bool = False       # True: the creator fixed the seed (replay / tournament mode)


class CreatedSession(str):
    """A new session's id (use it as the id) with its credentials and seed mode."""

    seat_tokens: dict[int, str]
    spectator_token: str
    fixed_seed: bool

    def __new__(cls, session_id: str, seat_tokens: dict[int, str], spectator_token: str, fixed_seed: bool):
        out = super().__new__(cls, session_id)
        out.seat_tokens, out.spectator_token, out.fixed_seed = dict(seat_tokens), spectator_token, fixed_seed
        return out

    def __repr__(self) -> str:   # never print the tokens
        return f"CreatedSession({str(self)!r}, seats={sorted(self.seat_tokens)}, fixed_seed={self.fixed_seed})"


class _SessionTokens:
    """The session tokens a client holds: per session, the seat tokens and the spectator token."""

    def __init__(self):
        self._by_session: dict[str, dict] = {}

    def add(self, session_id: str, token: str, seat: int | None = None) -> None:
        entry = self._by_session.setdefault(str(session_id), {"seats": {}, "spectator": None})
        if seat is None:
            entry["spectator"] = token
        else:
            entry["seats"][seat] = token

    def remember(self, created: CreatedSession) -> None:
        for seat, token in created.seat_tokens.items():
            self.add(created, token, seat)
        self.add(created, created.spectator_token)

    def pick(self, session_id: str, seat: int | None = None, moves: bool = False) -> str | None:
        """The token for a call: the seat's own; for reads without a seat, the spectator's or any seat's."""
        entry = self._by_session.get(str(session_id))
        if entry is None:
            return None
        if seat is not None and seat in entry["seats"]:
            return entry["seats"][seat]
        if moves:
            return None
        return entry["spectator"] or next(iter(entry["seats"].values()), None)


def _channel_credentials(tls: bool, root_certificates: bytes | None, client_certificate: bytes | None,
                         client_key: bytes | None) -> grpc.ChannelCredentials | None:
    if not (tls or root_certificates or client_certificate):
        return None
    return grpc.ssl_channel_credentials(root_certificates=root_certificates, private_key=client_key,
                                        certificate_chain=client_certificate)


class _Channels:
    """A client's channel (`module`: grpc or grpc.aio; retries by `service_config`, or the channel given)
    and its twin that never retries (submits without expected_seq), opened on first use."""

    def __init__(self, module, channel, target: str | Sequence[str], service_config: dict, channel_options,
                 creds: grpc.ChannelCredentials | None):
        self._open_once: Callable[[], Any] | None = None
        if channel is None:
            address, options = channel_target(target, service_config)
            options += list(channel_options)

            def open_channel(extra: Sequence[tuple[str, Any]] = ()):
                opts = options + list(extra)
                return module.secure_channel(address, creds, options=opts) if creds else \
                    module.insecure_channel(address, options=opts)
            channel = open_channel()
            self._open_once = lambda: open_channel([("grpc.enable_retries", 0)])
        self.main = channel
        self._once: tuple | None = None

    def stub_once(self, stub_class=service_pb2_grpc.SpellBookServiceStub):
        """A stub of `stub_class` (the client's service) on the channel that never retries (the given
        channel when there is one)."""
        if self._once is None:
            once = self._open_once() if self._open_once is not None else self.main
            self._once = (once, stub_class(once))
        return self._once[1]

    def opened(self) -> list:
        """The channels to close."""
        return [self.main] + ([self._once[0]] if self._once is not None and self._once[0] is not self.main else [])


def _session_metadata(base: tuple, token: str | None) -> tuple:
    return base + (((SESSION_TOKEN_HEADER, token),) if token else ())


def retry_service_config(retries: int = MAX_ATTEMPTS - 1, backoff_s: float = 0.05,
                         max_backoff_s: float = 2.0) -> dict:
    """The channel's service config: round-robin over the target's addresses, and gRPC's retry policy for
    RETRIED_METHODS (and Abracada…What?'s AW_RETRIED_METHODS, games.v1's GAMES_RETRIED_METHODS): UNAVAILABLE and RESOURCE_EXHAUSTED retried up to `retries` times (at most 4: gRPC's
    limit is 5 attempts), the n-th after a random pause of up to min(backoff_s * 2^n, max_backoff_s), or
    after the server's `grpc-retry-pushback-ms` when it gives one; all within the call's deadline."""
    config: dict[str, Any] = {"loadBalancingConfig": [{"round_robin": {}}]}
    if retries > 0:
        config["methodConfig"] = [{
            "name": [{"service": SERVICE, "method": m} for m in RETRIED_METHODS]
                    + [{"service": AW_SERVICE, "method": m} for m in AW_RETRIED_METHODS]
                    + [{"service": GAMES_SERVICE, "method": m} for m in GAMES_RETRIED_METHODS],
            "retryPolicy": {"maxAttempts": min(retries + 1, MAX_ATTEMPTS), "initialBackoff": f"{backoff_s:.3f}s",
                            "maxBackoff": f"{max(max_backoff_s, backoff_s):.3f}s", "backoffMultiplier": 2,
                            "retryableStatusCodes": [c.name for c in RETRYABLE]}}]
    return config


def channel_target(target: str | Sequence[str], service_config: dict | None = None) -> tuple[str, list[tuple[str, Any]]]:
    """The gRPC target and channel options for one address, several (a list or comma-separated), or a
    `dns:///name:port`: round-robin over every address, with `service_config` (default:
    retry_service_config()). Several addresses must be IP literals of one family (`ipv4:`/`ipv6:`
    targets); give a DNS name once to use all of its addresses."""
    addresses = [a.strip() for a in (target.split(",") if isinstance(target, str) else target) if a.strip()]
    if not addresses:
        raise ValueError("give at least one server address (HOST:PORT)")
    # Each client has its own connection (not one shared by every channel of the process to that target):
    # a server without API keys shares its workers fairly among connections (server/fairshare.py).
    options = [("grpc.service_config", json.dumps(service_config or retry_service_config())),
               ("grpc.use_local_subchannel_pool", 1)]
    if len(addresses) == 1:
        return addresses[0], options
    families = set()
    for a in addresses:
        host = a.rpartition(":")[0].strip("[]")
        try:
            families.add(ipaddress.ip_address(host).version)
        except ValueError:
            raise ValueError(f"several addresses must be IP:PORT (got {a!r}); for a DNS name with several "
                             f"addresses give it alone, as dns:///NAME:PORT") from None
    if len(families) != 1:
        raise ValueError("several addresses must all be IPv4 or all IPv6")
    return f"ipv{families.pop()}:{','.join(addresses)}", options


def _request_id() -> tuple[tuple[str, str], ...]:
    """A call's x-request-id metadata (the same on its retries): the server's log lines carry it."""
    return (("x-request-id", secrets.token_hex(8)),)


def _created(r: spb.CreateSessionResponse) -> CreatedSession:
    return CreatedSession(r.session_id, {t.seat: t.token for t in r.seat_tokens}, r.spectator_token, r.fixed_seed)


def _create_request(seats, players: int, spells: str, seed: int | None) -> spb.CreateSessionRequest:
    req = spb.CreateSessionRequest(players=players, spells=spells, seats=[_seat_pb(s) for s in seats])
    if seed is not None:
        req.seed = seed
    return req


@dataclass
class Submitted:
    events: list[SessionEvent]     # the move and the draws it caused
    seq: int
    to_move: int
    replayed: bool                 # True: a retry answered from the history (applied once)


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
                reasons=[Reason(r.kind, r.value, list(r.items), r.text, r.aspect) for r in h.reasons],
                about_equal=h.about_equal, loss_margin=h.loss_margin, score_spread=h.score_spread,
                verdict=h.verdict)


def _budget(types, level: int, iterations: int, time_ms: float, threads: int, options: dict | None, seed: int,
            seat: int | None) -> dict:
    """A search request's level, seed, limits, options and seat, in the messages of `types` (an API's types
    module: spellbook.v1's, games.v1's)."""
    kw = dict(level=level, seed=seed, limits=types.SearchLimits(iterations=iterations, time_ms=time_ms, threads=threads))
    if seat is not None:
        kw["seat"] = seat
    if options:
        kw["options"] = types.SearchOptions(**options)
    return kw


def _search_fields(state: StateLike, seat: int | None, level: int, iterations: int, time_ms: float, threads: int,
                   options: dict | None, seed: int) -> dict:
    return dict(state=state_input(state), **_budget(pb, level, iterations, time_ms, threads, options, seed, seat))


def _insight_options(insight) -> pb.InsightOptions | None:
    """InsightOptions from a message or a dict of its fields ({"beliefs": True, "what_if_move": "draw"})."""
    if insight is None or isinstance(insight, pb.InsightOptions):
        return insight
    fields = dict(insight)
    if isinstance(fields.get("what_if_move"), (str, Move)):
        fields["what_if_move"] = pb.Move(text=str(fields["what_if_move"]))
    return pb.InsightOptions(**fields)


def _seat_pb(seat, types=pb) -> pb.SessionSeat:
    """A SessionSeat of `types` (an API's types module) from a Seat or "client" / "bot:3"."""
    if isinstance(seat, str):
        kind, _, level = seat.partition(":")
        seat = Seat(kind.strip(), int(level) if level else 0)
    kind = {"client": types.SEAT_KIND_CLIENT, "bot": types.SEAT_KIND_BOT}.get(seat.kind, types.SEAT_KIND_UNSPECIFIED)
    return types.SessionSeat(kind=kind, level=seat.level)


def _session_event(e: pb.SessionEvent) -> SessionEvent:
    return SessionEvent(e.seq, e.kind, e.seat, _move(e.move) if e.move.text else None, e.to_move, list(e.scores),
                        list(e.winners))


def _session_view(r: spb.GetSessionResponse) -> SessionView:
    return SessionView(r.session_id, r.seq, r.seat, Observation(r.observation.text), r.to_move, r.phase, r.decision,
                       [_move(m) for m in r.legal_moves], list(r.scores), r.over, list(r.winners),
                       [Seat("bot" if s.kind == pb.SEAT_KIND_BOT else "client", s.level) for s in r.seats],
                       r.players, list(r.spells), r.fixed_seed)


def _submitted(r: spb.SubmitMoveResponse) -> Submitted:
    return Submitted([_session_event(e) for e in r.events], r.seq, r.to_move, r.replayed)


def _submit_request(session_id: str, seat: int, move, expected_seq: int | None, service=spb,
                    types=pb) -> spb.SubmitMoveRequest:
    req = service.SubmitMoveRequest(session_id=session_id, seat=seat, move=types.Move(text=str(move)))
    if expected_seq is not None:
        req.expected_seq = expected_seq
    return req


def _analyze_game_request(record, level, iterations, time_ms, threads, options, seed, key_moments, seat=None):
    kw = dict(key_moments=key_moments, **_budget(pb, level, iterations, time_ms, threads, options, seed, seat))
    if isinstance(record, pb.GameRecord):
        kw["record"] = record
    elif isinstance(record, str):
        kw["record_json"] = record
    else:
        kw["record_json"] = json.dumps(record)
    return spb.AnalyzeGameRequest(**kw)


# ----------------------------------------------------------------------------------------------
# Blocking client
# ----------------------------------------------------------------------------------------------
class _BlockingClient:
    """What the blocking clients of a service share: the channel (retries, credentials, TLS), the default
    deadline (`timeout`, seconds), the session tokens, one call and one server stream. `_stub_class`: the
    service's stub."""

    _stub_class: Callable = service_pb2_grpc.SpellBookServiceStub

    def __init__(self, target: str | Sequence[str] = DEFAULT_TARGET, *, timeout: float = 30.0, retries: int = 4,
                 backoff_s: float = 0.05, max_backoff_s: float = 2.0, channel: grpc.Channel | None = None,
                 api_key: str | None = None, tls: bool = False, root_certificates: bytes | None = None,
                 client_certificate: bytes | None = None, client_key: bytes | None = None,
                 channel_options: Sequence[tuple[str, Any]] = ()):
        self.timeout = timeout
        self._metadata: tuple = (("authorization", f"Bearer {api_key}"),) if api_key else ()
        self.tokens = _SessionTokens()
        self._channels = _Channels(grpc, channel, target, retry_service_config(retries, backoff_s, max_backoff_s),
                                   channel_options,
                                   _channel_credentials(tls, root_certificates, client_certificate, client_key))
        self.channel = self._channels.main
        self.stub = self._stub_class(self.channel)

    def _stub_once(self):
        """The stub for a submission without expected_seq: on the channel that never retries."""
        return self._channels.stub_once(self._stub_class)

    def close(self) -> None:
        for channel in self._channels.opened():
            channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def add_session_token(self, session_id: str, token: str, seat: int | None = None) -> None:
        """Use `token` for session calls: a seat's (seat given) or the spectator's."""
        self.tokens.add(session_id, token, seat)

    def remember_session(self, created: CreatedSession) -> None:
        """Use the tokens of a session another client created (`CreatedSession`, e.g. after a reconnect)."""
        self.tokens.remember(created)

    def _call(self, method: Callable, request, timeout: float | None, token: str | None = None):
        """One call (the channel's retry policy retries it where that is safe); ServiceError on failure."""
        metadata = _session_metadata(self._metadata, token) + _request_id()
        try:
            return method(request, timeout=self.timeout if timeout is None else timeout, metadata=metadata)
        except grpc.RpcError as e:
            raise _error_from(e) from None

    def _stream(self, method: Callable, make_request: Callable[[], Any], timeout: float | None,
                resumable: bool, token: str | None = None) -> Iterator[Any]:
        """A server stream. Before its first message the channel's retry policy retries it; broken after one,
        a `resumable` stream goes on with a new call of make_request() (which continues where it broke)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        md = _request_id()
        while True:
            received = False
            call = method(make_request(), timeout=max(deadline - time.monotonic(), 0.0),
                          metadata=_session_metadata(self._metadata, token) + md)
            try:
                for r in call:
                    received = True
                    yield r
                return
            except grpc.RpcError as e:
                if not (received and resumable and e.code() in RETRYABLE):
                    raise _error_from(e) from None
            finally:
                call.cancel()


class SpellBookClient(_BlockingClient):
    """Blocking client of spellbook.v1.SpellBookService. `timeout` is the default deadline of a call in seconds."""

    game = "spellbook"             # the game whose service this client speaks (client_for)

    @staticmethod
    def search_options():
        """The SearchOptions message of this client's requests (what a remote bot's options are checked against)."""
        return pb.SearchOptions

    # -------------------------------------------------------------- rules
    def ping(self, timeout: float | None = None) -> None:
        """One cheap call: ServiceError when the server does not answer this game's service."""
        self.server_info(timeout=timeout)

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
              options: dict | None = None, seed: int = 0, insight: dict | pb.InsightOptions | None = None,
              timeout: float | None = None, fixed_budget: bool = False) -> Hints:
        """Top-k hints; `insight` (InsightOptions or a dict of its fields) adds beliefs / what-if / value spread.
        The search grows until its best move is settled unless `fixed_budget`."""
        req = spb.GetHintsRequest(top_k=top_k, hide_best=hide_best, insight=_insight_options(insight),
                                  fixed_budget=fixed_budget,
                                  **_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        resp = self._call(self.stub.GetHints, req, timeout)
        return Hints([_hint(h) for h in resp.hints], resp.stats, resp.insight if resp.HasField("insight") else None,
                     resp.confidence)

    def analyze(self, state: StateLike, *, report_every_ms: int = 250, top_k: int = 3, seat: int | None = None,
                level: int = 0, iterations: int = 0, time_ms: float = 0.0, threads: int = 0,
                options: dict | None = None, seed: int = 0, insight: dict | pb.InsightOptions | None = None,
                timeout: float | None = None) -> Iterator[AnalysisUpdate]:
        """Progress updates, then one with `final` set (and the insight asked for). Retried only before the
        first update."""
        req = spb.AnalyzeRequest(report_every_ms=report_every_ms, top_k=top_k, insight=_insight_options(insight),
                                 **_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        for r in self._stream(self.stub.Analyze, lambda: req, timeout, resumable=False):
            yield AnalysisUpdate(r.final, _move(r.best_move), r.stats, [_hint(h) for h in r.hints],
                                 r.insight if r.HasField("insight") else None)


    # -------------------------------------------------------------- sessions, matches, review
    def create_session(self, seats: Sequence[Seat | str], *, players: int = 0, spells: str = "set1",
                       seed: int | None = None, timeout: float | None = None) -> CreatedSession:
        """A new session; `seats` in seat order: "client", "bot:3" or Seat(...). Returns its id with its tokens
        (remembered by this client). `seed` None: the server draws a secret one; an int fixes it (replay /
        tournament mode, shown to every seat). Not retried."""
        req = _create_request(seats, players, spells, seed)
        created = _created(self._call(self.stub.CreateSession, req, timeout))
        self.tokens.remember(created)
        return created

    def submit_move(self, session_id: str, seat: int, move: Move | str, expected_seq: int | None = None,
                    timeout: float | None = None, token: str | None = None) -> Submitted:
        """A client seat's move (with that seat's token). With `expected_seq` (SessionView.seq) it is retried
        safely: a repeat of an applied move is answered from the history (`replayed`), never applied twice."""
        req = _submit_request(session_id, seat, move, expected_seq)
        token = token or self.tokens.pick(session_id, seat, moves=True)
        stub = self.stub if expected_seq is not None else self._stub_once()
        return _submitted(self._call(stub.SubmitMove, req, timeout, token=token))

    def get_session(self, session_id: str, seat: int, timeout: float | None = None,
                    token: str | None = None) -> SessionView:
        """The session as `seat` observes it (never the Pouch order)."""
        req = spb.GetSessionRequest(session_id=session_id, seat=seat)
        token = token or self.tokens.pick(session_id, seat)
        return _session_view(self._call(self.stub.GetSession, req, timeout, token=token))

    def watch_session(self, session_id: str, from_seq: int = 0, timeout: float | None = None,
                      token: str | None = None) -> Iterator[SessionEvent]:
        """Events from `from_seq` until the "end" event; a broken stream resumes from the next event. The
        deadline (`timeout`) covers the whole watch: give one as long as the game may last."""
        nxt = [from_seq]

        def request():
            return spb.WatchSessionRequest(session_id=session_id, from_seq=nxt[0])

        token = token or self.tokens.pick(session_id)
        for r in self._stream(self.stub.WatchSession, request, timeout, resumable=True, token=token):
            ev = _session_event(r.event)
            if ev.kind != "end":
                nxt[0] = ev.seq + 1
            yield ev

    def export_session(self, session_id: str, timeout: float | None = None, token: str | None = None) -> dict:
        """The session's game record (finished or not) as a dict (docs/records.md; no seed until it ends)."""
        resp = self._call(self.stub.ExportSession, spb.ExportSessionRequest(session_id=session_id), timeout,
                          token=token or self.tokens.pick(session_id))
        return json.loads(resp.record_json)

    def play_match(self, bots: Sequence[str], *, spells: str = "set1", seed: int | None = 0,
                   timeout: float | None = None) -> Iterator[spb.PlayMatchResponse]:
        """A bot-vs-bot game: a message per move (`.move`, with `.stats`), then one with `.end` (scores,
        winners, record). `seed` None: a secret seed (shown in the record once the game is over). Retried
        only before the first message; closing the iterator cancels the game."""
        req = spb.PlayMatchRequest(bots=list(bots), spells=spells, seed=seed)
        yield from self._stream(self.stub.PlayMatch, lambda: req, timeout, resumable=False)

    def analyze_game(self, record: dict | str | pb.GameRecord, *, level: int = 0, iterations: int = 0,
                     time_ms: float = 0.0, threads: int = 0, options: dict | None = None, seed: int = 0,
                     key_moments: int = 0, timeout: float | None = None, seat: int | None = None) -> spb.AnalyzeGameResponse:
        """Review of a finished (or resigned) game (a record dict, its JSON, or a GameRecord); the budget is per
        decision; `seat`: that seat's decisions only."""
        req = _analyze_game_request(record, level, iterations, time_ms, threads, options, seed, key_moments, seat)
        return self._call(self.stub.AnalyzeGame, req, timeout)

# ----------------------------------------------------------------------------------------------
# Async client
# ----------------------------------------------------------------------------------------------
class AsyncSpellBookClient:
    """asyncio client (grpc.aio); the same methods as SpellBookClient, as coroutines."""

    def __init__(self, target: str | Sequence[str] = DEFAULT_TARGET, *, timeout: float = 30.0, retries: int = 4,
                 backoff_s: float = 0.05, max_backoff_s: float = 2.0, channel: grpc.aio.Channel | None = None,
                 api_key: str | None = None, tls: bool = False, root_certificates: bytes | None = None,
                 client_certificate: bytes | None = None, client_key: bytes | None = None,
                 channel_options: Sequence[tuple[str, Any]] = ()):
        self.timeout = timeout
        self._metadata: tuple = (("authorization", f"Bearer {api_key}"),) if api_key else ()
        self.tokens = _SessionTokens()
        self._channels = _Channels(grpc.aio, channel, target,
                                   retry_service_config(retries, backoff_s, max_backoff_s), channel_options,
                                   _channel_credentials(tls, root_certificates, client_certificate, client_key))
        self.channel = self._channels.main
        self.stub = service_pb2_grpc.SpellBookServiceStub(self.channel)
        self._stub_once = self._channels.stub_once

    async def close(self) -> None:
        for channel in self._channels.opened():
            await channel.close()

    async def __aenter__(self) -> "AsyncSpellBookClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    def add_session_token(self, session_id: str, token: str, seat: int | None = None) -> None:
        """Use `token` for session calls: a seat's (seat given) or the spectator's."""
        self.tokens.add(session_id, token, seat)

    def remember_session(self, created: CreatedSession) -> None:
        """Use the tokens of a session another client created (`CreatedSession`, e.g. after a reconnect)."""
        self.tokens.remember(created)

    async def _call(self, method: Callable, request, timeout: float | None, token: str | None = None):
        metadata = _session_metadata(self._metadata, token) + _request_id()
        try:
            return await method(request, timeout=self.timeout if timeout is None else timeout, metadata=metadata)
        except grpc.RpcError as e:
            raise _error_from(e) from None

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
                    options: dict | None = None, seed: int = 0, insight: dict | pb.InsightOptions | None = None,
                    timeout: float | None = None, fixed_budget: bool = False) -> Hints:
        """Top-k hints; `insight` (InsightOptions or a dict of its fields) adds beliefs / what-if / value spread.
        The search grows until its best move is settled unless `fixed_budget`."""
        req = spb.GetHintsRequest(top_k=top_k, hide_best=hide_best, insight=_insight_options(insight),
                                  fixed_budget=fixed_budget,
                                  **_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        resp = await self._call(self.stub.GetHints, req, timeout)
        return Hints([_hint(h) for h in resp.hints], resp.stats, resp.insight if resp.HasField("insight") else None,
                     resp.confidence)

    async def analyze(self, state: StateLike, *, report_every_ms: int = 250, top_k: int = 3,
                      seat: int | None = None, level: int = 0, iterations: int = 0, time_ms: float = 0.0,
                      threads: int = 0, options: dict | None = None, seed: int = 0,
                      insight: dict | pb.InsightOptions | None = None,
                      timeout: float | None = None) -> AsyncIterator[AnalysisUpdate]:
        req = spb.AnalyzeRequest(report_every_ms=report_every_ms, top_k=top_k, insight=_insight_options(insight),
                                 **_search_fields(state, seat, level, iterations, time_ms, threads, options, seed))
        async for r in self._stream(self.stub.Analyze, lambda: req, timeout, resumable=False):
            yield AnalysisUpdate(r.final, _move(r.best_move), r.stats, [_hint(h) for h in r.hints],
                                 r.insight if r.HasField("insight") else None)


    # -------------------------------------------------------------- sessions, matches, review
    async def _stream(self, method: Callable, make_request: Callable[[], Any], timeout: float | None,
                      resumable: bool, token: str | None = None) -> AsyncIterator[Any]:
        """As SpellBookClient._stream."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        md = _request_id()
        while True:
            received = False
            call = method(make_request(), timeout=max(deadline - time.monotonic(), 0.0),
                          metadata=_session_metadata(self._metadata, token) + md)
            try:
                async for r in call:
                    received = True
                    yield r
                return
            except grpc.RpcError as e:
                if not (received and resumable and e.code() in RETRYABLE):
                    raise _error_from(e) from None
            finally:
                call.cancel()

    async def create_session(self, seats: Sequence[Seat | str], *, players: int = 0, spells: str = "set1",
                             seed: int | None = None, timeout: float | None = None) -> CreatedSession:
        req = _create_request(seats, players, spells, seed)
        created = _created(await self._call(self.stub.CreateSession, req, timeout))
        self.tokens.remember(created)
        return created

    async def submit_move(self, session_id: str, seat: int, move: Move | str, expected_seq: int | None = None,
                          timeout: float | None = None, token: str | None = None) -> Submitted:
        req = _submit_request(session_id, seat, move, expected_seq)
        token = token or self.tokens.pick(session_id, seat, moves=True)
        stub = self.stub if expected_seq is not None else self._stub_once()
        return _submitted(await self._call(stub.SubmitMove, req, timeout, token=token))

    async def get_session(self, session_id: str, seat: int, timeout: float | None = None,
                          token: str | None = None) -> SessionView:
        req = spb.GetSessionRequest(session_id=session_id, seat=seat)
        token = token or self.tokens.pick(session_id, seat)
        return _session_view(await self._call(self.stub.GetSession, req, timeout, token=token))

    async def watch_session(self, session_id: str, from_seq: int = 0, timeout: float | None = None,
                            token: str | None = None) -> AsyncIterator[SessionEvent]:
        nxt = [from_seq]

        def request():
            return spb.WatchSessionRequest(session_id=session_id, from_seq=nxt[0])

        token = token or self.tokens.pick(session_id)
        async for r in self._stream(self.stub.WatchSession, request, timeout, resumable=True, token=token):
            ev = _session_event(r.event)
            if ev.kind != "end":
                nxt[0] = ev.seq + 1
            yield ev

    async def export_session(self, session_id: str, timeout: float | None = None, token: str | None = None) -> dict:
        resp = await self._call(self.stub.ExportSession, spb.ExportSessionRequest(session_id=session_id), timeout,
                                token=token or self.tokens.pick(session_id))
        return json.loads(resp.record_json)

    async def play_match(self, bots: Sequence[str], *, spells: str = "set1", seed: int | None = 0,
                         timeout: float | None = None) -> AsyncIterator[spb.PlayMatchResponse]:
        req = spb.PlayMatchRequest(bots=list(bots), spells=spells, seed=seed)
        async for r in self._stream(self.stub.PlayMatch, lambda: req, timeout, resumable=False):
            yield r

    async def analyze_game(self, record: dict | str | pb.GameRecord, *, level: int = 0, iterations: int = 0,
                           time_ms: float = 0.0, threads: int = 0, options: dict | None = None, seed: int = 0,
                           key_moments: int = 0, timeout: float | None = None,
                           seat: int | None = None) -> spb.AnalyzeGameResponse:
        req = _analyze_game_request(record, level, iterations, time_ms, threads, options, seed, key_moments, seat)
        return await self._call(self.stub.AnalyzeGame, req, timeout)


# ----------------------------------------------------------------------------------------------
# Abracada…What?
# ----------------------------------------------------------------------------------------------
@dataclass
class AwHints:
    hints: list                    # abracadawhat.v1 Hint messages, ranked (success_probability per move)
    stats: Any                     # abracadawhat.v1 SearchStats
    insight: Any                   # abracadawhat.v1 HandInsight: what the seat probably holds, each cast's risk


class AbracadaWhatClient:
    """Blocking client of abracadawhat.v1.AbracadaWhatService on the same server, with the same channel,
    retries (gRPC's retry policy: backoff with jitter, the server's pushback, at most 5 attempts within the
    deadline), deadlines, credentials and errors as SpellBookClient. States are engine_c.abracadawhat
    States (the full state: the referee's view) or `Observation(state.observation(seat))`: what one seat
    sees, never its own hand (XI2); the server samples the hidden part from it with the request's `seed`.

        with AbracadaWhatClient("127.0.0.1:50051") as client:
            state = client.new_game(players=3, seed=7)
            seat = state.current_player
            best = client.best_move(Observation(state.observation(seat)), seat=seat, level=5, seed=1)
    """

    game = "abracadawhat"          # the game whose service this client speaks (client_for)

    @staticmethod
    def search_options():
        """The SearchOptions message of this client's requests (what a remote bot's options are checked against)."""
        from server._gen.abracadawhat.v1 import types_pb2 as apb

        return apb.SearchOptions

    def __init__(self, target: str | Sequence[str] = DEFAULT_TARGET, *, timeout: float = 30.0, retries: int = 4,
                 backoff_s: float = 0.05, max_backoff_s: float = 2.0, channel: grpc.Channel | None = None,
                 api_key: str | None = None, tls: bool = False, root_certificates: bytes | None = None,
                 client_certificate: bytes | None = None, client_key: bytes | None = None,
                 channel_options: Sequence[tuple[str, Any]] = ()):
        from server._gen.abracadawhat.v1 import service_pb2 as aspb
        from server._gen.abracadawhat.v1 import service_pb2_grpc as aw_grpc
        from server._gen.abracadawhat.v1 import types_pb2 as apb

        self._spb, self._pb = aspb, apb
        self.timeout = timeout
        self._metadata: tuple = (("authorization", f"Bearer {api_key}"),) if api_key else ()
        self._channels = _Channels(grpc, channel, target, retry_service_config(retries, backoff_s, max_backoff_s),
                                   channel_options,
                                   _channel_credentials(tls, root_certificates, client_certificate, client_key))
        self.channel = self._channels.main
        self.stub = aw_grpc.AbracadaWhatServiceStub(self.channel)

    def close(self) -> None:
        for channel in self._channels.opened():
            channel.close()

    def __enter__(self) -> "AbracadaWhatClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _call(self, method: Callable, request, timeout: float | None, token: str | None = None):
        """One call (the channel's retry policy retries it where that is safe); ServiceError on failure.
        `token`: a session's seat or spectator token (server/auth.py)."""
        try:
            return method(request, timeout=self.timeout if timeout is None else timeout,
                          metadata=_session_metadata(self._metadata, token) + _request_id())
        except grpc.RpcError as e:
            raise _error_from(e) from None

    # -------------------------------------------------------------- conversions
    def state_input(self, state):
        from engine_c.abracadawhat import State as AwState

        if isinstance(state, AwState):
            return self._pb.StateInput(text=state.to_text())
        if isinstance(state, Observation):
            return self._pb.StateInput(observation=state.text)
        raise TypeError(f"state must be an Abracada…What? State or an Observation, got {type(state).__name__}")

    @staticmethod
    def move(m):
        from engine_c.abracadawhat import Move as AwMove

        return AwMove(m.code) if m.code else AwMove.from_text(m.text)

    def _search_fields(self, state, seat, level, iterations, time_ms, threads, options, seed) -> dict:
        kw = dict(state=self.state_input(state), level=level, seed=seed,
                  limits=self._pb.SearchLimits(iterations=iterations, time_ms=time_ms, threads=threads))
        if seat is not None:
            kw["seat"] = seat
        if options:
            known = self._pb.SearchOptions.DESCRIPTOR.fields_by_name
            for name in options:
                if name not in known:
                    raise ValueError(f"option {name!r} is not an Abracada…What? search option "
                                     f"(abracadawhat.v1 SearchOptions: {', '.join(known)})")
            kw["options"] = self._pb.SearchOptions(**options)
        return kw

    # -------------------------------------------------------------- rules
    def ping(self, timeout: float | None = None) -> None:
        """One cheap call: ServiceError when the server does not answer this game's service."""
        self.rules(timeout=timeout)

    def rules(self, timeout: float | None = None):
        return self._call(self.stub.GetRules, self._spb.GetRulesRequest(), timeout)

    def new_game(self, players: int = 2, seed: int = 0, variants: Sequence[str] = (), timeout: float | None = None):
        from engine_c.abracadawhat import State as AwState

        req = self._spb.NewGameRequest(players=players, seed=seed, variants=list(variants))
        return AwState.from_text(self._call(self.stub.NewGame, req, timeout).state.text)

    def legal_moves(self, state, timeout: float | None = None) -> list:
        resp = self._call(self.stub.ListLegalMoves, self._spb.ListLegalMovesRequest(state=self.state_input(state)),
                          timeout)
        return [self.move(m) for m in resp.moves]

    # -------------------------------------------------------------- search
    def best_move(self, state, *, seat: int | None = None, level: int = 0, iterations: int = 0, time_ms: float = 0.0,
                  threads: int = 0, options: dict | None = None, seed: int = 0,
                  timeout: float | None = None) -> BestMove:
        """The search's move for the seat to move (`seat`, when given, must be it)."""
        req = self._spb.GetBestMoveRequest(**self._search_fields(state, seat, level, iterations, time_ms, threads,
                                                                 options, seed))
        resp = self._call(self.stub.GetBestMove, req, timeout)
        return BestMove(self.move(resp.move), resp.stats)

    def hints(self, state, *, top_k: int = 3, hide_best: bool = False, seat: int | None = None, level: int = 0,
              iterations: int = 0, time_ms: float = 0.0, threads: int = 0, options: dict | None = None,
              seed: int = 0, timeout: float | None = None) -> AwHints:
        """Ranked moves and the seat's insight (GetHints)."""
        req = self._spb.GetHintsRequest(top_k=top_k, hide_best=hide_best,
                                        **self._search_fields(state, seat, level, iterations, time_ms, threads,
                                                              options, seed))
        resp = self._call(self.stub.GetHints, req, timeout)
        return AwHints(list(resp.hints), resp.stats, resp.insight)

    # -------------------------------------------------------------- sessions
    def create_session(self, seats: Sequence[str], *, variants: Sequence[str] = (), seed: int | None = None,
                       timeout: float | None = None) -> CreatedSession:
        """A new session; `seats` in seat order: "client" or "bot:LEVEL". `seed` None: the server draws a
        secret one (every hand depends on it). Returns its id with its tokens. Not retried."""
        seats_pb = []
        for s in seats:
            kind, _, level = str(s).partition(":")
            if kind not in ("client", "bot") or (kind == "bot" and not level.isdigit()):
                raise ValueError(f"a seat is 'client' or 'bot:LEVEL', got {s!r}")
            seats_pb.append(self._pb.SessionSeat(kind=self._pb.SEAT_KIND_CLIENT if kind == "client"
                                                 else self._pb.SEAT_KIND_BOT, level=int(level or 0)))
        req = self._spb.CreateSessionRequest(players=len(seats_pb), variants=list(variants), seats=seats_pb)
        if seed is not None:
            req.seed = seed
        return _created(self._call(self.stub.CreateSession, req, timeout))

    def submit_move(self, session_id: str, seat: int, move, token: str, expected_seq: int | None = None,
                    timeout: float | None = None):
        """A client seat's move (`cast 5`, `end` or `resign`) with that seat's token; with `expected_seq` a
        retry is answered from the history, never applied twice."""
        req = self._spb.SubmitMoveRequest(session_id=session_id, seat=seat, move=self._pb.Move(text=str(move)))
        if expected_seq is not None:
            req.expected_seq = expected_seq
        return self._call(self.stub.SubmitMove, req, timeout, token=token)

    def get_session(self, session_id: str, token: str, timeout: float | None = None):
        """The session as the token's seat sees it (GetSessionResponse: never its own hand)."""
        return self._call(self.stub.GetSession, self._spb.GetSessionRequest(session_id=session_id), timeout,
                          token=token)

    def session_events(self, session_id: str, token: str, from_seq: int, to_seq: int,
                       timeout: float | None = None) -> Iterator[Any]:
        """The session's events `from_seq`..`to_seq` (SessionEvent messages, as the token's seat may see
        them, each move with its `lines`: what the table saw, in words), read from WatchSession, which is
        closed once `to_seq` (or the game's end) has come."""
        req = self._spb.WatchSessionRequest(session_id=session_id, from_seq=max(from_seq, 0))
        call = self.stub.WatchSession(req, timeout=self.timeout if timeout is None else timeout,
                                      metadata=_session_metadata(self._metadata, token) + _request_id())
        try:
            for r in call:
                if r.event.kind == "end":
                    return
                yield r.event
                if r.event.seq >= to_seq:
                    return
        except grpc.RpcError as e:
            raise _error_from(e) from None
        finally:
            call.cancel()

    def export_session(self, session_id: str, token: str, timeout: float | None = None) -> dict:
        """The session's record as the token's seat may see it (docs/records.md; hidden stones "stone ?")."""
        resp = self._call(self.stub.ExportSession, self._spb.ExportSessionRequest(session_id=session_id), timeout,
                          token=token)
        return json.loads(resp.record_json)


# ----------------------------------------------------------------------------------------------
# Every game: games.v1
# ----------------------------------------------------------------------------------------------
@dataclass
class GameHints:
    hints: list                    # games.v1 Hint messages, ranked (verdicts; reasons where the game has them)
    stats: Any                     # games.v1 SearchStats
    confidence: Any                # games.v1 HintConfidence: whether the first hint is settled
    insight: dict | None = None    # what the seat to move may infer of the hidden part (games with insight)


def _games_modules():
    from server._gen.games.v1 import games_pb2, games_pb2_grpc, types_pb2

    return games_pb2, games_pb2_grpc, types_pb2


class GameClient(_BlockingClient):
    """Blocking client of games.v1.GameService, the game-neutral API: one class for every game the server
    plays (ListGames), with the same channel, retries, deadlines, credentials, errors and session tokens as
    SpellBookClient. The game comes from the constructor (`game=`) or per call (`game=`); a session's calls
    take it from the session. States are the game's engine States (the full state) or `Observation(text)`
    (what one seat sees: the server samples the hidden part with its `seed`); moves are engine moves or
    their texts. Setups are the game's setup text (`setup=`: "set1", "xv1,xv2", "frost_ward,fire_shock").

        with GameClient("127.0.0.1:50051", game="abracadawhat") as client:
            state = client.new_game(players=3, seed=7)
            seat = state.current_player
            best = client.best_move(Observation(state.observation(seat)), seat=seat, level=3, seed=1)
            sid = client.create_session(["client", "bot:2"], game="spellbooktcg")
            view = client.get_session(sid, seat=0)       # .observation, .view_json, .legal_moves, .seq ...
    """

    @staticmethod
    def search_options():
        """The SearchOptions message of this client's requests (what a remote bot's options are checked against)."""
        return _games_modules()[2].SearchOptions

    def __init__(self, target: str | Sequence[str] = DEFAULT_TARGET, game: str | None = None, **options):
        self._gspb, grpc_module, self._gpb = _games_modules()
        self._stub_class = grpc_module.GameServiceStub
        super().__init__(target, **options)
        self.game = game

    # -------------------------------------------------------------- conversions
    def _name(self, game: str | None) -> str:
        name = game or self.game
        if not name:
            raise ValueError("name the game: GameClient(target, game=...) or the call's game=... (list_games())")
        return str(name)

    def _state(self, state):
        if isinstance(state, Observation):
            return self._gpb.StateInput(observation=state.text, determinize_seed=state.seed)
        if isinstance(state, str):
            return self._gpb.StateInput(text=state)
        return self._gpb.StateInput(text=state.to_text())

    @staticmethod
    def _engine(game: str):
        from engine_c.registry import get_game

        return get_game(game)

    def _move(self, game: str, m):
        return self._engine(game).Move.from_text(m.text)

    def _search(self, game, state, seat, level, iterations, time_ms, threads, options, seed) -> dict:
        return dict(game=self._name(game), state=self._state(state),
                    **_budget(self._gpb, level, iterations, time_ms, threads, options, seed, seat))

    # -------------------------------------------------------------- rules
    def list_games(self, timeout: float | None = None) -> list:
        """The games the server plays (GameInfo messages: name, title, players, setup field and help, own API)."""
        return list(self._call(self.stub.ListGames, self._gspb.ListGamesRequest(), timeout).games)

    def levels(self, *, game: str | None = None, timeout: float | None = None):
        """The game's strength levels 1-10 (GetLevelsResponse: each level's search in words, its Elo from the
        game's ladder with `elo_anchor`, its mistake profile; the default level and the first bot level)."""
        return self._call(self.stub.GetLevels, self._gspb.GetLevelsRequest(game=self._name(game)), timeout)

    def ping(self, timeout: float | None = None) -> None:
        """One cheap call: ServiceError when the server does not answer games.v1."""
        self.list_games(timeout=timeout)

    def new_game(self, players: int = 0, setup: str = "", seed: int | None = None, *, game: str | None = None,
                 timeout: float | None = None):
        """A new game (the game's engine State; players 0: the game's fewest; seed None: a random one)."""
        name = self._name(game)
        req = self._gspb.NewGameRequest(game=name, players=players, setup=setup, seed=seed)
        text = self._call(self.stub.NewGame, req, timeout).state.text      # the server names a game it lacks
        return self._engine(name).State.from_text(text)

    def legal_moves(self, state, *, game: str | None = None, timeout: float | None = None) -> list:
        name = self._name(game)
        req = self._gspb.ListLegalMovesRequest(game=name, state=self._state(state))
        return [self._move(name, m) for m in self._call(self.stub.ListLegalMoves, req, timeout).moves]

    def apply_move(self, state, move, *, resolve_chance: bool = False, game: str | None = None,
                   timeout: float | None = None) -> tuple[Any, list]:
        """(the state after `move`, the chance outcomes resolved after it when `resolve_chance`)."""
        name = self._name(game)
        req = self._gspb.ApplyMoveRequest(game=name, state=self._state(state), move=self._gpb.Move(text=str(move)),
                                          resolve_chance=resolve_chance)
        resp = self._call(self.stub.ApplyMove, req, timeout)
        return self._engine(name).State.from_text(resp.state.text), [self._move(name, m) for m in resp.chance]

    # -------------------------------------------------------------- search
    def best_move(self, state, *, seat: int | None = None, level: int = 0, iterations: int = 0, time_ms: float = 0.0,
                  threads: int = 0, options: dict | None = None, seed: int = 0, game: str | None = None,
                  timeout: float | None = None) -> BestMove:
        """The search's move for the seat to move (`seat`, when given, must be it)."""
        req = self._gspb.GetBestMoveRequest(**self._search(game, state, seat, level, iterations, time_ms, threads,
                                                           options, seed))
        resp = self._call(self.stub.GetBestMove, req, timeout)
        return BestMove(self._move(req.game, resp.move), resp.stats)

    def hints(self, state, *, top_k: int = 3, hide_best: bool = False, seat: int | None = None, level: int = 0,
              iterations: int = 0, time_ms: float = 0.0, threads: int = 0, options: dict | None = None, seed: int = 0,
              fixed_budget: bool = False, game: str | None = None, timeout: float | None = None) -> GameHints:
        """Ranked moves with verdicts, reasons (games with them) and the seat's insight (games with it)."""
        req = self._gspb.GetHintsRequest(top_k=top_k, hide_best=hide_best, fixed_budget=fixed_budget,
                                         **self._search(game, state, seat, level, iterations, time_ms, threads,
                                                        options, seed))
        resp = self._call(self.stub.GetHints, req, timeout)
        return GameHints(list(resp.hints), resp.stats, resp.confidence,
                         json.loads(resp.insight_json) if resp.insight_json else None)

    def analyze(self, state, *, report_every_ms: int = 250, top_k: int = 3, seat: int | None = None, level: int = 0,
                iterations: int = 0, time_ms: float = 0.0, threads: int = 0, options: dict | None = None,
                seed: int = 0, game: str | None = None, timeout: float | None = None) -> Iterator[Any]:
        """AnalyzeResponse messages as the search runs, the last with `final` set."""
        req = self._gspb.AnalyzeRequest(report_every_ms=report_every_ms, top_k=top_k,
                                        **self._search(game, state, seat, level, iterations, time_ms, threads,
                                                       options, seed))
        yield from self._stream(self.stub.Analyze, lambda: req, timeout, resumable=False)

    # -------------------------------------------------------------- sessions, matches, review
    def create_session(self, seats: Sequence[Seat | str], *, players: int = 0, setup: str = "",
                       seed: int | None = None, game: str | None = None, timeout: float | None = None) -> CreatedSession:
        """A new session; `seats` in seat order ("client", "bot:3" or Seat). Returns its id with its tokens
        (remembered by this client). `seed` None: a secret one. Not retried."""
        req = self._gspb.CreateSessionRequest(game=self._name(game), players=players, setup=setup, seed=seed,
                                              seats=[_seat_pb(s, self._gpb) for s in seats])
        created = _created(self._call(self.stub.CreateSession, req, timeout))
        self.tokens.remember(created)
        return created

    def submit_move(self, session_id: str, seat: int, move, expected_seq: int | None = None,
                    timeout: float | None = None, token: str | None = None):
        """A client seat's move (or "resign"), with that seat's token (SubmitMoveResponse). With
        `expected_seq` it is retried safely; without, it goes through the channel that never retries."""
        req = _submit_request(session_id, seat, move, expected_seq, self._gspb, self._gpb)
        token = token or self.tokens.pick(session_id, seat, moves=True)
        stub = self.stub if expected_seq is not None else self._stub_once()
        return self._call(stub.SubmitMove, req, timeout, token=token)

    def get_session(self, session_id: str, seat: int | None = None, timeout: float | None = None,
                    token: str | None = None):
        """The session as `seat` (its token) or the spectator (seat None) sees it (GetSessionResponse)."""
        req = self._gspb.GetSessionRequest(session_id=session_id, seat=seat)
        return self._call(self.stub.GetSession, req, timeout, token=token or self.tokens.pick(session_id, seat))

    def watch_session(self, session_id: str, from_seq: int = 0, timeout: float | None = None,
                      token: str | None = None) -> Iterator[Any]:
        """SessionEvent messages from `from_seq` until the "end" event, as the token's seat may see them; a
        broken stream resumes from the next event."""
        nxt = [from_seq]

        def request():
            return self._gspb.WatchSessionRequest(session_id=session_id, from_seq=nxt[0])

        for r in self._stream(self.stub.WatchSession, request, timeout, resumable=True,
                              token=token or self.tokens.pick(session_id)):
            if r.event.kind != "end":
                nxt[0] = r.event.seq + 1
            yield r.event

    def export_session(self, session_id: str, timeout: float | None = None, token: str | None = None) -> dict:
        """The session's record as the token's seat may see it (docs/records.md)."""
        resp = self._call(self.stub.ExportSession, self._gspb.ExportSessionRequest(session_id=session_id), timeout,
                          token=token or self.tokens.pick(session_id))
        return json.loads(resp.record_json)

    def play_match(self, bots: Sequence[str], *, setup: str = "", seed: int | None = 0, game: str | None = None,
                   timeout: float | None = None) -> Iterator[Any]:
        """A bot-vs-bot game: PlayMatchResponse messages (`.move` each, then `.end` with the record)."""
        req = self._gspb.PlayMatchRequest(game=self._name(game), bots=list(bots), setup=setup, seed=seed)
        yield from self._stream(self.stub.PlayMatch, lambda: req, timeout, resumable=False)

    def analyze_game(self, record: dict | str, *, level: int = 0, iterations: int = 0, time_ms: float = 0.0,
                     threads: int = 0, options: dict | None = None, seed: int = 0, key_moments: int = 0,
                     seat: int | None = None, game: str | None = None, timeout: float | None = None):
        """The review of a finished (or resigned) game's record (a dict or its JSON); the game: `game`, the
        client's, else the record's own."""
        text = record if isinstance(record, str) else json.dumps(record)
        from engine_c.records import game_of

        name = game or self.game or game_of(json.loads(text)).name
        req = self._gspb.AnalyzeGameRequest(game=name, record_json=text, key_moments=key_moments,
                                            **_budget(self._gpb, level, iterations, time_ms, threads, options, seed,
                                                      seat))
        return self._call(self.stub.AnalyzeGame, req, timeout)


def client_for(game):
    """The blocking client class for a game (a Game, or its name resolved here): its own API's client where it
    has one (spellbook.v1, abracadawhat.v1), else GameClient bound to it (games.v1 serves every game). The
    class's `search_options()` is the SearchOptions message its requests carry."""
    from engine_c.registry import get_game

    name = get_game(game).name
    for cls in (SpellBookClient, AbracadaWhatClient):
        if cls.game == name:
            return cls

    class BoundGameClient(GameClient):
        def __init__(self, target: str | Sequence[str] = DEFAULT_TARGET, **options):
            super().__init__(target, game=name, **options)

    BoundGameClient.game = name
    BoundGameClient.__name__ = BoundGameClient.__qualname__ = f"GameClient[{name}]"
    return BoundGameClient
