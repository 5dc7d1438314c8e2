"""SpellBook's search RPCs: GetBestMove, GetHints and Analyze over spellbook.v1, with the reasons of
engine_c/spellbook/reasons.py and the hidden-information insight only SpellBook's API offers (Pouch beliefs,
what-if draws, value spread). The machinery every game shares is server/rpc_search.py's.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any

from engine_c.spellbook.game import SPELLBOOK
from engine_c.spellbook.insight import pouch_beliefs
from engine_c.spellbook.reasons import reasons as move_reasons, veiled
from search import CancelToken
from search.hints import hint_best, top_hints
from search.insight import MoveSpread, value_spread, what_if_chance
from search.search import SearchOptions, pause_point
from search.streaming import ismcts_progress
from server import convert
from server._gen.spellbook.v1 import service_pb2 as spb
from server._gen.spellbook.v1 import types_pb2 as pb
from server.common_convert import FieldError
from server.fairshare import ran_inline
from server.rpc_base import rpc
from server.rpc_search import SearchRpcs


def bounded_value_spread(state, moves, worlds: int, rollouts: int, opts: SearchOptions, deadline: float,
                         cancel: CancelToken | None) -> list[MoveSpread]:
    """search.insight.value_spread over `worlds` sampled worlds, run one world at a time (world w seeded
    opts.seed + w) so that the deadline and the cancel token stop it between worlds: value_spread itself runs
    all its worlds in one compiled call that nothing interrupts. The spread of the worlds that ran is
    merged exactly (quantiles over every world's values; best share over the worlds run)."""
    tables: list[list[float]] = []
    for w in range(worlds):
        pause_point()       # a long spread shares its worker between worlds (server/fairshare.py)
        if (cancel is not None and cancel.cancelled) or time.monotonic() >= deadline:
            break
        one = value_spread(SPELLBOOK, state, moves, 1, rollouts, replace(opts, seed=(opts.seed + w) % 2**64))
        by_code = {SPELLBOOK.code(ms.move): ms.margin_q50 for ms in one}   # one world: every quantile is its value
        tables.append([by_code[SPELLBOOK.code(m)] for m in moves])
    if not tables:
        return []
    best = [0] * len(moves)
    for row in tables:
        best[max(range(len(moves)), key=lambda k: (row[k], -k))] += 1
    out = []
    for k, move in enumerate(moves):
        values = sorted(row[k] for row in tables)
        out.append(MoveSpread(move, _quantile(values, 0.05), _quantile(values, 0.5), _quantile(values, 0.95),
                              best[k] / len(tables)))
    out.sort(key=lambda s: (-s.best_share, -s.margin_q50))
    return out


def _quantile(sorted_values: list[float], q: float) -> float:
    """Linear interpolation between the closest ranks (as search/insight.py)."""
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


class SpellBookSearchRpcs(SearchRpcs):
    """SpellBook's GetBestMove, GetHints and Analyze."""

    def _search_setup(self, request, context, settle_early: bool = False):
        """The parsed state and search options of a search request. A level's `stop_early` is kept only
        where just the chosen move matters (GetBestMove): hints and analysis report every move's
        statistics, so they always spend their whole budget."""
        parsed = convert.parse_state(request.state)
        st = parsed.state
        if st.is_terminal():
            raise FieldError("state", "the game is over: there is no move to search")
        if st.is_chance():
            raise FieldError("state", "a Pouch draw is pending: resolve it first (ResolveChance), then search")
        if request.HasField("seat") and request.seat != st.current_player:
            raise FieldError("seat", f"seat {request.seat} is not to move; seat {st.current_player} decides "
                                     f"({st.decision})")
        opts, level = convert.search_options(request, self.config.caps(), parsed)
        opts.stop_early = opts.stop_early and settle_early
        self._set_deadline(opts, context)
        return parsed, opts, level

    @rpc
    async def GetBestMove(self, request, context, log_extra):
        parsed, opts, level = self._search_setup(request, context, settle_early=True)
        token = self._cancel_on_done(context)
        kind = (opts.evaluator, opts.rollout, opts.cutoff, opts.threads)   # what an iteration costs depends on

        def work():  # on a worker, the response is built there too, leaving the event loop free for other calls
            cpu0 = time.thread_time()
            result, cut = self._run_search(parsed.state, opts, token)
            cpu = time.thread_time() - cpu0          # the search's own CPU (one thread), for the log
            self.pool.costs.record(kind, result.iterations, cpu)
            response = spb.GetBestMoveResponse()      # filled in place: no copies of its messages
            convert.set_move(response.move, result.move)
            convert.search_stats(result, opts, level, cut, out=response.stats)
            return result, cut, response, cpu

        # a small search on an idle server runs inline, on the event loop (server/fairshare.py)
        expected = self.pool.costs.search_ms(kind, opts.iterations, opts.time_ms) if opts.threads == 1 else None
        result, cut, response, cpu = await self.pool.run(work, token, cost_ms=opts.time_ms, deadline=opts.deadline,
                                                         inline_ms=expected)
        log_extra.update(iterations=result.iterations, cut_short=cut, search_ms=round(result.elapsed_s * 1000, 3),
                         search_cpu_ms=round(cpu * 1000, 3))
        if ran_inline.get():
            log_extra["inline"] = True
        return response

    @staticmethod
    def _hints(state, result, top_k: int, hide_best: bool) -> list[pb.Hint]:
        """The hints by family (search/hints.py); each one's reasons are measured against the best other
        family's shown move (the first hint's against the second's; the others' against the first's); a
        hidden best move's reasons are veiled: they must not name or restate it."""
        out = []
        hints = top_hints(result, top_k, spread_floor=SPELLBOOK.final_score_spread(state),
                          family=lambda move: SPELLBOOK.move_family(state, move))
        for h in hints:
            hide = hide_best and h.rank == 1
            versus = (hints[1].move if len(hints) > 1 else None) if h.rank == 1 else hints[0].move
            why = move_reasons(state, h.move, versus=versus)
            hidden = veiled(why, h.move)
            out.append(convert.hint_pb(h, hidden if hide else why, hide_move=hide, veiled_reasons=hidden))
        return out

    # ------------------------------------------------------------------ insight
    def _insight_setup(self, request, state) -> tuple[convert.InsightSpec | None, Any]:
        """The validated InsightOptions of a GetHints/Analyze request (None when nothing is asked) and the
        parsed what-if move (None: the search's best move)."""
        if not request.HasField("insight"):
            return None, None
        spec = convert.insight_options(request.insight)
        if not spec.any:
            return None, None
        move = None
        if spec.what_if_move:
            move = convert.parse_move(state, request.insight.what_if_move, "insight.what_if_move")
        return spec, move

    def _insight(self, state, result, opts: SearchOptions, spec: convert.InsightSpec, what_if_move,
                 hide_best: bool, cancel: CancelToken | None = None) -> pb.Insight:
        """Beliefs, what-if and value spread for the seat to move, as far as `spec` asks. Uses the search's
        observer (without Discard-box memory for an observation that lacks it or options.knows_discard =
        false) and never the real Pouch order: what-if and value spread work on sampled determinizations.
        What-if and value spread stop at the
        call's deadline, or the server's max_time_ms from their start when the call has none, and when the
        call is cancelled."""
        player, kd = result.player, convert.remembers_discard(opts)
        deadline = opts.deadline or time.monotonic() + self.config.max_time_ms / 1000.0
        beliefs = pouch_beliefs(state, knows_discard=kd, max_k=spec.within_draws) if spec.beliefs else None
        wi_move, outcomes = None, None
        if spec.what_if:
            # the move hints rank first (the most visited), not a level's temperature-sampled result.move
            wi_move = what_if_move if what_if_move is not None else hint_best(result).move
            wopts = SearchOptions(iterations=spec.what_if_iterations, deadline=deadline, seed=opts.seed,
                                  observer_kind=opts.observer_kind, objective=opts.objective, blend=opts.blend,
                                  margin_scale=opts.margin_scale, rollout=opts.rollout, cutoff=opts.cutoff,
                                  exploration=opts.exploration, evaluator=opts.evaluator, model=opts.model,
                                  c_puct=opts.c_puct, rollout_mix=opts.rollout_mix)
            # a world as the seat to move may imagine it: never the real Pouch order
            world = state.determinize(player, kd, opts.seed)
            outcomes = what_if_chance(SPELLBOOK, world, wi_move, wopts, cancel=cancel)
        spread = None
        if spec.value_spread:
            cands = [m.move for m in result.moves[:spec.spread_moves]]
            sopts = SearchOptions(seed=opts.seed, observer_kind=opts.observer_kind, margin_scale=opts.margin_scale,
                                  rollout=opts.rollout, cutoff=opts.cutoff)
            spread = bounded_value_spread(state, cands, spec.worlds, spec.rollouts, sopts, deadline, cancel)
        out = convert.insight_pb(player, kd, beliefs, wi_move, outcomes, spread,
                                 hide_what_if_move=hide_best and what_if_move is None)
        if hide_best:   # the spread must not name the hidden best move either
            for ms in out.value_spread:
                if ms.move.code == result.move.code:
                    ms.ClearField("move")
        return out

    @rpc
    async def GetHints(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        parsed, opts, level = self._search_setup(request, context)
        spec, what_if_move = self._insight_setup(request, parsed.state)
        token = self._cancel_on_done(context)

        def work():
            grown, cut, used = self._grown_search(parsed.state, opts, token, request.fixed_budget)
            result = grown.result
            insight = (self._insight(parsed.state, result, used, spec, what_if_move, request.hide_best, token)
                       if spec and not token.cancelled else None)
            return grown, used, cut, self._hints(parsed.state, result, top_k, request.hide_best), insight

        grown, used, cut, hints, insight = await self.pool.run(work, token, cost_ms=opts.time_ms,
                                                                deadline=opts.deadline)
        result = grown.result
        log_extra.update(iterations=result.iterations, cut_short=cut, hint_budgets=grown.budgets)
        sep = grown.separation
        confidence = pb.HintConfidence(separated=sep.separated, gap=sep.gap, margin=min(sep.margin, 1.0),
                                       budgets=grown.budgets, stopped_by=grown.stopped_by, text=sep.text)
        return spb.GetHintsResponse(hints=hints, stats=convert.search_stats(result, used, level, cut,
                                                                             hide_moves=request.hide_best),
                                    insight=insight, confidence=confidence)

    @rpc
    async def Analyze(self, request, context, log_extra):
        top_k = self._top_k(request.top_k)
        every = self._report_every(request)
        parsed, opts, level = self._search_setup(request, context)
        spec, what_if_move = self._insight_setup(request, parsed.state)
        token = self._cancel_on_done(context)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        def work():
            start = time.monotonic()
            requested_end = start + opts.time_ms / 1000.0 if opts.time_ms else float("inf")
            try:
                for result, final in ismcts_progress(SPELLBOOK, parsed.state, opts, every / 1000.0, token):
                    by_deadline = (bool(opts.deadline) and opts.deadline < requested_end
                                   and time.monotonic() >= opts.deadline)
                    hints = self._hints(parsed.state, result, top_k, False)
                    insight = (self._insight(parsed.state, result, opts, spec, what_if_move, False, token)
                               if final and spec and not token.cancelled else None)
                    item = (result, final, hints, result.cut_short or by_deadline or token.cancelled, insight)
                    loop.call_soon_threadsafe(queue.put_nowait, item)
            except BaseException as e:  # surfaced in the handler
                loop.call_soon_threadsafe(queue.put_nowait, e)

        job = asyncio.ensure_future(self.pool.run(work, token, cost_ms=opts.time_ms, deadline=opts.deadline))
        try:
            while True:
                if job.done() and queue.empty():
                    job.result()  # Overloaded, or a worker error
                    raise RuntimeError("the analysis ended without a final report")
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter, job}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()  # the item (if any) stays in the queue
                    continue
                item = getter.result()
                if isinstance(item, BaseException):
                    raise item
                result, final, hints, cut, insight = item
                yield spb.AnalyzeResponse(final=final, best_move=convert.move_pb(result.move),
                                          stats=convert.search_stats(result, opts, level, cut), hints=hints,
                                          insight=insight)
                if final:
                    log_extra.update(iterations=result.iterations, cut_short=cut)
                    break
            await job
        finally:
            if not job.done():
                token.cancel()
