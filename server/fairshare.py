"""Admission and scheduling of the service's CPU-bound work (searches, matches, reviews).

`SearchPool`: a fixed thread pool with bounded admission (running + waiting). The compiled search
releases the GIL, so `workers` searches run in parallel while the event loop keeps answering; beyond
`workers + queue_size` admitted jobs a call is refused with `Overloaded` (RESOURCE_EXHAUSTED with a
retry hint).
"""
from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from search import CancelToken
from server import metrics


class Overloaded(Exception):
    def __init__(self, retry_after_ms: int):
        super().__init__(f"the search queue is full; retry after {retry_after_ms} ms")
        self.retry_after_ms = retry_after_ms


class SearchPool:
    """A fixed thread pool for searches with bounded admission (running + waiting)."""

    def __init__(self, workers: int, queue_size: int):
        self.workers, self.capacity = workers, workers + queue_size
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="search")
        self._lock = threading.Lock()
        self.admitted = 0
        self._mean_s = 0.05           # running mean of job time, for the retry hint
        self.tokens: set[CancelToken] = set()

    def retry_after_ms(self) -> int:
        waiting = max(self.admitted - self.workers + 1, 1)
        return max(10, int(1000 * self._mean_s * waiting / self.workers))

    def _release(self, started: float) -> None:
        with self._lock:
            self.admitted -= 1
            self._mean_s = 0.8 * self._mean_s + 0.2 * (time.monotonic() - started)

    async def run(self, fn: Callable[[], Any], cancel: CancelToken) -> Any:
        """Run fn() on a worker; raises Overloaded when full. If the awaiting task is cancelled, the
        search's token is cancelled so the worker stops promptly (the slot frees when it does)."""
        with self._lock:
            if self.admitted >= self.capacity:
                raise Overloaded(self.retry_after_ms())
            self.admitted += 1
        started = time.monotonic()
        self.tokens.add(cancel)
        metrics.search_waiting()

        def job():
            metrics.search_started(time.monotonic() - started)
            try:
                return fn()
            finally:
                metrics.search_ended()
                self._release(started)
                self.tokens.discard(cancel)

        future = self.executor.submit(job)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            cancel.cancel()
            raise

    def cancel_all(self) -> None:
        for token in list(self.tokens):
            token.cancel()

    def shutdown(self) -> None:
        self.cancel_all()
        self.executor.shutdown(wait=True, cancel_futures=False)

