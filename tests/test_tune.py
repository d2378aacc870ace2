"""Tuning named weights by CMA-ES (on the toy dice game, whose best weight is known) and weights files."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.engine.protocols import PolicyError
from tyrsim.core.run.store import ResultStore
from tyrsim.core.studies.tune import TuneSetup, tune
from tyrsim.games import get_game


def setup_for(spec, **changes) -> TuneSetup:
    base = dict(game="dice", policy="cautious", rules=spec.rules(), pool=("cautious",), players=2, seed=4,
                population=4, games=40, generations=4, check_games=200)
    return TuneSetup(**(base | changes))


def test_tuning_finds_that_rolling_pays_and_the_check_shows_it(dice_game):
    result = tune(dice_game, setup_for(dice_game))
    # every roll is worth 3.5 points and a pass 0: the eagerer the better, from the default 0.3
    assert result.weights["eagerness"] > 0.6 and result.weights["behind"] > 0.6
    mean, low, high = result.beats
    assert low > 0.55 and low <= mean <= high
    assert len(result.history) == 16 and set(result.history["generation"]) == {0, 1, 2, 3}
    assert len(result.check) == 200


def test_same_seed_same_weights_and_a_rerun_reads_every_game_back(dice_game, tmp_path, monkeypatch):
    store = ResultStore(tmp_path / "store")
    first = tune(dice_game, setup_for(dice_game, generations=2, check_games=20), store=store)
    import tyrsim.core.studies.tune as tune_module

    def refuse(*args, **kwargs):
        raise AssertionError("a stored game was played again")

    monkeypatch.setattr(tune_module, "play_candidate", refuse)
    again = tune(dice_game, setup_for(dice_game, generations=2, check_games=20), store=store)
    assert again.weights == first.weights
    assert again.history.equals(first.history)


def test_candidates_of_a_generation_play_the_same_games(dice_game):
    from tyrsim.core.studies.tune import play_candidate

    setup = setup_for(dice_game)
    # the same weights give the same games, and the pool's seat sees the same dice whatever the candidate does
    a = play_candidate(dice_game, setup, {"eagerness": 0.5, "behind": 0.5}, 0, 0, 20)
    b = play_candidate(dice_game, setup, {"eagerness": 0.5, "behind": 0.5}, 0, 0, 20)
    assert a.equals(b)
    c = play_candidate(dice_game, setup, {"eagerness": 0.5, "behind": 0.5}, 1, 0, 20)
    assert not a.equals(c)


def test_weights_file_round_trip_and_bad_files(dice_game, tmp_path):
    from tyrsim.core.engine.weights import write_weights

    path = tmp_path / "cautious.toml"
    write_weights(path, "dice", "cautious", {"eagerness": 0.9}, {"seed": 1, "pool": ["cautious"]})
    assert dice_game.make_policy(f"cautious:weights={path}").eagerness == 0.9
    assert dice_game.make_policy(f"cautious:weights={path}").behind == 0.3  # not in the file: the default
    # a key=value beside the file still wins, before or after it
    assert dice_game.make_policy(f"cautious:eagerness=0.2,weights={path}").eagerness == 0.2
    assert dice_game.make_policy(f"cautious:weights={path},eagerness=0.2").eagerness == 0.2
    write_weights(path, "dice", "roller", {"eagerness": 0.9}, {})
    with pytest.raises(PolicyError, match="not for 'cautious'"):
        dice_game.make_policy(f"cautious:weights={path}")
    write_weights(path, "dice", "cautious", {"boldness": 0.9}, {})
    with pytest.raises(PolicyError, match="'boldness' is not a weight"):
        dice_game.make_policy(f"cautious:weights={path}")
    with pytest.raises(PolicyError, match="cannot read"):
        dice_game.make_policy(f"cautious:weights={tmp_path / 'missing.toml'}")
    with pytest.raises(PolicyError, match="weights=FILE"):
        dice_game.make_policy("cautious:boldness=1")


def test_a_changed_weights_file_changes_the_task_keys(dice_game, tmp_path):
    from tyrsim.core.engine.weights import write_weights
    from tyrsim.core.run.keys import data_digests
    from tyrsim.core.run.scenario import scenario_from_data

    path = tmp_path / "w.toml"
    write_weights(path, "dice", "cautious", {"eagerness": 0.9}, {})
    data = {"name": "t", "game": "dice", "analysis": "game", "seed": 1,
            "args": {"policies": [f"cautious:weights={path}", "random"], "games": 10}}
    before = data_digests(scenario_from_data(data, "test", games=get_game))
    write_weights(path, "dice", "cautious", {"eagerness": 0.8}, {})
    after = data_digests(scenario_from_data(data, "test", games=get_game))
    assert before != after and f"weights:{path}" in before[0]


def test_tune_command_writes_a_weights_file_that_the_policies_read(dice_game, tmp_path):
    out = tmp_path / "tuned"
    result = CliRunner().invoke(main, ["tune", "dice", "--policy", "cautious", "--budget", "320", "--games", "40",
                                       "--population", "4", "--check-games", "100", "--jobs", "1", "--seed", "3",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "beats the untuned one" in result.output
    tuned = dice_game.make_policy(f"cautious:weights={out / 'cautious.toml'}")
    assert tuned.eagerness > 0.3
    assert {p.name for p in out.iterdir()} >= {"cautious.toml", "tune_history.csv", "check.csv", ".store"}


@pytest.mark.parametrize("args, message", [
    (["--policy", "roller"], "no tunable weights|with tunable weights"),
    (["--policy", "cautious", "--budget", "10"], "leave no generation"),
    (["--policy", "cautious", "--opponent", "nobody"], "unknown policy"),
    (["--policy", "cautious", "--players", "5"], "players"),
])
def test_tune_command_bad_input(dice_game, tmp_path, args, message):
    result = CliRunner().invoke(main, ["tune", "dice", *args, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert np.any([m in result.output for m in message.split("|")]), result.output
    assert not (tmp_path / "o").exists()


def test_a_candidate_is_a_policy_text_that_reads_back_its_weights_exactly():
    import numpy as np

    from tyrsim.core.studies.tune import candidate_text
    from tyrsim.games import get_game

    spec = get_game("zooloretto-duell")
    base = spec.make_policy("heuristic")
    names = [n for n, v in vars(base).items() if isinstance(v, float)][:2]
    weights_ = {names[0]: np.float64(0.1) + 0.2, names[1]: round(np.float64(1 / 3), 6)}
    policy = spec.make_policy(candidate_text("heuristic", weights_))
    assert [getattr(policy, n) for n in names] == [float(v) for v in weights_.values()]
