"""Every analysis says which tables and figures it makes, so a scenario's [report] names are checked
before running: here the declared names are compared with what a tiny run really makes."""

import re

import matplotlib
import matplotlib.pyplot as plt
import pytest
from matplotlib.text import Text

from tyrsim.core.engine.rng import task_rng
from tyrsim.games import game_names, get_game

matplotlib.use("Agg")

# arguments that change what an analysis makes, tried besides the defaults
VARIANTS = {
    ("tyranno-ex", "survival"): [{"source": "games", "policies": ("greedy", "random")}],
    ("tyranno-ex", "combat"): [{"method": "mc"}, {"method": "both"}],
}
SMALL = {  # arguments that keep a run to a fraction of a second
    ("tyranno-ex", "combat"): {"attacker_strength": (1, 3), "attacker_dice": (0, 2, 5), "defender_strength": (1,),
                               "defender_dice": (1, 4)},
}
# the skill analyses play search: a tiny budget and one multiple show what they make
SMALL.update({(game, "trace"): {"policy": "ismcts:iterations=3", "multiples": (2,)} for game in game_names()})
SMALL.update({(game, "ladder"): {"policies": ("random", "ismcts:iterations=3"), "span": 1} for game in game_names()})
# a balance study: one rule of two values, one game a block, two fresh games
SMALL.update({(game, "balance"): {"block": 2, "rungs": 1, "batch": 1, "check_games": 2, "finalists": 1,
                                  "vary": get_game(game).analyses["balance"].param("vary").default[:1]}
              for game in game_names() if "balance" in get_game(game).analyses})
ANALYSES = [(game, name) for game in game_names() for name in get_game(game).analyses]


@pytest.mark.parametrize(("game", "name"), ANALYSES, ids=lambda v: v)
def test_declared_outputs_are_what_a_run_makes(game, name):
    spec = get_game(game)
    analysis = spec.analyses[name]
    rules = spec.rules()
    for variant in [{}, *VARIANTS.get((game, name), [])]:
        small = SMALL.get((game, name), {})
        if name == "explore":  # the smallest study: one rule, four base samples
            small = {"params": analysis.param("params").default[:1], "points": 4}
        args = analysis.check_args({**small, **variant})
        if analysis.trials is not None:
            args[analysis.trials] = max(int(analysis.param(analysis.trials).low or 1), 2)
        trials = analysis.trial_count(args)
        raw = analysis.run(rules, args, 0, trials, task_rng(0, 0, 0))
        tables = analysis.tables(raw, rules, args)
        figures = analysis.figures(tables, rules, args) if analysis.figures is not None else {}
        declared_tables, declared_figures = analysis.outputs(args)
        assert (set(declared_tables), set(declared_figures)) == (set(tables), set(figures)), variant
        for figure in figures.values():  # a figure labels in words: no "expert = True", no Python value
            for text in figure_texts(figure):
                assert not re.search(r"\b[a-z_]+ ?= ?(True|False|None)\b|\b(True|False|None)\b|\(bundled\)| at 0x",
                                     text), (name, text)
        plt.close("all")


def figure_texts(figure) -> list[str]:
    """Every text a figure draws: titles, axis labels, tick labels, legends."""
    return [text.get_text() for text in figure.findobj(Text) if text.get_text()]
