"""The bundled data files and the checks on a user's own files."""

import pytest
from ted_scripted import new_state

from tyrsim.core.engine.rules import RuleError
from tyrsim.games.tiny_epic_dinosaurs.components import (
    DataFileError,
    load_contracts,
    load_dinosaurs,
    load_research,
    load_spaces,
)
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

KINDS = ("stegosaurus", "raptor", "brachiosaurus", "allosaurus")


def test_bundled_components_match_the_rulebook_counts():
    dinosaurs = load_dinosaurs()
    assert tuple(d.name for d in dinosaurs) == KINDS
    steg, _, _, allo = dinosaurs
    assert (steg.leaf, steg.meat) == (1, 0) and (allo.leaf, allo.meat) == (0, 2)  # printed in the rulebook
    contracts = load_contracts("", KINDS)
    assert len(contracts) == 20 and all(sum(n for _, n in c.dinosaurs) == 3 for c in contracts)
    research = load_research("", KINDS)
    assert len(research) == 22
    assert sum(1 for c in research if c.dinosaur is not None) == 11  # the 11 unique dinosaurs
    assert any(c.dinosaur is not None and c.dinosaur.group == "omnivore" for c in research)


def test_every_player_count_shows_every_kind_of_action_space():
    spaces = load_spaces("", KINDS)
    for players in (2, 3, 4):
        shown = [s for s in spaces if players in s.players]
        assert {s.action for s in shown} == {
            "hunt",
            "buy",
            "place_now",
            "gain",
            "first_player",
            "research",
            "research_remove",
            "contract",
        }
    assert len([s for s in spaces if 2 in s.players]) < len([s for s in spaces if 4 in s.players])


@pytest.mark.parametrize(
    ("loader", "text", "message"),
    [
        (load_dinosaurs, '[dinosaur.rex]\ngroup = "lizard"\npoints = 1\n', r"dinosaur\.rex\.group is 'lizard'"),
        (load_dinosaurs, '[dinosaur.rex]\ngroup = "carnivore"\npoints = -1\n', r"dinosaur\.rex\.points"),
        (load_contracts, '[[contract]]\nname = "X"\ndinosaurs = { dodo = 1 }\npoints = 3\n', r"dinosaurs\.dodo"),
        (
            load_research,
            '[[card]]\nname = "X"\nkind = "science"\npoints = 1\neffect = { type = "magic" }\n',
            r"card\[0\]\.effect\.type is 'magic'",
        ),
        (load_spaces, '[[space]]\nid = "A1"\naction = "dance"\nplayers = [2]\n', r"space\[0\]\.action"),
        (load_spaces, '[[space]]\nid = "A1"\naction = "gain"\nplayers = [5]\n', r"space\[0\]\.players"),
    ],
)
def test_bad_user_files_name_file_key_and_allowed_values(tmp_path, loader, text, message):
    path = tmp_path / "own.toml"
    path.write_text(text)
    args = (str(path),) if loader is load_dinosaurs else (str(path), KINDS)
    with pytest.raises(DataFileError, match=message) as caught:
        loader(*args)
    assert str(path) in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_missing_or_broken_file(tmp_path):
    with pytest.raises(DataFileError, match="cannot read"):
        load_dinosaurs(str(tmp_path / "nothing.toml"))
    broken = tmp_path / "broken.toml"
    broken.write_text("[[contract]\n")
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_contracts(str(broken), KINDS)


def test_a_user_contract_file_is_played(tmp_path):
    own = tmp_path / "contracts.toml"
    own.write_text(
        "\n".join(f'[[contract]]\nname = "K{i}"\ndinosaurs = {{ stegosaurus = 1 }}\npoints = 4\n' for i in range(8))
    )
    state = new_state(2, contracts_file=str(own))
    assert {c.name for c in state.public_contracts} <= {f"K{i}" for i in range(8)}
    assert len(state.contract_deck) == 8 - 2 - 3


def test_a_spaces_file_without_the_player_count_is_refused(tmp_path):
    own = tmp_path / "spaces.toml"
    own.write_text('[[space]]\nid = "A1"\naction = "first_player"\nplayers = [4]\n')
    with pytest.raises(DataFileError, match="no \\[\\[space\\]\\] lists 2"):
        new_state(2, spaces_file=str(own))


def test_a_bad_file_named_in_the_rules_is_a_rule_error(tmp_path):
    bad = tmp_path / "contracts.toml"
    bad.write_text('[[contract]]\nname = "X"\ndinosaurs = { dodo = 1 }\npoints = 3\n')
    with pytest.raises(RuleError, match=r"rule 'contracts_file': .*contracts.toml: contract\[0\]\.dinosaurs\.dodo"):
        Rules.from_overrides({"contracts_file": str(bad)})
    with pytest.raises(RuleError, match="rule 'ranch_file'.*cannot read"):
        Rules.from_overrides({"ranch_file": str(tmp_path / "missing.toml")})
