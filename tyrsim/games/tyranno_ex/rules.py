"""Tyranno Ex rules as data; every default is the rulebook's."""

from __future__ import annotations

from dataclasses import dataclass

from tyrsim.core.rules import RuleError, RuleSet, rule

TIE_RULES = ("reroll", "attacker", "defender")


@dataclass(frozen=True)
class Rules(RuleSet):
    """Tyranno Ex rules; defaults are the rulebook's."""

    # --- combat ("Combat" in the rulebook) ---
    die_faces: int = rule(6, "faces on a battle die", low=2, high=20)
    rounds_to_win: int = rule(2, "won combat rounds that end a fight (2 gives 2:0 or 2:1)", low=1, high=5)
    tie_rule: str = rule(
        "reroll",
        "a round with equal hits: 'reroll' (doesn't count), or won by the 'attacker' or 'defender'",
        choices=TIE_RULES,
    )
    max_strength: int = rule(6, "highest value a strength die can show", low=1, high=20)
    max_dice: int = rule(30, "most dice one side can roll (the game has 30 battle dice)", low=0, high=200)

    def check(self) -> None:
        if self.max_strength > self.die_faces:
            raise RuleError(
                f"rule 'max_strength': {self.max_strength} is more than die_faces ({self.die_faces}); "
                "a strength die cannot show more than the die's faces"
            )
