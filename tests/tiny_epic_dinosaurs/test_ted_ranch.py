"""The ranch: layout data, enclosures by flood fill, placing dinosaurs, breeding spread."""

import pytest
from ted_scripted import cell

from tyrsim.games.tiny_epic_dinosaurs.components import DataFileError
from tyrsim.games.tiny_epic_dinosaurs.ranch import Ranch, RanchBoard, breeding_split, enclosure_choices, load_ranch


def ids(layout, *names):
    return {layout.edge_id(name) for name in names}


def test_empty_ranch_yields_five_leaves_three_meat_one_supply():
    assert load_ranch().income() == (5, 3, 1)


def test_fence_border_reading_has_the_permanent_enclosure_and_the_rest_bounded_by_the_border():
    layout = load_ranch(border="fence")
    regions = layout.regions(set())
    assert sorted(r.capacity for r in regions) == [4, 12]
    assert all(r.enclosed for r in regions)
    permanent = next(r for r in regions if r.capacity == 4)
    assert permanent.cells == (cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 1))


def test_one_fence_next_to_the_mountain_closes_a_two_space_enclosure():
    layout = load_ranch(border="fence")
    sizes = sorted(r.capacity for r in layout.enclosures(ids(layout, "1,4|2,4")))
    assert sizes == [2, 4, 10]


def test_hand_drawn_fences_split_the_open_grass():
    layout = load_ranch(border="fence")
    # a wall down between columns 1 and 2 of rows 2-3 and across below row 1 (columns 2-4)
    fences = ids(layout, "2,1|2,2", "3,1|3,2", "1,2|2,2", "1,4|2,4")
    sizes = sorted(r.capacity for r in layout.enclosures(fences))
    # (0,2),(1,2) | (0,4),(1,4) | (2,1),(3,1) | (2,2..4),(3,2..4) | permanent
    assert sizes == [2, 2, 2, 4, 6]


def test_a_gap_in_the_fence_joins_two_areas():
    layout = load_ranch(border="fence")
    fences = ids(layout, "2,1|2,2", "1,2|2,2", "1,4|2,4")  # (3,1)|(3,2) left open
    sizes = sorted(r.capacity for r in layout.enclosures(fences))
    assert sizes == [2, 2, 4, 8]


def test_open_border_needs_fences_on_the_ranch_edge():
    layout = load_ranch()  # the rulebook's reading: only fences, mountains and water enclose
    regions = layout.regions(set())
    enclosed = [r.capacity for r in regions if r.enclosed]
    assert enclosed == [4]  # only the pre-printed enclosure is closed
    corner = ids(layout, "0,4|N", "0,4|E", "1,4|E", "1,4|2,4")
    assert sorted(r.capacity for r in layout.enclosures(corner)) == [2, 4]
    assert len(layout.fence_slots) > len(load_ranch(border="fence").fence_slots)


def test_fence_slots_exclude_the_permanent_fence_and_non_grass_edges():
    layout = load_ranch(border="fence")
    names = {layout.edge_names[e] for e in layout.fence_slots}
    assert "0,1|0,2" not in names  # pre-printed
    assert "1,4|2,4" in names
    assert not any("|N" in n or "|W" in n for n in names)  # the border bounds already
    assert "0,2|0,3" not in names and "0,3|0,4" not in names  # the mountain bounds already


def test_breeding_split_makes_the_most_pairs():
    assert breeding_split(4, [3, 3], 2) == [2, 2]
    assert breeding_split(4, [4], 2) == [4]
    assert breeding_split(3, [3, 3], 2) == [3, 0]  # the third joins the pair: an enclosure may stay empty
    assert breeding_split(2, [1, 4], 2) == [0, 2]  # not 1 + 1, which breeds nothing
    assert breeding_split(5, [6, 2], 2) == [3, 2]
    split = breeding_split(7, [4, 4], 2)
    assert sum(split) == 7 and sum(x // 2 for x in split) == 3


def test_lay_out_one_kind_per_enclosure_and_the_rest_escape():
    layout = load_ranch(border="fence")
    ranch = Ranch(RanchBoard(layout))
    enclosures = layout.enclosures(set())  # 4 and 12 spaces
    big = next(i for i, r in enumerate(enclosures) if r.capacity == 12)
    herd = {"stegosaurus": 3, "raptor": 5, "allosaurus": 1}
    escaped = ranch.lay_out(enclosures, {big: "stegosaurus", 1 - big: "raptor"}, herd, [])
    assert escaped == {"raptor": 1, "allosaurus": 1}
    assert ranch.herd() == {"stegosaurus": 3, "raptor": 4}
    # stegosauruses take spaces without resource symbols first
    assert all(layout.symbols[c] == "" for c, k in enumerate(ranch.cells) if k == "stegosaurus")


def test_removing_takes_dinosaurs_from_the_most_valuable_spaces_first():
    ranch = Ranch(RanchBoard(load_ranch()))
    spaces = [cell(0, 0), cell(0, 1), cell(1, 2), cell(1, 0)]  # leaf, none, supply, none
    ranch.cells = ["raptor" if c in spaces else None for c in range(20)]
    ranch.remove("raptor", 2)  # supply first, then leaf
    assert [c for c, k in enumerate(ranch.cells) if k] == [cell(0, 1), cell(1, 0)]
    with pytest.raises(ValueError, match="only 2 raptor on the ranch, cannot remove 3"):
        ranch.remove("raptor", 3)
    assert ranch.count("raptor") == 2  # a failed removal leaves the ranch as it was


def test_unique_dinosaur_stands_on_unenclosed_grass():
    layout = load_ranch()
    ranch = Ranch(RanchBoard(layout))
    enclosures = layout.enclosures(set())  # the permanent enclosure only
    escaped = ranch.lay_out(enclosures, {0: "stegosaurus"}, {"stegosaurus": 1}, ["Rex"])
    assert escaped == {}
    spot = ranch.cells.index("Rex")
    assert layout.terrain[spot] == "grass" and all(spot not in r.cells for r in enclosures)


def test_unique_dinosaur_stays_off_mountains_and_water_unless_the_ruling_allows():
    layout = load_ranch(border="fence")  # every grass space is enclosed
    enclosures = layout.enclosures(set())
    herd = {"stegosaurus": 1, "raptor": 1}
    for anywhere in (False, True):
        ranch = Ranch(RanchBoard(layout, unique_anywhere=anywhere))
        escaped = ranch.lay_out(enclosures, {0: "stegosaurus", 1: "raptor"}, herd, ["Rex"])
        if not anywhere:
            assert escaped == {"Rex": 1} and "Rex" not in ranch.cells  # no grass outside the enclosures
        else:
            spot = ranch.cells.index("Rex")
            assert escaped == {} and layout.terrain[spot] in ("mountain", "water")
            assert layout.symbols[spot] == ""  # it covers no resource symbol


def test_two_of_a_kind_given_a_small_and_a_large_enclosure_stand_together_and_breed():
    layout = load_ranch(border="fence")
    fences = {layout.edge_id("1,4|2,4"), layout.edge_id("0,4|1,4")}  # enclosures of 1, 1, 4 and 10 spaces
    enclosures = layout.enclosures(fences)
    one = next(i for i, r in enumerate(enclosures) if r.capacity == 1)
    four = next(i for i, r in enumerate(enclosures) if r.capacity == 4)
    ranch = Ranch(RanchBoard(layout))
    ranch.fences = fences
    assert ranch.lay_out(enclosures, {one: "stegosaurus", four: "stegosaurus"}, {"stegosaurus": 2}, []) == {}
    assert ranch.breeding(set()) == {"stegosaurus": 1}  # 2 in the 4-space enclosure, not 1 + 1
    assert sum(ranch.cells[c] == "stegosaurus" for c in enclosures[four].cells) == 2


def test_enclosure_choices_keep_the_layout_housing_the_most_dinosaurs():
    layout = load_ranch()
    # the permanent 4-space enclosure and a 1-space one at 0,2
    enclosures = layout.enclosures({layout.edge_id("0,2|N"), layout.edge_id("0,2|1,2")})
    four = next(i for i, r in enumerate(enclosures) if r.capacity == 4)
    one = 1 - four
    unplaced = {"stegosaurus": 4, "raptor": 1}
    # the raptor in the 4-space enclosure (or a stegosaurus in the 1-space one) would leave 3 without room
    assert sorted(enclosure_choices(enclosures, {}, unplaced)) == sorted([(four, "stegosaurus"), (one, "raptor")])
    assert enclosure_choices(enclosures, {four: "stegosaurus"}, {"stegosaurus": 0, "raptor": 1}) == [(one, "raptor")]
    # two kinds for one 4-space enclosure: the one with 4 or more fills it, the one with 3 would not
    only_four = enclosures[four : four + 1]
    assert enclosure_choices(only_four, {}, {"raptor": 3, "allosaurus": 5}) == [(0, "allosaurus")]
    assert enclosure_choices(only_four, {}, {"raptor": 4, "allosaurus": 5}) == [(0, "raptor"), (0, "allosaurus")]


def test_a_leaving_dinosaur_keeps_the_breeding_pairs():
    layout = load_ranch()
    ranch = Ranch(RanchBoard(layout))
    # the permanent enclosure holds a pair of stegosauruses, the fenced corner (0,4),(1,4) one more
    ranch.fences = {layout.edge_id(e) for e in ("0,4|N", "0,4|E", "1,4|E", "1,4|2,4")}
    ranch.cells = ["stegosaurus" if c in (cell(0, 0), cell(0, 1), cell(1, 4)) else None for c in range(20)]
    ranch.remove("stegosaurus")  # (0,0) and (1,4) both have a leaf symbol: only the pair tells them apart
    assert ranch.breeding(set()) == {"stegosaurus": 1}
    assert ranch.cells[cell(1, 4)] is None


def test_bad_ranch_file_names_file_and_key(tmp_path):
    bad = tmp_path / "ranch.toml"
    bad.write_text('terrain = ["GGX"]\nsymbols = ["..."]\n')
    with pytest.raises(DataFileError, match="ranch.toml: terrain"):
        load_ranch(str(bad))
    bad.write_text('terrain = ["GG"]\nsymbols = [".."]\npermanent_fences = ["0,0|0,2"]\n')
    with pytest.raises(DataFileError, match=r"permanent_fences\[0\]"):
        load_ranch(str(bad))


def test_user_ranch_file_is_used(tmp_path):
    own = tmp_path / "ranch.toml"
    own.write_text('terrain = ["GGG"]\nsymbols = ["LFS"]\npermanent_fences = ["0,0|0,1"]\n')
    layout = load_ranch(str(own))
    assert layout.income() == (1, 1, 1)
    assert sorted(r.capacity for r in layout.regions(set())) == [1, 2]


@pytest.mark.parametrize("border", ["open", "fence"])
def test_enclosures_by_fence_bits_match_the_reference_flood_fill(border):
    """The bit-mask flood fill (`areas`), the board's enclosures and their sizes (remembered by `fence_bits`)
    against the rulebook reference's own flood fill, on random fence sets."""
    import random
    from types import SimpleNamespace

    import ted_reference as reference

    from tyrsim.games.tiny_epic_dinosaurs.ranch import fence_bits

    layout = load_ranch(border=border)
    board = RanchBoard(layout)
    ranch = Ranch(board)
    state = SimpleNamespace(rules=SimpleNamespace(border=border))
    rng = random.Random(3)
    sizes_seen = set()
    for _ in range(600):
        ranch.fences = rng.sample(layout.fence_slots, rng.randint(0, len(layout.fence_slots)))
        expected = sorted(reference.enclosures(state, ranch))
        bits = fence_bits(ranch.fences)
        assert ranch.fence_bits == bits
        for _ in range(2):  # computed, then remembered
            assert sorted(r.cells for r in board.enclosures(bits)) == expected
            assert board.capacities(bits) == tuple(sorted(map(len, expected), reverse=True))
        assert sorted(r.cells for r in layout.enclosures(ranch.fences)) == expected
        assert board.free_slots(bits) == tuple(e for e in layout.fence_slots if e not in ranch.fences)
        sizes_seen.add(board.capacities(bits))
    assert len(sizes_seen) > 20  # the sample reaches many different layouts
