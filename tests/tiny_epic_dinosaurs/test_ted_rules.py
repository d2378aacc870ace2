"""Each rule of Tiny Epic Dinosaurs in a scripted state."""

import numpy as np
import pytest
from ted_scripted import cell, fence, new_state, place, put, run

from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.rules import RuleError
from tyrsim.games.tiny_epic_dinosaurs.actions import (
    Enclose,
    EscapeAs,
    Feed,
    LoseDinosaur,
    MoveFence,
    PickResearch,
)
from tyrsim.games.tiny_epic_dinosaurs.components import Contract
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules
from tyrsim.games.tiny_epic_dinosaurs.steps import (
    ASSIGN_TURN,
    END_ROUND,
    RETURN_RANCHERS,
    START_ROUND,
    ArrangeRanch,
    BreedHerd,
    FeedHerd,
)

BIG = [cell(2, 1), cell(2, 2), cell(2, 3), cell(3, 1), cell(3, 2), cell(3, 3)]  # in the 12-space enclosure
PERMANENT = [cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 1)]


# --- set-up and Phase 1 ---


def test_setup_for_four_players():
    state = new_state(4)
    assert [p.resources for p in state.players] == [[5, 3, 1], [6, 3, 1], [5, 4, 1], [5, 3, 2]]
    assert len(state.public_contracts) == 5
    assert all(p.private is not None for p in state.players)
    assert len(state.contract_deck) == 20 - 4 - 5
    assert len(state.research_display) == 3 and len(state.research_deck) == 19
    assert all(p.ranchers == 3 and p.owner_left for p in state.players)
    assert state.fence_supply == 26 and set(state.supply.values()) == {15}
    assert len(state.game.spaces) > len(new_state(2).game.spaces)


def test_resources_never_exceed_thirteen():
    state = new_state(2)
    state.players[0].resources = [12, 13, 0]
    run(state, START_ROUND)
    assert state.players[0].resources == [13, 13, 1]


def test_covered_symbols_yield_nothing():
    state = new_state(2)
    state.players[0].resources = [0, 0, 0]
    put(state, 0, "stegosaurus", [cell(0, 0)])  # a leaf symbol
    put(state, 0, "raptor", [cell(2, 4)])  # a meat symbol
    run(state, START_ROUND)
    assert state.players[0].resources == [4, 2, 1]


# --- Phase 2 ---


def test_cannot_place_where_payment_is_impossible():
    state = new_state(2)
    state.players[0].resources = [0, 0, 0]
    state._legal = None
    spaces = {a.space for a in state.legal_actions()}
    assert not spaces & {"B1", "B2", "B3", "B4", "C4", "D1", "D2", "D5"}
    assert {"A1", "C1", "C5"} <= spaces


def test_hospital_frees_the_hunt_space():
    state = new_state(2, hunt_net_faces=0, hunt_egg_faces=0)
    place(state, "A1", 1, False)
    assert state.players[0].holding == ["stegosaurus"] and state.players[0].counters["injuries"] == 1
    assert state.occupancy["A1"] == {}
    assert (1, False) in {(a.ranchers, a.owner) for a in state.legal_actions() if a.space == "A1"}


def test_injured_rancher_that_stays_still_blocks():
    state = new_state(2, hunt_net_faces=0, hunt_egg_faces=0, injured_rancher="stays")
    place(state, "A1", 1, False)
    assert state.occupancy["A1"] == {0: 1}
    assert {(a.ranchers, a.owner) for a in state.legal_actions() if a.space == "A1"} == {(2, False), (0, True)}


def test_players_without_ranchers_are_skipped():
    state = new_state(2)
    state.players[1].ranchers_left, state.players[1].owner_left = 0, False
    place(state, "C6", 1, False)
    assert state.current_player() == 0


def test_a_player_who_can_do_nothing_keeps_the_rest_home():
    state = new_state(2)
    state.occupancy = {space.id: {0: 1} for space in state.game.spaces}  # player 0 everywhere
    state.players[0].ranchers_left, state.players[0].owner_left = 0, False
    state.players[1].ranchers_left, state.players[1].owner_left = 1, False  # one rancher cannot bump
    run(state, ASSIGN_TURN)
    assert state.round == 2 and state.players[1].counters["placements"] == 0


def test_research_draw_three_keep_one_and_show_the_others():
    state = new_state(2)
    place(state, "D1", 1, False)
    shown = [c.name for c in state.research_display]
    assert state.legal_actions() == [*(PickResearch(name) for name in shown), PickResearch("draw")]
    state.apply(PickResearch("draw"))
    assert state.prompt.kind == "pick_research" and len(state.legal_actions()) == 3
    drawn = [a.card for a in state.legal_actions()]
    state.apply(PickResearch(drawn[1]))
    assert [c.name for c in state.players[0].research] == [drawn[1]]
    assert {drawn[0], drawn[2]} <= {c.name for c in state.research_display}
    assert len(state.research_display) == 5
    assert state.players[0].resources[:2] == [4, 2]


def test_research_by_removing_a_dinosaur_from_the_ranch():
    state = new_state(2)
    put(state, 0, "raptor", [cell(2, 1)])
    card = state.research_display[0].name
    place(state, "D3", 1, False, "raptor")
    state.apply(PickResearch(card))
    assert state.players[0].ranch.count("raptor") == 0 and state.supply["raptor"] == 15
    assert card in {c.name for c in state.players[0].research}


def test_place_now_puts_a_dinosaur_on_the_ranch_and_allows_rearranging():
    state = new_state(2)
    state.players[0].holding = ["raptor"]
    fence(state, 0, "1,4|2,4")
    place(state, "B4", 1, False, "raptor")
    assert state.players[0].ranch.count("raptor") == 1 and state.players[0].holding == []
    assert state.prompt.kind == "rearrange"
    moves = [a for a in state.legal_actions() if isinstance(a, MoveFence)]
    assert moves and all(a.source == "1,4|2,4" for a in moves)
    state.apply(MoveFence("1,4|2,4", "2,1|2,2"))
    # each fence moves once: only stopping is left, which needs no decision
    assert state.prompt.kind == "assign" and state.current_player() == 1
    assert {state.layout.edge_names[e] for e in state.players[0].ranch.fences} == {"2,1|2,2"}


def test_rearranging_may_place_holding_fences_under_the_variant():
    state = new_state(2, rearrange_holding=True)
    state.players[0].holding_fences = 1
    place(state, "C5", 1, False)
    assert any(a.source == "holding" for a in state.legal_actions() if isinstance(a, MoveFence))
    plain = new_state(2)
    plain.players[0].holding_fences = 1
    place(plain, "C5", 1, False)
    assert plain.prompt.kind != "rearrange"  # no fence on the ranch to move: nothing to choose
    assert plain.first_player == 0


def test_first_player_marker_moves_and_stays():
    state = new_state(2)
    place(state, "C6", 1, False)
    place(state, "C5", 1, False)
    assert state.first_player == 1
    run(state, END_ROUND)
    assert state.first_player == 1 and state.current_player() == 1  # round 2 starts with player 1


def test_fence_spaces_and_extra_fences():
    state = new_state(2)
    spaces = {a.space for a in state.legal_actions()}
    assert "C4" not in spaces and "C3" not in spaces  # 2 supply needed; C3 is not on the 2-player side
    card = next(c for c in state.research_deck + state.research_display if c.name == "Lumber Yard")
    state.players[0].research.append(card)
    state.players[0].learn()
    place(state, "C1", 1, False)
    assert state.players[0].holding_fences == 2 and state.fence_supply == 24
    state.fence_supply = 0
    state._legal = None
    spaces = {a.space for a in state.legal_actions()}
    assert "C1" not in spaces and "C2" in spaces  # C2 still gives its supply
    place(state, "C2", 1, False)
    assert state.players[1].holding_fences == 0 and state.players[1].resources[2] == 2


# --- Phase 4 ---


def test_one_kind_per_enclosure_and_unplaceable_dinosaurs_escape():
    state = new_state(2, border="fence")
    player = state.players[0]
    player.holding = ["stegosaurus", "raptor", "allosaurus"]
    state.supply["stegosaurus"] -= 1
    state.supply["raptor"] -= 1
    state.supply["allosaurus"] -= 1
    fence(state, 0, "1,4|2,4")  # enclosures of 4, 2 and 10 spaces: room for three kinds
    run(state, ArrangeRanch(0))
    options = state.legal_actions()
    assert all(isinstance(a, Enclose) for a in options) and len(options) == 9
    state.apply(Enclose("0,4", 2, "allosaurus"))
    state.apply(Enclose("0,0", 4, "raptor"))
    # the last enclosure must take the stegosaurus: nothing left to choose
    assert player.ranch.herd() == {"allosaurus": 1, "raptor": 1, "stegosaurus": 1}
    assert player.holding == [] and player.counters["escapes"] == 0


def test_no_room_for_a_third_kind_escapes_with_its_penalty():
    state = new_state(2, border="fence")
    player = state.players[0]
    put(state, 0, "stegosaurus", PERMANENT[:2])
    put(state, 0, "raptor", BIG[:2])
    player.holding = ["brachiosaurus"]  # two enclosures, three kinds
    state.supply["brachiosaurus"] -= 1
    run(state, ArrangeRanch(0))
    while state.prompt and state.prompt.kind == "enclose":
        state.apply(
            Enclose("0,0", 4, "stegosaurus")
            if Enclose("0,0", 4, "stegosaurus") in state.legal_actions()
            else Enclose("0,2", 12, "raptor")
        )
    assert player.counters["escapes"] == 1 and state.supply["brachiosaurus"] == 15
    assert player.paid_herbivore and not player.paid_carnivore
    assert player.ranch.herd() == {"stegosaurus": 2, "raptor": 2}


def test_dinosaurs_must_be_placed_when_they_can():
    state = new_state(2, border="fence")
    state.players[0].holding = ["stegosaurus"] * 5
    run(state, ArrangeRanch(0))
    # one kind, two enclosures: both get stegosauruses (the engine never leaves one empty while one escapes)
    while state.prompt and state.prompt.kind == "enclose":
        state.apply(state.legal_actions()[0])
    assert state.players[0].ranch.count("stegosaurus") == 5


def test_herbivore_penalty_once_per_round():
    state = new_state(2, border="fence")
    player = state.players[0]
    fence(state, 0, "1,4|2,4", "2,1|2,2")
    player.holding = ["stegosaurus"] * 17  # one more than the 16 grass spaces
    run(state, ArrangeRanch(0))
    while state.prompt and state.prompt.kind == "enclose":
        state.apply(state.legal_actions()[0])
    assert player.counters["escapes"] == 1
    assert state.prompt.kind == "lose_fence"
    state.apply(state.legal_actions()[0])
    assert len(player.ranch.fences) == 1 and player.paid_herbivore
    player.resources = [0, 0, 0]
    run(state, FeedHerd(0))  # nothing to eat: every stegosaurus escapes, no second fence lost
    assert player.counters["escapes"] == 17 and len(player.ranch.fences) == 1
    assert player.ranch.herd() == {}


def test_penalty_once_per_phase_variant():
    state = new_state(2, penalty_once_per="phase")
    player = state.players[0]
    fence(state, 0, "1,4|2,4", "2,1|2,2")
    player.paid_herbivore = True
    put(state, 0, "stegosaurus", PERMANENT[:1])
    player.resources = [0, 0, 0]
    run(state, FeedHerd(0))
    assert state.prompt.kind == "lose_fence"


def test_carnivore_escape_costs_another_dinosaur():
    state = new_state(2)
    player = state.players[0]
    put(state, 0, "allosaurus", PERMANENT[:1])
    put(state, 0, "stegosaurus", BIG[:2])
    put(state, 0, "raptor", [cell(0, 4)])
    fence(state, 0, "1,4|2,4")
    player.resources = [5, 1, 0]  # the allosaurus (2 meat) cannot eat; the raptor (1 meat) can
    run(state, FeedHerd(0))
    # one way to feed the most (the stegosauruses and the raptor): the allosaurus escapes
    assert player.counters["unfed"] == 1 and state.supply["allosaurus"] == 15
    assert state.prompt.kind == "lose_dinosaur"
    assert set(state.legal_actions()) == {LoseDinosaur("stegosaurus"), LoseDinosaur("raptor")}
    state.apply(LoseDinosaur("stegosaurus"))
    assert player.ranch.herd() == {"stegosaurus": 1, "raptor": 1}
    assert player.paid_carnivore and not player.paid_herbivore and len(player.ranch.fences) == 1


def test_unfed_dinosaur_escapes_and_feeding_is_compulsory():
    """Read as 'maximal' (rule `must_place_and_feed`), any feeding after which no unfed dinosaur could eat."""
    state = new_state(2, must_place_and_feed="maximal")
    player = state.players[0]
    put(state, 0, "brachiosaurus", BIG[:1])
    put(state, 0, "stegosaurus", BIG[1:4])
    player.resources = [3, 0, 0]
    run(state, FeedHerd(0))
    plans = {a.fed for a in state.legal_actions()}
    # every plan feeds as many as it can: three stegosauruses, or the brachiosaurus and one stegosaurus
    assert plans == {(("stegosaurus", 3),), (("brachiosaurus", 1), ("stegosaurus", 1))}
    state.apply(Feed((("brachiosaurus", 1), ("stegosaurus", 1))))
    assert player.counters["unfed"] == 2 and player.ranch.herd() == {"brachiosaurus": 1, "stegosaurus": 1}
    assert player.resources[0] == 0


def test_the_feeding_feeds_the_most_dinosaurs_by_default():
    """"If a dinosaur can be fed, then it must be fed!", read as Phase 4's "If you are able to place a dinosaur,
    you must do so" is: the player who could feed three dinosaurs must; feeding the brachiosaurus and one
    stegosaurus (two) is no longer offered, so the three stegosauruses eat without a question."""
    state = new_state(2)
    player = state.players[0]
    put(state, 0, "brachiosaurus", BIG[:1])
    put(state, 0, "stegosaurus", BIG[1:4])
    player.resources = [3, 0, 0]
    run(state, FeedHerd(0))
    assert state.prompt is None or state.prompt.kind != "feed"
    assert player.counters["unfed"] == 1 and player.ranch.herd() == {"stegosaurus": 3}


def test_the_layout_gives_any_free_enclosure_when_read_as_maximal():
    """Read as 'maximal', Phase 4 offers every free enclosure to every kind still without room (the default
    offers only those that house the most: test_ted_phase4.py)."""
    state = new_state(2, must_place_and_feed="maximal")
    fence(state, 0, "0,2|N", "0,2|1,2")
    state.players[0].holding = ["stegosaurus"] * 4 + ["raptor"]
    run(state, ArrangeRanch(0))
    assert {(a.enclosure, a.kind) for a in state.legal_actions()} == {
        (e, k) for e in ("0,0", "0,2") for k in ("stegosaurus", "raptor")}


def test_omnivore_counts_as_either():
    state = new_state(2)
    player = state.players[0]
    card = next(c for c in state.research_deck + state.research_display if c.name == "Oviraptor")
    player.research.append(card)
    player.learn()
    put(state, 0, "Oviraptor", [cell(0, 3)])
    put(state, 0, "stegosaurus", PERMANENT[:1])
    put(state, 0, "raptor", BIG[:1])
    fence(state, 0, "1,4|2,4")
    player.resources = [1, 1, 0]  # stegosaurus and raptor eat; nothing left for the Oviraptor
    run(state, FeedHerd(0))
    assert state.prompt.kind == "feed"  # the Oviraptor could eat the leaf or the meat instead
    state.apply(Feed((("stegosaurus", 1), ("raptor", 1))))
    assert state.prompt.kind == "escape_as"
    state.apply(EscapeAs("carnivore"))
    assert state.prompt.kind == "lose_dinosaur"
    assert set(state.legal_actions()) == {LoseDinosaur("stegosaurus"), LoseDinosaur("raptor")}
    state.apply(LoseDinosaur("raptor"))
    assert len(player.ranch.fences) == 1 and player.ranch.herd() == {"stegosaurus": 1}
    assert card in state.research_discard and card not in player.research  # its card is discarded


def test_breeding_overflow_escapes():
    state = new_state(2, border="fence")
    player = state.players[0]
    put(state, 0, "stegosaurus", PERMANENT)
    put(state, 0, "raptor", [c for c in range(20) if state.layout.terrain[c] == "grass" and c not in PERMANENT])
    run(state, BreedHerd(0))
    # 2 stegosaurus newborns and 3 raptors (the supply's last) find no room
    assert player.counters["bred"] == 5 and player.counters["escapes"] == 5
    assert state.supply["raptor"] == 3 and state.supply["stegosaurus"] == 11
    assert player.paid_herbivore and player.paid_carnivore


def test_unenclosed_dinosaurs_do_not_breed():
    state = new_state(2)  # the rulebook's open border: the grass outside the permanent enclosure is open
    put(state, 0, "stegosaurus", BIG[:4])
    run(state, BreedHerd(0))
    assert state.players[0].ranch.count("stegosaurus") == 4


def test_breed_group_variant():
    state = new_state(2, breed_group=3, border="fence")
    put(state, 0, "stegosaurus", BIG[:5])
    run(state, BreedHerd(0))
    assert state.players[0].ranch.count("stegosaurus") == 6


# --- Phase 7 and the end ---


def test_contract_refill_and_research_refresh_at_end_of_round():
    state = new_state(2)
    state.public_contracts.pop()
    shown = list(state.research_display)
    run(state, END_ROUND)
    assert len(state.public_contracts) == 3
    assert not set(c.name for c in shown) & set(c.name for c in state.research_display)
    assert shown == state.research_discard[-3:]
    assert state.round == 2


def test_fourth_rancher_arrives_in_round_four():
    state = new_state(2)
    state.round = 3
    run(state, END_ROUND)
    assert state.round == 4 and all(p.ranchers == 4 and p.ranchers_left == 4 for p in state.players)


def test_private_contract_at_end_of_round_variant():
    state = new_state(2, private_contract_timing="also_end_of_round")
    wanted = state.players[0].private.dinosaurs
    cells = iter([*PERMANENT, *BIG])
    for kind, n in wanted:
        put(state, 0, kind, [next(cells) for _ in range(n)])
    run(state, END_ROUND)
    assert state.players[0].counters["contracts_private"] == 1


def test_game_lasts_six_rounds_and_tie_goes_to_turn_order():
    state = new_state(3)
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        state.apply(RandomPolicy().choose(state, rng))
    assert state.round == 6 and state.stats()["rounds"] == 6
    scores = state.scores()
    assert scores == [sum(state.score_parts(s).values()) for s in range(3)]
    fresh = new_state(3)
    fresh.round_first_player = 2
    assert fresh.winners() == [2]  # all on 0 points: the first in the last round's turn order wins


def test_rule_validation():
    with pytest.raises(RuleError, match="border"):
        Rules.from_overrides({"border": "wall"})
    with pytest.raises(RuleError, match="extra_rancher_round"):
        Rules.from_overrides({"rounds": 3})
    with pytest.raises(RuleError, match="hunt"):
        Rules(hunt_net_faces=0, hunt_injury_faces=0, hunt_egg_faces=0)


def give_card(state, seat, name):
    card = next(c for c in [*state.research_deck, *state.research_display] if c.name == name)
    for pile in (state.research_deck, state.research_display):
        if card in pile:
            pile.remove(card)
    state.players[seat].research.append(card)
    state.players[seat].learn()
    state._legal = None
    return card


def test_no_face_up_research_means_drawing():
    state = new_state(2)
    state.research_display = []
    state._legal = None
    place(state, "D1", 1, False)
    assert state.prompt.kind == "pick_research"  # drawing was the only way: taken without asking


def test_research_abilities_income_cheaper_feed_less_and_points():
    state = new_state(2)
    give_card(state, 0, "Trade Route")  # +1 supply income
    give_card(state, 0, "Brokerage")  # contracts cost 1 supply less
    give_card(state, 0, "Nutrition Lab")  # allosaurus eats 1 less
    give_card(state, 0, "Predator Studies")  # 1 point per allosaurus, 1 point printed
    player = state.players[0]
    player.resources = [0, 0, 0]
    run(state, START_ROUND)
    assert player.resources == [5, 3, 2]
    assert player.cost(state.game.space_by_id["D5"]) == [0, 0, 0]
    assert state.diet(player, "allosaurus") == (0, 1, 0)
    put(state, 0, "allosaurus", BIG[:2])
    parts = state.score_parts(0)
    assert parts["dinosaurs"] == 6 and parts["research"] == 1 + 1 + 1 + 1 + 2


def test_unique_dinosaur_arrives_in_holding_and_scores_on_the_ranch():
    state = new_state(2)
    card = give_card(state, 0, "Tyrannosaurus")
    state.players[0].research.remove(card)
    state.research_display.append(card)
    state._legal = None
    place(state, "D1", 1, False)
    state.apply(PickResearch("Tyrannosaurus"))
    assert state.players[0].holding == ["Tyrannosaurus"]
    run(state, ArrangeRanch(0))
    assert state.players[0].ranch.count("Tyrannosaurus") == 1
    assert state.score_parts(0)["unique"] == card.points and state.score_parts(0)["research"] == 0


def test_contract_options_follow_the_herd_and_the_public_contracts():
    # the ways to take a contract are kept between a player's turns: each change must show
    state = new_state(2)
    steg = Contract("Three stegosauruses", (("stegosaurus", 3),), 6)
    raptors = Contract("Two raptors", (("raptor", 2),), 5)
    state.public_contracts = [steg]
    state.players[0].private = None
    state._legal = None

    def contracts():
        return {a.choice for a in state.legal_actions() if a.action == "contract"}

    assert contracts() == set()  # an empty ranch pays nothing
    put(state, 0, "stegosaurus", BIG[:3])
    assert contracts() == {"Three stegosauruses"}
    state.public_contracts = [raptors]
    state._legal = None
    assert contracts() == set()
    put(state, 0, "raptor", PERMANENT[:2])
    assert contracts() == {"Two raptors"}


# --- rulings ---


def test_the_starting_ranch_has_one_permanent_enclosure():
    # "On each player's starting ranch there is one permanent enclosure": the board's edge is no fence
    assert [r.capacity for r in new_state(2).players[0].ranch.enclosures()] == [4]
    assert sorted(r.capacity for r in new_state(2, border="fence").players[0].ranch.enclosures()) == [4, 12]


@pytest.mark.parametrize("terrain", ["grass", "any"])
def test_a_unique_dinosaur_is_placed_now_on_a_mountain_only_under_the_ruling(terrain):
    state = new_state(2, unique_terrain=terrain)
    player = state.players[0]
    give_card(state, 0, "Oviraptor")
    grass = [c for c in range(20) if state.layout.terrain[c] == "grass"]
    put(state, 0, "stegosaurus", grass)  # no grass space left
    player.holding = ["Oviraptor", "raptor"]
    player.resources = [0, 0, 1]
    state._legal = None
    offered = {a.choice for a in state.legal_actions() if a.space == "B4"}
    assert offered == ({"Oviraptor"} if terrain == "any" else set())
    if terrain == "any":
        place(state, "B4", 1, False, "Oviraptor")
        assert state.layout.terrain[player.ranch.cells.index("Oviraptor")] in ("mountain", "water")


def test_rulings_are_marked_with_their_alternatives():
    rulings = Rules.rulings()
    assert rulings["border"] == ("fence",) and rulings["unique_terrain"] == ("any",)
    assert rulings["injured_rancher"] == ("stays",) and rulings["rearrange_holding"] == (True,)
    for name in ("penalty_once_per", "private_contract_timing"):
        assert name not in rulings  # the rulebook's words are plain: these are variants, not readings
    assert rulings["must_place_and_feed"] == ("maximal",) and rulings["tie_break"] == ("marker",)
    assert rulings["no_placement_skips"] == ("round",)
    # which symbols dinosaurs cover and which food an omnivore eats are the player's choices, not readings
    assert Rules.of_kind("choice") == ["cover_order", "either_food"]
    assert "cover_order" not in rulings and "either_food" not in rulings


# --- rulings of issue 41: Phase 2's skipped turn, the tie-break's turn order ---


@pytest.mark.parametrize(("skips", "kept"), [("turn", 3), ("round", 0)])
def test_a_player_with_no_legal_placement_is_skipped_this_turn_by_default(skips, kept):
    """"If it becomes a player's turn but they have no ranchers left and no abilities available to use, they are
    skipped": a player who still has ranchers but no space they may take is skipped for this turn (rule
    `no_placement_skips`, default 'turn') and keeps their ranchers for a later turn, or ('round') sends them
    home."""
    state = new_state(2, no_placement_skips=skips)
    for groups in state.occupancy.values():
        groups[1] = 9  # player 1 everywhere, too many to bump: nobody can place
    state.prompt, state._legal, state._todo = None, None, []
    state.turn = 0
    state._step_assign_turn(ASSIGN_TURN)
    assert state.prompt is None and state._todo == [RETURN_RANCHERS]  # nobody can place: Phase 2 ends
    assert state.players[0].ranchers_left == kept and state.players[0].owner_left == bool(kept)


@pytest.mark.parametrize(("tie_break", "winner"), [("last_round", 0), ("marker", 1)])
def test_a_tie_goes_to_the_earlier_player_in_the_last_rounds_turn_order_by_default(tie_break, winner):
    """"In the event of a tie, whichever tied player is earlier in turn order wins": player 1 took the first player
    marker during the last round, which player 0 began; the marker would order the next round, but there is none.
    By default (rule `tie_break`: 'last_round') the tie goes to player 0; read from the 'marker', to player 1."""
    state = new_state(2, tie_break=tie_break)
    state.round_first_player, state.first_player = 0, 1
    assert state.scores()[0] == state.scores()[1]
    assert state.winners() == [winner]
