"""The SpellBookService servicer (grpc.aio): protobuf in, engine/search calls, protobuf out.

Rules live in engine_c, search in search/, hint classes in search/hints.py, SpellBook reasons in
engine_c/spellbook/reasons.py, message conversion in server/convert.py. The RPCs are grouped by idea:

- server/spellbook_rules.py GetServerInfo, NewGame, ListLegalMoves, ApplyMove, ResolveChance
- server/spellbook_search.py GetBestMove, GetHints, Analyze (and their insight), over server/rpc_search.py's
                         machinery every game's search RPCs share
- server/rpc_sessions.py  CreateSession, SubmitMove, GetSession, WatchSession, ExportSession
- server/rpc_matches.py   PlayMatch, AnalyzeGame
- server/rpc_base.py      the `@rpc` wrapper (status mapping, one log line per call)
- server/levels_info.py   each game's levels in words and their Elo from its ladder table
- server/fairshare.py     admission of CPU-bound work (`SearchPool`)
- server/aw_service.py   AbracadaWhatService, the second game's API on the same server: the session and
                         match RPCs above are one implementation, given its game and message modules

CPU-bound work (searches) runs in the bounded `SearchPool`. Sessions (`server/sessions.py`): a
SessionManager owned by the Server (server/main.py) runs them. Bot seats search in the manager's own
executor, not in `SearchPool`: a bot's move is never refused for load, and the bot threads
(`--bot-workers`) bound how much CPU bots take. PlayMatch and AnalyzeGame are requested work and go
through `SearchPool` like any search (one admission for the whole match / review).

To add an RPC, add it to service.proto, regenerate (`make proto`), and add a method to the module of its
group wrapped in `@rpc`; use `self.pool.run()` for CPU-bound work.
"""
from __future__ import annotations

import os


from engine_c.registry import get_game
from engine_c.spellbook import Move, State
from server import auth, convert
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import service_pb2_grpc
from server._gen.spellbook.v1 import types_pb2 as pb
from server.core import ServiceConfig, ServiceCore  # noqa: F401  (ServiceConfig re-exported)
from server.fairshare import Overloaded, SearchPool  # noqa: F401  (re-exported)
from server.rpc_base import rpc
from server.rpc_matches import MatchRpcs
from server.spellbook_rules import RulesRpcs, rules_info  # noqa: F401  (re-exported)
from server.spellbook_search import SpellBookSearchRpcs
from server.rpc_sessions import SessionRpcs


def use_model(model: str) -> None:
    """Makes `model` ("" = shipped, "none", or a file) the evaluation every search of this process uses
    by default; ValueError naming the file when it is not a model for this game."""
    from engine_c.spellbook.game import DEFAULT_MODEL_PATH, SPELLBOOK
    from search.model import Model

    if model == "none":
        SPELLBOOK.default_model_path = None
        return
    path = model or DEFAULT_MODEL_PATH
    if model or os.path.exists(path):
        Model.load(path).network(SPELLBOOK)      # refuse a bad file now, not at the first search
    SPELLBOOK.default_model_path = path


class SpellBookServicer(RulesRpcs, SpellBookSearchRpcs, SessionRpcs, MatchRpcs,
                        service_pb2_grpc.SpellBookServiceServicer):
    """SpellBook's service, built over the server's ServiceCore (server/core.py) as every game's is."""

    game = get_game("spellbook")
    spb, pb, conv = spb, pb, convert

    def __init__(self, core: ServiceCore):
        super().__init__(core)
        use_model(core.config.model)
        self._info = self._server_info()

    # ------------------------------------------------------------------ SpellBook's own session calls
    # (server/rpc_sessions.py and rpc_matches.py are every game's; these are SpellBook's setup and views)
    @staticmethod
    def _event_pb(ev, role: str = auth.SPECTATOR, finished: bool = False) -> pb.SessionEvent:
        """A session event as `role` sees it (SpellBook: everyone sees every event, finished or not)."""
        out = pb.SessionEvent(seq=ev.seq, kind=ev.kind, seat=ev.seat, to_move=ev.to_move, scores=ev.scores,
                              winners=ev.winners, zone=ev.zone, to=ev.to)
        if ev.move:
            out.move.CopyFrom(convert.move_pb(Move.from_text(ev.move)))
        return out

    @rpc
    async def CreateSession(self, request, context, log_extra):
        mgr = self._manager()
        sid, seat_tokens, spectator = await self._create_session(request, log_extra, request.spells or "set1",
                                                                 self._session_seats(request))
        view = mgr.view(sid, 0)
        return spb.CreateSessionResponse(
            session_id=sid, spells=view["spells"], to_move=view["to_move"], fixed_seed=view["fixed_seed"],
            seat_tokens=[spb.SeatToken(seat=s, token=t) for s, t in sorted(seat_tokens.items())],
            spectator_token=spectator)

    @rpc
    async def GetSession(self, request, context, log_extra):
        mgr = self._manager()
        log_extra.update(session=auth.redact(request.session_id), seat=request.seat)
        self._authorize(context, request.session_id, request.seat)
        v = mgr.view(request.session_id, request.seat)
        # The structured view is built from the observation text alone, so it cannot carry the Pouch order.
        obs_state = State.from_observation(v["observation"])
        observation = pb.GameState(text=v["observation"], view=convert.state_view(
            obs_state, convert.ParsedState(obs_state, observer=request.seat, knows_discard=True)))
        seats = [pb.SessionSeat(kind=pb.SEAT_KIND_BOT if s["kind"] == "bot" else pb.SEAT_KIND_CLIENT,
                                level=s["level"]) for s in v["seats"]]
        return spb.GetSessionResponse(
            session_id=v["session_id"], seq=v["seq"], seat=v["seat"], observation=observation, to_move=v["to_move"],
            phase=v["phase"], decision=v["decision"], legal_moves=[convert.move_pb(Move.from_text(m))
                                                                   for m in v["legal_moves"]],
            scores=v["scores"], over=v["over"], winners=v["winners"], seats=seats, players=v["players"],
            spells=v["spells"], fixed_seed=v["fixed_seed"])

    def _match_setup(self, request) -> tuple[str, object]:
        """The request's game setup: (its field's name, its value). SpellBook: the spells."""
        return "spells", request.spells or "set1"


# What server/main.py finds through the registry (engine_c/registry.py: the game's `service`)
SERVICE_DESCRIPTOR = spb.DESCRIPTOR.services_by_name["SpellBookService"]
Servicer = SpellBookServicer
