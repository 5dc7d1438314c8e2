"""Who may do what: session credentials (per-seat and spectator tokens), service API keys and TLS.

Session credentials. CreateSession returns a secret token for each client seat and one read-only
spectator token. A call about a session carries its token in the gRPC metadata `spellbook-session-token`
(metadata rather than a request field: it stays out of request logs and dumps, like the API key).
Only the SHA-256 of a token is stored (the store's `credentials` table), so a copy of the database
does not give access to running sessions.

    seat token       SubmitMove and GetSession for its own seat; WatchSession, ExportSession
    spectator token  GetSession (any seat's view: it never holds the Pouch order), WatchSession, ExportSession

No token: UNAUTHENTICATED. A token that is not this session's, or another seat's: PERMISSION_DENIED.

API keys (optional, service-wide): `authorization: Bearer KEY` metadata on every SpellBookService call
(health and reflection stay open for probes). Keys come from a file (one a line, `#` comments) and/or
the environment variable SPELLBOOK_API_KEYS (comma-separated). A key also names the client for fair
share (server/fairshare.py); without keys the client is its connection (peer address and port).
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import secrets
from dataclasses import dataclass

import grpc

SESSION_TOKEN_HEADER = "spellbook-session-token"
SPECTATOR = "spectator"


class AuthError(Exception):
    """A refused credential: `code` is "UNAUTHENTICATED" or "PERMISSION_DENIED"."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def seat_role(seat: int) -> str:
    return f"seat:{seat}"


def new_token() -> str:
    return "sbt_" + secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def issue_session_tokens(client_seats: list[int]) -> tuple[dict[int, str], str, dict[str, str]]:
    """Fresh tokens for the client seats and a spectator: (seat -> token, spectator token, hash -> role)."""
    seat_tokens = {seat: new_token() for seat in client_seats}
    spectator = new_token()
    roles = {token_hash(t): seat_role(s) for s, t in seat_tokens.items()}
    roles[token_hash(spectator)] = SPECTATOR
    return seat_tokens, spectator, roles


def metadata_value(context, key: str) -> str | None:
    for k, v in context.invocation_metadata() or ():
        if k == key:
            return v if isinstance(v, str) else v.decode("utf-8", "replace")
    return None


def redact(secret_or_id: str) -> str:
    """What a log line may show of a session id or token: its first 4 characters."""
    return (secret_or_id[:4] + "…") if secret_or_id else ""


# ------------------------------------------------------------------------------------------ API keys
def load_api_keys(path: str | None = None, env: str | None = None) -> frozenset[str]:
    """Keys from `path` (one per line, blank lines and `#` comments skipped) and the comma-separated `env`
    value (SPELLBOOK_API_KEYS). Raises OSError for an unreadable file, ValueError for a key too short."""
    keys: set[str] = set()
    if path:
        with open(path, encoding="utf-8") as f:
            keys.update(line.strip() for line in f if line.strip() and not line.lstrip().startswith("#"))
    if env:
        keys.update(k.strip() for k in env.split(",") if k.strip())
    short = [k for k in keys if len(k) < 16]
    if short:
        raise ValueError(f"API keys must be at least 16 characters ({len(short)} shorter)")
    return frozenset(keys)


def bearer_key(metadata) -> str | None:
    for k, v in metadata or ():
        if k == "authorization":
            v = v if isinstance(v, str) else v.decode("utf-8", "replace")
            scheme, _, key = v.partition(" ")
            return key.strip() if scheme.lower() == "bearer" else None
    return None


def key_id(key: str) -> str:
    """A stable, non-secret name for an API key (logs and fair-share accounting)."""
    return "key:" + hashlib.sha256(key.encode()).hexdigest()[:10]


# The method paths of the server's own APIs (every game's service; not health or reflection).
API_PREFIXES = ("/spellbook.", "/abracadawhat.", "/games.")     # games.v1: the game-neutral API


class ApiKeyInterceptor(grpc.aio.ServerInterceptor):
    """Refuses calls of the server's APIs (every game's service) without a known `authorization: Bearer
    KEY` (UNAUTHENTICATED)."""

    def __init__(self, keys: frozenset[str], protected_prefix: str | tuple[str, ...] = API_PREFIXES):
        self.keys = keys
        self.digests = [hashlib.sha256(k.encode()).digest() for k in keys]
        self.prefix = protected_prefix

    def known(self, key: str | None) -> bool:
        if not key:
            return False
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()
        found = False
        for d in self.digests:   # constant time per key, no early exit
            found |= hmac.compare_digest(d, digest)
        return found

    async def intercept_service(self, continuation, handler_call_details):
        if not handler_call_details.method.startswith(self.prefix):
            return await continuation(handler_call_details)
        if self.known(bearer_key(handler_call_details.invocation_metadata)):
            return await continuation(handler_call_details)
        handler = await continuation(handler_call_details)
        return _refusing(handler, grpc.StatusCode.UNAUTHENTICATED,
                         "an API key is required: metadata `authorization: Bearer KEY`")


def _refusing(handler, code: grpc.StatusCode, message: str):
    """A handler of the same shape as `handler` that aborts every call with `code`."""
    async def unary(request, context):
        await context.abort(code, message)

    async def stream(request, context):
        await context.abort(code, message)
        yield  # pragma: no cover  (makes this an async generator)

    if handler is None:
        return None
    if handler.response_streaming:
        make = grpc.stream_stream_rpc_method_handler if handler.request_streaming else grpc.unary_stream_rpc_method_handler
        return make(stream, request_deserializer=handler.request_deserializer,
                    response_serializer=handler.response_serializer)
    make = grpc.stream_unary_rpc_method_handler if handler.request_streaming else grpc.unary_unary_rpc_method_handler
    return make(unary, request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer)


# ------------------------------------------------------------------------------------------ TLS
@dataclass
class TlsConfig:
    cert: str = ""          # PEM certificate chain of the server
    key: str = ""           # PEM private key
    client_ca: str = ""     # PEM CA bundle: when set, clients must present a certificate it signed (mTLS)

    @property
    def enabled(self) -> bool:
        return bool(self.cert)

    def credentials(self) -> grpc.ServerCredentials:
        def read(path: str) -> bytes:
            with open(path, "rb") as f:
                return f.read()
        root = read(self.client_ca) if self.client_ca else None
        return grpc.ssl_server_credentials([(read(self.key), read(self.cert))], root_certificates=root,
                                           require_client_auth=bool(self.client_ca))


def is_loopback(address: str) -> bool:
    """Whether HOST:PORT listens on the loopback interface only."""
    host = address.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def env_api_keys() -> str | None:
    return os.environ.get("SPELLBOOK_API_KEYS")
