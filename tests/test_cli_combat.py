"""`tyrsim combat`: every output format, the --out folder, and every kind of bad input."""

import csv
import io
import json

import pytest
from click.testing import CliRunner

from tyrsim.cli import main

ONE = ["--attacker-strength", "3", "--attacker-dice", "2", "--defender-strength", "1", "--defender-dice", "7"]
COLUMNS = [
    "attacker_strength", "attacker_dice", "defender_strength", "defender_dice", "method",
    "p_attacker_2_0", "p_attacker_2_1", "p_defender_2_1", "p_defender_2_0",
    "p_attacker_wins", "p_round_tie", "expected_rolls", "decisive",
]


def run(*args):
    return CliRunner().invoke(main, ["combat", *args])


def test_table_format_is_readable():
    result = run(*ONE)
    assert result.exit_code == 0, result.output
    header, rule, row = result.output.strip().splitlines()
    assert header.split() == COLUMNS
    assert row.split()[4:10] == ["exact", "0.2061", "0.2250", "0.2707", "0.2982", "0.4311"]


def test_csv_columns_in_order_and_both_methods():
    result = run(*ONE, "--method", "both", "--fights", "2000", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert list(rows[0]) == COLUMNS + ["n_fights", "ci_low", "ci_high"]
    assert [r["method"] for r in rows] == ["exact", "mc"]
    assert rows[1]["n_fights"] == "2000"


def test_json_and_markdown():
    result = run(*ONE, "--attacker-dice", "0,2", "--format", "json")
    records = json.loads(result.output)
    assert [r["attacker_dice"] for r in records] == [0, 2]
    assert records[0]["p_attacker_wins"] == 0.0 and records[0]["decisive"] is True
    result = run(*ONE, "--format", "markdown")
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("| attacker_strength |") and lines[1].startswith("|---:")


def test_non_decisive_fight_in_json_has_null_probabilities():
    result = run("--attacker-strength", "1", "--attacker-dice", "0", "--defender-strength", "1",
                 "--defender-dice", "0", "--format", "json", "--method", "mc")
    record = json.loads(result.output)[0]
    assert record["decisive"] is False and record["p_attacker_wins"] is None and record["n_fights"] == 0


def test_mc_is_reproducible_from_the_seed():
    a = run(*ONE, "--method", "mc", "--fights", "3000", "--seed", "4", "--format", "csv").output
    b = run(*ONE, "--method", "mc", "--fights", "3000", "--seed", "4", "--format", "csv").output
    c = run(*ONE, "--method", "mc", "--fights", "3000", "--seed", "5", "--format", "csv").output
    assert a == b and a != c


def test_out_folder_has_csv_markdown_and_figures(tmp_path):
    out = tmp_path / "combat"
    result = run("--attacker-strength", "1-3", "--attacker-dice", "0-6", "--defender-strength", "1,2",
                 "--defender-dice", "0-6", "--out", str(out), "--format", "csv")
    assert result.exit_code == 0, result.output
    # (besides tyrsim's hidden list of the files it wrote, see tests/test_out_folder.py)
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "cheat_sheet.pdf", "cheat_sheet.png", "dice_curve.png", "heatmaps.png", "odds.csv", "odds.html", "odds.md"]
    rows = list(csv.DictReader(open(out / "odds.csv")))
    assert len(rows) == 3 * 7 * 2 * 7
    for png in ("heatmaps.png", "dice_curve.png"):
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary folder left


def test_rule_option_changes_the_result():
    plain = run(*ONE, "--format", "json").output
    variant = run(*ONE, "--rule", "tie_rule=defender", "--format", "json").output
    assert json.loads(variant)[0]["p_attacker_wins"] < json.loads(plain)[0]["p_attacker_wins"]
    three = json.loads(run(*ONE, "--rule", "rounds_to_win=3", "--format", "json").output)[0]
    assert "p_attacker_3_2" in three


@pytest.mark.parametrize(
    "args, option, words",
    [
        (["--attacker-strength", "0"], "--attacker-strength", "from 1 to 6"),
        (["--defender-strength", "7"], "--defender-strength", "from 1 to 6"),
        (["--attacker-dice", "-1"], "--attacker-dice", "from 0 to 30"),
        (["--defender-dice", "31"], "--defender-dice", "from 0 to 30"),
        (["--attacker-dice", "5-2"], "--attacker-dice", "value, a range or a list"),
        (["--rule", "colour=red"], "--rule", "unknown rule 'colour'"),
        (["--rule", "tie_rule=coin"], "--rule", "one of 'reroll', 'attacker', 'defender'"),
        (["--rule", "die_faces=x"], "--rule", "die_faces"),
        (["--rule", "novalue"], "--rule", "KEY=VALUE"),
        (["--method", "guess"], "--method", "exact"),
        (["--format", "xml"], "--format", "table"),
        (["--fights", "0"], "--fights", "0"),
    ],
)
def test_bad_input_is_a_usage_error(args, option, words, tmp_path):
    out = tmp_path / "never"
    result = run(*args, "--out", str(out))
    assert result.exit_code == 2
    assert option in result.output and words in result.output
    assert "Traceback" not in result.output
    assert not out.exists()
