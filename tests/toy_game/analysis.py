"""The Dice game's analyses: the studies every game gets, each with the game's default policies and rules.

Each entry is a `ForGame` factory of `tyrsim.core`: the GameSpec builds it with the game's own spec, so the
game's engine, policies and rules are handed to it. A game adds its own tables to `game_analysis` through
`extra_tables` (see tyrsim/games/zooloretto_duell/analysis.py); the Dice game needs none.
"""

from __future__ import annotations

from tyrsim.core.studies.explore import explore_analysis
from tyrsim.core.studies.game import game_analysis
from tyrsim.core.studies.ladder import ladder_analysis
from tyrsim.core.studies.rate import rating_analysis
from tyrsim.core.studies.rulings import rulings_analysis
from tyrsim.core.studies.trace import trace_analysis

ANALYSES = {
    "game": game_analysis(("roller", "random")),
    "rate": rating_analysis(("roller", "random", "roller:eagerness=0.5"), 2),
    "explore": explore_analysis(("roller:eagerness=0.6", "random"), ("turns=1:8",)),
    "rulings": rulings_analysis(("roller", "roller:eagerness=0.5")),
    "ladder": ladder_analysis(("random", "cautious", "ismcts", "roller"), 2),
    "trace": trace_analysis("ismcts", 2),
}
