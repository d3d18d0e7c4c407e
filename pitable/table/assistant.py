"""The assistant's own seats: an input that thinks off the loop and only queues events.

Its decisions are pure functions of the public position, the bids the game has revealed
and its seed (:func:`pitable.sim.search.decide`), so where they are computed changes nothing but
the time they take. The table computes the strong level's bids in a worker process:
a search on a thread would hold the GIL and make every key wait up to the 5 ms switch
interval (benchmarks/thinking.py). The worker gets a copy of the rules state: no
pending bid of anyone, no virtual deck. The easy level (the heuristic) costs
microseconds and runs inline.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import queue
    from concurrent.futures import ProcessPoolExecutor

log = logging.getLogger(__name__)


class Assistant:
    """Plays ``players`` (rules seat indices) at ``level`` with ``seed``.

    ``post`` puts a callable on the loop's queue (the loop runs it on its thread); the
    decision comes back that way. ``worker``: "process" (the daemon), or "inline" (the
    decision is computed at once and posted: tests with a manual clock).
    """

    def __init__(self, players: tuple, level: str = "strong", budget: int | None = None,
                 seed: int = 0, post=None, worker: str = "process"):
        from pitable.sim.search import DEFAULT_BUDGET

        self.players = tuple(players)
        self.level = level
        self.budget = DEFAULT_BUDGET if budget is None else budget
        self.seed = seed
        self.post = post
        self.worker = worker if level == "strong" else "inline"
        self._pool: ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()  # the pool is made on the dispatch thread, closed on the loop's
        self._jobs: queue.SimpleQueue[Any] | None = None  # positions for the dispatch thread (process worker)
        self._closed = False
        self.asked: dict = {}   # player -> the position key it is thinking about

    def header(self) -> dict:
        """What the log's header says about it: enough to make the same decisions again."""
        return {"seats": [p + 1 for p in self.players], "level": self.level,
                "budget": self.budget, "seed": self.seed}

    @classmethod
    def from_header(cls, data, **kwargs):
        return cls(tuple(s - 1 for s in data["seats"]), data["level"], data["budget"], data["seed"], **kwargs)

    # -- deciding -------------------------------------------------------------------------------

    def _past(self, state) -> tuple:
        """The game's last revealed bids, which the strong level reads (its model of the others)."""
        if self.level != "strong":
            return ()
        from pitable.sim.search import public_bids

        return public_bids(state)

    def bid_now(self, state, player: int) -> int:
        """The bid, computed here and now (tests, replay checks)."""
        from pitable.sim.search import decide

        return decide(state.copy(), player, self.level, self.seed, self.budget, self._past(state))

    def choice_now(self, state, player: int) -> int:
        from pitable.sim.search import decide_choice

        return decide_choice(state.copy(), player, self.level, self.seed, self.budget)

    def think(self, state, player: int, token, deliver, choice: bool = False) -> None:
        """Start deciding ``player``'s bid (or, with ``choice``, the kind it takes);
        ``deliver(token, player, answer)`` runs on the loop's thread when it is ready (the
        caller drops it if the position moved on)."""
        if self.asked.get(player) == token:
            return  # already thinking about this very position
        self.asked[player] = token
        if self.worker == "inline" or self.post is None:
            answer = self.choice_now(state, player) if choice else self.bid_now(state, player)
            if self.post is None:
                deliver(token, player, answer)
            else:
                self.post(lambda: deliver(token, player, answer))
            return
        # Handed over on the loop's next step, once this key's frame is out: the dispatch
        # thread's pickling and the pool's threads then never take the GIL from that frame.
        # The public state only (pending bids live in the controller) with its moves: the
        # dispatch thread reads the revealed bids from them, off the loop.
        position = state.copy(history=True)
        self.post(lambda: self._start((choice, position, player, token, deliver)))

    def _start(self, job) -> None:
        if self._closed:
            return
        if self._jobs is None:
            import queue
            import threading

            jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
            self._jobs = jobs
            threading.Thread(target=self._dispatch, args=(jobs,), name="assistant", daemon=True).start()
        self._jobs.put(job)  # microseconds: the loop never waits

    def _dispatch(self, jobs) -> None:
        """On its own thread: hand each position to the worker process and queue the answer.

        Starting the worker (a forkserver: ~0.4 s here, seconds on a Pi) and pickling happen
        here, never on the loop's thread; waiting for the answer holds no GIL."""
        from pitable.sim.search import decide, decide_choice

        while True:
            job = jobs.get()
            if job is None:
                return
            choice, position, player, token, deliver = job
            # pickled for the worker as its position alone (State.__reduce__)
            work, args = (decide_choice, ()) if choice else (decide, (self._past(position),))
            args = (position, player, self.level, self.seed, self.budget) + args
            try:
                card = self._executor().submit(work, *args).result()
            except Exception:  # noqa: BLE001 - a dead worker: decide here rather than stall the table
                if self._closed:
                    return  # the game ended while it thought
                log.exception("the assistant's worker failed; deciding on its dispatch thread")
                self._drop_pool()
                card = work(*args)
            if self._closed:
                return
            # every name bound now: the next job rebinds them before the loop runs this
            self.post(lambda token=token, player=player, card=card, deliver=deliver: deliver(token, player, card))

    def forget(self) -> None:
        """The position changed (a commit, an undo): what it thought about is moot."""
        self.asked = {}

    def _executor(self):
        """The worker pool, made on first use on the dispatch thread; under the lock, so that
        a close() on the loop's thread never misses one being made (no pool outlives it)."""
        with self._pool_lock:
            if self._closed:
                raise RuntimeError("the assistant is closed")
            if self._pool is None:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                # forkserver: a clean process without the daemon's threads (forking those is unsafe)
                methods = multiprocessing.get_all_start_methods()
                context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_in_the_worker,
                                                 initargs=(os.getpid(),))
            return self._pool

    def _drop_pool(self) -> None:
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            # The worker is stopped, not waited for: concurrent.futures' exit hook joins the
            # pool's manager thread, which waits for a search under way (minutes at a big
            # budget), so a Ctrl-C or SIGTERM during the assistant's turn did not end pitable.
            terminate = getattr(pool, "terminate_workers", None)  # Python 3.14: also shuts down
            if terminate is not None:
                terminate()
                return
            workers = list((getattr(pool, "_processes", None) or {}).values())  # read before shutdown
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()

    def close(self) -> None:
        with self._pool_lock:
            self._closed = True
        if self._jobs is not None:
            self._jobs.put(None)
            self._jobs = None
        self._drop_pool()


def _in_the_worker(daemon: int) -> None:
    """In the worker, once: the loop (keys, frames) wins whenever both want the same core,
    and the worker ends with the daemon. It is the forkserver's child and holds its own call
    queue's writer, so it would wait forever for work from a daemon that was SIGKILLed; the
    forkserver and the resource tracker live as long as it does (they keep the processes
    they serve company). A thread watches the daemon instead and ends the worker with it."""
    try:
        os.nice(10)
    except OSError:
        pass
    threading.Thread(target=_end_with, args=(daemon,), name="end-with-the-daemon", daemon=True).start()


def _end_with(pid: int) -> None:
    """Wait until process ``pid`` has ended (a pidfd on Linux; else a check each second),
    then end this process at once: nothing it computes has anybody to go to."""
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux 5.3+, or already gone
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                pass
            time.sleep(1.0)
    else:
        select.select([fd], [], [])  # readable once the process has ended
    os._exit(0)


def check_log(header: dict, moves: list) -> tuple:
    """Make the assistant's decisions of a logged game again from its header (seats, level,
    budget, seed) and compare: (bids checked, choices checked, the first difference or None)."""
    from pitable.errors import LogError
    from pitable.rules import grasshopper as gh
    from pitable.rules.log import check_header

    if not header.get("assistant"):
        return 0, 0, "the assistant did not play in this game"
    try:
        state = check_header(header)  # the one check of a header, its assistant entry included
    except LogError as e:
        return 0, 0, str(e)
    pi = Assistant.from_header(header["assistant"], worker="inline")
    bids = choices = 0
    for n, move in enumerate(moves, 1):
        if isinstance(move, gh.Bids):
            for p in pi.players:
                want = gh.CARDS[pi.bid_now(state, p)]
                if move.cards[p] != want:
                    return bids, choices, f"input {n}: seat {p + 1} bid {move.cards[p]}, its seed makes {want}"
                bids += 1
        elif isinstance(move, gh.Choose) and state.chooser in pi.players:
            want = gh.KINDS[pi.choice_now(state, state.chooser)]
            if move.kind != want:
                return bids, choices, f"input {n}: seat {state.chooser + 1} chose {move.kind}, its seed makes {want}"
            choices += 1
        state.push(move)
    return bids, choices, None
