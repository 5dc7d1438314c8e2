"""The AbracadaWhatService servicer (proto/abracadawhat/v1): Abracada…What? on the same server, with the
same sessions, auth, fair share, metrics, storage and matches as SpellBook (server/rpc_sessions.py,
server/rpc_matches.py are one implementation for both games, parameterized by `game`, `spb`, `pb` and
`conv`). What is the game's own lives here: its rules calls, its views (XI1-XI3: a seat sees every hand
but its own; a spectator of a live game no hand at all), its insight (engine_c/abracadawhat/insight.py)
and its searches' input (a full state, or a seat's observation the server determinizes, XC6).
"""
from __future__ import annotations

import secrets

from engine_c import records
from engine_c.abracadawhat.insight import EFFECTS, hand_insight
from engine_c.abracadawhat.reasons import reasons as aw_reasons, veiled as aw_veiled
from engine_c.abracadawhat.state import SPELLS, VARIANTS
from engine_c.registry import get_game
from search.hints import top_hints
from search.levels import PLAY_LEVEL, ROLLOUT_LEVELS, default_level
from search.streaming import ismcts_progress
from server import auth, aw_convert as conv
from server._gen.abracadawhat.v1 import service_pb2 as aspb
from server._gen.abracadawhat.v1 import service_pb2_grpc
from server._gen.abracadawhat.v1 import types_pb2 as apb
from server.common_convert import FieldError
from server.levels_info import add_levels, ladder_anchor, level_text
from server.rpc_base import rpc
from server.rpc_matches import MatchRpcs
from server.rpc_search import SearchRpcs
from server.rpc_sessions import SessionRpcs

SERVICE_NAME = "abracadawhat.v1.AbracadaWhatService"
SERVICE_DESCRIPTOR = aspb.DESCRIPTOR.services_by_name["AbracadaWhatService"]


def viewer_of(role: str) -> int | None:
    """The seat a session role ('seat:N') sees as, None for the spectator."""
    return None if role == auth.SPECTATOR else int(role.split(":", 1)[1])


def _variants(values, field: str = "variants") -> list[str]:
    out = []
    for i, v in enumerate(values):
        if v.strip().lower() not in VARIANTS:
            raise FieldError(f"{field}[{i}]", f"unknown variant {v[:20]!r}; the variants are xv1 (XV1, easy) and "
                                              "xv2 (XV2, last magician standing)")
        out.append(v.strip().lower())
    return out


def _seed(request, field: str = "seed") -> int:
    return request.seed if request.HasField(field) else secrets.randbits(64)


class AbracadaWhatServicer(SearchRpcs, SessionRpcs, MatchRpcs, service_pb2_grpc.AbracadaWhatServiceServicer):
    """Abracada…What?'s service, built over the server's ServiceCore (server/core.py) as every game's is: one
    config, one SearchPool (one fair share), one SessionManager, one drain."""

    game = get_game("abracadawhat")
    spb, pb, conv = aspb, apb, conv

    def __init__(self, core):
        super().__init__(core)
        self._level_info = None           # GetRules' levels, built on first use

    # ------------------------------------------------------------------ what a role may see
    @staticmethod
    def _event_pb(ev, role: str = auth.SPECTATOR, finished: bool = False) -> apb.SessionEvent:
        """`finished`: the game is over, so every stone is public (as its export shows it)."""
        return conv.event_pb(ev, viewer_of(role), everything=finished)

    @staticmethod
    def _record_for(record: dict, role: str) -> dict:
        return records.for_viewer(record, viewer_of(role))

    def _match_setup(self, request):
        return "variants", _variants(request.variants)

    # ------------------------------------------------------------------ rules
    @rpc
    async def GetRules(self, request, context, log_extra):
        g = self.game
        return aspb.GetRulesResponse(
            game=g.name, title=g.title, min_players=g.min_players, max_players=g.max_players,
            spells=[aspb.SpellInfo(spell=k, name=SPELLS[k - 1], stones=k, effect=EFFECTS[k]) for k in range(1, 9)],
            variants=list(VARIANTS), min_level=min(ROLLOUT_LEVELS), max_level=max(ROLLOUT_LEVELS),
            default_level=self.config.default_level or default_level(self.game.adapter), state_format="aw1",
            record_format=f"{records.FORMAT} version {records.VERSION}, game {g.name}", levels=self._levels(),
            default_bot_level=self.config.default_bot_level or PLAY_LEVEL,
            elo_anchor=ladder_anchor(self.config.ladder_for(self.game)))

    def _levels(self) -> list:
        """Each level's search (search/levels.py, this game's table) and its Elo from the game's ladder."""
        if self._level_info is None:
            rules = aspb.GetRulesResponse()
            add_levels(rules.levels, self.game.adapter, self.config.ladder_for(self.game),
                       describe=lambda d: level_text(d) + ("; its own hand drawn from the belief" if d["belief"] else ""),
                       belief=lambda d: bool(d["belief"]))
            self._level_info = list(rules.levels)
        return self._level_info

    def _new_state(self, players: int, seed: int, variants):
        variants = _variants(variants)
        try:
            return records.new_game(self.game.name, players, variants, seed)
        except ValueError as e:
            raise FieldError("players" if "players" in str(e) else "seed", str(e)) from None

    @rpc
    async def NewGame(self, request, context, log_extra):
        seed = _seed(request)
        state = self._new_state(request.players, seed, request.variants)
        return aspb.NewGameResponse(state=conv.game_state(state), seed=seed)

    @rpc
    async def ListLegalMoves(self, request, context, log_extra):
        state = conv.parse_state(request.state, 0)
        return aspb.ListLegalMovesResponse(
            moves=[conv.move_pb(m) for m in state.legal_moves()], to_move=state.current_player,
            chance_outcomes=[apb.ChanceOutcome(move=conv.move_pb(m), probability=p)
                             for m, p in (state.chance_outcomes() if state.is_chance() else [])])

    @rpc
    async def ApplyMove(self, request, context, log_extra):
        state = conv.parse_state(apb.StateInput(text=request.state), 0)
        move = conv.parse_move(state, request.move)
        state.apply(move)
        chance = state.resolve_chance() if request.resolve_chance else []
        return aspb.ApplyMoveResponse(state=conv.game_state(state), chance=[conv.move_pb(m) for m in chance])

    # ------------------------------------------------------------------ search
    def _aw_search_setup(self, request, context):
        """The state and options of a search request; the seat to move must decide (not chance, not over)."""
        state = conv.parse_state(request.state, request.seed)
        self._check_searchable(state, request, "a chance event is pending (a stone or a roll): resolve it first")
        opts, level = conv.search_options(request, self.config.caps())
        self._set_deadline(opts, context)
        return state, opts, level

    @rpc
    async def GetBestMove(self, request, context, log_extra):
        state, opts, level = self._aw_search_setup(request, context)
        token = self._cancel_on_done(context)
        result, cut = await self.pool.run(lambda: self._run_search(state, opts, token), token, cost_ms=opts.time_ms,
                                          deadline=opts.deadline)
        log_extra.update(iterations=result.iterations, cut_short=cut)
        return aspb.GetBestMoveResponse(move=conv.move_pb(result.move),
                                        stats=conv.search_stats(result, opts, level, cut))

    def _aw_hints(self, state, result, top_k: int, hide_best: bool):
        """Hints by family (every announcement its own, search/hints.py), each with reasons measured from the
        insight against the best other family's move; a hidden best move's reasons are veiled."""
        ins = hand_insight(state, state.current_player)
        ranked = top_hints(result, top_k, family=self._family(state))
        hints = []
        for h in ranked:
            hide = hide_best and h.rank == 1
            versus = (ranked[1].move if len(ranked) > 1 else None) if h.rank == 1 else ranked[0].move
            why = aw_reasons(state, h.move, versus=versus)
            hidden = aw_veiled(why)
            hints.append(conv.hint_pb(h, ins, hide_move=hide, reasons=hidden if hide else why, veiled_reasons=hidden))
        return hints, conv.insight_pb(ins, state)

    @rpc
    async def GetHints(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        state, opts, level = self._aw_search_setup(request, context)
        opts.stop_early = False                # hints compare every move: the whole budget
        token = self._cancel_on_done(context)

        def work():
            grown, cut, used = self._grown_search(state, opts, token, False)
            return grown, cut, used, self._aw_hints(state, grown.result, top_k, request.hide_best)

        grown, cut, used, (hints, insight) = await self.pool.run(work, token, cost_ms=opts.time_ms,
                                                                  deadline=opts.deadline)
        log_extra.update(iterations=grown.result.iterations, cut_short=cut)
        return aspb.GetHintsResponse(hints=hints, insight=insight,
                                     stats=conv.search_stats(grown.result, used, level, cut,
                                                             hide_moves=request.hide_best))

    @rpc
    async def Analyze(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        every = self._report_every(request)
        state, opts, level = self._aw_search_setup(request, context)
        opts.stop_early = False
        token = self._cancel_on_done(context)

        def work(emit):
            for result, final in ismcts_progress(self.game.adapter, state, opts, every / 1000.0, token):
                cut = result.cut_short or token.cancelled
                hints, insight = self._aw_hints(state, result, top_k, False)
                emit(aspb.AnalyzeResponse(final=final, best_move=conv.move_pb(result.move), hints=hints,
                                          insight=insight if final else None,
                                          stats=conv.search_stats(result, opts, level, cut)))

        async for item in self._stream_job(work, token, cost_ms=opts.time_ms, deadline=opts.deadline):
            yield item
            if item.final:
                log_extra.update(iterations=item.stats.iterations, cut_short=item.stats.cut_short)

    # ------------------------------------------------------------------ sessions (the game's own parts)
    @rpc
    async def CreateSession(self, request, context, log_extra):
        variants = _variants(request.variants)
        sid, seat_tokens, spectator = await self._create_session(request, log_extra, variants,
                                                                 self._session_seats(request))
        state, _, _ = self._manager().snapshot(sid)
        return aspb.CreateSessionResponse(
            session_id=sid, to_move=state.current_player, fixed_seed=request.HasField("seed"),
            seat_tokens=[aspb.SeatToken(seat=s, token=t) for s, t in sorted(seat_tokens.items())],
            spectator_token=spectator)

    @rpc
    async def GetSession(self, request, context, log_extra):
        mgr = self._manager()
        sid = request.session_id
        log_extra.update(session=auth.redact(sid))
        role = self._authorize(context, sid, request.seat if request.HasField("seat") else None)
        state, seq, _ = mgr.snapshot(sid)
        over = mgr.over(sid)            # played to its end, or resigned (D130)
        viewer = viewer_of(role)
        if viewer is None and request.HasField("seat") and not over:
            raise auth.AuthError("PERMISSION_DENIED", "the spectator token sees public information only while "
                                                      "the game runs (a seat's view shows the others' hands, XI2)")
        seats = [apb.SessionSeat(kind=apb.SEAT_KIND_BOT if s.kind == "bot" else apb.SEAT_KIND_CLIENT, level=s.level)
                 for s in mgr.seats(sid)]
        out = aspb.GetSessionResponse(
            session_id=sid, seq=seq, seat=conv.SPECTATOR if viewer is None else viewer,
            state=conv.game_state(state, conv.SPECTATOR if viewer is None else viewer, finished=over), over=over,
            seats=seats, fixed_seed=bool(mgr.store.session(sid).fixed_seed))
        if viewer is not None and not over:
            out.insight.CopyFrom(conv.insight_pb(hand_insight(state, viewer), state))
            if state.current_player == viewer:
                out.legal_moves.extend(conv.move_pb(m) for m in state.legal_moves())
        return out


Servicer = AbracadaWhatServicer     # what server/main.py finds through the registry (the game's `service`)
