"""Every notebook in notebooks/ executes from top to bottom, so none can go stale, and reaches the result it
shows: after its last cell, a check of that notebook's own variables runs in the same kernel (an exact answer where
the notebook has one, several standard errors wide where it is Monte Carlo)."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))

# notebook -> the code that checks its result, run after its last cell (an AssertionError fails the test)
RESULTS = {
    "tyranno_ex_combat": """
assert len(odds) == 34_596  # every matchup of strengths 1-6 and 0-30 dice
# the rulebook's example fight (strength 3 with 2 dice against 7 dice), exact
assert abs(odds.set_index(combat.MATCHUP).loc[(3, 2, 1, 7), "p_attacker_wins"] - 0.4311) < 5e-5
""",
    "tyranno_ex": """
# at set-up a card survives with the exact chance the notebook prints, within 4 standard errors of 20,000 trials
at_setup = s_table[s_table["chips"] == 0].set_index("pattern")["survival"]
for pattern, p in exact.items():
    assert abs(at_setup[pattern] - p) <= 4 * (p * (1 - p) / 20_000) ** 0.5, (pattern, at_setup[pattern], p)
assert record.winners and len(record.scores) == 4
""",
    "tiny_epic_dinosaurs": """
# breeding every three dinosaurs grows a herd no faster than every two, and more slowly by the last round
assert (both["every three"] <= both["every two (rulebook)"] + 1e-9).all()
assert both["every three"].iloc[-1] < both["every two (rulebook)"].iloc[-1]
assert record.winners
""",
    "tyros": """
# the planner outscores random play by far in the notebook's 16 games
assert by_policy.loc["planner", "score"] > by_policy.loc["random", "score"] + 5
for setup, (_, t) in results.items():  # Tyros joins one empire or none, and "any empire" adds the empires up
    shares = t["tyros_joins"].set_index("tyros")["share"]
    empires = shares.drop(["any empire", "no empire"])
    assert abs(empires.sum() - shares["any empire"]) < 1e-9 and abs(empires.sum() + shares["no empire"] - 1) < 1e-9
""",
    "zooloretto_duell": """
# only the expert variant discards for coins
assert expert["expert_discards"].mean() > 0 and base["expert_discards"].sum() == 0
""",
}


def test_there_are_notebooks_and_each_has_a_result_check():
    assert NOTEBOOKS and sorted(p.stem for p in NOTEBOOKS) == sorted(RESULTS)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_reaches_its_result(path, tmp_path):
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(RESULTS[path.stem]))
    resources = {"metadata": {"path": str(tmp_path)}}
    # a cell that raises (the result check's AssertionError included) stops the run with CellExecutionError
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources=resources).execute()
