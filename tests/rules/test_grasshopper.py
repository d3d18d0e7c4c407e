"""Grasshopper Poker rules: one or more scenario tests per ruling (G1..G13, docs/rulings.md)."""

import pytest

from pitable.errors import IllegalMove, OptionError, PitableError
from pitable.rules.grasshopper import (CARDS, DECK, KINDS, Bids, Choose, Harvested, Options, Outcome,
                                       Phase, Plagued, Reveal, RoundEnded, Stalemate, State, Took,
                                       VirtualDeck, resolve, CARD_INDEX)


def start(players=3, display=("corn", "strawberry", "broccoli"), **options):
    state = State(players, Options(**options))
    for kind in display:
        state.push(Reveal(kind))
    return state


def garden(state, seat):
    return dict(zip(KINDS, state.gardens[seat]))


def bid(state, *cards):
    return state.push(Bids(tuple(cards)))


def set_display(state, **kinds):
    """Rebuild the display for a scenario, keeping the 66 cards accounted for."""
    for k, name in enumerate(KINDS):
        state.unseen[k] += state.display[k]
        state.display[k] = kinds.get(name, 0)
        state.unseen[k] -= state.display[k]


# -- G1 poker cards ---------------------------------------------------------------------

def test_g1_each_player_has_eight_poker_cards():
    state = start()
    assert CARDS == ("1", "2", "3", "4", "5", "6", "A", "X")
    for seat in range(3):
        assert state.hand(seat) == list(CARDS)


def test_g1_a_spent_card_cannot_be_bid_again_this_round():
    state = start()
    bid(state, "1", "2", "3")
    while state.phase != Phase.BIDDING:
        state.push(state.legal_moves()[0])
    before = state.to_json()
    with pytest.raises(IllegalMove, match="seat 2: card 2 is already spent"):
        bid(state, "4", "2", "5")
    assert state.to_json() == before
    assert "2" not in state.hand(1)


def test_g1_unknown_card_is_refused():
    state = start()
    with pytest.raises(IllegalMove, match="unknown card '7'"):
        bid(state, "7", "1", "2")


# -- G2 garden deck and chips -------------------------------------------------------------

def test_g2_deck_is_66_cards_14_grasshoppers_13_of_each_plant():
    assert sum(DECK) == 66
    assert dict(zip(KINDS, DECK)) == {"grasshopper": 14, "corn": 13, "strawberry": 13,
                                      "broccoli": 13, "blackberry": 13}
    assert sorted(VirtualDeck(5).order).count(0) == 14


def test_g2_a_fifteenth_grasshopper_cannot_be_revealed():
    state = State(2)
    state.unseen[0] = 0  # all 14 grasshoppers already out
    state.unseen[1] -= 0
    with pytest.raises(IllegalMove, match="all 14 grasshopper cards are already out"):
        state.push(Reveal("grasshopper"))
    assert state.phase == Phase.REVEAL and state.to_reveal == 3


def test_g2_chips_have_no_cap_at_24():
    state = start(2, display=("corn", "corn", "corn"))
    state.chips[0] = 24
    bid(state, "A", "1")
    assert state.chips[0] == 25


# -- G3 cancelling --------------------------------------------------------------------------

def test_g3_equal_numbers_cancel_and_get_nothing():
    state = start(3)
    fx = bid(state, "5", "5", "2")
    assert fx == ()  # nothing taken yet: only seat 3 chooses
    assert state.phase == Phase.CHOOSING and state.chooser == 2
    state.push(Choose("corn"))
    assert state.phase == Phase.REVEAL  # seats 1 and 2 got nothing
    assert sum(state.gardens[0]) == sum(state.gardens[1]) == 0


@pytest.mark.parametrize("cards", [("A", "A", "3"), ("X", "X", "3")])
def test_g3_aces_and_xs_cancel_too(cards):
    res = resolve(tuple(CARD_INDEX[c] for c in cards))
    assert res.cancelled == (0, 1)
    assert res.takes_all is None and res.choosers == (2,)


# -- G4 Ace and X ---------------------------------------------------------------------------

def test_g4_uncancelled_ace_takes_whole_display():
    state = start(3, display=("corn", "corn", "grasshopper"))
    fx = bid(state, "6", "A", "2")
    assert Took(1, (1, 2, 0, 0, 0), "ace") in fx
    assert garden(state, 1) == {"grasshopper": 1, "corn": 2, "strawberry": 0, "broccoli": 0, "blackberry": 0}
    assert sum(state.gardens[0]) == sum(state.gardens[2]) == 0  # nothing left for the numbers


def test_g4_x_takes_the_aces_power():
    state = start(3)
    fx = bid(state, "A", "X", "6")
    assert fx[0] == Took(1, (0, 1, 1, 1, 0), "x")
    assert sum(state.gardens[0]) == 0


def test_g4_x_alone_gets_nothing():
    state = start(3)
    bid(state, "X", "3", "4")
    assert sum(state.gardens[0]) == 0


def test_g4_cancelled_ace_gives_x_no_power_by_default():
    res = resolve((CARD_INDEX["A"], CARD_INDEX["A"], CARD_INDEX["X"]))
    assert res.takes_all is None and res.stalemate


def test_g4_option_x_takes_cancelled_ace():
    options = Options(x_takes_cancelled_ace=True)
    res = resolve((CARD_INDEX["A"], CARD_INDEX["A"], CARD_INDEX["X"]), options)
    assert (res.takes_all, res.how) == (2, "x")
    state = start(3, x_takes_cancelled_ace=True)
    assert bid(state, "A", "A", "X")[0] == Took(2, (0, 1, 1, 1, 0), "x")


def test_g4_cancelled_x_leaves_the_ace_its_power():
    res = resolve(tuple(CARD_INDEX[c] for c in ("A", "X", "X", "1")))
    assert (res.takes_all, res.how) == (0, "ace")


# -- G5 numbers ---------------------------------------------------------------------------------

def test_g5_numbers_choose_in_descending_order():
    state = start(4, display=("corn", "strawberry", "broccoli"))
    bid(state, "2", "6", "4", "1")
    assert state.chooser == 1
    state.push(Choose("corn"))
    assert state.chooser == 2
    state.push(Choose("broccoli"))
    # one kind left: seat 1's choice is forced; seat 4 gets nothing
    assert garden(state, 0)["strawberry"] == 1
    assert sum(state.gardens[3]) == 0
    assert state.phase == Phase.REVEAL


def test_g5_a_chooser_takes_all_cards_of_a_stacked_kind():
    state = start(3, display=("corn", "corn", "strawberry"))
    bid(state, "6", "5", "X")
    state.push(Choose("corn"))
    assert garden(state, 0)["corn"] == 2
    assert garden(state, 1)["strawberry"] == 1  # forced


def test_g5_forced_choice_applies_itself_and_is_not_awaited():
    state = start(3, display=("corn", "corn", "corn"))
    fx = bid(state, "3", "2", "1")
    assert fx[0] == Took(0, (0, 3, 0, 0, 0), "forced")
    assert state.phase == Phase.REVEAL  # the others got nothing, refill follows


def test_g5_choosing_a_kind_not_on_display_is_refused():
    state = start(3)
    bid(state, "6", "5", "4")
    with pytest.raises(IllegalMove, match="no grasshopper on the display"):
        state.push(Choose("grasshopper"))
    with pytest.raises(IllegalMove, match="unknown kind"):
        state.push(Choose("potato"))


# -- G6 two players ---------------------------------------------------------------------------

def test_g6_two_players_lone_chooser_takes_whole_display():
    state = start(2)
    fx = bid(state, "3", "X")
    assert fx[0] == Took(0, (0, 1, 1, 1, 0), "alone")


def test_g6_two_players_both_choosing_take_one_kind_each():
    state = start(2)
    bid(state, "3", "5")
    assert state.chooser == 1


def test_g6_does_not_apply_with_three_players():
    state = start(3)
    bid(state, "3", "X", "X")
    assert state.chooser == 0 and state.phase == Phase.CHOOSING


# -- G7 stalemate -------------------------------------------------------------------------------

def test_g7_first_stalemate_adds_a_card_and_bids_again():
    state = start(3)
    fx = bid(state, "4", "4", "X")
    assert Stalemate(1, (0,) * 5) in fx
    assert state.phase == Phase.REVEAL and state.to_reveal == 1
    state.push(Reveal("corn"))  # stacks on the corn
    assert state.display[1] == 2 and sum(state.display) == 4
    assert state.phase == Phase.BIDDING
    assert state.spent_cards(0) == ["4"]  # the bid cards are spent


def test_g7_second_stalemate_discards_display():
    state = start(3)
    bid(state, "4", "4", "X")
    state.push(Reveal("corn"))
    fx = bid(state, "5", "5", "5")
    assert Stalemate(2, (0, 2, 1, 1, 0)) in fx
    assert sum(state.display) == 0 and sum(state.discard) == 4
    assert state.to_reveal == 3


def test_g7_count_resets_when_anyone_takes_cards():
    state = start(3)
    bid(state, "4", "4", "X")
    state.push(Reveal("corn"))
    bid(state, "6", "1", "2")  # cards taken: count resets
    assert state.stalemates == 0
    while state.phase != Phase.BIDDING:
        state.push(state.legal_moves()[0])
    fx = bid(state, "3", "3", "3")
    assert any(isinstance(e, Stalemate) and e.count == 1 for e in fx)


def test_g7_count_resets_at_end_of_round():
    state = start(2)
    for c in ("1", "2", "3", "4", "5", "6", "A"):
        bid(state, c, c)  # stalemates, alternately adding and renewing
        while state.phase == Phase.REVEAL:
            state.push(state.legal_moves()[0])
    assert state.stalemates == 1  # seven in a row: 1, 2->0, 1, 2->0, 1, 2->0, 1
    bid(state, "X", "X")  # last bid of the round: stalemate 2, then the round ends
    assert state.round == 2 and state.stalemates == 0


def test_g7_third_stalemate_in_a_row_counts_as_a_first():
    # After the display is renewed the count starts again (the rulebook's "all 4 cards").
    state = start(3)
    bid(state, "4", "4", "X")
    state.push(Reveal("corn"))
    bid(state, "5", "5", "5")
    for kind in ("corn", "corn", "broccoli"):
        state.push(Reveal(kind))
    fx = bid(state, "6", "6", "6")
    assert Stalemate(1, (0,) * 5) in fx and state.to_reveal == 1


def test_g7_empty_pile_adds_no_card():
    state = start(3)
    moved = list(state.unseen)
    state.discard = moved
    state.unseen = [0] * 5
    fx = bid(state, "4", "4", "X")
    assert Stalemate(1, (0,) * 5) in fx
    assert state.phase == Phase.BIDDING and sum(state.display) == 3


# -- G8 cultivation -------------------------------------------------------------------------------

def test_g8_harvest_in_threes_one_chip_each():
    state = start(2, display=("corn", "corn", "corn"))
    state.gardens[0][1] = 3  # already 3 corn? cannot be: set 3 + 3 -> 6 corn give 2 chips
    state.unseen[1] -= 3
    fx = bid(state, "A", "2")
    assert Harvested(0, 1, 2) in fx
    assert state.chips[0] == 2 and state.gardens[0][1] == 0 and state.discard[1] == 6


def test_g8_leftover_plants_stay():
    state = start(2, display=("corn", "corn", "strawberry"))
    state.gardens[0][1] = 2
    state.unseen[1] -= 2
    bid(state, "A", "2")
    assert state.chips[0] == 1 and garden(state, 0)["corn"] == 1 and garden(state, 0)["strawberry"] == 1


def test_g8_plague_discards_whole_garden_including_plants_just_won():
    state = start(2, display=("grasshopper", "corn", "corn"))
    state.gardens[0][0] = 2
    state.gardens[0][1] = 1
    state.unseen[0] -= 2
    state.unseen[1] -= 1
    fx = bid(state, "A", "1")
    assert Plagued(0, (3, 3, 0, 0, 0)) in fx
    assert not any(isinstance(e, Harvested) for e in fx)  # 3 corn, but no harvest
    assert sum(state.gardens[0]) == 0 and state.chips[0] == 0
    assert state.discard[0] == 3 and state.discard[1] == 3


def test_g8_two_grasshoppers_are_safe():
    state = start(2, display=("grasshopper", "grasshopper", "corn"))
    bid(state, "A", "1")
    assert garden(state, 0)["grasshopper"] == 2


# -- G9 round end ---------------------------------------------------------------------------------

def play_round_of_takes(state):
    """Bid 8 times with seat order cards, taking the first legal choice."""
    for c in CARDS:
        while state.phase == Phase.REVEAL:
            state.push(state.legal_moves()[0])
        bid(state, *([c] * 1 + [CARDS[(CARDS.index(c) + i) % 8] for i in range(1, state.players)]))
        while state.phase == Phase.CHOOSING:
            state.push(state.legal_moves()[0])


def test_g9_round_ends_when_all_eight_cards_are_spent():
    state = start(2)
    for turn in range(7):
        while state.phase == Phase.REVEAL:
            state.push(state.legal_moves()[0])
        card = CARDS[turn]
        bid(state, card, CARDS[(turn + 1) % 8])
        while state.phase == Phase.CHOOSING:
            state.push(state.legal_moves()[0])
        assert state.round == 1
    while state.phase == Phase.REVEAL:
        state.push(state.legal_moves()[0])
    fx = bid(state, "X", "1")
    assert any(isinstance(e, RoundEnded) for e in fx)
    assert state.round == 2 and state.hand(0) == list(CARDS) and state.hand(1) == list(CARDS)


def test_g9_majority_chip_and_ties():
    state = start(3)
    state.gardens = [[2, 1, 1, 0, 0], [0, 2, 0, 0, 0], [0, 0, 0, 1, 1]]
    assert state._majority_chip() == (0, 1, 2)  # grasshoppers do not count: 2, 2, 2
    state.gardens = [[2, 1, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 0, 0, 0]]
    assert state._majority_chip() == (1,)


def test_g9_no_chip_when_the_most_is_zero():
    state = start(3)
    state.gardens = [[2, 0, 0, 0, 0], [0] * 5, [1, 0, 0, 0, 0]]
    assert state._majority_chip() == ()
    assert state.chips == [0, 0, 0]


def test_g9_display_refilled_to_three_at_round_end():
    state = start(2, display=("corn", "strawberry", "broccoli"))
    bid(state, "1", "X")  # seat 1 alone takes the display (G6)
    for c in CARDS[1:-1]:
        while state.phase == Phase.REVEAL:
            state.push(state.legal_moves()[0])
        bid(state, c, c)  # stalemates only; the display grows and renews
    while state.phase == Phase.REVEAL:
        state.push(state.legal_moves()[0])
    fx = bid(state, "X", "1")  # seat 2 alone: takes the whole display (G6)
    assert any(isinstance(e, RoundEnded) for e in fx)
    assert state.phase == Phase.REVEAL and state.to_reveal == 3


# -- G10 refill ------------------------------------------------------------------------------------

def test_g10_refill_to_three_after_cards_were_taken_and_same_kinds_stack():
    state = start(3, display=("corn", "strawberry", "broccoli"))
    bid(state, "6", "X", "X")
    state.push(Choose("corn"))
    assert state.to_reveal == 1
    state.push(Reveal("strawberry"))
    assert state.display == [0, 0, 2, 1, 0]
    assert state.phase == Phase.BIDDING


# -- G11 game end --------------------------------------------------------------------------------

def near_the_end(players=2, display=("corn", "strawberry", "broccoli"), **options):
    state = start(players, display, **options)
    state.discard = list(state.unseen)  # everything else is gone
    state.unseen = [0] * 5
    return state


def test_g11_game_ends_when_pile_and_display_are_empty_even_mid_round():
    state = near_the_end(2)
    fx = bid(state, "A", "1")
    assert state.phase == Phase.OVER and state.round == 1
    final = [e for e in fx if isinstance(e, RoundEnded)]
    assert final == [RoundEnded(1, (0,), True)]  # the final intermediate score
    assert state.chips == [1, 0]
    assert state.outcome == Outcome((1, 0), (0, 0), (0,))


def test_g11_game_goes_on_while_the_display_still_has_cards():
    state = near_the_end(4)
    bid(state, "6", "5", "X", "X")
    state.push(Choose("corn"))
    state.push(Choose("strawberry"))
    assert state.phase == Phase.BIDDING and state.display_kinds() == ["broccoli"]


def test_g11_option_end_on_empty_pile_ends_at_first_refill_finding_pile_empty():
    state = near_the_end(4, end_on_empty_pile=True)
    bid(state, "6", "5", "X", "X")
    state.push(Choose("corn"))
    state.push(Choose("strawberry"))
    assert state.phase == Phase.OVER and state.display_kinds() == ["broccoli"]


def test_g11_no_second_chip_when_the_game_ends_at_a_round_end():
    state = near_the_end(2)
    state.gardens[0][1] = 1
    state.discard[1] -= 1
    state.spent = [0x3F, 0x3F]  # only A and X left
    bid(state, "A", "A")  # stalemate with an empty pile: no card added
    assert state.phase == Phase.BIDDING and sum(state.display) == 3
    fx = bid(state, "X", "X")  # second stalemate on the round's last bid: display discarded
    rounds = [e for e in fx if isinstance(e, RoundEnded)]
    assert state.phase == Phase.OVER and len(rounds) == 1 and rounds[0].final
    assert rounds[0].majority == (0,) and state.chips == [1, 0] and state.round == 1


# -- G12 winner -------------------------------------------------------------------------------------

def finish(state, chips, gardens):
    state.chips = list(chips)
    state.gardens = [list(g) for g in gardens]
    state._game_over([])
    return state.outcome.winners


def test_g12_most_chips_wins():
    assert finish(start(3), [3, 5, 4], [[0] * 5] * 3) == (1,)


def test_g12_tie_broken_by_fewer_grasshoppers():
    assert finish(start(3), [5, 5, 1], [[2, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0] * 5]) == (1,)


def test_g12_still_tied_is_a_shared_win():
    assert finish(start(3), [5, 5, 1], [[1, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0] * 5]) == (0, 1)


# -- G13 beginners ------------------------------------------------------------------------------------

def test_g13_beginner_x_is_only_a_pass_card():
    state = start(3, beginner=True)
    fx = bid(state, "A", "X", "2")
    assert fx[0] == Took(0, (0, 1, 1, 1, 0), "ace")
    assert sum(state.gardens[1]) == 0


def test_g13_beginner_x_never_takes_even_with_cancelled_ace_option():
    res = resolve(tuple(CARD_INDEX[c] for c in ("A", "A", "X")),
                  Options(beginner=True, x_takes_cancelled_ace=True))
    assert res.stalemate


# -- the state's contract -------------------------------------------------------------------------

def test_illegal_input_for_the_phase_is_refused_with_reason_and_nothing_changes():
    state = State(3)
    before = state.to_json()
    with pytest.raises(IllegalMove, match="bids are not expected now"):
        bid(state, "1", "2", "3")
    with pytest.raises(IllegalMove, match="no choice is expected now"):
        state.push(Choose("corn"))
    assert state.to_json() == before and not state.can_pop()


def test_wrong_number_of_bids_is_refused():
    state = start(3)
    with pytest.raises(IllegalMove, match="expected 3 bids"):
        bid(state, "1", "2")


def test_errors_are_project_errors_and_value_errors():
    state = State(2)
    with pytest.raises(PitableError):
        state.push(Choose("corn"))
    with pytest.raises(ValueError):
        state.push(Choose("corn"))


@pytest.mark.parametrize("players", [1, 5, "3", True])
def test_player_count_must_be_two_to_four(players):
    with pytest.raises(IllegalMove):
        State(players)


def test_undo_back_to_the_start_restores_exact_states():
    state = start(3)
    snapshots = []
    bid(state, "6", "5", "X")
    while not state.is_over() and len(state.moves) < 40:
        snapshots.append(state.copy())
        state.push(state.legal_moves()[-1])
    while snapshots:
        state.pop()
        assert state == snapshots.pop()
    with pytest.raises(IllegalMove, match="nothing to undo"):
        State(2).pop()


def test_state_waits_for_what_its_phase_says():
    state = State(2)
    assert state.waiting_for() == "3 cards to be revealed"
    for kind in ("corn", "strawberry", "broccoli"):
        state.push(Reveal(kind))
    assert state.waiting_for() == "everyone's bids"
    bid(state, "3", "4")
    assert state.waiting_for() == "seat 2 to choose a kind"


def test_options_from_dict_refuses_unknown_and_non_bool_as_an_option_error_not_a_move():
    for bad, words in (({"beginer": True}, "unknown option"), ({"beginner": "yes"}, "true or false")):
        with pytest.raises(OptionError, match=words) as caught:
            Options.from_dict(bad)
        assert not isinstance(caught.value, IllegalMove)  # nothing was played
        assert isinstance(caught.value, ValueError)
