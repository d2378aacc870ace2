"""Data files named by rules: one safe reader, and every game's bad file is a bad rule value naming the file."""

import os
import re
from pathlib import Path

import pytest

from tyrsim.core.engine.datafile import MAX_BYTES, DataFileError, integer, load_data, read_text
from tyrsim.core.engine.rules import RuleError
from tyrsim.games import get_game
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules as DinoRules
from tyrsim.games.tyranno_ex.rules import Rules as TyrannoRules
from tyrsim.games.tyros.rules import Rules as TyrosRules
from tyrsim.games.zooloretto_duell.rules import Rules as ZooRules

GAMES = Path(__file__).parent.parent / "tyrsim" / "games"
TYROS_BOARD = (GAMES / "tyros" / "data" / "board.toml").read_text()
TYROS_MINI = re.search(r'MINI = """(.*?)"""', (Path(__file__).parent / "tyros" / "test_tyros_board.py").read_text(),
                       re.S).group(1)


def test_a_regular_utf8_file_is_read(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text("a = 'é'\n", encoding="utf-8")
    assert read_text(path) == "a = 'é'\n"
    assert load_data(str(path), "tyrsim.games.tyros", "board.toml") == (str(path), {"a": "é"})
    assert load_data("", "tyrsim.games.tyros", "board.toml")[0] == "board.toml"


def test_special_files_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # reading it would wait for a writer for ever
    for path, kind in ((fifo, "a FIFO"), (tmp_path, "a directory"), (Path("/dev/zero"), "a device")):
        message = f"{path}: cannot read the file ({kind}); name a regular file"
        with pytest.raises(DataFileError, match=re.escape(message)):
            read_text(path)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\xff\xfe x = 1", "not UTF-8 text (byte 0xff at offset 0)"),
        (b"x" * (MAX_BYTES + 1), "larger than 1,000,000 bytes"),
    ],
)
def test_not_utf8_or_too_large_is_refused(tmp_path, content, words):
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    with pytest.raises(DataFileError, match=re.escape(f"{path}: {words}")):
        read_text(path)


def test_a_missing_file_names_itself(tmp_path):
    with pytest.raises(DataFileError, match=re.escape(f"{tmp_path / 'none.toml'}: cannot read the file (No such")):
        read_text(tmp_path / "none.toml")


@pytest.mark.parametrize(
    ("rules", "rule"),
    [(TyrannoRules, "deck_file"), (TyrosRules, "board"), (ZooRules, "symbols_file"), (ZooRules, "markers_file"),
     (DinoRules, "dinosaurs_file"), (DinoRules, "ranch_file"), (DinoRules, "spaces_file"),
     (DinoRules, "contracts_file"), (DinoRules, "research_file")],
)
@pytest.mark.parametrize(
    ("content", "words"),
    [(b"\xe9t\xe9 = 1\n", "not UTF-8 text"), (b"x = [1,\n", "not valid TOML"), (None, "(a device)")],
)
def test_every_games_bad_file_is_an_error_of_its_rule(tmp_path, rules, rule, content, words):
    path = Path("/dev/zero") if content is None else tmp_path / "mine.toml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(RuleError) as error:
        rules.from_overrides({rule: str(path)})
    message = str(error.value)
    assert message.startswith(f"rule {rule!r}: {path}: ") and words in message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (('sea = ["2", "5"]', 'sea = ["99", "2", "5"]'), "[spaces.1] sea: unknown space '99'; spaces are 1-32"),
        (("[spaces.1]", "[spaces.one]"), "[spaces.one] unknown space name"),
        (("first_game = {", "first_games = {"), "[first_games] unknown key"),
        (("orange = 7,", "orange = 'seven',"), "[first_game] unknown space 'seven'"),
        (("[spaces.32]", "[spaces.33]"), "spaces [32] are missing"),
        (("[spaces.32]", "[spaces.99999999999]"), "spaces [32] are missing"),  # no 10^11-space board is built
    ],
)
def test_a_bad_tyros_board_is_found_when_the_rules_are_made(tmp_path, change, words):
    old, new = change
    assert old in TYROS_BOARD
    path = tmp_path / "board.toml"
    path.write_text(TYROS_BOARD.replace(old, new, 1))
    with pytest.raises(RuleError) as error:
        TyrosRules(board=str(path))
    assert str(error.value).startswith(f"rule 'board': {path}: ") and words in str(error.value)


def test_a_board_where_the_variable_setup_stalls_needs_the_first_game_setup(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(TYROS_MINI)
    with pytest.raises(RuleError, match=r"rule 'board': .*mini.toml: the 'variable' set-up can stall: once empires "
                                        r"start on 1, 3, 6"):
        TyrosRules(board=str(path))
    assert TyrosRules(board=str(path), setup="first-game").board == str(path)


def test_a_users_dinosaurs_file_is_checked_against_the_bundled_files(tmp_path):
    bundled = (GAMES / "tiny_epic_dinosaurs" / "data" / "dinosaurs.toml").read_text()
    path = tmp_path / "dinosaurs.toml"
    path.write_text(bundled.split("[dinosaur.brachiosaurus]")[0])  # stegosaurus and raptor only
    with pytest.raises(RuleError, match=re.escape(f"rule 'dinosaurs_file': {path} does not fit the bundled file "
                                                  "used with it: spaces.toml: space[2].dinosaur is 'brachiosaurus'; "
                                                  "allowed: stegosaurus, raptor")):
        DinoRules(dinosaurs_file=str(path))


def test_a_spaces_file_must_serve_every_player_count(tmp_path):
    bundled = (GAMES / "tiny_epic_dinosaurs" / "data" / "spaces.toml").read_text()
    path = tmp_path / "spaces.toml"
    path.write_text(re.sub(r"players = \[[^\]]*\]", "players = [2, 4]", bundled))
    with pytest.raises(RuleError, match=r"rule 'spaces_file': .*spaces.toml: no \[\[space\]\] lists 3 in its players; "
                                        r"every player count \(2, 3, 4\) needs its action spaces"):
        DinoRules(spaces_file=str(path))


def test_an_edited_data_file_is_read_again_in_the_same_process(tmp_path):
    # the store keys a task on the file's content; a loader's cache must not hand back the old content
    from tyrsim.games.zooloretto_duell.cards import load_markers

    bundled = (GAMES / "zooloretto_duell" / "data" / "markers.toml").read_text()
    path = tmp_path / "markers.toml"
    path.write_text(bundled)
    before = load_markers(str(path))
    assert load_markers(str(path)) is before  # unchanged: served from the cache
    edited = re.sub(r"points = (\d+)", lambda m: f"points = {int(m.group(1)) + 10}", bundled, count=1)
    assert edited != bundled
    path.write_text(edited)
    os.utime(path, ns=(1, 1))  # a new stamp even on a file system with coarse times
    after = load_markers(str(path))
    assert after != before


def test_a_bundled_alternative_is_named_bundled_colon_name(tmp_path):
    from tyrsim.core.engine.datafile import file_stamp
    from tyrsim.core.run.scenario import scenario_from_data

    name, data = load_data("bundled:board_alt.toml", "tyrsim.games.tyros", "board.toml")
    assert name == "bundled:board_alt.toml" and data != load_data("", "tyrsim.games.tyros", "board.toml")[1]
    assert file_stamp("bundled:board_alt.toml") is None  # the bundled data's digest covers it
    for bad in ("bundled:nope.toml", "bundled:../tyros/data/board.toml"):
        with pytest.raises(DataFileError, match="no such bundled data file; the bundled files are: bundled:board"):
            load_data(bad, "tyrsim.games.tyros", "board.toml")
    # a scenario's bundled name stays a bundled name, not a path beside the scenario
    data = {"game": "tyros", "analysis": "game", "seed": 1, "rules": {"board": "bundled:board_alt.toml"},
            "args": {"games": 2}}
    scenario = scenario_from_data(data, "s.toml", folder=tmp_path, games=get_game)
    assert scenario.rules.board == "bundled:board_alt.toml"


@pytest.mark.parametrize(("value", "low", "high", "allowed"), [
    (-1, 0, None, "of at least 0"), (True, 0, None, "of at least 0"), (2.0, 0, None, "of at least 0"),
    ("3", 1, 13, "from 1 to 13"), (14, 1, 13, "from 1 to 13"), (0, 1, 13, "from 1 to 13"),
])
def test_a_data_files_integer_names_the_file_the_key_the_value_and_what_is_allowed(value, low, high, allowed):
    with pytest.raises(DataFileError) as error:
        integer("mine.toml", "card[2].points", value, low, high)
    assert str(error.value) == (f"mine.toml: key 'card[2].points': {value!r} is not allowed; "
                                f"expected an integer {allowed}")
    assert integer("mine.toml", "card[2].points", 13, 1, 13) == 13 and integer("mine.toml", "k", 10**6) == 10**6


@pytest.mark.parametrize(("game", "rule", "bundled", "old", "new", "message"), [
    ("zooloretto_duell", "symbols_file", "symbols.toml", "\nlightning = ", "\nlightning = -1 #",
     "symbols.toml: key 'gorilla.lightning': -1 is not allowed; expected an integer of at least 0"),
    ("tiny_epic_dinosaurs", "dinosaurs_file", "dinosaurs.toml", "points = ", "points = 100 #",
     "dinosaurs.toml: key 'dinosaur.stegosaurus.points': 100 is not allowed; expected an integer from 0 to 99"),
])
def test_the_games_count_checks_read_alike(tmp_path, game, rule, bundled, old, new, message):
    path = tmp_path / bundled
    path.write_text((GAMES / game / "data" / bundled).read_text().replace(old, new, 1))
    rules = ZooRules if game == "zooloretto_duell" else DinoRules
    with pytest.raises(RuleError, match=re.escape(message)):
        rules.from_overrides({rule: str(path)})
