"""What every game's compiled engine shares, written once in `tyrsim.core.compiled`: a policy's compiled form by
its name and its named weights (`forms`), the runner's first columns from each seat's score and the winners
(`chunks`), the fields two positions differ in (`positions`), the search's room (`search.room`), and the tuned
weights a game's code plays (`tyrsim.core.engine.weights.tuned_weights`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pytest

from tyrsim.core.compiled.chunks import runner_columns
from tyrsim.core.compiled.forms import form_of, seat_forms, weight_record, weights_of
from tyrsim.core.compiled.positions import differing_fields
from tyrsim.core.compiled.search import room
from tyrsim.core.engine.datafile import DataFileError
from tyrsim.core.engine.protocols import RandomPolicy
from tyrsim.core.engine.weights import tuned_weights, weight_names
from tyrsim.games.tyros.weights import TUNED_PLANNER, PlannerWeights


@dataclass(frozen=True)
class Weights:
    tunable: ClassVar = {"boldness": (0.0, 2.0)}
    boldness: float = 1.0
    patience: int = 3


@dataclass(frozen=True)
class Bold(Weights):
    name: ClassVar[str] = "bold"


@dataclass(frozen=True)
class Timid:
    name: ClassVar[str] = "timid"


KINDS = {"random": 0, "bold": 1, "timid": 2}


def test_a_form_is_the_kind_by_name_and_the_named_weights():
    assert weight_names(Weights) == ("boldness", "patience") == weight_record(Weights).names
    kind, weights = form_of(Bold(boldness=0.25, patience=5), KINDS, Weights)
    assert kind == 1 and weights.shape == (1,) and (weights[0].boldness, weights[0].patience) == (0.25, 5.0)
    kind, weights = form_of(Timid(), KINDS, Weights)  # a policy without the weights: zeros, never read
    assert kind == 2 and tuple(weights[0]) == (0.0, 0.0)
    assert form_of(RandomPolicy(), KINDS, Weights)[0] == 0
    assert form_of(RandomPolicy(), {"bold": 1}, Weights) is None  # not among the kinds: no compiled form
    assert weights_of(Weights(), Weights)[0].patience == 3.0


def test_the_seats_forms_are_the_turn_loops_arrays():
    kinds, weights = seat_forms([form_of(Bold(boldness=0.5), KINDS, Weights), form_of(Timid(), KINDS, Weights)])
    assert kinds.dtype == np.int64 and list(kinds) == [1, 2]
    assert isinstance(weights, np.recarray) and list(weights.boldness) == [0.5, 0.0]


def test_the_runner_columns_rank_the_winners_first_and_share_their_win():
    # game 5: seat 1 wins alone; game 6: seats 0 and 2 share the win by a tie the rules leave standing, and
    # seat 1 outscores seat 3; game 7: seat 3 wins on a tie-break against seat 0, seats 1 and 2 tie behind
    score = np.array([[3, 9, 1, 2], [7, 4, 7, 1], [8, 5, 5, 8]])
    won = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 0, 0, 1]], dtype=bool)
    columns = runner_columns(5, ["a", "b", "c", "d"], score, won)
    assert list(columns["game_id"]) == [5] * 4 + [6] * 4 + [7] * 4 and list(columns["seat"][:5]) == [0, 1, 2, 3, 0]
    assert list(columns["policy"][:8]) == ["b", "c", "d", "a", "c", "d", "a", "b"]  # runner.rotation
    assert columns["score"].dtype == np.float64
    assert list(columns["rank"]) == [2, 1, 4, 3, 1, 3, 1, 4, 2, 3, 3, 1]
    assert list(columns["win_share"]) == [0, 1, 0, 0, 0.5, 0, 0.5, 0, 0, 0, 0, 1]


def test_differing_fields_name_the_fields_of_two_positions_that_differ():
    position = np.zeros(1, np.dtype([("pile", np.int64, (3,)), ("coins", np.int64), ("turn", np.int64)]))
    other = position.copy()
    assert differing_fields(position, other) == []
    other[0]["pile"][2], other[0]["turn"] = 4, 1
    assert differing_fields(position, other) == ["pile", "turn"]


def test_a_search_room_is_made_once_for_each_size():
    tree, path, values, untried = room(10, 7)
    assert len(path) == 12 and len(untried) == 7 and len(tree) >= 2 * 11
    assert room(10, 7)[0] is tree and room(10, 8)[0] is not tree


def test_tuned_weights_name_every_weight(tmp_path):
    assert isinstance(TUNED_PLANNER, PlannerWeights) and TUNED_PLANNER != PlannerWeights()
    path = tmp_path / "planner.toml"
    path.write_text('game = "tyros"\npolicy = "planner"\n\n[weights]\ncity_hope = 0.5\n')
    with pytest.raises(DataFileError, match="names no tyros_ship, needed_card, spare_card, bonus_hope"):
        tuned_weights(str(path), "tyros", "planner", PlannerWeights)
