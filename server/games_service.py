"""The GameService servicer (proto/games/v1): one game-neutral API for every game of engine_c/registry.py,
built over the server's one ServiceCore as every per-game service is (one config, one SearchPool and its
fair share, one SessionManager, one drain) and written over the game contract alone (engine_c/contract.py):
a new game is served here with no server code of its own (docs/adding-a-game.md).

Each request names its game (`game`: INVALID_ARGUMENT naming it when missing or unknown); a session's calls
take the game from the session. The call then runs on that game's `_GameRpcs`: the handlers every per-game
service shares (server/rpc_search.py, rpc_sessions.py, rpc_matches.py: SubmitMove, WatchSession,
ExportSession, PlayMatch, AnalyzeGame) with games.v1's messages and conversions (`_Conv`), and the
neutral handlers below for what each per-game service writes for its game (NewGame, ListLegalMoves,
ApplyMove, GetBestMove, GetHints, Analyze, CreateSession, GetSession).

What a caller sees comes from the game's own parts: a seat's observation (State.observation), its view
(the text module's `view`, contract.seat_view), the events and records it may see (the record module's
`visible`, engine_c.records.visible_to and for_viewer), the setup a client may give (contract.request_setup),
the reasons of a hint (Game.reasons) and the seat's insight (Game.insight).
"""
from __future__ import annotations

import json
import secrets

from engine_c import records
from engine_c.base import IllegalMoveError, NotationError
from engine_c.contract import event_lines, move_words, request_setup, seat_view
from engine_c.registry import GAMES, Game, all_games, get_game
from search.hints import top_hints
from search.levels import default_level
from search.streaming import ismcts_progress
from server import auth, common_convert as common
from server._gen.games.v1 import games_pb2 as gspb
from server._gen.games.v1 import games_pb2_grpc
from server._gen.games.v1 import types_pb2 as gpb
from server.common_convert import FieldError
from server.rpc_base import RpcBase, rpc
from server.rpc_matches import MatchRpcs
from server.rpc_search import SearchRpcs
from server.rpc_sessions import SessionRpcs
from server.sessions import SessionError

SERVICE_NAME = "games.v1.GameService"
SERVICE_DESCRIPTOR = gspb.DESCRIPTOR.services_by_name["GameService"]


def viewer_of(role: str) -> int | None:
    """The seat a session role ('seat:N') sees as; None for the spectator."""
    return None if role == auth.SPECTATOR else int(role.split(":", 1)[1])


# ----------------------------------------------------------------------------------------------
# Requests and messages, for one game
# ----------------------------------------------------------------------------------------------
class _Conv:
    """games.v1 messages of one game's engine objects: what the shared handlers call through a servicer's
    `conv` (as server/convert.py and server/aw_convert.py for the per-game packages), with
    server/common_convert.py's shared implementation."""

    def __init__(self, game: Game):
        self.game = game
        self.words = move_words(game.text)

    def move_pb(self, move) -> gpb.Move:
        text = str(move)
        return gpb.Move(text=text, code=move.code, kind=getattr(move, "kind", ""), words=self.words(text))

    def search_options(self, req, caps: common.Caps):
        """SearchOptions of a games.v1 search or review request and the strength level used (0: none)."""
        return common.search_options(req, caps, self.game.adapter)

    def search_stats(self, result, opts, level: int, cut_short: bool, hide_moves: bool = False,
                     out: gpb.SearchStats | None = None) -> gpb.SearchStats:
        return common.search_stats(result, opts, level, cut_short, gpb.SearchStats() if out is None else out,
                                   hide_moves, self.words)

    def effective_options(self, opts, level: int, result=None) -> gpb.EffectiveOptions:
        return common.effective_options(opts, level, result, gpb.EffectiveOptions(), self.game.adapter)


def parse_state(game: Game, si: gpb.StateInput, field: str = "state"):
    """A full state from a StateInput: the text as it is, or one sampled from a seat's observation with
    `determinize_seed` (FieldError names the form that is wrong)."""
    form = si.WhichOneof("form")
    if form is None:
        raise FieldError(field, "give the state as `text` (a full state, State.to_text()) or `observation` "
                                "(what one seat sees, State.observation(seat))")
    text = getattr(si, form)
    try:
        if form == "text":
            return game.State.from_text(text)
        return game.State.from_observation(text, seed=si.determinize_seed)
    except (NotationError, IllegalMoveError, ValueError) as e:
        raise FieldError(f"{field}.{form}", str(e)) from None


def parse_move(state, move: gpb.Move, field: str = "move"):
    """The legal move `move.text` names in `state` (FieldError naming `move.text` otherwise)."""
    text = move.text.strip()
    if not text:
        raise FieldError(f"{field}.text", "give the move's text (ListLegalMoves lists them)")
    try:
        return state.parse_move(text)
    except (NotationError, IllegalMoveError, ValueError) as e:
        raise FieldError(f"{field}.text", str(e)) from None


def parse_setup(game: Game, text: str, field: str = "setup"):
    """The game's setup from a request's text ("" the game's default): a JSON object or list as its value,
    any other text as it is, checked by the record module's request_setup (what a remote client may give)."""
    text = text.strip() or game.setup_default
    value = text
    if text and text[0] in "{[":
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise FieldError(field, f"not valid JSON: {e}") from None
    try:
        return request_setup(game.record)(value)
    except (ValueError, TypeError) as e:
        raise FieldError(field, str(e)) from None


def new_state(game: Game, players: int, setup, seed: int):
    """A new game of `game` (FieldError naming players or setup)."""
    players = players or game.min_players
    if not game.min_players <= players <= game.max_players:
        raise FieldError("players", f"{game.title} is played by {game.min_players} to {game.max_players} "
                                    f"(0: {game.min_players}), got {players}")
    try:
        return records.new_game(game.name, players, setup, seed)
    except (ValueError, TypeError) as e:
        raise FieldError("players" if "players" in str(e) else "setup", str(e)) from None


def state_pb(state, view=None) -> gpb.GameState:
    """A full state as games.v1 answers it; `view` (the game's seat_view) adds the table as the seat to move
    sees it (a spectator's at a chance event or the end), for a board of a replayed position."""
    over = state.is_terminal()
    seat = state.current_player if state.current_player >= 0 else None
    return gpb.GameState(text=state.to_text(), to_move=state.current_player, over=over,
                         scores=records.totals(state), winners=state.winners() if over else [],
                         view_json=json.dumps(view(state, seat)) if view is not None else "")


# ----------------------------------------------------------------------------------------------
# One game's handlers
# ----------------------------------------------------------------------------------------------
class _GameRpcs(SearchRpcs, SessionRpcs, MatchRpcs):
    """One game's part of games.v1: the shared handlers with games.v1's messages, and the neutral ones."""

    spb, pb = gspb, gpb

    def __init__(self, core, game: Game):
        super().__init__(core)
        self.game, self.conv = game, _Conv(game)
        self._view, self._lines = seat_view(game.text), event_lines(game.text)
        self._level_info = None

    # ------------------------------------------------------------------ the levels
    async def GetLevels(self, request, context, log_extra):
        """The game's levels (search/levels.py through its adapter), each with its search in words, its Elo
        from the game's ladder and its mistake profile where measured (server/levels_info.py), as the older
        packages' GetServerInfo and GetRules give them."""
        if self._level_info is None:
            self._level_info = self._levels_response()
        return self._level_info

    def _levels_response(self):
        from search.levels import PLAY_LEVEL
        from search.model import default_model
        from server.levels_info import add_levels

        out = gspb.GetLevelsResponse(game=self.game.name,
                                     default_level=self.config.default_level or default_level(self.game.adapter),
                                     default_bot_level=self.config.default_bot_level or PLAY_LEVEL)
        out.elo_anchor = add_levels(out.levels, self.game.adapter, self.config.ladder_for(self.game))
        model = default_model(self.game.adapter)
        if model is not None and model.use_by_default:
            out.model_version = model.version
        return out

    # ------------------------------------------------------------------ the shared handlers' hooks
    def _record_pb(self, message, record: dict) -> None:
        """games.v1 answers a record as JSON only (`record_json`)."""

    @staticmethod
    def _match_session_id(end, sid: str) -> None:
        rec = json.loads(end.record_json)
        rec["session_id"] = sid
        end.record_json = json.dumps(rec)

    def _match_setup(self, request):
        return "setup", parse_setup(self.game, request.setup)

    @staticmethod
    def _record_for(record: dict, role: str) -> dict:
        return records.for_viewer(record, viewer_of(role))

    def _record_request(self, request) -> tuple[dict, str]:
        if not request.record_json.strip():
            raise FieldError("record_json", "give the game's record as JSON (ExportSession's or PlayMatch's)")
        rec = common.record_from_json(request.record_json)
        if records.game_of(rec).name != self.game.name:
            raise FieldError("record_json.game", f"the request's game is {self.game.name}; the record is of "
                                                 f"{records.game_of(rec).name!r}")
        return rec, "record_json"

    def _event_pb(self, ev, role: str = auth.SPECTATOR, finished: bool = False) -> gpb.SessionEvent:
        """A session event as `role` may see it: an outcome or a decision the game's record module hides
        from the viewer is `hidden`, without its move (`finished`: the game is over, nothing is hidden)."""
        viewer = viewer_of(role)
        out = gpb.SessionEvent(seq=ev.seq, kind=ev.kind, seat=ev.seat, to_move=ev.to_move, scores=ev.scores,
                               winners=ev.winners, zone=ev.zone, to=ev.to)
        shown = finished or records.visible_to(self.game.record, {"kind": ev.kind, "seat": ev.seat, "move": ev.move,
                                                                  "zone": ev.zone, "to": ev.to}, viewer)
        if ev.move:
            if shown:
                out.move.CopyFrom(self.conv.move_pb(self.game.Move.from_text(ev.move)))
            else:
                out.hidden = True
        if shown and ev.kind == "move" and getattr(ev, "context", ()):
            before, after, rolls = ev.context
            out.lines.extend(self._lines(self.game.State.from_text(before), self.game.Move.from_text(ev.move),
                                         self.game.State.from_text(after), rolls, viewer))
        return out

    # ------------------------------------------------------------------ rules
    async def NewGame(self, request, context, log_extra):
        seed = request.seed if request.HasField("seed") else secrets.randbits(64)
        state = new_state(self.game, request.players, parse_setup(self.game, request.setup), seed)
        return gspb.NewGameResponse(state=state_pb(state, self._view), seed=seed)

    async def ListLegalMoves(self, request, context, log_extra):
        state = parse_state(self.game, request.state)
        # a chance event's outcomes of a full state only: an observation's are those of a sampled world
        full = request.state.WhichOneof("form") == "text"
        return gspb.ListLegalMovesResponse(
            moves=[self.conv.move_pb(m) for m in state.legal_moves()], to_move=state.current_player,
            chance_outcomes=[gpb.ChanceOutcome(move=self.conv.move_pb(m), probability=p)
                             for m, p in (state.chance_outcomes() if full and state.is_chance() else [])])

    async def ApplyMove(self, request, context, log_extra):
        if request.state.WhichOneof("form") == "observation":
            raise FieldError("state.observation", "ApplyMove plays on a full state (`text`): an observation "
                                                  "has no hidden part to play on")
        state = parse_state(self.game, request.state)
        if state.is_terminal():
            raise FieldError("state", "the game is over: no move applies")
        state.apply(parse_move(state, request.move))
        chance = state.resolve_chance() if request.resolve_chance else []
        return gspb.ApplyMoveResponse(state=state_pb(state, self._view), chance=[self.conv.move_pb(m) for m in chance])

    # ------------------------------------------------------------------ search
    def _search_setup(self, request, context, settle_early: bool = False):
        """The state and options of a search request; the seat to move must decide (not chance, not over).
        A level's `stop_early` is kept only where the chosen move alone matters (GetBestMove)."""
        state = parse_state(self.game, request.state)
        self._check_searchable(state, request, "a chance event is pending: resolve it first (ApplyMove resolve_chance)")
        opts, level = self.conv.search_options(request, self.config.caps())
        opts.stop_early = opts.stop_early and settle_early
        self._set_deadline(opts, context)
        return state, opts, level

    async def GetBestMove(self, request, context, log_extra):
        state, opts, level = self._search_setup(request, context, settle_early=True)
        token = self._cancel_on_done(context)
        result, cut = await self.pool.run(lambda: self._run_search(state, opts, token), token, cost_ms=opts.time_ms,
                                          deadline=opts.deadline)
        log_extra.update(iterations=result.iterations, cut_short=cut)
        return gspb.GetBestMoveResponse(move=self.conv.move_pb(result.move),
                                        stats=self.conv.search_stats(result, opts, level, cut))

    def _hints(self, state, result, top_k: int, hide_best: bool) -> list[gpb.Hint]:
        """The hints by family (search/hints.py), each with the game's reasons (Game.reasons, where it has
        them) measured against the best other family's shown move; a hidden best move's reasons veiled."""
        ranked = top_hints(result, top_k, spread_floor=self.game.adapter.final_score_spread(state),
                           family=self._family(state))
        why_of = self.game.reasons
        out = []
        for h in ranked:
            hide = hide_best and h.rank == 1
            why, veiled = [], []
            if why_of is not None:
                versus = (ranked[1].move if len(ranked) > 1 else None) if h.rank == 1 else ranked[0].move
                why = why_of.reasons(state, h.move, versus=versus)
                veiled = why_of.veiled(why, h.move)
            hint = gpb.Hint(rank=h.rank, win_probability=h.win_probability, expected_score=h.expected_score,
                            loss=h.loss, loss_points=h.loss_points, loss_margin=h.loss_margin,
                            mistake_class=common.mistake_class(h.mistake_class, gpb), about_equal=h.about_equal,
                            verdict=h.verdict, visits=h.visits, score_spread=h.score_spread,
                            reasons=_reasons_pb(veiled if hide else why), veiled_reasons=_reasons_pb(veiled))
            if not hide:
                hint.move.CopyFrom(self.conv.move_pb(h.move))
                hint.variants.extend(self.conv.move_pb(m) for m in h.variants)
                hint.note = h.note
            out.append(hint)
        return out

    def _insight_json(self, state) -> str:
        """What the seat to move may infer of the hidden part (Game.insight), as JSON; "" without one."""
        if self.game.insight is None:
            return ""
        return json.dumps(self.game.insight.analysis_insight(state, state.current_player))

    async def GetHints(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        state, opts, level = self._search_setup(request, context)
        token = self._cancel_on_done(context)

        def work():
            grown, cut, used = self._grown_search(state, opts, token, request.fixed_budget)
            insight = "" if request.hide_best else self._insight_json(state)
            return grown, cut, used, self._hints(state, grown.result, top_k, request.hide_best), insight

        grown, cut, used, hints, insight = await self.pool.run(work, token, cost_ms=opts.time_ms,
                                                                deadline=opts.deadline)
        log_extra.update(iterations=grown.result.iterations, cut_short=cut, hint_budgets=grown.budgets)
        sep = grown.separation
        return gspb.GetHintsResponse(
            hints=hints, insight_json=insight,
            stats=self.conv.search_stats(grown.result, used, level, cut, hide_moves=request.hide_best),
            confidence=gpb.HintConfidence(separated=sep.separated, gap=sep.gap, margin=min(sep.margin, 1.0),
                                          budgets=grown.budgets, stopped_by=grown.stopped_by, text=sep.text))

    async def Analyze(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        every = self._report_every(request)
        state, opts, level = self._search_setup(request, context)
        token = self._cancel_on_done(context)

        def work(emit):
            for result, final in ismcts_progress(self.game.adapter, state, opts, every / 1000.0, token):
                cut = result.cut_short or token.cancelled
                emit(gspb.AnalyzeResponse(final=final, best_move=self.conv.move_pb(result.move),
                                          hints=self._hints(state, result, top_k, False),
                                          stats=self.conv.search_stats(result, opts, level, cut)))

        async for item in self._stream_job(work, token, cost_ms=opts.time_ms, deadline=opts.deadline):
            yield item
            if item.final:
                log_extra.update(iterations=item.stats.iterations, cut_short=item.stats.cut_short)

    # ------------------------------------------------------------------ sessions
    async def CreateSession(self, request, context, log_extra):
        setup = parse_setup(self.game, request.setup)
        try:
            sid, seat_tokens, spectator = await self._create_session(request, log_extra, setup,
                                                                     self._session_seats(request))
        except SessionError as e:
            if e.field == self.game.setup:         # the game's own name of its setup: the request's is `setup`
                raise FieldError("setup", e.message) from None
            raise
        state, _, _ = self._manager().snapshot(sid)
        return gspb.CreateSessionResponse(
            session_id=sid, game=self.game.name, to_move=state.current_player, fixed_seed=request.HasField("seed"),
            seat_tokens=[gpb.SeatToken(seat=s, token=t) for s, t in sorted(seat_tokens.items())],
            spectator_token=spectator)

    async def GetSession(self, request, context, log_extra):
        mgr = self._manager()
        sid = request.session_id
        log_extra.update(session=auth.redact(sid))
        role = self._authorize(context, sid, request.seat if request.HasField("seat") else None)
        viewer = viewer_of(role)
        state, seq, _ = mgr.snapshot(sid)
        over = mgr.over(sid)
        if viewer is None and request.HasField("seat") and not over:
            raise auth.AuthError("PERMISSION_DENIED", "the spectator token sees what every seat sees while the "
                                                      "game runs: ask without `seat`")
        row = mgr.store.session(sid)
        scores = records.totals(state)
        out = gspb.GetSessionResponse(
            session_id=sid, game=self.game.name, seq=seq, seat=-1 if viewer is None else viewer,
            players=row.players, to_move=-2 if over else state.current_player, over=over, scores=scores,
            seats=[gpb.SessionSeat(kind=gpb.SEAT_KIND_BOT if s.kind == "bot" else gpb.SEAT_KIND_CLIENT,
                                   level=s.level) for s in mgr.seats(sid)],
            fixed_seed=bool(row.fixed_seed), setup_json=json.dumps(row.spells),
            view_json=json.dumps(self._view(state, viewer)),
            observation=state.observation(viewer) if viewer is not None else "",
            state_text=state.to_text() if over else "")
        if over:
            last = mgr.history(sid, seq)
            if not state.is_terminal() and last and last[-1].kind == records.RESIGN:
                out.resigned = last[-1].seat
                out.winners.extend(records.resign_winners(scores, last[-1].seat))
            else:
                out.winners.extend(state.winners())
        elif viewer is not None and state.current_player == viewer:
            out.legal_moves.extend(self.conv.move_pb(m) for m in state.legal_moves())
        return out


def _reasons_pb(reasons) -> list[gpb.Reason]:
    return [gpb.Reason(kind=r.kind, value=r.value, items=r.items, text=r.text, aspect=r.aspect) for r in reasons]


# ----------------------------------------------------------------------------------------------
# The servicer
# ----------------------------------------------------------------------------------------------
def _routed(name: str, by_session: bool = False, stream: bool = False):
    """The RPC `name` of GameService: the call's game resolved (the request's `game`, or its session's),
    then that game's handler run (a shared handler's body without its own @rpc: this one logs and maps)."""

    def handler(self, request, log_extra):
        rpcs = self._session_game(request.session_id) if by_session else self._game(request.game)
        log_extra["game"] = rpcs.game.name
        fn = getattr(type(rpcs), name)
        return getattr(fn, "__wrapped__", fn).__get__(rpcs)

    if stream:
        async def method(self, request, context, log_extra):
            async for item in handler(self, request, log_extra)(request, context, log_extra):
                yield item
    else:
        async def method(self, request, context, log_extra):
            return await handler(self, request, log_extra)(request, context, log_extra)
    method.__name__ = method.__qualname__ = name
    return rpc(method)


class GameServicer(RpcBase, games_pb2_grpc.GameServiceServicer):
    """games.v1.GameService: every registered game, through the game contract (module docstring)."""

    def __init__(self, core):
        super().__init__(core)
        self._games: dict[str, _GameRpcs] = {}
        self._listing: gspb.ListGamesResponse | None = None

    def _game(self, name: str) -> _GameRpcs:
        """The handlers of the game a request names (FieldError naming `game`, listing the games)."""
        if not name.strip():
            raise FieldError("game", f"name the game: one of {', '.join(GAMES)} (ListGames)")
        try:
            game = get_game(name)
        except ValueError:
            raise FieldError("game", f"unknown game {name[:40]!r}; the games are: {', '.join(GAMES)}") from None
        if game.name not in self._games:
            self._games[game.name] = _GameRpcs(self.core, game)
        return self._games[game.name]

    def _session_game(self, sid: str) -> _GameRpcs:
        """The handlers of session `sid`'s game (NOT_FOUND for an unknown session)."""
        if self.sessions is None:
            raise SessionError("FAILED_PRECONDITION", "session_id", "this server runs without sessions")
        return self._game(self.sessions.game_of(sid))

    @rpc
    async def ListGames(self, request, context, log_extra):
        if self._listing is None:
            out = gspb.ListGamesResponse()
            for g in all_games():
                own = g.layer("service")
                out.games.add(name=g.name, title=g.title, min_players=g.min_players, max_players=g.max_players,
                              setup_field=g.setup, setup_help=g.setup_help, setup_default=g.setup_default,
                              own_api=own.SERVICE_DESCRIPTOR.full_name if own is not None else "",
                              has_reasons=g.reasons is not None, has_insight=g.insight is not None,
                              default_level=self.config.default_level or default_level(g.adapter), rules=g.rules)
            self._listing = out
        return self._listing

    GetLevels = _routed("GetLevels")
    NewGame = _routed("NewGame")
    ListLegalMoves = _routed("ListLegalMoves")
    ApplyMove = _routed("ApplyMove")
    GetBestMove = _routed("GetBestMove")
    GetHints = _routed("GetHints")
    Analyze = _routed("Analyze", stream=True)
    CreateSession = _routed("CreateSession")
    SubmitMove = _routed("SubmitMove", by_session=True)
    GetSession = _routed("GetSession", by_session=True)
    WatchSession = _routed("WatchSession", by_session=True, stream=True)
    ExportSession = _routed("ExportSession", by_session=True)
    PlayMatch = _routed("PlayMatch", stream=True)
    AnalyzeGame = _routed("AnalyzeGame")


Servicer = GameServicer
