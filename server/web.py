"""The browser's way in: the web page (server/static/) and SpellBookService over the Connect protocol.

`spellbook-ai serve --web-address HOST:PORT` (`make serve` turns it on at 127.0.0.1:8080) serves, on its
own port and on the server's own event loop:

    GET  /                                        the page (server/static/index.html) and its assets
    GET  /static/PATH                             the shell's files and each game's folder (static/games/NAME/)
    GET  /games.json                              the games the page offers: one per folder of static/games/,
                                                  each with its title and what its engine says of its rules
                                                  (engine_c/<game>/text.py player_help())
    POST /PACKAGE.Service/METHOD                  any RPC of every game's service (proto/NAME/v1/service.proto:
                                                  /spellbook.v1.SpellBookService/, /abracadawhat.v1.AbracadaWhatService/)

The RPCs speak the Connect protocol (connectrpc.com/docs/protocol), in JSON (`application/json`; server
streams `application/connect+json`, 5-byte envelopes) or binary (`application/proto`,
`application/connect+proto`), so any Connect client, `curl` or the page's `fetch` can call them; server
streams (WatchSession, Analyze, PlayMatch) arrive message by message.

No RPC is implemented twice (docs/decisions.md D50). A browser call is dispatched to the very method
handler the gRPC server runs, found through the same interceptors (metrics and request ids, API keys), so
it passes the same `@rpc` wrapper (server/rpc_base.py: fair share by client, draining, one log line per
call, refusals mapped to statuses) and the same session-token checks (server/auth.py). Only the transport
differs: `BrowserCallContext` stands in for grpc's servicer context (metadata from the request headers,
the browser's address as the peer, `connect-timeout-ms` as the deadline), and a status the handler aborts
with becomes a Connect error (its google.rpc details kept, with a readable `debug` copy).

Credentials travel in headers, never in a URL: the seat or spectator token in `spellbook-session-token`,
an API key in `authorization: Bearer KEY`. No access log is written (the `@rpc` line is the call's log,
and it never holds a token). Every answer carries a Content-Security-Policy (scripts, styles and calls
from this origin only); a request from another origin, or with a Host header that is not this server's
on a loopback address (DNS rebinding), is refused.
"""
from __future__ import annotations

import asyncio
import base64
import functools
import ipaddress
import json
import logging
import mimetypes
import ssl
import struct
import time
from pathlib import Path
from typing import NamedTuple

import grpc
from aiohttp import web
from google.protobuf import descriptor_pool, json_format, message_factory
from google.protobuf.message import DecodeError
from google.rpc import status_pb2

from server import auth, metrics
from server.rpc_base import _bad_request

log = logging.getLogger("spellbook.server")

STATIC_DIR = Path(__file__).resolve().parent / "static"
FORWARDED_HEADERS = (auth.SESSION_TOKEN_HEADER, "authorization", metrics.REQUEST_ID_KEY)
STATUS_DETAILS_KEY = "grpc-status-details-bin"
ENVELOPE = struct.Struct(">BI")          # flags, length
END_STREAM = 0x02

CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
                           "frame-ancestors 'none'")
SECURITY_HEADERS = {"Content-Security-Policy": CONTENT_SECURITY_POLICY, "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
                    "Cross-Origin-Opener-Policy": "same-origin"}

# grpc status -> (Connect code, HTTP status of a unary error) (connectrpc.com/docs/protocol#error-codes)
CONNECT_CODES = {
    grpc.StatusCode.CANCELLED: ("canceled", 499), grpc.StatusCode.UNKNOWN: ("unknown", 500),
    grpc.StatusCode.INVALID_ARGUMENT: ("invalid_argument", 400),
    grpc.StatusCode.DEADLINE_EXCEEDED: ("deadline_exceeded", 504), grpc.StatusCode.NOT_FOUND: ("not_found", 404),
    grpc.StatusCode.ALREADY_EXISTS: ("already_exists", 409),
    grpc.StatusCode.PERMISSION_DENIED: ("permission_denied", 403),
    grpc.StatusCode.RESOURCE_EXHAUSTED: ("resource_exhausted", 429),
    grpc.StatusCode.FAILED_PRECONDITION: ("failed_precondition", 400), grpc.StatusCode.ABORTED: ("aborted", 409),
    grpc.StatusCode.OUT_OF_RANGE: ("out_of_range", 400), grpc.StatusCode.UNIMPLEMENTED: ("unimplemented", 501),
    grpc.StatusCode.INTERNAL: ("internal", 500), grpc.StatusCode.UNAVAILABLE: ("unavailable", 503),
    grpc.StatusCode.DATA_LOSS: ("data_loss", 500), grpc.StatusCode.UNAUTHENTICATED: ("unauthenticated", 401),
}


class CallDetails(NamedTuple):
    """What grpc gives interceptors about a call (grpc.HandlerCallDetails)."""
    method: str
    invocation_metadata: tuple


class CallFailed(Exception):
    """A call that ended with a status other than OK (from the handler's abort, or the gateway's own)."""

    def __init__(self, code: grpc.StatusCode, details: str, trailing_metadata: tuple = ()):
        super().__init__(details)
        self.code, self.details, self.trailing_metadata = code, details, tuple(trailing_metadata or ())


class BrowserCallContext:
    """The part of grpc.aio.ServicerContext the service's handlers and interceptors use, for a browser
    call: its metadata (the forwarded headers), its peer (the browser's address, so fair share and the
    logs see the browser), its deadline, its status and the callbacks run when it ends."""

    def __init__(self, metadata: tuple, peer: str, deadline: float | None):
        self._metadata, self._peer, self._deadline = metadata, peer, deadline
        self._code: grpc.StatusCode | None = None
        self._details, self._trailers = "", ()
        self._callbacks: list = []

    def invocation_metadata(self) -> tuple:
        return self._metadata

    def peer(self) -> str:
        return self._peer

    def time_remaining(self) -> float | None:
        return None if self._deadline is None else max(0.0, self._deadline - time.monotonic())

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def details(self) -> str:
        return self._details

    def set_code(self, code: grpc.StatusCode) -> None:
        self._code = code

    def set_details(self, details: str) -> None:
        self._details = details

    def set_trailing_metadata(self, trailing_metadata) -> None:
        self._trailers = tuple(trailing_metadata)

    async def abort(self, code: grpc.StatusCode, details: str = "", trailing_metadata=()) -> None:
        self._code, self._details = code, details
        self._trailers = tuple(trailing_metadata or ()) or self._trailers
        raise grpc.aio.AbortError()

    async def abort_with_status(self, status: grpc.Status) -> None:
        await self.abort(status.code, status.details, status.trailing_metadata)

    def add_done_callback(self, callback) -> None:
        self._callbacks.append(callback)

    def failure(self) -> CallFailed:
        return CallFailed(self._code or grpc.StatusCode.UNKNOWN, self._details, self._trailers)

    def finish(self) -> None:
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)


# ------------------------------------------------------------------------------------------ Connect errors
def _detail_json(any_msg) -> dict:
    """A google.protobuf.Any as a Connect error detail: type, base64 value (no padding), readable debug."""
    out = {"type": any_msg.type_url.rsplit("/", 1)[-1],
           "value": base64.b64encode(any_msg.value).decode().rstrip("=")}
    try:
        cls = message_factory.GetMessageClass(descriptor_pool.Default().FindMessageTypeByName(out["type"]))
        out["debug"] = json_format.MessageToDict(cls.FromString(any_msg.value))
    except (KeyError, DecodeError):     # a detail type this server does not know keeps its bytes only
        pass
    return out


def connect_error(failed: CallFailed) -> tuple[dict, int, dict]:
    """The Connect error JSON of a failed call, the HTTP status of a unary answer, and its metadata."""
    code, http = CONNECT_CODES.get(failed.code, ("unknown", 500))
    error: dict = {"code": code, "message": failed.details or ""}
    details, metadata = [], {}
    for key, value in failed.trailing_metadata:
        if key == STATUS_DETAILS_KEY:
            status = status_pb2.Status.FromString(value if isinstance(value, bytes) else value.encode())
            details = [_detail_json(d) for d in status.details]
        elif not key.endswith("-bin"):
            metadata[key] = [value if isinstance(value, str) else value.decode("utf-8", "replace")]
    if details:
        error["details"] = details
    return error, http, metadata


# ------------------------------------------------------------------------------------------ the gateway
class _Route:
    """One service the gateway routes: its descriptor, its generic handler, its methods and request classes."""

    def __init__(self, service, handler):
        self.service, self.handler = service, handler
        self.methods = {m.name: m for m in service.methods}
        self.request_classes = {m.name: message_factory.GetMessageClass(m.input_type) for m in service.methods}


class WebGateway:
    """The page and the Connect endpoints of one Server (server/main.py), on its event loop."""

    def __init__(self, server, address: str, services: tuple, interceptors: list):
        """`services`: (descriptor, handler) of every game's service, each routed at POST /FULL_NAME/METHOD
        (/spellbook.v1.SpellBookService/GetBestMove, ...); the page's game folders call them."""
        self.server, self.address = server, address
        self.interceptors = list(interceptors)
        self.routes = {d.full_name: _Route(d, h) for d, h in services}
        self.max_bytes = server.config.service.max_message_bytes
        self.host = address.rpartition(":")[0].strip("[]")
        self.static = _load_static()
        self.runner: web.AppRunner | None = None
        self.port = 0

    # -------------------------------------------------------------- lifecycle
    async def start(self, reuse_port: bool = False) -> int:
        app = web.Application(client_max_size=self.max_bytes + ENVELOPE.size,
                              middlewares=[self._guard])
        app.router.add_get("/", self._index)
        app.router.add_get("/games.json", self._games)
        app.router.add_get("/static/{name:.+}", self._asset)
        for info in games_info(tuple(self.static)):     # /spellbook, /abracadawhat: the page with that game chosen
            app.router.add_get(f"/{info['name']}", self._index)
        for name in self.routes:
            app.router.add_post(f"/{name}/{{method}}", functools.partial(self._call, route=self.routes[name]))
        # no access log: the @rpc line is the call's log; handler_cancellation: a closed tab cancels its search
        self.runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self.runner.setup()
        tls = self.server.config.tls
        context = None
        if tls.enabled:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(tls.cert, tls.key)
        port = int(self.address.rpartition(":")[2])
        site = web.TCPSite(self.runner, self.host or "127.0.0.1", port, ssl_context=context, reuse_port=reuse_port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    # -------------------------------------------------------------- guard: origin, host, headers
    @web.middleware
    async def _guard(self, request: web.Request, handler):
        refusal = self._refusal(request)
        if refusal:
            response = web.json_response({"code": "permission_denied", "message": refusal}, status=403)
        else:
            try:
                response = await handler(request)
            except web.HTTPException as e:       # 404, 415...: answered with the same headers
                response = web.Response(status=e.status, text=e.text, content_type="text/plain")
        response.headers.update(SECURITY_HEADERS)
        return response

    def _refusal(self, request: web.Request) -> str:
        """Why a request is refused ("" when it is not): another origin, or, on a loopback address, a Host
        that does not name this machine (a DNS-rebinding page)."""
        host = request.url.host or ""
        if auth.is_loopback(self.address) and host not in ("localhost", self.host) and not _is_loopback_ip(host):
            return f"this server answers only to its own address, not to Host {host[:100]!r}"
        origin = request.headers.get("Origin")
        if origin and origin != f"{request.scheme}://{request.host}":
            return "calls from another origin are refused"
        return ""

    # -------------------------------------------------------------- the page
    async def _index(self, request: web.Request) -> web.Response:
        return self._static_response("index.html")

    async def _asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.static or name == "index.html":
            raise web.HTTPNotFound(text="no such file")
        return self._static_response(name)

    def _static_response(self, name: str) -> web.Response:
        body, content_type = self.static[name]
        return web.Response(body=body, content_type=content_type, charset="utf-8" if content_type.startswith(
            ("text/", "application/json")) else None, headers={"Cache-Control": "no-cache"})

    async def _games(self, request: web.Request) -> web.Response:
        return web.json_response(games_info(tuple(self.static)), headers={"Cache-Control": "no-cache"})

    # -------------------------------------------------------------- RPCs
    async def _call(self, request: web.Request, route: "_Route") -> web.StreamResponse:
        name = request.match_info["method"]
        method = route.methods.get(name)
        if method is None:
            return self._unary_error(CallFailed(grpc.StatusCode.UNIMPLEMENTED, f"no method {name!r} in "
                                                f"{route.service.full_name}"))
        content_type = request.content_type
        streaming = method.server_streaming
        codec = _codec(content_type, streaming)
        if codec is None:
            expected = "application/connect+json or application/connect+proto" if streaming \
                else "application/json or application/proto"
            raise web.HTTPUnsupportedMediaType(text=f"{name} takes {expected}, not {content_type!r}")
        context = BrowserCallContext(_metadata(request), _peer(request), _deadline(request))
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:    # as gRPC answers a message over the limit, in Connect's words
            return self._unary_error(CallFailed(grpc.StatusCode.RESOURCE_EXHAUSTED, f"the request is larger "
                                                f"than the server's limit of {self.max_bytes} bytes"))
        if streaming:
            return await self._stream(request, route, name, codec, body, context)
        return await self._unary(route, name, codec, body, context)

    async def _handler(self, route: "_Route", name: str, context: BrowserCallContext):
        """The method handler the gRPC server would run for this call: the service's own, through the same
        interceptors in the same order (the first one outermost, as grpc.aio applies them)."""
        details = CallDetails(f"/{route.service.full_name}/{name}", context.invocation_metadata())

        async def lookup(d):
            return route.handler.service(d)

        continuation = lookup
        for interceptor in reversed(self.interceptors):
            continuation = functools.partial(interceptor.intercept_service, continuation)
        return await continuation(details)

    def _request_bytes(self, route: "_Route", name: str, codec: str, body: bytes) -> bytes:
        """The request as the gRPC handler receives it (serialized protobuf); CallFailed for bad JSON."""
        if codec == "proto":
            return body
        try:
            message = json_format.Parse(body or b"{}", route.request_classes[name](), ignore_unknown_fields=False)
        except (json_format.ParseError, UnicodeDecodeError, RecursionError) as e:
            log.info("rpc", extra={"fields": {"method": name, "code": "INVALID_ARGUMENT", "error": "json",
                                              "web": True}})
            status = _bad_request([("request", f"not a valid {route.request_classes[name].DESCRIPTOR.full_name} "
                                               f"in JSON: {e}")])
            raise CallFailed(status.code, status.details, status.trailing_metadata) from None
        return message.SerializeToString()

    async def _unary(self, route: "_Route", name: str, codec: str, body: bytes,
                     context: BrowserCallContext) -> web.Response:
        try:
            raw = self._request_bytes(route, name, codec, body)
            handler = await self._handler(route, name, context)
            try:
                response = await _within(context, handler.unary_unary(_deserialize(handler, raw), context))
            except grpc.aio.AbortError:
                raise context.failure() from None
        except ConnectionResetError:    # the browser went away mid-stream (aiohttp's reset error is one): no one to tell
            return response
        except CallFailed as failed:
            return self._unary_error(failed)
        finally:
            context.finish()
        if codec == "json":
            return web.Response(body=json_format.MessageToJson(response, indent=None, always_print_fields_with_no_presence=True).encode(),
                                content_type="application/json", headers={"Cache-Control": "no-store"})
        return web.Response(body=handler.response_serializer(response), content_type="application/proto",
                            headers={"Cache-Control": "no-store"})

    def _unary_error(self, failed: CallFailed) -> web.Response:
        error, http, metadata = connect_error(failed)
        headers = {f"trailer-{k}": v[0] for k, v in metadata.items()}
        headers["Cache-Control"] = "no-store"
        return web.json_response(error, status=http, headers=headers)

    async def _stream(self, request: web.Request, route: "_Route", name: str, codec: str, body: bytes,
                      context: BrowserCallContext) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": f"application/connect+{codec}",
                                               "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        response.headers.update(SECURITY_HEADERS)
        await response.prepare(request)
        end: dict = {}
        try:
            raw = self._request_bytes(route, name, codec, _unwrap_envelope(body))
            handler = await self._handler(route, name, context)
            messages = handler.unary_stream(_deserialize(handler, raw), context)
            try:
                await _within(context, self._forward(messages, response, codec, handler))
            except grpc.aio.AbortError:
                raise context.failure() from None
        except ConnectionResetError:    # the browser went away mid-stream (aiohttp's reset error is one): no one to tell
            return response
        except CallFailed as failed:
            end["error"], _http, metadata = connect_error(failed)
            if metadata:
                end["metadata"] = metadata
        finally:
            context.finish()
        await response.write(ENVELOPE.pack(END_STREAM, len(payload := json.dumps(end).encode())) + payload)
        await response.write_eof()
        return response

    async def _forward(self, messages, response: web.StreamResponse, codec: str, handler) -> None:
        try:
            async for message in messages:
                data = (json_format.MessageToJson(message, indent=None, always_print_fields_with_no_presence=True).encode() if codec == "json"
                        else handler.response_serializer(message))
                await response.write(ENVELOPE.pack(0, len(data)) + data)
        finally:
            await messages.aclose()


# ------------------------------------------------------------------------------------------ helpers
def _codec(content_type: str, streaming: bool) -> str | None:
    prefix = "application/connect+" if streaming else "application/"
    if content_type.startswith(prefix):
        codec = content_type[len(prefix):]
        return codec if codec in ("json", "proto") else None
    return None


def _unwrap_envelope(body: bytes) -> bytes:
    """The message of a Connect streaming request body: exactly one uncompressed envelope."""
    if len(body) < ENVELOPE.size:
        raise CallFailed(grpc.StatusCode.INVALID_ARGUMENT, "request: a streaming call's body is one "
                                                           "enveloped message (5-byte prefix)")
    flags, length = ENVELOPE.unpack_from(body)
    if flags != 0 or length != len(body) - ENVELOPE.size:
        raise CallFailed(grpc.StatusCode.INVALID_ARGUMENT, "request: the envelope's flags must be 0 and its "
                                                           "length that of the message that follows")
    return body[ENVELOPE.size:]


def _deserialize(handler, raw: bytes):
    return handler.request_deserializer(raw) if handler.request_deserializer else raw


async def _within(context: BrowserCallContext, awaitable):
    """Runs `awaitable` until the call's deadline (connect-timeout-ms), as grpc ends a call at its deadline."""
    remaining = context.time_remaining()
    if remaining is None:
        return await awaitable
    try:
        async with asyncio.timeout(remaining):
            return await awaitable
    except TimeoutError:
        raise CallFailed(grpc.StatusCode.DEADLINE_EXCEEDED, "the call's deadline (connect-timeout-ms) passed") from None


def _metadata(request: web.Request) -> tuple:
    """The headers a handler may read, as gRPC metadata (credentials and the request id; nothing else)."""
    return tuple((key, request.headers[key]) for key in FORWARDED_HEADERS if key in request.headers)


def _peer(request: web.Request) -> str:
    """The browser's address in grpc's peer notation (`ipv4:1.2.3.4:5678`), for fair share and the logs."""
    peer = request.transport.get_extra_info("peername") if request.transport else None
    if not peer:
        return "unknown"
    host, port = peer[0], peer[1]
    return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{host}:{port}"


def _deadline(request: web.Request) -> float | None:
    value = request.headers.get("connect-timeout-ms", "")
    if not value.isdigit() or len(value) > 10:
        return None
    return time.monotonic() + int(value) / 1000.0


def _is_loopback_ip(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _load_static() -> dict[str, tuple[bytes, str]]:
    """The page's files (the shell's and each game folder's, by their path under static/), read once: served
    from memory, so no path from a request ever reaches the disk."""
    files = {}
    for path in sorted(STATIC_DIR.rglob("*")):
        name = path.relative_to(STATIC_DIR).as_posix()
        if path.is_file() and not any(part.startswith(".") for part in name.split("/")):
            content_type = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
                            ".html": "text/html", ".svg": "image/svg+xml", ".png": "image/png",
                            ".json": "application/json"}.get(path.suffix) or \
                mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            files[name] = (path.read_bytes(), content_type)
    return files


@functools.cache
def games_info(static_names: tuple[str, ...]) -> list[dict]:
    """The games the page offers: each folder static/games/NAME/ with a game.js, in the registry's order (a
    folder the registry does not know comes last, titled by its name), with what the game's engine text
    says of its rules for a player (`player_help()` of engine_c/<game>/text.py, where it has one)."""
    from engine_c.registry import GAMES, get_game

    folders = sorted({n.split("/")[1] for n in static_names if n.startswith("games/") and n.endswith("/game.js")
                      and n.count("/") == 2}, key=lambda f: (GAMES.index(f) if f in GAMES else len(GAMES), f))
    out = []
    for folder in folders:
        info: dict = {"name": folder, "title": folder, "module": f"/static/games/{folder}/game.js"}
        if folder in GAMES:
            game = get_game(folder)
            info.update(title=game.title, minPlayers=game.min_players, maxPlayers=game.max_players)
            if game.text is not None and hasattr(game.text, "player_help"):
                info["help"] = game.text.player_help()
        out.append(info)
    return out
