"""Every worked example of the Tiny Epic Dinosaurs rulebook."""

from ted_scripted import cell, fence, new_state, place, put, run

from tyrsim.games.tiny_epic_dinosaurs.components import Contract
from tyrsim.games.tiny_epic_dinosaurs.steps import BreedHerd


def groups_on(state, space):
    return sorted((a.ranchers, a.owner) for a in state.legal_actions() if a.space == space)


def test_bumping_example_a_tom_and_stacy():
    state = new_state(2)
    tom, stacy = 0, 1
    assert state.current_player() == tom
    place(state, "C6", 1, False)  # Tom: 1 rancher
    assert state.current_player() == stacy
    # Stacy must place 2 ranchers or her ranch owner (which counts as 2)
    assert groups_on(state, "C6") == [(0, True), (2, False)]


def test_bumping_example_b_julie_ben_and_john():
    state = new_state(3)
    julie, ben, john = 0, 1, 2
    place(state, "C6", 1, False)
    assert state.current_player() == ben
    place(state, "C6", 2, False)
    assert state.current_player() == john
    # three ranchers, or the ranch owner plus one ordinary rancher
    assert groups_on(state, "C6") == [(1, True), (3, False)]
    assert state.occupancy["C6"] == {julie: 1, ben: 2}


def test_no_space_where_you_already_are():
    state = new_state(2)
    place(state, "C6", 1, False)
    place(state, "C1", 1, False)
    assert state.current_player() == 0
    assert groups_on(state, "C6") == []


def test_breeding_three_stegosauruses_give_one():
    state = new_state(2)
    put(state, 0, "stegosaurus", [cell(0, 0), cell(0, 1), cell(1, 0)])  # the permanent enclosure
    run(state, BreedHerd(0))
    assert state.players[0].ranch.count("stegosaurus") == 4
    assert state.players[0].counters["bred"] == 1


def test_breeding_four_stegosauruses_in_one_enclosure_give_two():
    state = new_state(2)
    put(state, 0, "stegosaurus", [cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 1)])  # the permanent enclosure
    fence(state, 0, "0,4|N", "0,4|E", "1,4|E", "1,4|2,4")  # an empty enclosure for the newborns
    run(state, BreedHerd(0))
    assert state.players[0].counters["bred"] == 2
    assert state.players[0].ranch.count("stegosaurus") == 6


def test_breeding_two_and_two_stegosauruses_in_two_enclosures_give_two():
    state = new_state(2)
    fence(state, 0, "0,4|N", "0,4|E", "1,4|E", "1,4|2,4")  # a second enclosure: the corner beside the mountain
    put(state, 0, "stegosaurus", [cell(0, 0), cell(0, 1), cell(0, 4), cell(1, 4)])
    run(state, BreedHerd(0))
    assert state.players[0].ranch.count("stegosaurus") == 6
    assert state.players[0].counters["bred"] == 2


def test_an_egg_gives_two_dinosaurs_that_must_be_taken():
    state = new_state(2, hunt_net_faces=0, hunt_injury_faces=0, hunt_egg_faces=1)
    hunts = [a for a in state.legal_actions() if a.space == "A1"]
    assert len(hunts) == 2 and all(a.choice == "stegosaurus" for a in hunts)  # one way: nothing to decline
    place(state, "A1", 1, False)
    assert state.players[0].holding == ["stegosaurus", "stegosaurus"]
    assert state.supply["stegosaurus"] == 13


def contract_spot(players=2):
    state = new_state(players)
    public = Contract("Public", (("stegosaurus", 3),), 6)
    state.public_contracts = [public]
    state.players[0].private = Contract("Private", (("stegosaurus", 3),), 6)
    state._legal = None
    return state


def test_public_and_private_contract_need_separate_dinosaurs():
    state = contract_spot()
    put(state, 0, "stegosaurus", [cell(2, 1), cell(2, 2), cell(3, 1)])
    choices = {(a.choice, a.extra) for a in state.legal_actions() if a.space == "D4"}
    assert choices == {("Public", "")}  # three stegosauruses cannot pay both


def test_six_dinosaurs_pay_a_public_and_the_private_contract():
    state = contract_spot()
    put(state, 0, "stegosaurus", [cell(2, c) for c in (1, 2, 3, 4)] + [cell(3, 1), cell(3, 2)])
    assert ("Public", "private") in {(a.choice, a.extra) for a in state.legal_actions() if a.space == "D4"}
    deck = len(state.contract_deck)
    place(state, "D4", 1, False, "Public", "private")
    player = state.players[0]
    assert player.ranch.count("stegosaurus") == 0
    assert [c.name for c in player.contracts] == ["Public", "Private"]
    assert player.private is not None and player.private.name != "Private"  # a new private contract
    assert len(state.contract_deck) == deck - 1
    assert state.supply["stegosaurus"] == 15
    assert state.public_contracts == []  # not replaced until the end of the round


def test_contracts_need_dinosaurs_on_the_ranch_not_in_holding():
    state = contract_spot()
    state.players[0].holding = ["stegosaurus"] * 3
    state._legal = None
    assert not [a for a in state.legal_actions() if a.space == "D4"]
