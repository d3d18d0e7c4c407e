"""The assistant's seats (pitable.table.assistant): the worker decides what the inline
path decides, the decision reaches the loop only as a queued callable, and a stale
position's answer is recognisable."""

import queue

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
