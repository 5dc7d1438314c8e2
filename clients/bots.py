"""Players by spec, for `play`, `tournament` and `ladder`: local bots, remote bots and OpenSpiel's bots.

    random | greedy | ismcts:level=7 | ismcts:iterations=5000,threads=1 | flatmc:iterations=2000
        local bots (search.bots.make_bot)
    grpc://host:port?level=7            a bot on a SpellBook server (needs clients/client.py, issue 4), for
    grpc://host:port?level=7&game=abracadawhat   either game (`game` defaults to the tournament's --game)
    openspiel-mcts:simulations=N        OpenSpiel's MCTS (SpellBook, clients/openspiel_game.py) or IS-MCTS
                                        (Abracada…What?, clients/openspiel_abracadawhat.py) (the `openspiel` extra)

Every bot has `.name` and `choose(state) -> (move, info)` and never modifies `state`.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

from engine_c.registry import DEFAULT_GAME


class BotUnavailableError(RuntimeError):
    """A bot spec that is valid but cannot run in this installation (a missing optional part)."""


def bot_seed(game_seed: int, spec: str) -> int:
    """A bot's own seed for one game: stable across processes and machines (not Python's hash())."""
    return (game_seed * 1_000_003 + zlib.crc32(spec.encode())) % 2**63


@dataclass
class RemoteSpec:
    """`grpc://host:port?level=7&iterations=...`: where the bot is and what it is asked for."""

    address: str                              # host:port
    options: dict[str, str] = field(default_factory=dict)

    @property
    def level(self) -> int | None:
        return int(self.options["level"]) if "level" in self.options else None

    @property
    def game(self) -> str | None:
        """The game the spec names (`game=`, registry name), None when it names none."""
        from engine_c.registry import get_game

        return get_game(self.options["game"]).name if "game" in self.options else None


def parse_remote_spec(spec: str) -> RemoteSpec:
    parts = urlsplit(spec)
    if parts.scheme != "grpc" or not parts.netloc:
        raise ValueError(f"bot spec {spec!r}: a remote bot is grpc://host:port[?level=N]")
    if parts.port is None:
        raise ValueError(f"bot spec {spec!r}: the address needs a port (grpc://host:port)")
    options = dict(parse_qsl(parts.query, keep_blank_values=True))
    if "level" in options:
        try:
            level = int(options["level"])
        except ValueError:
            raise ValueError(f"bot spec {spec!r}: level must be an integer from 1 to 10") from None
        if not 1 <= level <= 10:
            raise ValueError(f"bot spec {spec!r}: level must be from 1 to 10, got {level}")
    if "game" in options:
        from engine_c.registry import get_game

        try:
            get_game(options["game"])
        except ValueError as e:
            raise ValueError(f"bot spec {spec!r}: {e}") from None
    return RemoteSpec(parts.netloc, options)


def _require_grpc_client(what: str):
    try:
        from clients import client  # the gRPC client of issue 4
    except ImportError as e:
        raise BotUnavailableError(
            f"{what} requires the gRPC client (clients/client.py), which is not part of this installation "
            f"yet ({e}); use a local bot such as ismcts:level=7 meanwhile") from e
    return client


class RemoteBot:
    """A bot played by a server: each decision is one GetBestMove call, with the clients of
    clients/client.py (their retries, backoff and deadlines): SpellBookClient, or AbracadaWhatClient
    (`game=abracadawhat`, abracadawhat.v1.AbracadaWhatService). Either sends only the deciding seat's
    observation (SpellBook: no Pouch order; Abracada…What?: never the seat's own hand, XI2), and the server
    samples the hidden part. Query options: `game` (default: the tournament's), `level` (1-10),
    `iterations`, `time_ms`, `threads`, `timeout` (seconds per call, default 60) and any field of the game's
    API SearchOptions message (`rollout`, ...; SpellBook's also `knows_discard`).
    """

    _LIMITS = {"iterations": int, "time_ms": float, "threads": int}

    def __init__(self, spec: str, seed: int = 0, game: str = DEFAULT_GAME):
        self.remote = parse_remote_spec(spec)
        named = self.remote.game
        if named is not None and named != game:
            raise ValueError(f"bot spec {spec!r} plays {named}, but the games played are {game}'s "
                             f"(--game {game}): give --game {named}, or game={game} in the spec")
        module = _require_grpc_client(f"bot {spec!r}")
        self.name, self.seed, self.calls, self.game = spec, seed, 0, game
        opts = dict(self.remote.options)
        opts.pop("game", None)
        timeout = float(opts.pop("timeout", 60))
        try:
            self._limits = {k: cast(opts.pop(k)) for k, cast in self._LIMITS.items() if k in opts}
        except ValueError as e:
            raise ValueError(f"bot spec {spec!r}: {e}") from None
        self._level = int(opts.pop("level", 0))
        client_cls = module.client_for(game)
        # checked before connecting: a bad spec fails the preflight
        self._options = _typed_search_options(spec, opts, client_cls)
        self._client = client_cls(self.remote.address, timeout=timeout)
        self._observation = module.Observation
        self._service_error = module.ServiceError

    def check(self) -> None:
        """BotUnavailableError naming the server when it does not answer the game's service (one cheap call
        with the same retries: a tournament's preflight, before any game)."""
        try:
            self._client.ping(timeout=min(self._client.timeout, 10))
        except self._service_error as e:
            raise BotUnavailableError(f"bot {self.name!r}: the server at {self.remote.address} does not answer "
                                      f"its {self.game} service: {e}") from None

    def choose(self, state):
        seed = (self.seed + 7919 * self.calls) % 2**63
        # only what the seat to move may see, its observation: never the state's text, whose rng and Pouch
        # order would tell the server the draws to come (SpellBook) or the seat's own hand (Abracada…What?)
        seat = state.current_player
        answer = self._client.best_move(self._observation(state.observation(seat)), seat=seat, level=self._level,
                                        options=self._options or None, seed=seed, **self._limits)
        self.calls += 1
        return answer.move, {"stats": answer.stats}

    def close(self) -> None:
        self._client.close()


def _typed_search_options(spec: str, raw: dict[str, str], client_cls) -> dict:
    """Query-string values cast to the types of the fields of the game's API SearchOptions message, which they
    are sent as (ValueError for a value of the wrong type or an option the message lacks)."""
    from google.protobuf.descriptor import FieldDescriptor

    from engine_c.registry import get_game

    fields = client_cls.search_options().DESCRIPTOR.fields_by_name
    out = {}
    for key, value in raw.items():
        field = fields.get(key)
        if field is None:
            raise ValueError(f"bot spec {spec!r}: unknown option {key!r}: not one of "
                             f"{get_game(client_cls.game).title}'s search options ({', '.join(fields)})")
        if field.cpp_type == FieldDescriptor.CPPTYPE_BOOL:
            out[key] = value.lower() in ("1", "true", "yes")
        elif field.cpp_type in (FieldDescriptor.CPPTYPE_DOUBLE, FieldDescriptor.CPPTYPE_FLOAT):
            out[key] = float(value)
        elif field.cpp_type == FieldDescriptor.CPPTYPE_STRING:
            out[key] = value
        else:
            out[key] = int(value)
    return out


def kind_of(spec: str) -> str:
    """'grpc', 'openspiel' or 'local'."""
    s = spec.strip().lower()
    if s.startswith("grpc://"):
        return "grpc"
    if s.startswith("openspiel-"):
        return "openspiel"
    return "local"


def validate_spec(spec: str) -> None:
    """Raises ValueError for a malformed spec without building anything expensive (no network)."""
    kind = kind_of(spec)
    if kind == "grpc":
        parse_remote_spec(spec)
    elif kind == "openspiel":
        make_bot(spec, seed=0)
    else:
        make_bot(spec, seed=0)


def make_bot(spec: str, seed: int = 0, players: int = 2, game: str = DEFAULT_GAME):
    """The bot a spec names (see the module docstring) for `game` (a name of engine_c/registry.py);
    raises ValueError for a bad spec or game and BotUnavailableError when an optional part it needs is
    missing. Remote bots and OpenSpiel bots play both games (a remote spec's `game=` must be `game`)."""
    from engine_c.registry import get_game

    adapter = get_game(game).adapter
    kind = kind_of(spec)
    if kind == "openspiel":  # OpenSpiel's MCTS (SpellBook) or IS-MCTS (Abracada…What?) over its pyspiel adapter
        try:
            from clients.openspiel_common import OpenSpielMCTSBot
        except ImportError as e:
            raise BotUnavailableError(f"bot {spec!r} requires OpenSpiel ({e}): pip install 'spellbook-ai[openspiel]'") from e
        return OpenSpielMCTSBot(spec, seed=seed, players=players, game=adapter.name)
    if kind == "grpc":
        return RemoteBot(spec, seed, game=adapter.name)
    from search.bots import make_bot as make_local

    bot = make_local(spec, adapter, seed)
    bot.name = spec
    return bot
