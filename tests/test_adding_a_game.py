"""docs/adding_a_game.md, step by step, on the toy dice game that follows it (tests/toy_game/): every code
block of the guide is what the package holds, every command shown prints what the guide shows, and each
step does what the guide says it does."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
import toy_game
from click.testing import CliRunner
from toy_game.game import NAME, DiceGame
from toy_game.policies import POLICIES, Cautious, DiceSearch
from toy_game.rules import Rules

import tyrsim.games
from tyrsim.cli import main
from tyrsim.core.engine.analysis import Analysis
from tyrsim.core.engine.protocols import PolicyError, RandomPolicy
from tyrsim.core.engine.rules import RuleError
from tyrsim.core.engine.search import IsmctsPolicy
from tyrsim.core.engine.weights import tunable
from tyrsim.core.run.scenario import scenario_from_data
from tyrsim.core.run.sweep import run_scenario
from tyrsim.games import game_names, get_game

ROOT = Path(__file__).parents[1]
GUIDE = (ROOT / "docs" / "adding_a_game.md").read_text()
PACKAGE = Path(toy_game.__file__).parent
REGISTRY_HEADER = "# the registry line"
# a fenced block: its language, then its text
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)


def blocks(*languages: str) -> list[tuple[str, str]]:
    """(first line, the rest) of each of the guide's code blocks in these languages, in order."""
    found = [text.partition("\n") for language, text in FENCE.findall(GUIDE) if language in languages]
    return [(first, rest) for first, _, rest in found]


def shown(command: str) -> str:
    """The text block the guide shows right after the paragraph quoting `tyrsim COMMAND...`."""
    start = GUIDE.index(f"`tyrsim {command}")
    first, _, text = FENCE.search(GUIDE, start).group(0).partition("\n")
    assert first == "```text"
    return text.removesuffix("```")


def quoted_command(command: str) -> list[str]:
    """The arguments of the command the guide quotes as `tyrsim COMMAND...`."""
    return re.search(rf"`tyrsim ({re.escape(command)}[^`]*)`", GUIDE).group(1).split()


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def registered(monkeypatch):
    """The toy game registered by the guide's own registry line."""
    (line,) = [rest for first, rest in blocks("python") if first.startswith(REGISTRY_HEADER)]
    ((name, package),) = ast.literal_eval("{" + line.strip() + "}").items()
    monkeypatch.setitem(tyrsim.games.REGISTRY, name, package)
    return toy_game.SPEC


def test_every_code_block_of_the_guide_is_what_the_toy_package_holds():
    checked = set()
    for first, rest in blocks("python", "toml"):
        if first.startswith(REGISTRY_HEADER):
            continue
        path = ROOT / first.removeprefix("# ")
        assert path.is_relative_to(PACKAGE), f"{first}: the guide's code comes from the toy package"
        assert rest in path.read_text(), f"a block of {first} is not what the file holds"
        checked.add(path.name)
    assert checked == {"rules.py", "die.toml", "die.py", "actions.py", "game.py", "narration.py", "policies.py",
                       "analysis.py", "__init__.py"}


def test_the_package_has_the_files_of_the_guides_layout():
    modules = {path.name for path in PACKAGE.glob("*.py")}
    assert modules == {"__init__.py", "rules.py", "actions.py", "game.py", "narration.py", "policies.py",
                       "analysis.py", "die.py"}
    assert [path.name for path in (PACKAGE / "data").iterdir()] == ["die.toml"]
    for name in modules:  # a file's first lines say what it is for
        assert ast.get_docstring(ast.parse((PACKAGE / name).read_text())), name
    # __init__.py holds the SPEC and nothing else
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    assigned = [target.id for node in tree.body if isinstance(node, ast.Assign) for target in node.targets]
    assert assigned == ["SPEC"]
    assert {type(node) for node in tree.body} == {ast.Expr, ast.ImportFrom, ast.Assign}


def test_the_registry_line_registers_the_game_under_the_specs_name(registered):
    assert get_game(NAME) is registered and NAME in game_names()
    assert registered.name == NAME == DiceGame.name and registered.package == "toy_game"
    result = invoke("games", NAME)
    assert result.exit_code == 0 and result.output.startswith("dice  (Dice; 2, 3 players)\n")


def test_the_toy_game_is_registered_only_by_the_tests():
    assert NAME not in tyrsim.games.REGISTRY


def test_rules_are_checked_and_the_rulings_marked():
    assert Rules.from_overrides({"turns": "5", "six_again": "true"}) == Rules(turns=5, six_again=True)
    with pytest.raises(RuleError, match=r"rule 'turns': 99 is out of range; expected an integer from 1 to 10"):
        Rules.from_overrides({"turns": 99})
    assert Rules.rulings() == {"six_again": (True,), "bonus": (1, 2), "idle": ("b",), "tally": ("high",)}


def test_its_ruling_is_played_by_rulings(registered):
    data = {"name": "r", "game": NAME, "analysis": "rulings", "seed": 3,
            "args": {"games": 40, "rulings": ["six_again"]}}
    scenario = scenario_from_data(data, "test", games=get_game)
    result = run_scenario(scenario, n_jobs=1, progress=False)[0]
    table = scenario.analysis.tables(result.raw, scenario.rules, scenario.points[0].args)["rulings"]
    assert set(table["ruling"]) == {"six_again"} and set(table["alternative"]) == {"True"}
    score = table[table["measure"] == "mean_score"].iloc[0]
    assert score["difference"] > 0  # rolling a six again only adds points
    lines = invoke("games", NAME).output.splitlines()
    assert lines[lines.index(next(line for line in lines if "six_again = False" in line)) + 1] == \
        "      ruling; the other readings: True"
    result = invoke("rulings", NAME, "--games", "20", "--jobs", "1", "--ruling", "six_again")
    assert result.exit_code == 0 and "six_again = True: changed" in result.output


def test_the_bundled_data_file_is_the_default_die():
    assert Rules.data_file_rules() == ["die_file"]
    state = DiceGame(Rules(), 2).new_state(np.random.default_rng(0))
    assert state.faces == (1, 2, 3, 4, 5, 6)
    assert "faces = [1, 2, 3, 4, 5, 6]" in (PACKAGE / "data" / "die.toml").read_text()


def test_a_users_data_file_is_played(tmp_path):
    (tmp_path / "twos.toml").write_text("faces = [2, 2]\n")
    state = DiceGame(Rules(die_file=str(tmp_path / "twos.toml")), 2).new_state(np.random.default_rng(0))
    while not state.is_terminal():
        state.apply(POLICIES["roller"]().choose(state, np.random.default_rng(1)))
    assert state.scores() == [6.0, 6.0] and state.winners() == [0, 1]


def test_a_bad_data_file_stops_the_command_with_the_guides_one_line(registered, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "With `faces = [1, 2, 3.5]` in `my_die.toml`" in GUIDE
    (tmp_path / "my_die.toml").write_text("faces = [1, 2, 3.5]\n")
    result = invoke(*quoted_command("simulate dice --rule die_file="))
    assert result.exit_code == 2 and "Traceback" not in result.output
    (error,) = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert error == shown("simulate dice --rule die_file=").strip()


@pytest.mark.parametrize(("text", "message"), [
    ("faces = [1, 2]\nsides = 2\n", "die.toml: unknown keys ['sides']; the only key is 'faces'"),
    ("faces = 6\n", "die.toml: key 'faces' must be a list of 2 to 12 faces, like faces = [1, 2, 3, 4, 5, 6]"),
    ("faces = [1]\n", "die.toml: key 'faces' must be a list of 2 to 12 faces"),
    ("faces = [1, 21]\n", "die.toml: key 'faces[1]': 21 is not allowed; expected an integer from 0 to 20"),
    ("faces = [6, 6]\n", "die.toml: key 'faces': every face is a six; at least one face must be another number"),
    ("faces = [1, 2\n", "die.toml: not valid TOML"),
])
def test_each_data_file_error_names_the_rule_the_file_and_the_key(tmp_path, text, message):
    path = tmp_path / "die.toml"
    path.write_text(text)
    with pytest.raises(RuleError) as error:
        Rules(die_file=str(path))
    assert str(error.value).startswith(f"rule 'die_file': {path}") and message.removeprefix("die.toml") in str(
        error.value)


def test_a_bundled_file_that_does_not_exist_lists_the_bundled_ones():
    with pytest.raises(RuleError, match="rule 'die_file': bundled:d8.toml: no such bundled data file; the bundled "
                                        "files are: bundled:die.toml"):
        Rules(die_file="bundled:d8.toml")


def test_the_engine_follows_the_protocol():
    """Random games at 2 and 3 players: whose turn, the legal actions, clones and determinizations, the end."""
    spec, rng = toy_game.SPEC, np.random.default_rng(8)
    for players in spec.players:
        game = spec.make_game(Rules(six_again=True), players)
        for _ in range(50):
            state = game.new_state(np.random.default_rng(int(rng.integers(2**32))))
            while not state.is_terminal():
                assert 0 <= state.current_player() < players and state.legal_actions()
                before, clone = state.stats(), state.clone()
                clone.apply(clone.legal_actions()[0])
                assert state.stats() == before  # the clone moved on, the state did not
                assert state.determinize(state.current_player(), rng).legal_actions() == state.legal_actions()
                state.apply(RandomPolicy().choose(state, rng))
            assert state.current_player() == -1 and len(state.scores()) == players
            best = max(state.scores())
            assert state.winners() == [p for p, s in enumerate(state.scores()) if s == best]
            assert set(state.stats()) == {"turns", "tally", *(f"points_p{p}" for p in range(players))}


def test_chance_comes_only_from_the_games_generator():
    before = np.random.get_state()[1].copy()
    logs = []
    for _ in range(2):
        state = DiceGame(Rules(six_again=True), 3).new_state(np.random.default_rng(5))
        rng = np.random.default_rng(6)
        while not state.is_terminal():
            state.apply(POLICIES["random"]().choose(state, rng))
        logs.append(state.stats())
    assert logs[0] == logs[1] and (np.random.get_state()[1] == before).all()


def test_the_play_log_is_the_guides(registered):
    result = invoke(*quoted_command("play dice"))
    assert result.exit_code == 0 and result.output.strip() == shown("play dice").strip()


def test_the_policies_table_and_a_policys_parameters():
    spec = toy_game.SPEC
    assert spec.policies is POLICIES and POLICIES["random"] is RandomPolicy
    assert spec.make_policy("cautious:eagerness=0.9") == Cautious(eagerness=0.9)
    assert tunable(Cautious) == {"eagerness": (0.0, 1.0), "behind": (0.0, 1.0)}
    with pytest.raises(PolicyError, match="bad parameter 'boldness=1'; write key=value with key one of: eagerness, "
                                          "behind"):
        spec.make_policy("cautious:boldness=1")
    assert issubclass(DiceSearch, IsmctsPolicy)
    state = DiceGame(Rules(), 2).new_state(np.random.default_rng(1))
    assert spec.make_policy("ismcts:iterations=20").choose(state, np.random.default_rng(2)) in state.legal_actions()


def test_the_analyses_every_game_gets_are_built_for_it():
    analyses = toy_game.SPEC.analyses
    assert list(analyses) == ["game", "rate", "explore", "rulings", "ladder", "trace"]
    assert all(isinstance(a, Analysis) for a in analyses.values())


def test_the_per_game_tests_pass_on_it(registered, tmp_path, monkeypatch):
    """The three tests the guide says run on every registered game, run on the toy game."""
    import test_analysis_outputs
    import test_rulings
    import test_store

    for name in registered.analyses:
        test_analysis_outputs.test_declared_outputs_are_what_a_run_makes(NAME, name)
    monkeypatch.setattr(test_store, "game_names", lambda: [NAME])  # its loop over the games: the toy's only
    test_store.test_every_analysis_raw_chunk_round_trips_exactly(tmp_path)
    test_rulings.test_every_rulings_alternative_is_a_valid_rule_set(NAME)
    for module, test in ((test_analysis_outputs, "test_declared_outputs_are_what_a_run_makes"),
                         (test_store, "test_every_analysis_raw_chunk_round_trips_exactly"),
                         (test_rulings, "test_every_rulings_alternative_is_a_valid_rule_set")):
        assert f"`{Path(module.__file__).relative_to(ROOT)}`" in GUIDE and test in dir(module)


def test_the_compiled_engine_the_guide_points_to_has_the_hooks_it_names():
    from tyrsim.games.zooloretto_duell import analysis, compiled, compiled_policies
    from tyrsim.games.zooloretto_duell.rules import Rules as ZooRules

    assert "## The compiled-engine pattern" in (ROOT / "docs" / "performance.md").read_text()
    assert compiled.supported(ZooRules()) is None
    assert callable(compiled_policies.compiled_form) and callable(compiled_policies.chunk_player)
    game = get_game("zooloretto-duell").analyses["game"]
    assert game.param("engine").choices == ("auto", "compiled", "object")
    assert "prepare" in {f.name for f in dataclasses.fields(Analysis)} and game.prepare == analysis.COMPILED.prepare
    assert "CompiledEngine" in GUIDE and "COMPILED.with_engine" in GUIDE
    for path in ("tyrsim/games/zooloretto_duell/compiled.py", "tyrsim/core/compiled/engines.py",
                 "tests/zooloretto_duell/test_zooloretto_compiled_engine.py"):
        assert path in GUIDE and (ROOT / path).exists()
