"""A small Tyranno Ex combat scenario (two tie rules, two matchups) and helpers to run it through the
command line and read back its tables: shared by the tests of the sweep, the store and the cluster."""

from pathlib import Path

from click.testing import CliRunner

from tyrsim.cli import main

SCENARIO = """
name = "small"
game = "tyranno-ex"
analysis = "combat"
seed = 99
[args]
attacker_strength = [2, 4]
attacker_dice = [3]
defender_strength = [1, 3]
defender_dice = [4]
method = "mc"
fights = 250000
[sweep.rules]
tie_rule = ["reroll", "defender"]
"""


def write(folder: Path, text: str = SCENARIO, name: str = "small.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def tables(folder: Path) -> dict[str, bytes]:
    """Every CSV table of a report folder, by name, as bytes (to compare runs byte for byte)."""
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.csv"))}


def run_cli(*args):
    """`tyrsim ARGS`, which must succeed."""
    result = CliRunner().invoke(main, list(map(str, args)))
    assert result.exit_code == 0, result.output
    return result
