"""`tyrsim games`, `tyrsim plan` and option errors of `tyrsim run`."""

from click.testing import CliRunner

from tyrsim.cli import main


def invoke(*args):
    return CliRunner().invoke(main, list(args))


def test_games_lists_analyses_and_rules():
    result = invoke("games")
    assert result.exit_code == 0
    assert "tyranno-ex" in result.output and "combat:" in result.output
    assert "tie_rule = 'reroll'" in result.output and "one of 'reroll', 'attacker', 'defender'" in result.output
    # a ruling names its other readings under its line; a printed rule (tie_rule) is no ruling
    lines = result.output.splitlines()
    board = lines.index(next(line for line in lines if line.startswith("    board = ''")))
    assert lines[board + 1] == "      ruling; the other readings: 'bundled:board_alt.toml', 'bundled:board_east.toml'"
    tie = lines.index(next(line for line in lines if line.startswith("    tie_rule = ")))
    assert "ruling" not in lines[tie + 1]


def test_games_unknown_game():
    result = invoke("games", "chess")
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output


def test_plan_for_a_proportion_and_a_mean():
    assert "9604 trials" in invoke("plan", "--half-width", "0.01").output
    assert "1537 trials" in invoke("plan", "--half-width", "0.1", "--sd", "2").output
    result = invoke("plan", "--half-width", "0")
    assert result.exit_code == 2 and "--half-width" in result.output


def test_run_options_are_checked(tmp_path):
    result = invoke("run", str(tmp_path / "missing.toml"))
    assert result.exit_code == 2 and "does not exist" in result.output
    scenario = tmp_path / "s.toml"
    scenario.write_text('game = "tyranno-ex"\nanalysis = "combat"\nseed = 1\n')
    result = invoke("run", str(scenario), "--scheduler", "tcp://127.0.0.1:1")
    assert result.exit_code == 2 and "--backend dask" in result.output
    result = invoke("run", str(scenario), "--jobs", "0")
    assert result.exit_code == 2 and "--jobs" in result.output
