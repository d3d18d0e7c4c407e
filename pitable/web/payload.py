"""The web thread's side: a snapshot -> the bytes each kind of client receives.

Words are made here with the table's catalog (``catalog(lang).words``), from the same
``Msg`` values the OLED draws: the browser gets words, never message ids, and no
script formats a sentence. Everything said is the table's (the screen's key table,
story, set-up lines and C6 warnings, made on the loop thread by ``pitable.table.public``):
nothing here runs the rules or works out what a key does. The table payload is made once per snapshot whatever the
number of pages; a seat's payload once per phone seat. Only the seat payload carries
anything private, and only that seat's own pending bid.
"""

from __future__ import annotations

import base64
import json

from pitable.i18n import Msg, catalog, msg
from pitable.keys import NAMES
from pitable.table.games import TABLE_GAMES, table_game
from pitable.narrator import RevealedBids


def dumps(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def _card(w, st, story) -> dict | None:
    """Cockroach Poker: the card in play (who holds it, the claim, who has seen it, the
    round so far), public like everything said aloud at the table; None between rounds."""
    if st.get("phase") not in ("answer", "flip"):
        return None
    seen = tuple(st["chain"])  # seat numbers already (rules.log.by_seat)
    now = [item for item in story if item.round == st["round"]]
    # the claim said as a claim ("P6 said: toad"), never as what the card is
    sender = st["chain"][-1] if st["chain"] else None
    claim = msg(f"kind.{st['claim']}")
    return {"holder": w(msg("web.holds", seat=st["to"])),
            "claim": w(msg("cr.said", sender=sender, kind=claim) if sender is not None else claim),
            "seen": w(msg("cr.seen", seats=seen)), "story": _words_of_lines(w, now[-1].lines) if now else []}


def _set_up(w, set_up) -> dict | None:
    """How the real cards are set up, while the game has not really begun (the table's
    lines: pitable.table.public.set_up)."""
    if set_up is None:
        return None
    return {"title": w(set_up.title), "lines": [w(line) for line in set_up.lines]}


def _sitting(w, sitting) -> dict | None:
    """The evening's score as on the glass: per seat its Grasshopper Poker wins and
    Cockroach Poker losses; None before the first game ends."""
    if not sitting or not sitting.get("games"):
        return None
    return {"title": w(msg("sit.title", n=sitting["games"])),
            "heads": [w(msg("web.game_wins")), w(msg("web.game_losses"))],
            "rows": [[w(msg("seat", seat=s)), wins, losses] for s, wins, losses in sitting["seats"]]}


def _words_of_lines(w, lines) -> list:
    out = []
    for line in lines:
        if isinstance(line, RevealedBids):  # the revealed bids of a turn: seat and card
            out.append({"bids": [[w(msg("seat", seat=s)), c] for s, c in line.bids]})
        else:
            out.append(w(line))
    return out


def _words_of_story(w, story) -> list:
    out = []
    for item in story:
        head = (w(msg("resumed.round", round=item.round)) if item.turn is None
                else w(msg("resumed.round_turn", round=item.round, turn=item.turn)))
        out.append({"head": head, "lines": _words_of_lines(w, item.lines)})
    return out[::-1]  # newest first


def table_payload(snap) -> dict:
    """What the table page (and every phone, under ``table``) shows: public only."""
    lang = snap.language
    w = catalog(lang).words
    st = snap.state
    out = {"lang": lang, "frame": base64.b64encode(snap.frame).decode(),
           "words": {k: w(msg(k)) for k in ("web.display", "web.history", "web.screen", "web.locked",
                                                               "web.join", "web.card", "web.sitting",
                                                               "web.join_used", "web.join_busy", "web.gone")},
           "sitting": _sitting(w, snap.sitting), "card": None, "setup": None}
    if st.get("phase") == "setup":
        # the heading says what the glass asks: no game is chosen while it asks which
        if st.get("step") == "game":
            out["game"], out["where"] = w(msg("setup.which_game")), ""
        else:
            out["game"] = w(msg(f"game.{st['game']}"))
            out["where"] = w(msg("setup.options" if st.get("step") == "options" else "setup.who_plays"))
        out["seats"] = [{"name": w(msg("seat", seat=s)), "lines": [], "locked": False}
                        for s in st["joined"]]
        out["display"] = None
        out["history"] = []
        return out
    pads = st["pads"]
    out["game"] = w(msg(f"game.{st['game']}"))
    # the round and turn the glass shows: not the rules', which move on while it still
    # shows the last turn's pages
    round_, turn = snap.where or (st["round"], st.get("turn"))
    locked = set(st.get("locked", ()))
    # the seats as the game's registration lays them out (pitable.table.games.TableGame.board)
    seats = BOARDS[table_game(st["game"]).board](w, st, snap, out, round_, turn, pads, locked)
    out["bidding"] = st.get("phase") == "bidding"
    out["seats"] = seats
    out["history"] = _words_of_story(w, snap.story)
    out["setup"] = _set_up(w, snap.set_up)
    return out


def _rows_board(w, st, snap, out, round_, turn, pads, locked) -> list:
    """Hands and face-up rows, no chips (Cockroach Poker); the card in play."""
    out["where"] = w(msg("resumed.round", round=round_))
    if st.get("mode") == "quick":  # one press a round: the talk is the table's, not the page's
        out["where"] = w(msg("web.quick_where", round=round_))
    seats = []
    for i, s in enumerate(st["seats"]):
        seats.append({"name": w(msg("seat", seat=pads[i])), "count": w(msg("web.cards", n=s["hand"])),
                      "lines": [w(msg(f"n.{k}", n=n)) for k, n in s["row"].items() if n], "locked": False,
                      "active": st.get("active") == pads[i],
                      "warn": pads[i] in snap.one_short})  # C6: one more of a kind loses
    out["display"] = None
    out["card"] = _card(w, st, snap.story)
    return seats


def _chips_board(w, st, snap, out, round_, turn, pads, locked) -> list:
    """Chips and gardens, the display and the pile (Grasshopper Poker)."""
    out["where"] = w(msg("resumed.round_turn", round=round_, turn=turn))
    out["display"] = [w(msg(f"n.{k}", n=n)) for k, n in st["display"].items()] or [w(msg("display.empty"))]
    out["pile"] = w(msg("pile", n=st["pile"]))
    seats = []
    for i, s in enumerate(st["seats"]):
        seats.append({"name": w(msg("seat", seat=pads[i])), "count": w(msg("web.chips", n=s["chips"])),
                      "lines": [w(msg(f"n.{k}", n=n)) for k, n in s["garden"].items()],
                      "locked": pads[i] in locked,
                      "active": st.get("chooser") == pads[i]})
    return seats


# what a game's registration may name as its board (TableGame.board), and what holding A
# shows for it on a phone's page
BOARDS = {"chips": _chips_board, "rows": _rows_board}
SCORES = {"chips": "web.scores", "rows": "web.rows"}


def seat_keys(snap, seat: int) -> list:
    """[{"name", "label", "on", "mine"}] for the 8 keys of ``seat``: what the key table of
    the screen shown now says each key of that seat does (pitable.screens.views.Key), in
    words (a key it gives no meaning is off), and which card is this phone's pending bid."""
    w = catalog(snap.language).words
    bid = snap.private.get(seat)
    out = []
    for i, name in enumerate(NAMES):
        k = next((k for k in snap.keys if k.key == i and (k.seats is None or seat in k.seats)), None)
        label = name if k is None else w(k.label) if isinstance(k.label, Msg) else k.label
        out.append({"name": name, "label": label, "on": k is not None, "mine": bid == i})
    return out


def seat_payload(snap, seat: int) -> dict:
    w = catalog(snap.language).words
    bid = snap.private.get(seat)
    played = TABLE_GAMES.get((snap.state or {}).get("game", ""))
    scores = SCORES[played.board] if played is not None else "web.scores"
    return {"seat": seat, "name": w(msg("seat", seat=seat)), "keys": seat_keys(snap, seat),
            "bid": None if bid is None else NAMES[bid],
            # the screen these buttons are for: a tap sends the one its page had shown for a
            # reaction time (the loop judges the key by it: docs/architecture.md)
            "screen": snap.screen, "reaction": round(snap.reaction * 1000),
            "words": {**{k: w(msg(k)) for k in ("web.my_bid", "web.undo", "web.gone")},
                      # what holding A shows: the chips, or in Cockroach Poker (no chips) the rows
                      "web.scores": w(msg(scores))}}
