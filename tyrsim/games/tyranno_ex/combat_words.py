"""Tyranno Ex combat in words: the fight rules as the cheat sheet and the calculator name them."""

from __future__ import annotations

from tyrsim.games.tyranno_ex.combat import FightRules
from tyrsim.games.tyranno_ex.rules import Rules

TIE_WORDS = {
    "reroll": "a tied roll doesn't count and is rolled again",
    "attacker": "a tied roll is won by the attacker",
    "defender": "a tied roll is won by the defender",
}


def tie_words(tie_rule: str) -> str:
    """The tie rule in words, marked where it is the rulebook's."""
    rulebook = " (rulebook)" if tie_rule == Rules().tie_rule else ""
    return TIE_WORDS[tie_rule] + rulebook


def rounds_words(rules: Rules | FightRules) -> str:
    """How a fight ends, in words."""
    r = rules.rounds_to_win
    return f"The first side to win {r} round{'s' if r > 1 else ''} wins the fight"


def dice_words(rules: Rules | FightRules) -> str:
    """The dice and strengths, in words."""
    return f"{rules.die_faces}-sided dice: a die hits when it shows at most the card's strength (1 = no strength die)"
