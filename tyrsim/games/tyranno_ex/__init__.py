"""Tyranno Ex: combat odds (exact and Monte Carlo)."""

from tyrsim.core.game import GameSpec
from tyrsim.games.tyranno_ex.combat_analysis import COMBAT
from tyrsim.games.tyranno_ex.rules import Rules

SPEC = GameSpec(name="tyranno-ex", title="Tyranno Ex", rules=Rules, players=(2, 3, 4), analyses={"combat": COMBAT})
