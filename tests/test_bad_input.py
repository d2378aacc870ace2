"""Bad input on the command line and in scenario or data files: exit code 2, one error line naming
the option, key or file and what is allowed, no traceback, nothing written, and no work done first."""

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tyrsim.cli import main

GAMES = Path(__file__).parent.parent / "tyrsim" / "games"
TYROS_BOARD = (GAMES / "tyros" / "data" / "board.toml").read_text()
DECK = "\n".join(f'[[card]]\nname = "A{i}"\nsymbols = ["sun", "sun", "sun"]\n' for i in range(8))
ONE_FIGHT = ["--attacker-strength", "1", "--attacker-dice", "2", "--defender-strength", "1", "--defender-dice", "2"]


def error_of(args, out: Path | None = None) -> str:
    """The one error line of a command that must fail with a usage error, having written nothing."""
    extra = ["--out", str(out)] if out is not None else []
    result = CliRunner().invoke(main, [*map(str, args), *extra])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, result.output
    if out is not None:
        assert not out.exists()
    return errors[0]


@pytest.fixture
def bad_board(tmp_path) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(TYROS_BOARD.replace('sea = ["2", "5"]', 'sea = ["99", "2", "5"]', 1))
    return path


# --- 1. a bad data file is a bad rule value in every command -----------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "tyros", "--games", 2, "--jobs", 1],
        ["rate", "tyros", "--games", 2, "--jobs", 1],
        ["explore", "tyros", "--games", 2, "--points", 4, "--param", "city_cost=3:7", "--jobs", 1],
        ["play", "tyros"],
    ],
    ids=lambda c: c[0],
)
def test_a_bad_board_file_is_a_usage_error_before_any_game(tmp_path, bad_board, command):
    out = None if command[0] == "play" else tmp_path / "out"
    line = error_of([*command, "--rule", f"board={bad_board}"], out)
    assert line == (f"Error: Invalid value for --rule: rule 'board': {bad_board}: [spaces.1] sea: unknown space "
                    "'99'; spaces are 1-32 and 'tyros'")


def test_a_scenario_with_a_bad_board_file_writes_nothing(tmp_path, bad_board):
    scenario = tmp_path / "s.toml"
    scenario.write_text('game = "tyros"\nanalysis = "game"\nseed = 1\n[rules]\nboard = "board.toml"\n'
                        "[args]\ngames = 2\n")
    line = error_of(["run", scenario, "--jobs", 1], tmp_path / "out")
    assert line.startswith(f"Error: {scenario}: rules: rule 'board': {bad_board}: [spaces.1] sea: unknown space")


def test_a_dinosaurs_file_that_contradicts_the_bundled_research_cards(tmp_path):
    bundled = (GAMES / "tiny_epic_dinosaurs" / "data" / "dinosaurs.toml").read_text()
    path = tmp_path / "dinosaurs.toml"
    path.write_text(bundled.split("[dinosaur.brachiosaurus]")[0])
    line = error_of(["simulate", "tiny-epic-dinosaurs", "--games", 2, "--jobs", 1, "--rule", f"dinosaurs_file={path}"])
    assert f"rule 'dinosaurs_file': {path} does not fit the bundled file used with it: " in line
    assert "is 'brachiosaurus'; allowed: stegosaurus, raptor" in line


# --- 2. plan -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--half-width", "nan"], "--half-width: nan is not a finite number; give a number above 0"),
        (["--half-width", "0.1", "--sd", "inf"], "--sd: inf is not a finite number; give a number above 0"),
        (["--half-width", "0.1", "--sd", "nan"], "--sd: nan is not a finite number"),
        (["--half-width", "0.1", "--p", "nan"], "--p: nan is not a finite number; give a number from 0 to 1"),
        (["--half-width", "1e-300"], "--half-width: 1e-300 needs over 10^308 trials, more than the 1,000,000,000"),
        (["--half-width", "1e-300", "--sd", "1"], "--half-width: 1e-300 needs over 10^308 trials"),
        (["--half-width", "0.1", "--sd", "1e300"], "--half-width: 0.1 needs over 10^308 trials"),
        (["--half-width", "0.00001"], "--half-width: 1e-05 needs 9,603,647,052 trials, more than the 1,000,000,000 "
                                      "one sweep point may run; ask for a wider half-width"),
    ],
)
def test_plan_refuses_nan_infinite_and_absurd_targets(args, words):
    assert words in error_of(["plan", *args])


def test_plan_still_answers_within_the_cap():
    result = CliRunner().invoke(main, ["plan", "--half-width", "0.0001"])
    assert result.exit_code == 0 and result.output.startswith("96036471 trials for a proportion")


# --- 3. sizes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["combat", *ONE_FIGHT, "--method", "mc", "--fights", 10**20], "--fights"),
        (["combat", "--attacker-dice", "1-10000000"],  # refused from its bounds, not after expanding it
         "--attacker-dice: 10000000 is out of range; a number of dice must be from 0 to 30"),
        (["combat", "--rule", "max_dice=200", "--attacker-dice", "0-200", "--defender-dice", "0-200"],
         "--attacker-dice: 1,454,436 matchups (the product of the attacker's and defender's strengths and dice); "
         "at most 100,000: give fewer values"),
        (["simulate", "tyranno-ex", "--games", 10**20], "--games"),
        (["simulate", "tyranno-ex", "--players", 10**9], "--players: Tyranno Ex is for 2, 3, 4 players"),
        (["rate", "tyros", "--games", 900_000_000],  # 4 policies: 12 ordered pairings
         "--games: 10,800,000,000 games at one sweep point (from the arguments); at most 1,000,000,000"),
        (["explore", "tyranno-ex", "--param", "die_rounds=0:6", "--points", 8192],
         "Error: --points: 8192 is not allowed; expected int from 4 to 4096"),
        (["explore", "tyranno-ex", "--param", "die_rounds=0:6", "--points", 4096, "--games", 100_000],
         "--games: 1,228,800,000 games at one sweep point (from the arguments); at most 1,000,000,000"),
    ],
)
def test_sizes_have_limits_checked_before_anything_is_allocated(tmp_path, args, words):
    line = error_of([*args, *(["--jobs", 1] if args[0] != "combat" else [])], tmp_path / "out")
    assert words in line


def test_help_texts_state_the_limits():
    for command, words in (("combat", "at most 1,000,000,000"), ("combat", "at most 100,000 matchups"),
                           ("simulate", "at most 1,000,000,000"), ("explore", "a power of two from 4 to 4096")):
        result = CliRunner().invoke(main, [command, "--help"])
        assert words in " ".join(result.output.split()), (command, words)


# --- 4. files that are not regular UTF-8 files -------------------------------------------------------


@pytest.fixture
def odd_files(tmp_path) -> dict[str, tuple[Path, str]]:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"\xe9t\xe9 = 1\n")
    return {"device": (Path("/dev/zero"), "cannot read the file (a device); name a regular file"),
            "fifo": (fifo, "cannot read the file (a FIFO); name a regular file"),
            "directory": (tmp_path, "cannot read the file (a directory); name a regular file"),
            "latin": (latin, "not UTF-8 text (byte 0xe9 at offset 0); save the file as UTF-8")}


@pytest.mark.parametrize("kind", ["device", "fifo", "directory", "latin"])
def test_a_data_file_must_be_a_regular_utf8_file(tmp_path, odd_files, kind):
    path, words = odd_files[kind]
    line = error_of(["combat", *ONE_FIGHT, "--rule", f"deck_file={path}"], tmp_path / "out")
    assert line == f"Error: Invalid value for --rule: rule 'deck_file': {path}: {words}"


@pytest.mark.parametrize("kind", ["device", "fifo", "latin"])
def test_a_scenario_file_must_be_a_regular_utf8_file(tmp_path, odd_files, kind):
    path, words = odd_files[kind]
    assert error_of(["run", path, "--jobs", 1], tmp_path / "out") == f"Error: {path}: {words}"


# --- 5. report names are checked before running ------------------------------------------------------


def test_an_unknown_report_table_stops_the_run_before_it_starts(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text('game = "tyranno-ex"\nanalysis = "combat"\nseed = 1\n[args]\nmethod = "mc"\n'
                        'fights = 1000000000\n[report]\ntables = ["odds", "oddz"]\n')
    line = error_of(["run", scenario, "--jobs", 1], tmp_path / "out")  # a billion fights: it must not start
    assert line == f"Error: {scenario}: report.tables: unknown name 'oddz'; combat makes: odds, summary"


# --- 6. silent conflicts -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["combat", *ONE_FIGHT, "--rule", "tie_rule=defender", "--rule", "tie_rule=attacker"],
         "--rule: rule 'tie_rule' is given twice; give each rule once"),
        (["explore", "tyranno-ex", "--param", "die_rounds=0:6", "--param", "die_rounds=1:3", "--jobs", 1],
         "Error: --param: rule 'die_rounds' is given twice; give each rule once"),
        (["explore", "tyranno-ex", "--param", "die_rounds=0:6", "--rule", "die_rounds=3", "--jobs", 1],
         "--param: rule 'die_rounds' is both varied (--param) and fixed (--rule die_rounds=...)"),
    ],
)
def test_a_value_given_twice_is_an_error(tmp_path, args, words):
    assert words in error_of(args, tmp_path / "out")


# --- 7. relative data-file paths ---------------------------------------------------------------------


@pytest.mark.slow
def test_a_scenarios_data_file_is_found_beside_it_from_any_folder(tmp_path, monkeypatch):
    folder = tmp_path / "some" / "dir"
    folder.mkdir(parents=True)
    (folder / "my_deck.toml").write_text(DECK)
    (folder / "s.toml").write_text('game = "tyranno-ex"\nanalysis = "combat"\nseed = 1\n[rules]\n'
                                   'deck_file = "my_deck.toml"\n[args]\nattacker_dice = [2]\ndefender_dice = [2]\n'
                                   "attacker_strength = [1]\ndefender_strength = [1]\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(main, ["run", str(folder / "s.toml"), "--out", "report", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert re.search(r"`deck_file` = \S*some/dir/my_deck.toml", (elsewhere / "report" / "index.md").read_text())


def test_a_data_file_on_the_command_line_is_relative_to_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "my_deck.toml").write_text(DECK)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["combat", *ONE_FIGHT, "--rule", "deck_file=my_deck.toml"])
    assert result.exit_code == 0, result.output
