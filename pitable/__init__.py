"""pitable: a Raspberry Pi table assistant for Grasshopper Poker and Cockroach Poker."""

__version__ = "0.1.0"
