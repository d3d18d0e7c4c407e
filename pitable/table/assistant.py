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
import threading

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
        self._pool = None
        self._pool_lock = threading.Lock()  # the pool is made on the dispatch thread, closed on the loop's
        self._jobs = None       # positions for the dispatch thread (process worker)
        self._closed = False
        self.asked: dict = {}   # player -> the position key it is thinking about

    def header(self) -> dict:
        """What the log's header says about it: enough to make the same decisions again."""
        return {"seats": [p + 1 for p in self.players], "level": self.level,
                "budget": self.budget, "seed": self.seed}

    @staticmethod
    def header_problem(data, players: int) -> str | None:
        """What is wrong with a log header's ``assistant`` entry, or None (a hand-edited or
        damaged log must not crash the daemon at resume)."""
        def whole(x):
            return isinstance(x, int) and not isinstance(x, bool)
        if not isinstance(data, dict):
            return "assistant: expected an object"
        seats = data.get("seats")
        if not isinstance(seats, list) or not seats or not all(whole(s) and 1 <= s <= players for s in seats) \
                or len(set(seats)) != len(seats) or len(seats) >= players:
            return f"assistant.seats: expected distinct seats 1..{players}, at least one left to people"
        if data.get("level") not in ("easy", "strong"):
            return "assistant.level: expected easy or strong"
        if not whole(data.get("budget")) or data["budget"] < 1:
            return "assistant.budget: expected a whole number of playouts"
        if not whole(data.get("seed")):
            return "assistant.seed: expected a whole number"
        return None

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

            self._jobs = queue.SimpleQueue()
            threading.Thread(target=self._dispatch, args=(self._jobs,), name="assistant", daemon=True).start()
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
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_lower_priority)
            return self._pool

    def _drop_pool(self) -> None:
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        with self._pool_lock:
            self._closed = True
        if self._jobs is not None:
            self._jobs.put(None)
            self._jobs = None
        self._drop_pool()


def _lower_priority() -> None:
    """In the worker: the loop (keys, frames) wins whenever both want the same core."""
    import os

    try:
        os.nice(10)
    except OSError:
        pass


def check_log(header: dict, moves: list) -> tuple:
    """Make the assistant's decisions of a logged game again from its header (seats, level,
    budget, seed) and compare: (bids checked, choices checked, the first difference or None)."""
    from pitable.rules import grasshopper as gh

    problem = Assistant.header_problem(header.get("assistant"), header.get("players", 0))
    if problem:
        return 0, 0, problem
    pi = Assistant.from_header(header["assistant"], worker="inline")
    state = gh.state_from_header(header)
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
