"""What every game's servicer shares, owned by no game: the limits (`ServiceConfig`), one `SearchPool` (one fair
share for every game), the sessions, the count of calls in flight and the drain (`ServiceCore`).

server/main.py builds one core and, for every game of engine_c/registry.py, that game's servicer over it
(`module.Servicer(core)`, the game's declared service module). The servicers differ only in their messages
and their game's own calls; credentials, fair share, deadlines, limits and metrics are the core's and
server/rpc_base.py's, once.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from search.bots import make_bot
from server.common_convert import Caps
from server.fairshare import SearchPool
from server.sessions import SessionManager

REPO = Path(__file__).resolve().parent.parent


@dataclass
class ServiceConfig:
    """Everything the servicers need to know about their limits (server/main.py fills it from flags/env)."""

    workers: int = 2
    queue_size: int = 64
    max_iterations: int = 200_000
    max_time_ms: float = 10_000.0
    max_threads: int = 2
    max_nodes: int = 2_000_000
    max_message_bytes: int = 1 << 20
    default_level: int = 0           # 0: the level table's own (search.levels.default_level: 400 iterations)
    # The level the page and the terminal offer first (GetServerInfo/GetRules default_bot_level); 0: the
    # table's own (search.levels.PLAY_LEVEL, about the heuristic bot, D142)
    default_bot_level: int = 0
    deadline_margin_ms: float = 50.0
    max_top_k: int = 20
    min_report_every_ms: int = 20
    bot_workers: int = 1
    max_sessions: int = 10_000
    max_review_ms: float = 120_000.0
    # fair share (server/fairshare.py): per client (API key, else connection) and host (key, else address)
    per_client_searches: int = 0          # admitted searches of one client; 0: the per-host cap
    per_host_searches: int = 0            # admitted searches of one host; 0: 3/4 of workers + queue_size
    slice_ms: float = 50.0                # a search's slice on a worker before a waiting job may take it
    inline_ms: float = 20.0               # a search expected to need at most this CPU runs inline when idle
    per_client_queued_ms: float = 900_000.0   # time budgets of its admitted searches, running or waiting
    per_client_sessions: int = 100        # unfinished sessions it created
    session_idle_s: float = 24 * 3600.0   # an unfinished session untouched this long expires (0: never)
    max_match_ms: float = 300_000.0       # cap on one PlayMatch (besides the call's deadline)
    keyed_clients: bool = False           # set by the Server when it has API keys: clients are their keys
    # each game's level -> Elo table written by `spellbook-ai ladder` (clients/ladder.py), by game name, where
    # it is not the game's own (its declared `ladder` file in the checkout); "" for none
    ladders: dict = field(default_factory=dict)
    # the learned evaluation searches use by default: "" = the model the game ships
    # (data/models/spellbook.npz), a path = that model file, "none" = no model (rollout search)
    model: str = ""

    def ladder_for(self, game) -> str:
        """The ladder table `game` reports (GetServerInfo, GetRules): the configured one, else the game's own."""
        if game.name in self.ladders:
            return self.ladders[game.name]
        return str(REPO / game.ladder) if game.ladder else ""

    def caps(self) -> Caps:
        return Caps(self.max_iterations, self.max_time_ms, self.max_threads, self.max_nodes,
                            self.default_level)


class ServiceCore:
    """The shared state of every game's servicer (D55): config, SearchPool, sessions, calls in flight, drain."""

    def __init__(self, config: ServiceConfig, sessions: SessionManager | None = None):
        self.config = config
        self.pool = SearchPool(config.workers, config.queue_size, config.per_client_searches or None,
                               config.per_client_queued_ms, config.per_host_searches or None, config.slice_ms,
                               inline_ms=config.inline_ms)
        self.sessions = sessions
        if sessions is not None:
            sessions.bot_factory = self.match_bot
        self.inflight, self.draining = 0, False
        self.stopping = asyncio.Event()

    def match_bot(self, spec: str, seed: int, adapter):
        """The bot `spec` plays with for one decision of a game of `adapter`, seeded `seed` (sessions.bot_seed
        of the match's seed and the event number), its search held to the server's caps. A match makes a
        new one for every decision, and so does the session manager carrying a match on after a restart:
        the bots keep nothing from one decision to the next (no tree reuse, no generator state), so a
        resumed match plays the same game."""
        bot = make_bot(spec, adapter, seed=seed)
        opts = getattr(bot, "options", None)          # a search bot's; random and heuristic bots have none
        if opts is not None:
            c = self.config
            opts.max_nodes = min(opts.max_nodes, c.max_nodes)
            opts.time_ms = min(opts.time_ms or c.max_time_ms, c.max_time_ms)
            opts.reuse_tree = False
            bot.reuse = None
        return bot

    def begin_shutdown(self) -> None:
        """Starts the drain: new calls get UNAVAILABLE, and WatchSession streams end (UNAVAILABLE, with the seq
        to resume from) so shutdown need not wait for them."""
        self.draining = True
        self.stopping.set()
