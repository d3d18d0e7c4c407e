"""The league: Grasshopper Poker opponents that pitable's players do not model.

Kept apart from the Pi's code (``pitable/``): nothing here ships to the Pi, and nothing in
``pitable.sim.search`` imports it. The bots are written for the league from the rules core
alone (``pitable.rules.grasshopper``); ``heuristic`` and ``random`` are the simulator's own.
A bot sees what a person in its seat sees: a copy of the public state (display, gardens,
chips, every seat's spent cards, the pile's count per kind), never the pile's order or a
pending bid. ``python -m league`` or ``pitable league`` plays the round-robin.
"""
