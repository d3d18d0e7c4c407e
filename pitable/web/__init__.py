"""Phones as seats and a table page for a TV (docs/phones.md).

Off unless the config has ``web:``; nothing here is imported otherwise. The web side
runs in one extra thread (``server.WebServer``): it only puts events on the loop's
queue and reads the snapshots the loop publishes after each step; it never touches
the game state.
"""
