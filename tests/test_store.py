"""The result store: data-only entries that prove what they hold; what it cannot verify is computed again."""

import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from combat_runs import run_cli, tables, write

from tyrsim.cli import main
from tyrsim.core.engine.rng import task_rng
from tyrsim.core.engine.rules import RuleSet
from tyrsim.core.engine.spec import GameSpec
from tyrsim.core.run.keys import bundled_data_digest, data_digests
from tyrsim.core.run.scenario import load_scenario
from tyrsim.core.run.store import ResultStore, UnsupportedColumn
from tyrsim.core.run.sweep import run_scenario
from tyrsim.games import game_names, get_game

ROOT = Path(__file__).parent.parent



def every_kind() -> pd.DataFrame:
    return pd.DataFrame({
        "count": np.array([1, -2, 3], dtype=np.int64),
        "small": np.array([1, 2, 255], dtype=np.uint8),
        "share": [0.5, np.nan, -0.0],
        "won": [True, False, True],
        "policy": pd.Series(["greedy", None, "é ✓"], dtype="str"),
        "label": pd.Series(np.array(["a", "b\x00", ""], dtype=object), dtype=object),
        "note": pd.Series(["x", pd.NA, "z"], dtype="string"),
    })


def test_every_column_kind_round_trips_exactly(tmp_path):
    store = ResultStore(tmp_path / "store")
    table = every_kind()
    store.put("k", table)
    back = store.get("k")
    assert back.equals(table)
    assert list(back.dtypes) == list(table.dtypes)
    assert list(back["label"]) == ["a", "b\x00", ""]  # object text stays object, with every character
    empty = table.iloc[:0]
    store.put("empty", empty)
    assert store.get("empty").equals(empty) and list(store.get("empty").dtypes) == list(table.dtypes)


@pytest.mark.slow
def test_every_analysis_raw_chunk_round_trips_exactly(tmp_path):
    """What the analyses really put in their chunks (ints, floats, bools, text) is kept exactly."""
    store = ResultStore(tmp_path)
    for name in game_names():
        spec = get_game(name)
        for analysis in spec.analyses.values():
            # the skill analyses play search: a tiny budget shows what their chunks hold
            small = {"trace": {"policy": "ismcts:iterations=3", "multiples": (2,)},
                     "ladder": {"policies": ("random", "ismcts:iterations=3"), "span": 1},
                     "balance": {"block": 2, "rungs": 1, "batch": 1, "check_games": 2, "finalists": 1}}
            args = analysis.check_args(small.get(analysis.name, {}))
            raw = analysis.run(spec.rules(), args, 0, min(2, analysis.trial_count(args)), task_rng(1, 0, 0))
            store.put("chunk", raw)
            back = store.get("chunk")
            assert back.equals(raw) and list(back.dtypes) == list(raw.dtypes), (name, analysis.name)


def test_a_pickle_is_never_loaded(tmp_path):
    class Payload:
        def __reduce__(self):
            return (Path.write_text, (tmp_path / "ran", "code ran"))

    store = ResultStore(tmp_path)
    store.put("k", every_kind())
    store.path("k").write_bytes(pickle.dumps(Payload()))
    assert store.get("k") is None
    assert not (tmp_path / "ran").exists()
    np.savez(store.path("k"), header=np.array([every_kind()], dtype=object))  # an npz with pickled objects
    assert store.get("k") is None


def test_an_entry_under_another_name_or_changed_or_damaged_is_not_trusted(tmp_path):
    store = ResultStore(tmp_path)
    store.put("a", every_kind())
    store.put("b", every_kind().iloc[:1])
    shutil.copy(store.path("a"), store.path("b"))
    assert store.get("b") is None  # it says it is "a"

    with np.load(store.path("a"), allow_pickle=False) as entry:
        arrays = {name: entry[name] for name in entry.files}
    arrays["c0"] = arrays["c0"] + 1  # same header, other numbers
    np.savez(store.path("a"), **arrays)
    assert store.get("a") is None

    store.put("a", every_kind())
    data = store.path("a").read_bytes()
    store.path("a").write_bytes(data[: len(data) // 2])
    assert store.get("a") is None
    store.path("a").write_bytes(b"")
    assert store.get("a") is None


def test_columns_the_store_cannot_keep_exactly_are_refused_when_written(tmp_path):
    store = ResultStore(tmp_path / "store")
    for bad in (pd.DataFrame({"n": pd.Series([1, None], dtype="Int64")}),
                pd.DataFrame({"x": pd.Series(["a", 1], dtype=object)}),
                pd.DataFrame({"x": pd.Series(["a", None], dtype=object)}),
                pd.DataFrame({"c": pd.Categorical(["a", "b"])})):
        with pytest.raises(UnsupportedColumn):
            store.put("k", bad)
    assert not (tmp_path / "store").exists()  # the folder appears with the first entry, not before


@pytest.fixture
def fresh_and_reused(tmp_path):
    """A scenario, its tables from a fresh run, and a second folder holding the same run and its store."""
    path = write(tmp_path)
    run_cli("run", path, "--out", tmp_path / "fresh", "--jobs", 1)
    run_cli("run", path, "--out", tmp_path / "reused", "--jobs", 1)
    return path, tables(tmp_path / "fresh"), tmp_path / "reused"


def entries(folder: Path) -> list[Path]:
    return sorted((folder / ".store").glob("*.npz"))


def test_a_crafted_pickle_in_the_store_runs_nothing_and_is_recomputed(tmp_path, fresh_and_reused):
    path, fresh, out = fresh_and_reused

    class Payload:
        def __reduce__(self):
            return (Path.write_text, (tmp_path / "ran", "code ran"))

    entries(out)[0].write_bytes(pickle.dumps(Payload()))
    run_cli("run", path, "--out", out, "--jobs", 1)
    assert not (tmp_path / "ran").exists()
    assert tables(out) == fresh


def test_an_entry_copied_over_another_is_recomputed(fresh_and_reused):
    path, fresh, out = fresh_and_reused
    first, *_, last = entries(out)
    shutil.copy(first, last)
    run_cli("run", path, "--out", out, "--jobs", 1)
    assert tables(out) == fresh


def test_an_entry_whose_columns_differ_from_its_points_other_chunks_is_recomputed(fresh_and_reused):
    path, fresh, out = fresh_and_reused
    scenario = load_scenario(path, games=get_game)
    store = ResultStore(out / ".store")
    results = run_scenario(scenario, store_folder=out / ".store")
    assert all(r.stored == 3 for r in results)  # 3 chunks of 100,000 fights per point, all read back
    # a verified entry (right key, right checksum) with a column less and one of another type
    key = entries(out)[0].stem
    table = store.get(key)
    store.put(key, table.drop(columns=["n_rolls"]).astype({"n_fights": "float64"}))
    run_cli("run", path, "--out", out, "--jobs", 1)
    assert tables(out) == fresh
    assert store.get(key).equals(table)  # computed again and stored right


def test_stored_results_the_analysis_cannot_make_tables_from_are_recomputed(fresh_and_reused):
    """Every chunk of a point agrees, but not with what the analysis needs: recomputed, not a traceback."""
    path, fresh, out = fresh_and_reused
    store = ResultStore(out / ".store")
    for entry in entries(out):
        store.put(entry.stem, store.get(entry.stem).drop(columns=["n_fights"]))
    result = run_cli("run", path, "--out", out, "--jobs", 1)
    assert "computing them again" in result.stderr
    assert tables(out) == fresh


@pytest.mark.slow
def test_a_changed_data_file_is_a_changed_task(tmp_path):
    """Editing the user's markers file makes a rerun into the same folder recompute (a new process each run,
    as a user would)."""
    markers = tmp_path / "markers.toml"
    shutil.copy(ROOT / "tyrsim/games/zooloretto_duell/data/markers.toml", markers)
    path = write(tmp_path, f"""
game = "zooloretto-duell"
analysis = "game"
seed = 1
[rules]
markers_file = "{markers}"
[args]
games = 20
""", "zoo.toml")

    def run(out):
        done = subprocess.run([sys.executable, "-m", "tyrsim.cli", "run", str(path), "--out", str(out), "--jobs", "1"],
                              capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        return tables(out)

    before = run(tmp_path / "out")
    markers.write_text(markers.read_text().replace("{ points = 4 }", "{ points = 40 }"))
    again = run(tmp_path / "out")
    assert again != before
    assert again == run(tmp_path / "fresh")


def test_every_key_covers_the_bundled_data_and_each_data_file_rule(tmp_path, monkeypatch):
    package = tmp_path / "fakegame"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "data" / "board.toml").write_text("spaces = 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    fake = GameSpec(name="fake", title="Fake", rules=RuleSet, players=(2,), package="fakegame")
    before = bundled_data_digest(fake)
    (package / "data" / "board.toml").write_text("spaces = 4\n")
    assert bundled_data_digest(fake) != before

    deck = tmp_path / "deck.toml"
    shutil.copy(ROOT / "tyrsim/games/tyranno_ex/data/deck.toml", deck)
    text = f'game = "tyranno-ex"\nanalysis = "game"\nseed = 1\n[rules]\ndeck_file = "{deck}"\n'
    digest = data_digests(load_scenario(write(tmp_path, text, "t.toml"), games=get_game))[0]
    assert digest["bundled"] == bundled_data_digest(get_game("tyranno-ex")) and digest["deck_file"]
    deck.write_text(deck.read_text() + "\n# an edit\n")
    edited = load_scenario(write(tmp_path, text, "t.toml"), games=get_game)
    assert data_digests(edited)[0]["deck_file"] != digest["deck_file"]


def test_a_run_that_fails_before_any_task_finishes_leaves_no_store(tmp_path, dice_game, monkeypatch):
    import dataclasses

    from tyrsim.core.engine.rules import RuleError

    def unreadable(*args, **kwargs):
        raise RuleError("rule 'board': board.toml: cannot read the file (Permission denied)")

    monkeypatch.setitem(dice_game.analyses, "game",
                        dataclasses.replace(dice_game.analyses["game"], run=unreadable))
    path = write(tmp_path, 'game = "dice"\nanalysis = "game"\nseed = 1\n[args]\ngames = 10\n', "dice.toml")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(path), "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 2 and "cannot read the file" in result.output
    assert not out.exists()
