"""Admission and fair scheduling of the service's CPU-bound work (searches, matches, reviews).

Processor sharing. `SearchPool` runs jobs on `workers` worker slots. A job holds a slot for a slice
(`slice_ms`, 50 ms by default) at a time: a search is anytime, so it runs in slices with its tree kept
(search.search.slicing), and between slices it gives its slot back to the fair queue when another job waits.
So a short call interleaves with long ones instead of waiting for them: it waits at most about one slice
per worker when its client has used less of the workers lately than the others. Work that is not a search
gives the slot up where it calls `search.search.pause_point()` (between a match's moves, a value spread's
worlds, ...). The compiled search releases the GIL, so slots run in parallel while the event loop answers.

The fair queue. When a slot frees, it goes to the waiting job of the *group* (host) with the least recent
worker time, and within the group to the *client* with the least; a client's jobs go in turn. "Recent": the
worker seconds of each client and group decay with a half-life of `half_life_s` (10 s). A client is its API
key when the server has keys (its group is the key too), else its peer address *and* connection (the peer's
port): several connections of one host share their host's group, so opening connections buys a host no
larger share of the workers than another host's single one.

Admission. While a slot is free every job is admitted (nothing waits then, so nothing is refused while a
worker idles). Otherwise a job is refused with `Overloaded` (RESOURCE_EXHAUSTED with a retry hint) beyond
  - `workers + queue_size` jobs admitted in all (running, paused or waiting; a paused search keeps its tree);
  - `per_host` jobs of one group (default: three quarters of that, at least `workers`): one host cannot
    take everything by opening connections;
  - `per_client` jobs of one client (default: the same as per_host);
  - `per_client_queued_ms` of one client's admitted time budgets.
A job waiting for its slot past its `deadline` (its search's end) goes on without one: it only has to
answer (its search sees the deadline at once), and the answer must not miss the call's deadline.

Inline. A job its caller expects to need at most `inline_ms` of CPU (`run(..., inline_ms=...)`, from
`CostEstimate`) runs on the calling thread, the event loop, when the pool is idle (nothing admitted: there
is nobody to be fair to, and a free slot). It is admitted, charged and counted like any job but skips the
hand-off to a worker thread and back, which costs the server more CPU than the call's own work (the
thread wake-ups and the future; docs/deploy.md). The loop answers nothing else meanwhile, so `inline_ms`
stays well under a slice: a call arriving then waits less than it would for a slice.
"""
from __future__ import annotations

import asyncio
import contextvars
import math
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from search import CancelToken
from search.search import slicing
from server import metrics

# The session-level client (API key, else peer address without the port): owner of sessions, per-client
# session cap. The scheduling client (`current_connection`) adds the connection.
current_client: contextvars.ContextVar[str] = contextvars.ContextVar("spellbook_client", default="")
current_connection: contextvars.ContextVar[str] = contextvars.ContextVar("spellbook_connection", default="")
# Set in the call's context when its job ran inline (for its log line).
ran_inline: contextvars.ContextVar[bool] = contextvars.ContextVar("spellbook_ran_inline", default=False)


def client_of(context, key_id: str | None = None) -> tuple[str, str]:
    """(group, client) of a call: (its API key's id, the same) with a key, else (the peer's address without
    its port, the peer with its port: one TCP connection)."""
    if key_id:
        return key_id, key_id
    peer = context.peer() or ""
    host = peer.rsplit(":", 1)[0] if peer.startswith(("ipv4:", "ipv6:")) else peer
    return host or "unknown", peer or "unknown"


class Overloaded(Exception):
    def __init__(self, retry_after_ms: int, reason: str = ""):
        super().__init__(reason or f"the search queue is full; retry after {retry_after_ms} ms")
        self.retry_after_ms = retry_after_ms
        self.reason = reason or "search queue full"


class _Usage:
    """Worker seconds, decaying with a half-life: `value(now)`, `add(seconds, now)`."""

    __slots__ = ("seconds", "at")

    def __init__(self):
        self.seconds, self.at = 0.0, 0.0

    def value(self, now: float, half_life_s: float) -> float:
        return self.seconds * math.exp2(-(now - self.at) / half_life_s) if self.seconds else 0.0

    def add(self, seconds: float, now: float, half_life_s: float) -> None:
        self.seconds, self.at = self.value(now, half_life_s) + seconds, now


@dataclass(eq=False)
class _Job:
    fn: Callable[[], Any]
    cancel: CancelToken
    client: str
    group: str
    cost_ms: float
    deadline: float
    future: asyncio.Future | None          # None for an inline job (it answers without one)
    loop: asyncio.AbstractEventLoop
    granted: threading.Event | None = None     # made when it first pauses (most jobs never do)
    inline: bool = False        # runs on the event loop (module doc): never gives its slot up
    state: str = "waiting"      # waiting | running | paused | unslotted (past its deadline) | done
    started: float = 0.0        # when it first got a slot
    slice_start: float = 0.0
    queued: float = 0.0
    slot_s: float = 0.0         # time it held a slot
    cpu_s: float = 0.0          # its worker thread's CPU time (at its last pause)
    cpu_start: float = 0.0


@dataclass
class _Client:
    group: str
    admitted: int = 0
    queued_ms: float = 0.0
    waiting: deque = field(default_factory=deque)
    usage: _Usage = field(default_factory=_Usage)


@dataclass
class _Group:
    admitted: int = 0
    usage: _Usage = field(default_factory=_Usage)


class _JobSlicer:
    """The search.search.Slicer of one job: pauses give the slot to the fair queue."""

    def __init__(self, pool: "SearchPool", job: _Job):
        self.pool, self.job, self.slice_s = pool, job, pool.slice_s

    def pause(self) -> None:
        self.pool._pause(self.job)


class CostEstimate:
    """CPU seconds per iteration of recent searches by kind (`key`: what makes an iteration cheap or dear,
    e.g. evaluator, rollout, cutoff, threads), to tell before a search whether it fits in `inline_ms`: a
    moving mean that follows a dearer search five times as fast as a cheaper one (an underestimate blocks
    the event loop for longer than meant, an overestimate only costs one hand-off). An unknown kind has
    no estimate (its first search runs on a worker and is measured there)."""

    MAX_KINDS = 64      # keys come from request options: the table stays bounded whatever clients send

    def __init__(self):
        self._per_iteration: dict = {}
        self._lock = threading.Lock()

    def estimate_ms(self, key, iterations: int) -> float | None:
        per = self._per_iteration.get(key)
        return None if per is None else per * iterations * 1000.0

    def search_ms(self, key, iterations: int, time_ms: float) -> float | None:
        """The CPU a search of this kind is expected to need, in ms: its iteration budget at the kind's cost,
        or its time budget (a CPU budget: docs/decisions.md D42) when that is less; None when unknown."""
        by_iterations = self.estimate_ms(key, iterations) if iterations else None
        if by_iterations is None:
            return time_ms if time_ms and not iterations else None
        return min(by_iterations, time_ms) if time_ms else by_iterations

    def record(self, key, iterations: int, cpu_s: float) -> None:
        if iterations <= 0:
            return
        per = cpu_s / iterations
        with self._lock:
            old = self._per_iteration.get(key)
            if old is None and len(self._per_iteration) >= self.MAX_KINDS:
                self._per_iteration.clear()
            self._per_iteration[key] = per if old is None else old + (0.5 if per > old else 0.1) * (per - old)


class SearchPool:
    """Worker slots with bounded admission and a fair, time-sliced queue across clients (module doc)."""

    def __init__(self, workers: int, queue_size: int, per_client: int | None = None,
                 per_client_queued_ms: float = float("inf"), per_host: int | None = None,
                 slice_ms: float = 50.0, half_life_s: float = 10.0, inline_ms: float = 0.0):
        self.workers, self.capacity = workers, workers + queue_size
        self.inline_ms = inline_ms    # jobs expected to need at most this CPU may run inline (module doc)
        self.costs = CostEstimate()   # what searches cost here, for callers' inline_ms
        self.per_host = per_host or max(workers, (3 * self.capacity) // 4)
        self.per_client = per_client or self.per_host
        self.per_client_queued_ms = per_client_queued_ms
        self.slice_s, self.half_life_s = slice_ms / 1000.0, half_life_s
        # a thread per admitted job (a paused one waits in its thread); only `workers` of them hold slots
        self.executor = ThreadPoolExecutor(max_workers=self.capacity + workers, thread_name_prefix="search")
        self.running = 0              # jobs holding a slot
        self.admitted = 0             # jobs running, paused or waiting
        self.clients: OrderedDict[str, _Client] = OrderedDict()
        self.groups: dict[str, _Group] = {}
        self._waiting = 0             # jobs waiting for a slot (new or paused)
        self._jobs: set[_Job] = set()  # admitted
        self._lock = threading.Lock()
        self._mean_s = 0.05           # running mean of job time, for the retry hint
        self.tokens: set[CancelToken] = set()

    def retry_after_ms(self) -> int:
        """When an admitted job is likely to end (so a retry is admitted): the least time budget left of
        the jobs that have one, in CPU time, at the CPU rate they get on their slots and with the slots
        shared among every admitted job; else the mean job time per waiting job. 10 ms to 30 s."""
        left = [(j.cost_ms / 1000.0 - j.cpu_s) / max(j.cpu_s / j.slot_s if j.slot_s > 0.02 else 1.0, 0.05)
                for j in list(self._jobs) if j.cost_ms > 0 and j.started]
        if left:
            seconds = max(min(left), 0.0) * max(self.admitted, 1) / self.workers
        else:
            seconds = self._mean_s * max(self.admitted - self.workers + 1, 1) / self.workers
        return min(max(10, int(1000 * seconds)), 30_000)

    # ------------------------------------------------------------------ the event loop's side
    async def run(self, fn: Callable[[], Any], cancel: CancelToken, cost_ms: float = 0.0,
                  client: str | None = None, deadline: float = 0.0, inline_ms: float | None = None) -> Any:
        """Run fn() on a worker slot when the fair queue gets to it; raises Overloaded beyond the caps.
        `cost_ms`: the job's time budget (its share of the client's queued work); `client`: its scheduling
        client (default: the call's connection, or its key); `deadline`: time.monotonic() after which the job
        no longer waits for a slot to finish; `inline_ms`: the CPU the job is expected to need, when known:
        at most the pool's `inline_ms` and the pool idle, it runs here, on the event loop (module doc). If the
        awaiting task is cancelled, the job's token is cancelled (a waiting job never starts; a paused one
        finishes at once)."""
        if client is None:
            client, group = current_connection.get() or current_client.get(), current_client.get()
        else:
            group = client
        loop = asyncio.get_running_loop()
        job = _Job(fn, cancel, client, group or client, cost_ms, deadline, None, loop, queued=time.monotonic())
        if inline_ms is not None and inline_ms <= self.inline_ms:
            with self._lock:
                job.inline = self.admitted == 0 and self.running < self.workers
                if job.inline:
                    self._account(job, waits=False)
                    self._start(job, job.queued)
            if job.inline:
                metrics.search_inline()
                ran_inline.set(True)
                self.tokens.add(cancel)
                result, error = self._execute(job)
                if error is not None:
                    raise error
                return result
        job.future = loop.create_future()
        with self._lock:
            self._admit(job)
        self.tokens.add(cancel)
        expiry = loop.call_at(loop.time() + max(deadline - time.monotonic(), 0.0), self._expire, job) \
            if deadline else None
        try:
            return await job.future
        except asyncio.CancelledError:
            cancel.cancel()
            with self._lock:
                if job.state == "waiting" and not job.started:      # never started: leave the queue now
                    self.clients[job.client].waiting.remove(job)
                    self._waiting -= 1
                    self._release(job)
                    metrics.search_left_queue()
                elif job.state == "waiting":                       # paused: let it finish without a slot
                    self.clients[job.client].waiting.remove(job)
                    self._waiting -= 1
                    job.state = "unslotted"
                    job.granted.set()
            raise
        finally:
            if expiry is not None:
                expiry.cancel()

    def _expire(self, job: _Job) -> None:
        """The deadline of a job that never got a slot has passed: it starts now without one, so that its
        call still answers in time (its search sees the deadline at once and answers cut short)."""
        with self._lock:
            if job.state != "waiting" or job.started:
                return                           # running, finished, or paused (its thread wakes itself)
            self.clients[job.client].waiting.remove(job)
            self._waiting -= 1
            now = time.monotonic()
            job.state, job.started, job.slice_start = "unslotted", now, now
            metrics.search_started(now - job.queued, waited=True)
        self.executor.submit(self._work, job)

    def _admit(self, job: _Job) -> None:
        """Under the lock: admits `job` (queued, and dispatched when a slot is free) or raises Overloaded."""
        account = self.clients.get(job.client)
        group = self.groups.get(job.group)
        if self.running >= self.workers:      # no slot free: the caps apply
            cap, reason = None, ""
            if self.admitted >= self.capacity:
                cap = "pool"
            elif group is not None and group.admitted >= self.per_host:
                cap, reason = "host", f"this host's searches are at their limit of {self.per_host}"
            elif account is not None and account.admitted >= self.per_client:
                cap, reason = "client", f"this client's searches are at their limit of {self.per_client}"
            elif account is not None and account.queued_ms + job.cost_ms > self.per_client_queued_ms:
                cap, reason = "client_time", (f"this client's queued search time is at its limit of "
                                              f"{self.per_client_queued_ms:g} ms")
            if cap is not None:
                metrics.search_refused(cap)
                raise Overloaded(self.retry_after_ms(), reason)
        self._account(job).waiting.append(job)
        self._waiting += 1
        self._dispatch(time.monotonic())

    def _account(self, job: _Job, waits: bool = True) -> _Client:
        """Under the lock: counts `job` as admitted (its client, group and queued time; `waits`: in the queue
        depth until it starts); returns its client."""
        group = self.groups.get(job.group)
        if group is None:
            group = self.groups[job.group] = _Group()
        account = self.clients.get(job.client)
        if account is None:
            account = self.clients[job.client] = _Client(job.group)
        account.admitted += 1
        group.admitted += 1
        account.queued_ms += job.cost_ms
        self.admitted += 1
        self._jobs.add(job)
        if waits:
            metrics.search_waiting()
        return account

    # ------------------------------------------------------------------ scheduling (under the lock)
    def _next_job(self, now: float) -> _Job | None:
        """The first waiting job of the least-served client of the least-served group (recent worker time);
        among equals the one listed first, and a client served moves to the back."""
        best: _Client | None = None
        best_key = None
        for name, c in self.clients.items():
            if not c.waiting:
                continue
            key = (self.groups[c.group].usage.value(now, self.half_life_s), c.usage.value(now, self.half_life_s))
            if best is None or key < best_key:
                best, best_key, best_name = c, key, name
        if best is None:
            return None
        self.clients.move_to_end(best_name)
        self._waiting -= 1
        return best.waiting.popleft()

    def _dispatch(self, now: float) -> None:
        """Gives free slots to waiting jobs, in fair order."""
        while self.running < self.workers:
            job = self._next_job(now)
            if job is None:
                return
            if job.started:                    # a paused job: its thread waits for this
                self.running += 1
                job.state, job.slice_start = "running", now
                job.granted.set()
                continue
            self._start(job, now)
            self.executor.submit(self._work, job)

    def _start(self, job: _Job, now: float) -> None:
        """Under the lock: `job` takes a slot for the first time."""
        self.running += 1
        job.state, job.slice_start, job.started = "running", now, now
        metrics.search_started(now - job.queued, waited=not job.inline)

    def _charge(self, job: _Job, now: float) -> None:
        """The slot time since the job's slice began, to its client and group (from the job's thread)."""
        spent = max(now - job.slice_start, 0.0)
        job.slot_s += spent
        job.cpu_s = time.thread_time() - job.cpu_start
        account = self.clients.get(job.client)
        if account is not None:
            account.usage.add(spent, now, self.half_life_s)
        group = self.groups.get(job.group)
        if group is not None:
            group.usage.add(spent, now, self.half_life_s)
        job.slice_start = now

    def _release(self, job: _Job) -> None:
        """The job leaves the pool (finished or never started): its admission and queued time are returned."""
        self.admitted -= 1
        self._jobs.discard(job)
        self.tokens.discard(job.cancel)
        account = self.clients.get(job.client)
        if account is not None:
            account.admitted -= 1
            account.queued_ms -= job.cost_ms
        group = self.groups.get(job.group)
        if group is not None:
            group.admitted -= 1
        self._forget_idle(job.client, job.group)

    def _forget_idle(self, client: str, group: str) -> None:
        """Drops the bookkeeping of a client and group without jobs once their recent usage has decayed; and
        of every client without jobs when there are many (memory stays bounded whatever the peers)."""
        now = time.monotonic()
        account = self.clients.get(client)
        if account is not None and account.admitted == 0 and account.usage.value(now, self.half_life_s) < 1e-3:
            del self.clients[client]
        if len(self.clients) > 4 * self.capacity:
            for name in [n for n, c in self.clients.items() if c.admitted == 0]:
                del self.clients[name]
        used = {c.group for c in self.clients.values()}
        g = self.groups.get(group)
        if g is not None and g.admitted == 0 and (group not in used or len(self.groups) > 4 * self.capacity) \
                and (g.usage.value(now, self.half_life_s) < 1e-3 or len(self.groups) > 4 * self.capacity):
            del self.groups[group]

    # ------------------------------------------------------------------ the worker threads' side
    def _work(self, job: _Job) -> None:
        result, error = self._execute(job)
        job.loop.call_soon_threadsafe(self._resolve, job, result, error)

    def _execute(self, job: _Job) -> tuple[Any, BaseException | None]:
        """Runs the job on this thread in its slices, then frees its slot and takes it out of the pool:
        (result, None) or (None, the exception it raised)."""
        result, error = None, None
        job.cpu_start = time.thread_time()
        try:
            with slicing(_JobSlicer(self, job)):
                result = job.fn()
        except BaseException as e:      # surfaced to the caller
            error = e
        now = time.monotonic()
        with self._lock:
            if job.state == "running":
                self._charge(job, now)
                self.running -= 1
            job.state = "done"
            self._mean_s = 0.8 * self._mean_s + 0.2 * (now - job.started)
            self._release(job)
            self._dispatch(now)
        metrics.search_ended()
        return result, error

    @staticmethod
    def _resolve(job: _Job, result, error) -> None:
        if job.future.done():
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(result)

    def _pause(self, job: _Job) -> None:
        """Between two slices of `job` (its worker thread): when another job waits, the slot goes to the fair
        queue (maybe back to this job) and this returns once the job holds a slot again, or its deadline
        passed, or its call was cancelled."""
        with self._lock:
            if job.state != "running":           # running without a slot: finish
                return
            now = time.monotonic()
            self._charge(job, now)
            if not self._waiting or job.inline:
                return
            if job.granted is None:
                job.granted = threading.Event()
            job.granted.clear()
            job.state = "waiting"
            self.running -= 1
            self.clients[job.client].waiting.append(job)
            self._waiting += 1
            self._dispatch(now)
        wait = job.deadline - time.monotonic() if job.deadline else None
        if job.granted.wait(max(wait, 0.0) if wait is not None else None):
            return
        with self._lock:                         # the deadline passed while waiting: answer without a slot
            if job.state == "waiting":
                self.clients[job.client].waiting.remove(job)
                self._waiting -= 1
                job.state = "unslotted"

    def cancel_all(self) -> None:
        for token in list(self.tokens):
            token.cancel()

    def shutdown(self) -> None:
        self.cancel_all()
        with self._lock:                        # paused jobs finish (their searches are cancelled)
            for account in self.clients.values():
                for job in [j for j in account.waiting if j.started]:
                    account.waiting.remove(job)
                    self._waiting -= 1
                    job.state = "unslotted"
                    job.granted.set()
        self.executor.shutdown(wait=True, cancel_futures=False)
