"""Every ruling's alternative reading makes a valid rule set that plays whole games with every policy; the
bundled alternative data files say what they change."""

import numpy as np
import pytest

from tyrsim.core.engine.runner import play
from tyrsim.games.tiny_epic_dinosaurs import SPEC
from tyrsim.games.tiny_epic_dinosaurs.components import load_contracts, load_dinosaurs, load_research, load_spaces
from tyrsim.games.tiny_epic_dinosaurs.ranch import load_ranch
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

ALTERNATIVES = [(name, value) for name, values in Rules.rulings().items() for value in values]


@pytest.mark.parametrize(("name", "value"), ALTERNATIVES, ids=[f"{n}={v}" for n, v in ALTERNATIVES])
def test_each_alternative_plays_whole_games_with_every_policy(name, value):
    rules = Rules.from_overrides({name: value})
    for players, policies in ((3, ["hunter", "breeder", "contractor"]), (2, ["greedy", "random"])):
        game = SPEC.make_game(rules, players)
        record = play(game, [SPEC.make_policy(p) for p in policies], np.random.default_rng(7))
        assert record.stats["rounds"] == rules.rounds and len(record.scores) == players


def test_the_alternative_ranch_keeps_the_rulebook_income_and_one_permanent_enclosure():
    layout = load_ranch("bundled:ranch_alt.toml")
    assert layout.income() == (5, 3, 1)  # the rulebook's first round: 5 leaves, 3 meat, 1 supply
    assert [r.capacity for r in layout.enclosures(set())] == [4]
    assert layout.terrain != load_ranch().terrain


def test_the_alternative_data_files_change_only_what_they_say():
    kinds = tuple(d.name for d in load_dinosaurs())
    plain, allo = load_spaces("", kinds), load_spaces("bundled:spaces_allosaurus_hunt.toml", kinds)
    assert [s for s in plain if s.id != "A4"] == [s for s in allo if s.id != "A4"]
    assert 2 in next(s for s in allo if s.id == "A4").players
    assert 2 not in next(s for s in plain if s.id == "A4").players
    points = {d.name: d.points for d in load_dinosaurs("bundled:dinosaurs_alt.toml")}
    assert points == {"stegosaurus": 1, "raptor": 1, "brachiosaurus": 2, "allosaurus": 2}
    base = {c.name: c for c in load_contracts("", kinds)}
    for contract in load_contracts("bundled:contracts_bonus1.toml", kinds):
        assert contract.dinosaurs == base[contract.name].dinosaurs
        assert contract.points == base[contract.name].points - 2
    cards = load_research("bundled:research_no_abilities.toml", kinds)
    assert [c.name for c in cards] == [c.name for c in load_research("", kinds)]
    assert all(c.effect.type == "none" for c in cards)
