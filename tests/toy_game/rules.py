"""The Dice game's rules as data; every default is the rulebook's.

The whole rulebook: "Players take turns, three each. On your turn, roll the die and add the number to your
points, or pass. A six is lucky. After the last turn the most points wins; equal points share the victory."

Rules marked `ruling=` encode a reading of a sentence the rulebook leaves open, or a component it does
not print; `tyrsim rulings dice` plays each alternative against the default; the effects of `six_again` and `bonus`
are known exactly, which the `rulings` analysis's tests check (tests/test_rulings.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from toy_game.die import load_faces
from tyrsim.core.engine.rules import RuleSet, rule


@dataclass(frozen=True)
class Rules(RuleSet):
    """The Dice game's rules; defaults are the rulebook's."""

    turns: int = rule(3, "turns per player", low=1, high=10)
    # "A six is lucky.": lucky how? Read as nothing more than a good roll; the other reading rolls it again
    six_again: bool = rule(False, "a six is rolled again and added (each roll is worth 4.2 on average, not 3.5)",
                           ruling=True)
    # "or pass": nothing says a pass scores, so it scores nothing; the other readings give it 1 or 2 points
    bonus: int = rule(0, "points for passing", low=0, high=6, ruling=(1, 2))
    # two rulings for the `rulings` analysis's tests: one the engine never reads, one only a counter reads
    idle: str = rule("a", "a reading the game never reads", choices=("a", "b"), ruling=True)
    tally: str = rule("sixes", "the rolls the 'tally' counter counts (it scores nothing)", choices=("sixes", "high"),
                      ruling=True)
    # --- data the rulebook does not print ---
    die_file: str = rule("", "TOML file with the die's faces ('' = bundled assumption: 1 to 6)", data_file=True)

    def check(self) -> None:
        # load the data file now, so a bad file is reported when the rules are read
        self.check_file("die_file", load_faces)
