"""Admission and fair scheduling of the service's CPU-bound work (searches, matches, reviews).

`SearchPool` runs jobs on `workers` threads (the compiled search releases the GIL, so they run in
parallel while the event loop keeps answering) and admits at most `workers + queue_size` at once; beyond
that a call is refused with `Overloaded` (RESOURCE_EXHAUSTED with a retry hint).

Fair share. Every job belongs to a client: its API key when the server has keys, else its peer address
(`client_of`; the `@rpc` wrapper sets it for the call, `current_client`). Per client there are limits on
  - jobs running at once (`per_client_running`, default half the workers, at least 1), so one client's
    long searches never hold every worker;
  - queued work (`per_client_queued_ms`: the time budgets of its admitted jobs, running or waiting);
and the queue is fair: when a worker frees, the waiting client with the fewest running jobs goes next
(round-robin among equals), not the oldest job. So a client's small call never waits behind another
client's long searches for more than one job's length of the other clients.

All bookkeeping happens on the event loop's thread (jobs finish through call_soon_threadsafe).
"""
from __future__ import annotations

import asyncio
import contextvars
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from search import CancelToken
from server import metrics

current_client: contextvars.ContextVar[str] = contextvars.ContextVar("spellbook_client", default="")


def client_of(context, key_id: str | None = None) -> str:
    """The fair-share identity of a call: its API key's id when given, else the peer's address (no port)."""
    if key_id:
        return key_id
    peer = context.peer() or ""
    host = peer.rsplit(":", 1)[0] if peer.count(":") >= 1 else peer
    return host or "unknown"


class Overloaded(Exception):
    def __init__(self, retry_after_ms: int, reason: str = ""):
        super().__init__(reason or f"the search queue is full; retry after {retry_after_ms} ms")
        self.retry_after_ms = retry_after_ms
        self.reason = reason or "search queue full"


@dataclass(eq=False)
class _Job:
    fn: Callable[[], Any]
    cancel: CancelToken
    client: str
    cost_ms: float
    future: asyncio.Future
    started: float = 0.0
    queued: float = 0.0


@dataclass
class _Client:
    running: int = 0
    queued_ms: float = 0.0
    waiting: deque = field(default_factory=deque)


class SearchPool:
    """A fixed thread pool with bounded admission and a fair queue across clients (see the module doc)."""

    def __init__(self, workers: int, queue_size: int, per_client_running: int | None = None,
                 per_client_queued_ms: float = float("inf")):
        self.workers, self.capacity = workers, workers + queue_size
        self.per_client_running = per_client_running or max(1, workers // 2)
        self.per_client_queued_ms = per_client_queued_ms
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="search")
        self.running = 0
        self.clients: OrderedDict[str, _Client] = OrderedDict()
        self._mean_s = 0.05           # running mean of job time, for the retry hint
        self.tokens: set[CancelToken] = set()

    @property
    def admitted(self) -> int:
        """Jobs running or waiting."""
        return self.running + sum(len(c.waiting) for c in self.clients.values())

    def retry_after_ms(self) -> int:
        waiting = max(self.admitted - self.workers + 1, 1)
        return max(10, int(1000 * self._mean_s * waiting / self.workers))

    async def run(self, fn: Callable[[], Any], cancel: CancelToken, cost_ms: float = 0.0,
                  client: str | None = None) -> Any:
        """Run fn() on a worker when the fair queue gets to it; raises Overloaded when the pool or the
        client's share is full. `cost_ms` is the job's time budget (its share of the client's queued work).
        If the awaiting task is cancelled, the job's token is cancelled (a waiting job never starts)."""
        client = client if client is not None else current_client.get()
        account = self.clients.get(client)
        if self.admitted >= self.capacity:
            raise Overloaded(self.retry_after_ms())
        if account is not None and account.queued_ms + cost_ms > self.per_client_queued_ms:
            raise Overloaded(self.retry_after_ms(), f"this client's queued search time is at its limit of "
                                                    f"{self.per_client_queued_ms:g} ms")
        if account is None:
            account = self.clients[client] = _Client()
        job = _Job(fn, cancel, client, cost_ms, asyncio.get_running_loop().create_future(), queued=time.monotonic())
        account.waiting.append(job)
        metrics.search_waiting()
        account.queued_ms += cost_ms
        self.tokens.add(cancel)
        self._dispatch()
        try:
            return await job.future
        except asyncio.CancelledError:
            cancel.cancel()
            if job in account.waiting:          # never started: leave the queue now
                account.waiting.remove(job)
                metrics.search_left_queue()
                self._forget(job)
            raise

    def _next_client(self) -> _Client | None:
        """The waiting client with the fewest running jobs, within its running limit; the first such in
        round-robin order (a client that got a worker moves to the back)."""
        best, best_name = None, None
        for name, c in self.clients.items():
            if c.waiting and c.running < self.per_client_running and (best is None or c.running < best.running):
                best, best_name = c, name
        if best_name is not None:
            self.clients.move_to_end(best_name)
        return best

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self.running < self.workers:
            account = self._next_client()
            if account is None:
                return
            job = account.waiting.popleft()
            if job.future.done():               # its caller went away
                metrics.search_left_queue()
                self._forget(job)
                continue
            account.running += 1
            self.running += 1
            job.started = time.monotonic()
            metrics.search_started(job.started - job.queued)
            done = self.executor.submit(job.fn)
            done.add_done_callback(lambda f, job=job: loop.call_soon_threadsafe(self._finished, job, f))

    def _finished(self, job: _Job, done) -> None:
        account = self.clients.get(job.client)
        if account is not None:
            account.running -= 1
        self.running -= 1
        metrics.search_ended()
        self._mean_s = 0.8 * self._mean_s + 0.2 * (time.monotonic() - job.started)
        self._forget(job)
        if not job.future.done():
            if done.exception() is not None:
                job.future.set_exception(done.exception())
            else:
                job.future.set_result(done.result())
        self._dispatch()

    def _forget(self, job: _Job) -> None:
        self.tokens.discard(job.cancel)
        account = self.clients.get(job.client)
        if account is not None:
            account.queued_ms -= job.cost_ms
            if not account.waiting and account.running == 0:
                del self.clients[job.client]

    def cancel_all(self) -> None:
        for token in list(self.tokens):
            token.cancel()

    def shutdown(self) -> None:
        self.cancel_all()
        self.executor.shutdown(wait=True, cancel_futures=False)
