"""Dependencies run one way: a game's object code (its rules, engine, policies and analyses) imports none of its
compiled modules; its compiled modules import not its policies but what both sides read (`weights.py`,
`heuristics.py`); and no module imports another's private name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tyrsim

ROOT = Path(tyrsim.__file__).parent
GAMES = sorted(p for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists())


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import in the file, those inside functions too; `from . import x` made
    absolute."""
    package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + [module]).strip(".")
            out.append((module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
    return out


def compiled(module: str) -> bool:
    return module.rpartition(".")[2].startswith("compiled")


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_object_code_imports_no_compiled_module(game):
    for path in sorted(game.glob("*.py")):
        if compiled(path.stem):
            continue
        reached = [(m, names) for m, names in imports(path) if m.startswith(f"tyrsim.games.{game.name}")]
        assert not [m for m, names in reached if compiled(m) or any(compiled(n) for n in names)], path.name


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_compiled_code_imports_no_policies(game):
    paths = [p for p in sorted(game.glob("*.py")) if compiled(p.stem)]
    assert paths
    for path in paths:
        modules = [m for m, _ in imports(path)]
        assert f"tyrsim.games.{game.name}.policies" not in modules, path.name


def test_no_private_name_crosses_a_module():
    crossing = [(str(path.relative_to(ROOT)), module, name) for path in sorted(ROOT.rglob("*.py"))
                for module, names in imports(path) if module.startswith("tyrsim")
                for name in names if name.startswith("_")]
    assert crossing == []
