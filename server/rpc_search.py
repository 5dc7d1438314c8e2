"""The search RPCs' machinery every game's servicer shares: a search's deadline (the call's, less a safety
margin, so the answer arrives in time with the best move so far and `cut_short` set), its run on the game's
adapter with metrics, a cancelled call's CancelToken, hint sizes, move families and a hint's grown search.
Each game's GetBestMove, GetHints and Analyze (their messages and what the game adds: reasons, insight) are
its service's: server/spellbook_search.py, server/aw_service.py.
"""
from __future__ import annotations

import time

from search import ismcts
from search.coach import hint_family, hint_search
from search.hints import Grown
from search.search import SearchOptions
from server import metrics
from server.common_convert import FieldError
from server.rpc_base import RpcBase


class SearchRpcs(RpcBase):
    """What every game's search RPCs share (see the module docstring)."""

    def _set_deadline(self, opts: SearchOptions, context) -> None:
        """The search's deadline: the call's, less the safety margin (none when the call has none)."""
        remaining = context.time_remaining()
        if remaining is not None:
            opts.deadline = time.monotonic() + max(remaining - self._answer_margin_s(remaining), 0.001)

    def _report_every(self, request) -> int:
        """An Analyze request's milliseconds between reports (0: 250), at least the server's minimum."""
        every = request.report_every_ms or 250
        if every < self.config.min_report_every_ms:
            raise FieldError("report_every_ms", f"must be at least {self.config.min_report_every_ms} (0: 250), "
                                                f"got {every}")
        return every

    @staticmethod
    def _check_searchable(state, request, pending: str) -> None:
        """Refuses (FieldError) a search where the seat to move cannot decide: the game is over, a chance
        event is pending (`pending`: what the refusal says then), or the request's `seat` is not to move."""
        if state.is_terminal():
            raise FieldError("state", "the game is over: there is no move to search")
        if state.is_chance():
            raise FieldError("state", pending)
        if request.HasField("seat") and request.seat != state.current_player:
            raise FieldError("seat", f"seat {request.seat} is not to move; seat {state.current_player} decides")

    def _run_search(self, state, opts, token):
        start = time.monotonic()
        requested_end = start + opts.time_ms / 1000.0 if opts.time_ms else float("inf")
        result = ismcts(self.game.adapter, state, opts, cancel=token)
        metrics.observe_search(result.iterations, result.elapsed_s)
        by_deadline = bool(opts.deadline) and opts.deadline < requested_end and time.monotonic() >= opts.deadline
        return result, result.cut_short or by_deadline or token.cancelled

    def _top_k(self, value: int, default: int = 3) -> int:
        if value < 0 or value > self.config.max_top_k:
            raise FieldError("top_k", f"must be 0 to {self.config.max_top_k} (0: {default}), got {value}")
        return value or default

    def _family(self, state):
        """The game adapter's move families at `state` (moves that are one decision, search/hints.py)."""
        return hint_family(self.game.adapter, state)

    def _grown_search(self, state, opts: SearchOptions, token, fixed: bool) -> tuple[Grown, bool, SearchOptions]:
        """A hint's search, as every client's (search/coach.py hint_search): the budget asked, grown until the
        best family is separated from the second, within the call's deadline and the server's caps. Returns
        the growth, whether a search was cut short, and the options of the whole."""
        caps = self.config.caps()
        return hint_search(self.game.adapter, state, opts, cap=caps.max_iterations, max_time_ms=caps.max_time_ms,
                           deadline=opts.deadline, cancel=token, fixed=fixed,
                           search=lambda o: self._run_search(state, o, token))
