"""Harness and review RPCs: PlayMatch (a streamed bot-vs-bot game) and AnalyzeGame (a finished record).

Both are requested work and go through the SearchPool like any search (one admission for the whole match
or review). One implementation for every game's service: the servicer's `game`, `spb`, `pb` and `conv`
(server/rpc_sessions.py) say which.
"""
from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import replace
from typing import Callable

from engine_c import records
from engine_c.records import RecordError
from search import CancelToken
from search.bots import make_bot
from search.model import default_model
from search import coach
from search.search import pause_point
from server import common_convert as common
from server.common_convert import FieldError
from server import auth
from server.fairshare import current_client
from server.rpc_base import RpcBase, rpc
from server.sessions import SeatSpec, bot_seed, secret_seed


class MatchRpcs(RpcBase):
    def match_bot(self, spec: str, seed: int, adapter=None):
        """This game's bot `spec` for one decision, held to the server's caps (ServiceCore.match_bot)."""
        return self.core.match_bot(spec, seed, adapter or self.game.adapter)

    def _match_bots(self, request) -> list[int]:
        """Checks every bot spec against the server's caps (FieldError naming bots[i]); their levels."""
        levels = []
        c = self.config
        for i, spec in enumerate(request.bots):
            f = f"bots[{i}]"
            try:
                bot = make_bot(spec, self.game.adapter, seed=0)
            except (ValueError, TypeError) as e:
                raise FieldError(f, str(e)) from None
            opts = getattr(bot, "options", None)
            if opts is not None and opts.model:
                # a file path on the server: never the caller's to choose (nor to probe for)
                raise FieldError(f, "model: a match's bots use the server's model (GetServerInfo.model); "
                                    "choose evaluator=network or evaluator=rollout")
            if opts is not None and opts.evaluator == "network" and default_model(self.game.adapter) is None:
                raise FieldError(f, "evaluator: this server has no learned model; use evaluator=rollout")
            if opts is not None:
                for name, cap in (("iterations", c.max_iterations), ("threads", c.max_threads),
                                  ("time_ms", c.max_time_ms), ("max_nodes", c.max_nodes)):
                    explicit = re.search(rf"(?:^|[:,])\s*{name}\s*=", spec) is not None
                    if getattr(opts, name) > cap and (explicit or name != "max_nodes"):
                        raise FieldError(f, f"{name} at most {cap:g} (server cap), got {getattr(opts, name):g}")
            m = re.search(r"level=(\d+)", spec)
            levels.append(int(m.group(1)) if m else 0)
        return levels

    @rpc
    async def PlayMatch(self, request, context, log_extra):
        specs = list(request.bots)
        game = self.game
        if not game.min_players <= len(specs) <= game.max_players:
            raise FieldError("bots", f"give one bot spec per seat, {game.min_players} to {game.max_players}, "
                                     f"got {len(specs)}")
        setup_field, spells = self._match_setup(request)
        fixed = request.HasField("seed")
        seed = request.seed if fixed else secret_seed()
        try:
            state = records.new_game(game.name, len(specs), spells, seed)
        except ValueError as e:
            raise FieldError("seed" if str(e).startswith("seed") else setup_field, str(e)) from None
        # the setup as the record writes it: the State's own (SpellBook's spells of a set, Abracada…What?'s
        # variants) or, where the State does not name it, the request's (the Spellbook TCG's decks)
        setup = getattr(state, game.setup, None)
        setup = spells if setup is None else setup
        levels = self._match_bots(request)
        log_extra.update(bots=specs, fixed_seed=fixed)
        token = self._cancel_on_done(context)
        thinking: list = []        # the bot deciding now (its search stops when the call ends)

        def cancel_bots(_ctx=None):
            for b in thinking:
                if getattr(b, "cancel", None) is not None:
                    b.cancel.cancel()

        context.add_done_callback(cancel_bots)
        # A match ends by the call's deadline (less the margin) or the server's cap, whichever comes first.
        budget_s = self.config.max_match_ms / 1000.0
        remaining = context.time_remaining()
        if remaining is not None:
            budget_s = min(budget_s, max(remaining - self._answer_margin_s(remaining), 0.001))
        deadline = time.monotonic() + budget_s
        started = time.monotonic()

        def decide(st, seq: int):
            """The move of the seat to move at event `seq`: forced, or chosen by a bot made for this decision
            and seeded by the match seed and `seq`, as the session manager does after a restart."""
            seat = st.current_player
            legal = st.legal_moves()
            if len(legal) == 1:
                return legal[0], {"forced": True}, None
            bot = self.match_bot(specs[seat], bot_seed(seed, seq))
            if getattr(bot, "options", None) is not None:
                bot.options.deadline = deadline
            thinking[:] = [bot]
            if token.cancelled:
                cancel_bots()
            move, info = bot.choose(st)
            return move, info, bot

        def work(emit):
            dealt = records.setup_events(len(specs), None, seed, game=game.name, setup=setup)
            st, seq, events, moves = state, 0, [dict(e, seq=0) for e in dealt], 0
            while not st.is_terminal() and not token.cancelled and not (deadline and time.monotonic() >= deadline):
                pause_point()      # the worker may go to another job between moves (server/fairshare.py)
                seat = st.current_player
                t0 = time.monotonic()
                move, info, bot = decide(st, seq)
                think = (time.monotonic() - t0) * 1000.0
                seq += 1
                moves += 1
                events.append(records.event("move", seat, move, seq=seq))
                st.apply(move)
                draws = []
                while st.is_chance():      # each chance event recorded before it is applied (where it goes)
                    draws.append(st.sample_chance())
                    seq += 1
                    events.append(records.chance_event(st, draws[-1], seq=seq))
                    st.apply(draws[-1])
                item = self.spb.MatchMove(seq=seq - len(draws), seat=seat, bot=specs[seat],
                                          move=self.conv.move_pb(move), draws=[self.conv.move_pb(d) for d in draws],
                                          forced=bool(info.get("forced")), think_ms=think)
                result = info.get("result")
                if result is not None:
                    used = replace(bot.options, seed=result.seed)
                    self.conv.search_stats(result, used, levels[seat], result.cut_short, out=item.stats)
                    if not fixed:          # the bots' seeds derive from the secret seed: kept until the end
                        item.stats.seed = 0
                emit(self.spb.PlayMatchResponse(move=item))
            over = st.is_terminal()
            scores = records.totals(st)
            winners = st.winners() if over else []
            # a fixed seed is the caller's own: shown even when the game stops early; a secret one only at the end
            record = records.build(len(specs), (), [records.seat("bot", sp) for sp in specs], events, st,
                                   seed=seed, seed_shown=fixed or over, game=game.name, setup=setup)
            end = self.spb.MatchEnd(finished=over, scores=scores, winners=winners, record_json=json.dumps(record),
                                    moves=moves, elapsed_ms=(time.monotonic() - started) * 1000.0)
            self._record_pb(end, record)
            emit(self.spb.PlayMatchResponse(end=end))

        sid, spectator = await self._match_session(specs, spells, seed, fixed, levels)
        first, finished = True, False
        try:
            async for item in self._stream_job(work, token, cost_ms=budget_s * 1000.0, deadline=deadline):
                if sid and item.HasField("move"):   # stored before it is sent (and resumable after a restart)
                    self.sessions.record_external(sid, item.move.seat, item.move.move.text,
                                                  [d.text for d in item.move.draws])
                if sid and item.HasField("end"):
                    self._match_session_id(item.end, sid)
                    finished = item.end.finished
                if first:
                    item.session_id, item.spectator_token, first = sid, spectator, False
                yield item
                if item.HasField("end"):
                    log_extra.update(moves=item.end.moves, finished=item.end.finished)
        finally:   # a call that ends early ends its match, unless the server is going down: then it resumes
            if sid:
                self.sessions.end_external(sid, keep=self.draining and not finished)

    @staticmethod
    def _match_session_id(end, sid: str) -> None:
        """Writes the id of the session a match is stored in into its end's record."""
        end.record.session_id = sid

    def _match_setup(self, request) -> tuple[str, object]:
        """The request's game setup: (its field's name, its value); each game's servicer defines it."""
        raise NotImplementedError

    async def _match_session(self, specs: list[str], spells, seed: int, fixed: bool,
                             levels: list[int]) -> tuple[str, str]:
        """The session a match is stored in (bot seats with their specs; the match's seed, `fixed` or secret):
        (id, spectator token), or ("", "") when the server runs without sessions."""
        if self.sessions is None:
            return "", ""
        _, spectator, roles = auth.issue_session_tokens([])
        seats = [SeatSpec("bot", level, spec) for spec, level in zip(specs, levels)]
        sid = await self.sessions.create(len(specs), spells, seed, seats, roles, owner=current_client.get(),
                                         external=True, fixed_seed=fixed, game=self.game.name)
        return sid, spectator

    async def _stream_job(self, work: Callable, token: CancelToken, cost_ms: float = 0.0, deadline: float = 0.0):
        """Runs work(emit) as one SearchPool job and yields what it emits, as it emits it."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        done = object()

        def job():
            work(lambda item: loop.call_soon_threadsafe(queue.put_nowait, item))
            loop.call_soon_threadsafe(queue.put_nowait, done)

        task = asyncio.ensure_future(self.pool.run(job, token, cost_ms=cost_ms, deadline=deadline))
        try:
            while True:
                getter = asyncio.ensure_future(queue.get())
                finished, _ = await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in finished:
                    getter.cancel()
                    if queue.empty():
                        task.result()    # Overloaded, or the worker's error
                        raise RuntimeError("the job ended without finishing its stream")
                    continue
                item = getter.result()
                if item is done:
                    break
                yield item
            await task
        finally:
            if not task.done():
                token.cancel()

    # ------------------------------------------------------------------ AnalyzeGame
    def _record_request(self, request) -> tuple[dict, str]:
        form = request.WhichOneof("game")
        if form == "record":
            rec, field = self.conv.record_from_pb(request.record), "record"
        elif form == "record_json":
            rec, field = self.conv.record_from_json(request.record_json), "record_json"
        else:
            raise FieldError("record", "give the game as `record` or `record_json` (ExportSession gives both)")
        if records.game_of(rec).name != self.game.name:
            raise FieldError(f"{field}.game", f"this is the {self.game.title} service; the record is of "
                                              f"{records.game_of(rec).name!r}")
        return rec, field

    @rpc
    async def AnalyzeGame(self, request, context, log_extra):
        rec, field = self._record_request(request)
        if not 0 <= request.key_moments <= 50:
            raise FieldError("key_moments", f"must be 0 to 50 (0: 5), got {request.key_moments}")
        try:
            rp = records.replayed(rec)          # a finished game, or one a seat resigned (D130)
        except RecordError as e:
            raise FieldError(f"{field}.{e.field}", e.message) from None
        final, steps, decision_events = rp.final, rp.steps, rp.events
        seat = request.seat if request.HasField("seat") else None
        if seat is not None and not 0 <= seat < rp.players:
            raise FieldError("seat", f"the record has seats 0 to {rp.players - 1}, got {seat}")
        scores = records.totals(final)
        opts, level = self.conv.search_options(request, self.config.caps())
        lim = request.limits
        if not request.HasField("options") and not lim.time_ms and not lim.threads:
            # a budget alone: the one function every client's review uses (search/coach.py, D130)
            caps = self.config.caps()
            opts = coach.review_options(self.game.adapter, lim.iterations or None, request.seed, level,
                                        max_time_ms=caps.max_time_ms, max_nodes=caps.max_nodes)
        opts.stop_early = False   # a review compares every decision's moves: full statistics
        mine = [i for i, (_, _, who) in enumerate(steps) if seat is None or who == seat]
        forced = sum(1 for i in mine if len(steps[i][0].legal_moves()) == 1)
        # The whole review fits the call's deadline and the server's cap: each search gets an equal share.
        budget_ms = self.config.max_review_ms
        remaining = context.time_remaining()
        if remaining is not None:
            budget_ms = min(budget_ms, (remaining - self._answer_margin_s(remaining)) * 1000)
        # A tenth of the time and about a millisecond per decision (setup, copies) are kept for the overhead.
        share_ms = max(0.9 * budget_ms / max(len(mine) - forced, 1) - 1.0, 2.0)
        time_limited = share_ms < opts.time_ms
        opts.time_ms = min(opts.time_ms, share_ms)
        if time_limited and opts.iterations:
            # A played move the tree never expanded is evaluated with iterations/4 rollouts and no clock
            # (search/review.py): hold the iterations to what the time share can run (~30 a millisecond).
            opts.iterations = min(opts.iterations, max(int(share_ms * 30), 50))
        token = self._cancel_on_done(context)
        started = time.monotonic()
        opts.deadline = started + budget_ms / 1000.0
        # At the end of the budget the review stops (between decisions, or inside the running search) and
        # answers with the decisions reviewed so far, marked cut_short.
        timer = asyncio.get_running_loop().call_later(budget_ms / 1000.0, token.cancel)
        try:
            review = await self.pool.run(lambda: coach.review_replayed(rp, opts, request.key_moments or 5,
                                                                       cancel=token, seat=seat), token,
                                         cost_ms=budget_ms, deadline=opts.deadline)
        finally:
            timer.cancel()
        cut = any(d.iterations < opts.iterations for d in review.decisions) if opts.iterations else time_limited
        cut = cut or len(review.decisions) < len(mine) - forced   # the budget ran out first
        log_extra.update(decisions=len(review.decisions), cut_short=cut)

        def dr(d):
            return self.spb.DecisionReview(decision=d.index, event_index=decision_events[d.index], seat=d.seat,
                                      played=self.conv.move_pb(d.played), best=self.conv.move_pb(d.best), loss=d.loss_win,
                                      loss_points=d.loss_points, mistake_class=common.mistake_class(d.mistake, self.pb),
                                      win_before=d.win_before, win_after=d.win_after, iterations=d.iterations,
                                      loss_margin=d.loss_margin, win_probabilities=d.win_probabilities,
                                      accuracy=d.accuracy, round=rp.round_of(d.index), label=rp.label(d.index),
                                      **({} if d.win_next is None else {"win_next": d.win_next}))

        return self.spb.AnalyzeGameResponse(
            decisions=[dr(d) for d in review.decisions], key_moments=[dr(d) for d in review.key_moments],
            players=[self.spb.PlayerReview(seat=p.seat, expected_start=p.expected_start, final_score=p.final, luck=p.luck,
                                      decisions=p.decisions, others=p.others,
                                      **({} if p.accuracy is None else {"accuracy": p.accuracy}))
                     for p in review.players],
            result=self._result_pb(rec, final), total_decisions=len(mine),
            forced_decisions=forced, options=self.conv.effective_options(opts, level), cut_short=cut,
            elapsed_ms=(time.monotonic() - started) * 1000.0,
            score_split_text=coach.score_split_text(self.game.text.LUCK), seat=seat)

    def _result_pb(self, rec: dict, final):
        """The result replayed from the record; a resigned game's as its record says (D130)."""
        quitter = records.resigned(rec)
        if quitter is None:
            return self.pb.GameResult(scores=records.totals(final), winners=final.winners())
        scores = records.totals(final)
        return self.pb.GameResult(scores=scores, winners=records.resign_winners(scores, quitter), resigned=quitter)

