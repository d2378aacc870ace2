"""The `engine` argument of the Tyranno Ex `game` analysis: 'compiled', 'object', 'auto'
(`tyrsim.core.compiled.engines`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.games.tyranno_ex import SPEC
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
