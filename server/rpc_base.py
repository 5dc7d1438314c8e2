"""What every RPC shares: the status mapping of refusals, the call wrapper (`@rpc`) and the servicer base.

- Every refusal is INVALID_ARGUMENT with a google.rpc.BadRequest naming the field (`FieldError`); session
  refusals (`SessionError`) become INVALID_ARGUMENT / FAILED_PRECONDITION (PreconditionFailure whose
  subject is the field) / NOT_FOUND / RESOURCE_EXHAUSTED; a full queue (`Overloaded`) is
  RESOURCE_EXHAUSTED with google.rpc.RetryInfo and `grpc-retry-pushback-ms`.
- `@rpc` writes one JSON log line per call and maps those exceptions to statuses; anything else is a bug
  (INTERNAL, logged with its traceback).
"""
from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from typing import TYPE_CHECKING

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from search import CancelToken
from server.common_convert import FieldError
from server import auth
from server.auth import AuthError
from server.fairshare import Overloaded, client_of, current_client, current_connection
from server.sessions import SessionError

if TYPE_CHECKING:
    from server.core import ServiceCore

log = logging.getLogger("spellbook.server")


QUOTE_LIMIT = 100      # characters of the caller's input an error message may quote
MESSAGE_LIMIT = 300    # characters of one description
_QUOTED = re.compile("'[^']{%d,}'|\"[^\"]{%d,}\"" % (QUOTE_LIMIT + 1, QUOTE_LIMIT + 1))


def bounded(text: str) -> str:
    """`text` with every quoted piece of input cut to QUOTE_LIMIT characters and the whole to MESSAGE_LIMIT:
    a long bad input must not come back as huge trailers (RESOURCE_EXHAUSTED instead of the refusal)."""
    text = _QUOTED.sub(lambda m: m.group(0)[:QUOTE_LIMIT + 1] + "…" + m.group(0)[-1], text)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT - 1] + "…"


def _bad_request(violations: list[tuple[str, str]]) -> grpc.Status:
    violations = [(bounded(f), bounded(d)) for f, d in violations]
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(field_violations=[
        error_details_pb2.BadRequest.FieldViolation(field=f, description=d) for f, d in violations]))
    message = "; ".join(f"{f}: {d}" for f, d in violations)
    return rpc_status.to_status(status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message, details=[detail]))


def _exhausted(retry_ms: int, reason: str = "search queue full") -> grpc.Status:
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(
        seconds=retry_ms // 1000, nanos=(retry_ms % 1000) * 1_000_000)))
    st = rpc_status.to_status(status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED,
                                                message=f"server busy: {reason}; retry after {retry_ms} ms",
                                                details=[detail]))
    return _WithMetadata(st, (("grpc-retry-pushback-ms", str(retry_ms)),))


# SessionError fields -> the request field they are about.
_SESSION_FIELDS = {"move": "move.text"}


def _session_status(e: SessionError) -> grpc.Status:
    """A refused session call as a rich status: BadRequest / PreconditionFailure / ResourceInfo."""
    field = _SESSION_FIELDS.get(e.field, e.field)
    e = SessionError(e.code, e.field, bounded(e.message))
    if e.code == "INVALID_ARGUMENT":
        return _bad_request([(field or "request", e.message)])
    detail = any_pb2.Any()
    if e.code == "FAILED_PRECONDITION":
        detail.Pack(error_details_pb2.PreconditionFailure(violations=[
            error_details_pb2.PreconditionFailure.Violation(type="SESSION_STATE", subject=field,
                                                            description=e.message)]))
    elif e.code == "NOT_FOUND":
        detail.Pack(error_details_pb2.ResourceInfo(resource_type="spellbook.v1.Session", description=e.message))
    else:
        return rpc_status.to_status(status_pb2.Status(code=getattr(code_pb2, e.code, code_pb2.UNKNOWN),
                                                      message=e.message))
    return rpc_status.to_status(status_pb2.Status(code=getattr(code_pb2, e.code), message=e.message,
                                                  details=[detail]))


class _WithMetadata(grpc.Status):
    def __init__(self, st: grpc.Status, extra: tuple):
        self.code, self.details = st.code, st.details
        self.trailing_metadata = tuple(st.trailing_metadata) + extra


async def _abort_for(name: str, e: Exception, context, finish, started: float, extra: dict) -> None:
    """Logs the call and aborts it with the status for `e`: a refusal, overload, or (a bug) INTERNAL."""
    if isinstance(e, FieldError):
        await finish(context, started, "INVALID_ARGUMENT", {"field": e.field, **extra})
        await context.abort_with_status(_bad_request([(e.field, e.description)]))
    elif isinstance(e, Overloaded):
        await finish(context, started, "RESOURCE_EXHAUSTED", extra)
        await context.abort_with_status(_exhausted(e.retry_after_ms, e.reason))
    elif isinstance(e, AuthError):
        await finish(context, started, e.code, extra)
        await context.abort(getattr(grpc.StatusCode, e.code), e.message)
    elif isinstance(e, SessionError):
        await finish(context, started, e.code, {"field": e.field, **extra})
        await context.abort_with_status(_session_status(e))
    else:  # a bug, not the caller's fault: log it, answer INTERNAL, keep serving
        log.exception("rpc failed", extra={"fields": {"method": name}})
        await finish(context, started, "INTERNAL", {"error": type(e).__name__, **extra})
        await context.abort(grpc.StatusCode.INTERNAL, f"internal error ({type(e).__name__}); see the server log")


def _identify(servicer, context) -> None:
    """Sets the call's fair-share identity (server/fairshare.py): its API key when the server has keys (the
    interceptor has checked it), else its peer address (sessions' owner; the host's group) and connection."""
    key = auth.bearer_key(context.invocation_metadata()) if servicer.config.keyed_clients else None
    group, connection = client_of(context, auth.key_id(key) if key else None)
    current_client.set(group)
    current_connection.set(connection)


async def _refuse_if_draining(servicer, context) -> None:
    """While the server drains (SIGTERM), new calls get UNAVAILABLE; the calls in flight finish."""
    if servicer.draining:
        await context.abort(grpc.StatusCode.UNAVAILABLE, "the server is shutting down; retry on another")


def rpc(method):
    """Maps refusals to status codes and writes one JSON log line per call."""
    name = method.__name__

    def fields(context, started, code, extra) -> dict:
        return {"method": name, "code": code, "ms": round((time.monotonic() - started) * 1000, 3),
                "peer": context.peer(), **extra}

    async def finish(context, started, code, extra):
        log.info("rpc", extra={"fields": fields(context, started, code, extra)})

    if asyncio.iscoroutinefunction(method):
        @functools.wraps(method)
        async def unary(self, request, context):
            started, extra = time.monotonic(), {}
            _identify(self, context)
            await _refuse_if_draining(self, context)
            self.inflight += 1
            try:
                response = await method(self, request, context, extra)
            except asyncio.CancelledError:
                await finish(context, started, "CANCELLED", extra)
                raise
            except grpc.aio.AbortError:
                raise
            except Exception as e:
                await _abort_for(name, e, context, finish, started, extra)
            finally:
                self.inflight -= 1
            # The log line is written on the loop's next turn, once the response is on its way: a
            # successful call's latency does not include formatting and writing it.
            asyncio.get_running_loop().call_soon(
                functools.partial(log.info, "rpc", extra={"fields": fields(context, started, "OK", extra)}))
            return response
        return unary

    @functools.wraps(method)
    async def stream(self, request, context):
        started, extra = time.monotonic(), {}
        _identify(self, context)
        await _refuse_if_draining(self, context)
        self.inflight += 1
        try:
            async for response in method(self, request, context, extra):
                yield response
        except asyncio.CancelledError:
            await finish(context, started, "CANCELLED", extra)
            raise
        except grpc.aio.AbortError:
            raise
        except Exception as e:
            await _abort_for(name, e, context, finish, started, extra)
        finally:
            self.inflight -= 1
        await finish(context, started, "OK", extra)
    return stream



class RpcBase:
    """State and helpers every group of RPCs uses: a game's servicer is built over the server's one
    ServiceCore (server/core.py), whose config, pool, sessions, calls in flight and drain it shares with
    every other game's."""

    def __init__(self, core: "ServiceCore"):
        self.core = core
        self.config = core.config
        self.pool = core.pool
        self.sessions = core.sessions
        self._stopping = core.stopping

    @property
    def inflight(self) -> int:
        """Calls running now, every game's (the Server's drain waits for them)."""
        return self.core.inflight

    @inflight.setter
    def inflight(self, value: int) -> None:
        self.core.inflight = value

    @property
    def draining(self) -> bool:
        """Set at shutdown: new calls are refused."""
        return self.core.draining

    def begin_shutdown(self) -> None:
        self.core.begin_shutdown()

    def _answer_margin_s(self, remaining: float) -> float:
        """How long before the call's deadline a search-bearing call stops working, to answer in time.

        `deadline_margin_ms` (50 ms) covers the answer's own cost on a quiet machine; a longer call also keeps
        a tenth of its time (at most 2 s): on a busy machine a search stopped by its clock still finishes its
        slice, waits for a core and the GIL, and its response is built and sent. With the fixed margin
        alone four concurrent reviews on two workers missed a 12 s deadline, and searches queued behind
        two long ones answered 20-70 ms after their search's end (issue 40). Never more than half of what
        remains."""
        margin = max(self.config.deadline_margin_ms / 1000.0, min(0.1 * remaining, 2.0))
        return min(margin, remaining / 2)

    def _record_pb(self, message, record: dict) -> None:
        """Sets the structured record (`message.record`, through the servicer's `conv`) of a response that
        carries one beside its `record_json` (ExportSession, PlayMatch's end); games.v1's carry the JSON only."""
        message.record.CopyFrom(self.conv.record_pb(record))

    def _cancel_on_done(self, context) -> CancelToken:
        """A token cancelled when the call ends for any reason (done, cancelled by the client, deadline)."""
        token = CancelToken()
        context.add_done_callback(lambda _ctx: token.cancel())
        return token


# ------------------------------------------------------------------------------------------ request decoding
def service_handler(servicer, service) -> grpc.GenericRpcHandler:
    """The handlers of `service` (a ServiceDescriptor) on `servicer`, decoding requests themselves: bytes that
    are not a valid request message get INVALID_ARGUMENT with a BadRequest (grpc's own deserializer would
    answer UNKNOWN naming a Python exception class)."""
    from google.protobuf import message_factory

    handlers = {}
    for method in service.methods:
        request_cls = message_factory.GetMessageClass(method.input_type)
        response_cls = message_factory.GetMessageClass(method.output_type)
        fn = getattr(servicer, method.name)
        if method.server_streaming:
            handlers[method.name] = grpc.unary_stream_rpc_method_handler(
                _decoding_stream(fn, request_cls), response_serializer=response_cls.SerializeToString)
        else:
            handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                _decoding_unary(fn, request_cls), response_serializer=response_cls.SerializeToString)
    return grpc.method_handlers_generic_handler(service.full_name, handlers)


async def _decode(raw: bytes, request_cls, context):
    try:
        return request_cls.FromString(raw)
    except Exception as e:   # DecodeError, or a RecursionError on absurd nesting
        log.info("rpc", extra={"fields": {"method": request_cls.DESCRIPTOR.name.removesuffix("Request"),
                                          "code": "INVALID_ARGUMENT", "error": type(e).__name__,
                                          "peer": context.peer()}})
        await context.abort_with_status(_bad_request([(
            "request", f"not a valid {request_cls.DESCRIPTOR.full_name} message ({len(raw)} bytes): the wire "
                       "format is corrupt")]))


def _decoding_unary(fn, request_cls):
    async def handler(raw, context):
        return await fn(await _decode(raw, request_cls, context), context)
    return handler


def _decoding_stream(fn, request_cls):
    async def handler(raw, context):
        request = await _decode(raw, request_cls, context)
        async for response in fn(request, context):
            yield response
    return handler
