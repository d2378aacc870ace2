"""--out folders: checked before any work, never holding another run's files, never losing a user's."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from combat_runs import write

from tyrsim.cli import main
from tyrsim.core.run.output import RECORD, atomic_folder

SWEPT = """
name = "swept"
game = "tyranno-ex"
analysis = "combat"
seed = 1
[args]
attacker_strength = [3]
attacker_dice = [2]
defender_strength = [1]
defender_dice = [7]
method = "mc"
fights = 1000
[sweep.rules]
tie_rule = ["reroll", "defender"]
[compare]
baseline = { tie_rule = "reroll" }
"""
PLAIN = """
name = "plain"
game = "tyranno-ex"
analysis = "combat"
seed = 2
[args]
attacker_strength = [3]
attacker_dice = [2]
defender_strength = [1]
defender_dice = [7]
method = "mc"
fights = 1000
"""


def invoke(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def listing(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_reused_folder_holds_only_the_new_report_and_the_users_files(tmp_path):
    out = tmp_path / "out"
    assert invoke("run", write(tmp_path, SWEPT, "a.toml"), "--out", out, "--jobs", 1).exit_code == 0
    assert (out / "comparison.csv").exists() and (out / "dice_curve__tie_rule=reroll.png").exists()
    (out / "notes.txt").write_text("mine")
    assert invoke("run", write(tmp_path, PLAIN, "b.toml"), "--out", out, "--jobs", 1).exit_code == 0
    assert invoke("run", tmp_path / "b.toml", "--out", tmp_path / "new", "--jobs", 1).exit_code == 0
    report = {p.name for p in out.iterdir()} - {".store", "notes.txt"}
    assert report == {p.name for p in (tmp_path / "new").iterdir()} - {".store"}
    assert (out / "notes.txt").read_text() == "mine"
    assert json.loads((out / RECORD).read_text())["files"] == sorted(report - {RECORD})


def test_a_folder_tyrsim_did_not_write_is_refused_and_left_as_it_was(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.txt").write_text("precious")
    (mine / "index.html").write_text("<p>my page</p>")
    before = listing(tmp_path)
    scenario = write(tmp_path, PLAIN, "b.toml")
    for args in (["run", scenario], ["simulate", "zooloretto-duell", "--games", 2],
                 ["combat", "--attacker-strength", 3, "--attacker-dice", 2, "--defender-strength", 1,
                  "--defender-dice", 7], ["report", "--quick"]):
        result = invoke(*args, "--out", mine)
        assert result.exit_code == 2, result.output
        last = result.output.strip().splitlines()[-1]
        assert last.startswith("Error: Invalid value for '--out'") and "did not write" in last
    assert listing(tmp_path) == {**before, "b.toml": scenario.read_bytes()}


def test_report_checks_every_scenario_folder_before_running_any(tmp_path, monkeypatch):
    import tyrsim.cli

    def never(*args, **kwargs):
        raise AssertionError("a scenario ran")

    monkeypatch.setattr(tyrsim.cli, "execute", never)
    (tmp_path / "tyranno_ex_tie_rule").mkdir()
    (tmp_path / "tyranno_ex_tie_rule" / "mine.txt").write_text("mine")
    result = invoke("report", "--quick", "--out", tmp_path)
    assert result.exit_code == 2 and "tyranno_ex_tie_rule holds files tyrsim did not write" in result.output


@pytest.mark.slow
def test_report_may_share_its_folder_with_other_files_but_not_with_another_index(tmp_path, monkeypatch):
    import tyrsim.cli

    monkeypatch.setattr(tyrsim.cli, "execute", lambda *args, **kwargs: None)
    (tmp_path / "README.md").write_text("what lands here")
    assert invoke("report", "--quick", "--out", tmp_path).exit_code == 0  # like the repository's reports/
    assert (tmp_path / "index.html").exists() and (tmp_path / "README.md").read_text() == "what lands here"
    other = tmp_path / "other"
    other.mkdir()
    (other / "index.html").write_text("<p>someone's index</p>")
    result = invoke("report", "--quick", "--out", other)
    assert result.exit_code == 2 and "did not write (such as index.html)" in result.output


COMMANDS = {
    "run": lambda tmp: ["run", write(tmp, PLAIN, "b.toml")],
    "report": lambda tmp: ["report", "--quick"],
    "combat": lambda tmp: ["combat", "--attacker-strength", 3, "--attacker-dice", 2, "--defender-strength", 1,
                           "--defender-dice", 7, "--method", "mc"],
    "simulate": lambda tmp: ["simulate", "zooloretto-duell", "--games", 2],
    "rate": lambda tmp: ["rate", "zooloretto-duell", "--games", 2],
    "explore": lambda tmp: ["explore", "zooloretto-duell", "--param", "starting_coins=0:2", "--points", 4,
                            "--games", 2],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_out_folder_that_cannot_be_made_is_refused_before_any_game(command, tmp_path, monkeypatch):
    import tyrsim.core.run.sweep
    from tyrsim.games.tyranno_ex import combat

    def never(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(tyrsim.core.run.sweep, "run_scenario", never)
    monkeypatch.setattr(combat, "simulate_counts", never)
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    args = COMMANDS[command](tmp_path)
    before = listing(tmp_path)
    for out, why in ((blocker / "sub", "a_file is a file, not a folder"), (blocker, "is a file, not a folder")):
        result = invoke(*args, "--out", out)
        assert result.exit_code == 2, result.output
        last = result.output.strip().splitlines()[-1]
        assert last.startswith("Error: Invalid value for '--out'") and why in last, last
    assert listing(tmp_path) == before


def test_an_out_folder_where_nothing_can_be_written_is_refused():
    target = Path("/proc/tyrsim-out")
    with pytest.raises(OSError):  # the premise, also as root: nothing can be made in /proc
        target.mkdir()
    result = invoke("combat", "--attacker-strength", 3, "--attacker-dice", 2, "--defender-strength", 1,
                    "--defender-dice", 7, "--out", target)
    assert result.exit_code == 2 and "'--out'" in result.output and "cannot write in /proc" in result.output


def test_a_record_never_removes_files_outside_its_folder(tmp_path):
    out = tmp_path / "out"
    with atomic_folder(out) as folder:
        (folder / "a.csv").write_text("a")
    (tmp_path / "outside.txt").write_text("keep")
    (out / "link.csv").symlink_to(tmp_path / "outside.txt")
    (out / RECORD).write_text(json.dumps({"written_by": "tyrsim",
                                          "files": ["a.csv", "../outside.txt", str(tmp_path / "outside.txt"),
                                                    "link.csv"]}))
    with atomic_folder(out) as folder:
        (folder / "b.csv").write_text("b")
    assert sorted(p.name for p in out.iterdir()) == [RECORD, "b.csv", "link.csv"]
    assert (tmp_path / "outside.txt").read_text() == "keep"


def test_a_report_folder_of_an_older_tyrsim_is_reused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps({"scenario": "x", "versions": {"tyrsim": "0.1.0"}}))
    (out / "odds.csv").write_text("old")
    assert invoke("run", write(tmp_path, PLAIN, "b.toml"), "--out", out, "--jobs", 1).exit_code == 0
    assert (out / "odds.csv").read_text() != "old"


def test_a_page_says_when_its_run_time_leaves_out_games_read_from_the_store(tmp_path):
    out = tmp_path / "out"

    def run_time_line() -> str:
        assert invoke("run", write(tmp_path, PLAIN, "b.toml"), "--out", out, "--jobs", 1).exit_code == 0
        return next(x for x in (out / "index.md").read_text().splitlines() if "Run time" in x)

    assert "result store" not in run_time_line()
    assert "read from the result store (played by an earlier run" in run_time_line()
