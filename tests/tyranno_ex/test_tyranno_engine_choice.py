"""The `engine` argument of the Tyranno Ex `game` analysis: 'compiled', 'object', 'auto'
(`tyrsim.core.compiled.engines`)."""

from __future__ import annotations

import ast
import dataclasses
import inspect

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.rules import rule
from tyrsim.games import tyranno_ex
from tyrsim.games.tyranno_ex import SPEC
from tyrsim.games.tyranno_ex import compiled as C
from tyrsim.games.tyranno_ex.analysis import COMPILED
from tyrsim.games.tyranno_ex.rules import Rules

ANALYSES = SPEC.analyses
POLICIES = ["greedy", "aggressive", "builder", "random"]


def test_both_engines_give_the_same_table():
    analysis = ANALYSES["game"]
    args = analysis.check_args({"policies": POLICIES})
    compiled, objects = (analysis.run(Rules(), {**args, "engine": e}, 3, 12, np.random.default_rng(5))
                         for e in ("compiled", "object"))
    pd.testing.assert_frame_equal(compiled, objects)  # the same games, move for move


def test_auto_plays_the_compiled_engine_wherever_it_can():
    analysis = ANALYSES["game"]
    args = analysis.check_args({"policies": POLICIES})
    assert args["engine"] == "auto" and COMPILED.engine_for(Rules(), args) == "compiled"
    assert analysis.trials_per_task(Rules(), args) == COMPILED.games_per_task
    search = analysis.check_args({"policies": ["ismcts", *POLICIES[1:]]})
    assert COMPILED.engine_for(Rules(), search) == "object"
    [note] = analysis.point_substitutions(Rules(), search)
    assert note.asked == "engine 'auto'" and "has no form of policy 'ismcts'" in note.reason
    with pytest.raises(ArgumentError, match="'compiled' plays only the random, greedy, aggressive and builder"):
        analysis.check_args({"policies": ["ismcts", *POLICIES[1:]], "engine": "compiled"})


def test_the_sensitivity_study_plays_its_rule_points_on_the_compiled_engine():
    explore = ANALYSES["explore"]
    args = explore.check_args({"points": 4, "games": 6, "params": ["five_points=0:10"]})
    assert explore.point_substitutions(Rules(), args) == ()
    raw = explore.run(Rules(), args, 6, 6, np.random.default_rng(3))  # the second rule point
    assert set(raw["point"]) == {1} and raw["game_id"].nunique() == 6


# --- a rule the compiled engine does not play: refused by name, played by the object engine -----------------


@dataclasses.dataclass(frozen=True)
class ExtraRules(Rules):
    """The rules with one field more, as a rule added to the object engine alone would be."""

    stone_rule: int = rule(0, "a rule the compiled engine has not learnt", low=0, high=5)


def test_a_rule_the_compiled_engine_does_not_play_is_refused_by_name():
    extra = ExtraRules()
    assert C.supported(extra).startswith("rule 'stone_rule'")
    with pytest.raises(ValueError, match="stone_rule"):
        C.rule_tables(extra)


def test_rule_tables_never_skips_a_rule_it_does_not_know(monkeypatch):
    monkeypatch.setattr(C, "supported", lambda rules, players=4: None)  # past the guard: the tables still refuse
    with pytest.raises(ValueError, match="rule 'stone_rule'"):
        C.rule_tables(ExtraRules())


def test_auto_plays_a_rule_the_compiled_engine_does_not_on_the_object_engine():
    analysis = ANALYSES["game"]
    args = analysis.check_args({"policies": POLICIES})
    extra = ExtraRules()
    assert COMPILED.engine_for(extra, args) == "object"
    [note] = analysis.point_substitutions(extra, args)
    assert note.asked == "engine 'auto'" and "rule 'stone_rule'" in note.reason
    games = analysis.run(extra, args, 0, 4, np.random.default_rng(1))  # the object engine plays it
    pd.testing.assert_frame_equal(games, analysis.run(Rules(), {**args, "engine": "object"}, 0, 4,
                                                      np.random.default_rng(1)))  # a rule nobody reads yet


def test_simulate_engine_compiled_exits_2_naming_the_rule(monkeypatch, tmp_path):
    monkeypatch.setattr(tyranno_ex, "SPEC", dataclasses.replace(SPEC, rules=ExtraRules))
    out = ["--games", "4", "--jobs", "1", "--out"]
    result = CliRunner().invoke(main, ["simulate", "tyranno-ex", "--engine", "compiled", *out, str(tmp_path / "c")])
    assert result.exit_code == 2, result.output
    assert "--engine compiled: rule 'stone_rule'" in result.output
    result = CliRunner().invoke(main, ["simulate", "tyranno-ex", *out, str(tmp_path / "a")])
    assert result.exit_code == 0, result.output  # 'auto': the object engine plays it


def test_the_played_rules_are_a_literal_tuple_not_derived_from_rules():
    """The declaration is written out in compiled.py: a literal tuple of names, equal to Rules' fields today."""
    tree = ast.parse(inspect.getsource(C))
    [value] = [node.value for node in tree.body if isinstance(node, ast.Assign)
               and any(isinstance(t, ast.Name) and t.id == "PLAYED" for t in node.targets)]
    assert isinstance(value, ast.Tuple) and all(isinstance(e, ast.Constant) for e in value.elts)
    assert set(C.PLAYED) == {f.name for f in dataclasses.fields(Rules)}
