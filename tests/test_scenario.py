"""Scenario files: every bundled one loads, every kind of broken one gets its own clear message."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.run.scenario import ScenarioError, bundled_scenarios, load_scenario, scenario_from_data
from tyrsim.games import get_game

BAD = sorted((Path(__file__).parent / "scenarios_bad").glob("*.toml"))
TOP = Path(__file__).parent.parent / "scenarios"


def expected_message(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: ")
    return first.removeprefix("# expect: ")


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_broken_scenario_is_named_precisely(path):
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, games=get_game)
    message = str(info.value)
    assert message.startswith(str(path) + ":")
    assert expected_message(path) in message


@pytest.mark.parametrize("path", BAD[:6], ids=lambda p: p.stem)
def test_cli_run_on_broken_scenario_exits_2_and_writes_nothing(path, tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(path), "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 2
    assert expected_message(path) in " ".join(result.output.split())
    assert "Traceback" not in result.output
    assert not out.exists()


def test_bundled_scenarios_ship_in_the_package_and_load():
    shipped = bundled_scenarios()
    assert {p.name for p in shipped} == {p.name for p in TOP.glob("*.toml")}
    for path in shipped:
        scenario = load_scenario(path, games=get_game)
        assert scenario.points and scenario.title


def test_sweep_is_the_product_and_baseline_is_found():
    scenario = load_scenario(TOP / "tyranno_ex_tie_rule.toml", games=get_game)
    assert [p.label for p in scenario.points] == [
        {"tie_rule": "reroll"}, {"tie_rule": "attacker"}, {"tie_rule": "defender"}
    ]
    assert scenario.baseline == 0
    assert scenario.points[2].rules.tie_rule == "defender"
    assert scenario.points[0].args["fights"] == 40000


def test_quick_caps_trials_only():
    scenario = load_scenario(TOP / "tyranno_ex_tie_rule.toml", games=get_game).with_trials(100)
    assert all(p.args["fights"] == 100 for p in scenario.points)
    assert scenario.points[1].rules.tie_rule == "attacker"


def test_an_empty_data_file_value_is_shown_as_the_bundled_file():
    from tyrsim.core.run.scenario import scenario_from_data

    data = {"game": "tyros", "analysis": "empire-sizes", "seed": 1,
            "sweep": {"rules": {"board": ["", "bundled:board_alt.toml"]}}}
    scenario = scenario_from_data(data, "s.toml", games=get_game)
    assert [p.title() for p in scenario.points] == ["board=(bundled)", "board=bundled:board_alt.toml"]


def test_quick_args_change_the_arguments_of_a_quick_run_only(dice_game):
    from tyrsim.core.run.scenario import ScenarioError, scenario_from_data

    data = {"name": "q", "game": "dice", "analysis": "trace", "seed": 1,
            "args": {"multiples": [2, 4, 8], "games": 50}, "report": {"quick_args": {"multiples": [2]},
                                                                       "quick_trials": 4}}
    scenario = scenario_from_data(data, "test", games=get_game)
    assert scenario.points[0].args["multiples"] == (2, 4, 8)
    quick = scenario.quick()
    assert quick.points[0].args["multiples"] == (2,) and quick.points[0].args["games"] == 4
    for bad, message in (({"depth": 1}, "report.quick_args.depth: unknown argument"),
                         ({"multiples": [1]}, "report.quick_args.multiples")):
        with pytest.raises(ScenarioError, match=message):
            scenario_from_data({**data, "report": {"quick_args": bad}}, "test", games=get_game)


def combat_scenario(args: dict, sweep: dict | None = None):
    data = {"game": "tyranno-ex", "analysis": "combat", "seed": 1, "args": args}
    if sweep is not None:
        data["sweep"] = {"args": sweep}
    return scenario_from_data(data, "odds.toml", games=get_game)


def test_a_fight_count_given_for_the_exact_odds_is_refused_as_on_the_command_line():
    one = {"attacker_strength": [2], "attacker_dice": [3], "defender_strength": [1], "defender_dice": [4]}
    with pytest.raises(ScenarioError) as info:
        combat_scenario({**one, "fights": 5000})  # the method's default is the exact odds
    assert str(info.value) == ("odds.toml: args.fights: argument 'fights': only the Monte Carlo odds use it "
                               "(method mc or both); the exact odds simulate no fights")
    with pytest.raises(ScenarioError, match="odds.toml: args.fights: .* the exact odds simulate no fights"):
        combat_scenario({**one, "fights": 5000}, {"method": ["both", "exact"]})
    with pytest.raises(ScenarioError, match="odds.toml: sweep.args.fights: .* the exact odds simulate no fights"):
        combat_scenario({**one, "method": "exact"}, {"fights": [100, 200]})
    assert combat_scenario({**one, "method": "mc", "fights": 5000}).points[0].args["fights"] == 5000
    assert combat_scenario(one).points[0].args["method"] == "exact"
