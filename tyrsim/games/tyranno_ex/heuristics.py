"""What the greedy valuation (`policies.GreedyPolicy`) and the search's standing read from the rules: the exact fight
chances of every matchup, and the points a card on a spot scores at the next scoring and can still score. The object
policies and their compiled forms (`compiled_policies.policy_tables`, `compiled_search.py`) read the same floats
from here.
"""

from __future__ import annotations

import functools

import numpy as np

from tyrsim.games.tyranno_ex.board import ROWS, TRACK, track_space
from tyrsim.games.tyranno_ex.combat import FightRules, odds, outcome_columns
from tyrsim.games.tyranno_ex.rules import Rules


def chance_table(rules: Rules) -> np.ndarray:
    """Exact fight chances for every matchup, indexed [attacker strength, dice, defender strength, dice].

    The last axis holds (attacker wins clean, attacker wins close, defender wins
    close, defender wins clean): a clean win (the loser won no round) eliminates
    the loser, a close one turns it face down. A fight that can never end has all
    four 0. One vectorized `odds` call fills the table, once per set of fight
    rules: a sensitivity study's rule points mostly differ in rules no fight reads.
    The table is shared, so it is read-only.
    """
    return _fight_chances(FightRules.of(rules))


@functools.lru_cache(maxsize=8)
def _fight_chances(rules: FightRules) -> np.ndarray:
    s, d = rules.max_strength, rules.max_dice
    table = odds(range(1, s + 1), range(d + 1), range(1, s + 1), range(d + 1), rules)
    r = rules.rounds_to_win
    p = np.nan_to_num(table[outcome_columns(rules)].to_numpy())
    chances = np.stack([p[:, 0], p[:, 1:r].sum(axis=1), p[:, r:-1].sum(axis=1), p[:, -1]], axis=1)
    out = np.zeros((s + 1, d + 1, s + 1, d + 1, 4))
    out[1:, :, 1:, :] = chances.reshape(s, d + 1, s, d + 1, 4)
    out.flags.writeable = False  # one table serves every policy and game under these fight rules
    return out


def future_points(spot: int, rules: Rules) -> float:
    """Points a card on `spot` can still score: the rows above it, then the special spaces."""
    specials = rules.special_spaces
    if spot >= TRACK:
        return float(sum(specials[track_space(spot) + 1 :]))
    return float(sum(ROWS[spot % 4 + 1 :]) + sum(specials))


def next_score(spot: int, rules: Rules) -> float:
    """Points the card on `spot` scores at this round's scoring, after one shift (empty spaces aside)."""
    if spot >= TRACK:
        index = track_space(spot) + 1
        return float(rules.special_spaces[index]) if index < len(rules.special_spaces) else 0.0
    row = spot % 4 + 1
    return float(ROWS[row]) if row < len(ROWS) else float(rules.special_spaces[0])
