"""The assistant's seats (pitable.table.assistant): the worker decides what the inline
path decides, the decision reaches the loop only as a queued callable, and a stale
position's answer is recognisable."""

import queue

import pytest

from pitable.rules.grasshopper import HANDS, Reveal, State
from pitable.table.assistant import Assistant


def position():
    state = State(3)
    for kind in ("corn", "strawberry", "grasshopper"):
        state.push(Reveal(kind))
    return state


def test_the_worker_process_decides_what_the_inline_path_decides():
    state = position()
    posted: queue.SimpleQueue = queue.SimpleQueue()
    got = []
    worker = Assistant((2,), "strong", budget=40, seed=5, post=posted.put, worker="process")
    try:
        worker.think(state, 2, "t1", lambda token, player, card: got.append((token, player, card)))
        # nothing is handed to the worker while the key that asked is still being shown:
        # the hand-over is the loop's next step (its threads never compete with that frame)
        assert worker._jobs is None
        while not got:
            posted.get(timeout=60)()  # the loop runs what is posted: the hand-over, then the answer
    finally:
        worker.close()
    inline = Assistant((2,), "strong", budget=40, seed=5)
    assert got == [("t1", 2, inline.bid_now(state, 2))]
    assert got[0][2] in HANDS[state.spent[2]]


def test_the_worker_process_makes_the_inline_choices_and_bids_after_revealed_bids():
    """What crosses to the worker (a pickled position, the game's revealed bids) decides as
    the inline path does: the strong level's choice search and its model of the others."""
    import random

    from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL, Bids, Choose, VirtualDeck
    from pitable.sim import grasshopper as sim

    rng, deck, state = random.Random(8), VirtualDeck(8), State(3)
    bots = [sim.HeuristicBot(rng) for _ in range(3)]
    asked = []  # (choice?, a copy with its history) at a choice of 2+ kinds and a later bid
    while len(asked) < 2:
        if state.phase is REVEAL:
            state.push(deck.next_reveal(state))
        elif state.phase is BIDDING:
            if asked:
                asked.append((False, state.copy(history=True)))
            state.push(Bids(tuple(b.bid(state, s) for s, b in enumerate(bots))))
        elif state.phase is CHOOSING:
            if not asked and len(state.choice_kinds) > 1 and state.chooser == 2:
                asked.append((True, state.copy(history=True)))
            state.push(Choose(bots[state.chooser].choose(state, state.chooser)))
    posted: queue.SimpleQueue = queue.SimpleQueue()
    worker = Assistant((2,), "strong", budget=40, seed=5, post=posted.put, worker="process")
    inline = Assistant((2,), "strong", budget=40, seed=5)
    try:
        for n, (choice, st) in enumerate(asked):
            got = []
            worker.think(st, 2, n, lambda token, player, answer: got.append(answer), choice=choice)  # noqa: B023 - answered in this turn of the loop
            while not got:
                posted.get(timeout=60)()
            want = inline.choice_now(st, 2) if choice else inline.bid_now(st, 2)
            assert got == [want], ("choice" if choice else "bid", got, want)
    finally:
        worker.close()


def test_thinking_twice_about_one_position_asks_once_and_forget_clears():
    state = position()
    calls = []
    a = Assistant((0, 1), "easy", seed=3)
    a.think(state, 0, "k", lambda *args: calls.append(args))
    a.think(state, 0, "k", lambda *args: calls.append(args))
    assert len(calls) == 1
    a.forget()
    a.think(state, 0, "k", lambda *args: calls.append(args))
    assert len(calls) == 2 and calls[0] == calls[1]


def test_easy_and_strong_repeat_with_the_seed_and_header_round_trips():
    state = position()
    for level in ("easy", "strong"):
        a = Assistant((1,), level, budget=30, seed=11)
        b = Assistant.from_header(a.header())
        assert b.header() == a.header() == {"seats": [2], "level": level, "budget": 30, "seed": 11}
        assert a.bid_now(state, 1) == b.bid_now(state, 1)
        assert a.choice_now(state, 1) in range(5)
    # a different seed may bid differently; at least the decisions are cards in hand
    cards = {Assistant((1,), "easy", seed=s).bid_now(state, 1) for s in range(30)}
    assert cards <= set(HANDS[0]) and len(cards) > 1  # the easy level's noise comes from its seed


def test_each_answer_goes_to_the_deliver_of_its_own_question():
    """The dispatch thread posts each answer for the loop to deliver later: the posted call
    must deliver to its own job's ``deliver``, not to the next job's (bound late)."""
    import queue

    from pitable.table.assistant import Assistant

    posted = []
    pi = Assistant((1,), post=posted.append)
    pi._executor = lambda: type("Now", (), {"submit": lambda self, f, *a: type("F", (), {"result": lambda s: 7})()})()
    got = {"a": [], "b": []}
    jobs = queue.SimpleQueue()
    for name in ("a", "b"):
        jobs.put((True, None, 1, name, lambda token, player, card, name=name: got[name].append(token)))
    jobs.put(None)
    pi._dispatch(jobs)          # both answered before the loop runs either posted call
    for call in posted:
        call()
    assert got == {"a": ["a"], "b": ["b"]}


def test_no_worker_pool_is_made_after_close():
    from pitable.table.assistant import Assistant

    pi = Assistant((1,), post=lambda f: None)
    pi.close()
    with pytest.raises(RuntimeError):
        pi._executor()          # the dispatch thread asking after close() gets no new pool
    assert pi._pool is None
