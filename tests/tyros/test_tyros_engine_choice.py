"""The `engine` argument of the Tyros `game` analysis: 'compiled', 'object', 'auto' (`tyrsim.core.compiled.engines`)."""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.rules import RuleError, rule
from tyrsim.core.engine.runner import play
from tyrsim.games import tyros
from tyrsim.games.tyros import SPEC
from tyrsim.games.tyros import compiled as C
from tyrsim.games.tyros.analysis import COMPILED
from tyrsim.games.tyros.game import TyrosGame
from tyrsim.games.tyros.rules import Rules

ANALYSES = SPEC.analyses
POLICIES = ["planner", "greedy", "random", "planner"]


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
    with pytest.raises(ArgumentError, match="'compiled' plays only the random, greedy and planner"):
        analysis.check_args({"policies": ["ismcts", *POLICIES[1:]], "engine": "compiled"})


def test_the_sensitivity_study_plays_its_rule_points_on_the_compiled_engine():
    explore = ANALYSES["explore"]
    args = explore.check_args({"points": 4, "games": 6, "params": ["city_cost=3:7"]})
    assert explore.point_substitutions(Rules(), args) == ()
    raw = explore.run(Rules(), args, 6, 6, np.random.default_rng(3))  # the second rule point
    assert set(raw["point"]) == {1} and raw["game_id"].nunique() == 6


# ---- a rule the compiled engine does not play is never ignored --------------------------------------------
@dataclass(frozen=True)
class MoreRules(Rules):
    """The rules with one rule more, which the compiled engine has not learnt."""

    harbour_tax: int = rule(0, "a rule made for this test: cards paid on entering a harbour", low=0, high=5)


def test_the_compiled_engine_declares_the_rules_it_plays_as_a_literal_list():
    """`compiled.PLAYED` is written out name by name, so a rule added to `Rules` alone is refused, never played
    without its effect (a declaration read from `Rules` would always agree with it)."""
    tree = ast.parse(Path(C.__file__).read_text())
    [value] = [node.value for node in tree.body if isinstance(node, ast.Assign)
               and [getattr(t, "id", None) for t in node.targets] == ["PLAYED"]]
    assert isinstance(value, ast.Tuple) and all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                                                for e in value.elts)
    assert sorted(C.PLAYED) == sorted(f.name for f in dataclasses.fields(Rules))


def test_a_rule_the_compiled_engine_does_not_play_is_refused_and_played_by_the_object_engine():
    more = MoreRules(harbour_tax=1)
    message = "rule 'harbour_tax': the compiled engine does not play it yet (the object engine does)"
    assert C.supported(more) == message
    with pytest.raises(ValueError, match="rule 'harbour_tax'"):
        C.rule_tables(more)
    record = play(TyrosGame(more, 4), [RandomPolicy()] * 4, np.random.default_rng(1))  # the object engine plays
    assert record.stats["rounds"] >= 1
    analysis = ANALYSES["game"]
    args = analysis.check_args({"policies": POLICIES})
    assert COMPILED.engine_for(more, args) == "object"
    [note] = analysis.point_substitutions(more, args)
    assert note.asked == "engine 'auto'" and "rule 'harbour_tax'" in note.reason
    with pytest.raises(RuleError, match="--engine compiled: rule 'harbour_tax'"):
        analysis.point_substitutions(more, {**args, "engine": "compiled"})


def test_simulate_engine_compiled_refuses_the_rule_it_does_not_play(monkeypatch, tmp_path):
    monkeypatch.setattr(tyros, "SPEC", dataclasses.replace(SPEC, rules=MoreRules))
    result = CliRunner().invoke(main, ["simulate", "tyros", "--engine", "compiled", "--rule", "harbour_tax=1",
                                       "--games", 2, "--jobs", 1, "--out", str(tmp_path / "s")])
    assert result.exit_code == 2, result.output
    assert "--engine compiled: rule 'harbour_tax'" in " ".join(result.output.split())
    assert "Traceback" not in result.output and not (tmp_path / "s").exists()
