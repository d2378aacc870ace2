"""Tyranno Ex combat: one fight from dice, exact odds tables, and vectorized Monte Carlo.

The rulebook ("Combat"): a card's strength is its strength die's value, 1 without
a die; a rolled die is a hit when it shows at most the strength. Both sides roll
all their dice at once; more hits wins the round; equal hits is a tie that
doesn't count (`tie_rule` "reroll"; a variant gives tied rounds to the
attacker or the defender). The first side to win `rounds_to_win` rounds wins.

Exact odds. A side's hits in one roll are Binomial(dice, strength / faces), so
a roll's outcome (attacker ahead, defender ahead, tie) has exact probabilities
p_a, p_d, p_t. Rolls are independent and identically distributed, so with ties
rerolled each *counting* round goes to the attacker with a = p_a / (p_a + p_d),
and the fight is a race to R: P(attacker wins R:k) = C(R-1+k, k) a^R (1-a)^k.
Each counting round takes a geometric number of rolls with mean 1 / (1 - p_t),
so expected rolls = expected counting rounds / (1 - p_t) (Wald's identity).

A fight that can never end — every roll surely a tie — is found up front: both
sides' hits are certain (no dice, or strength at least the die's faces) and
equal. It is reported with decisive = False and no probabilities.

Monte Carlo. A roll's outcome only matters through which side has more hits,
so instead of rolling every die the simulator draws each counting round's
winner from the exact round distribution above — equivalent in distribution,
since the hit counts are Binomial and rolls are independent; `round_check`
rolls actual dice to show the round distribution is right. Each fight is
played round by round as a race (see `_simulate_block`); the tied rolls, only
reported summed, are drawn in aggregate from their exact distribution.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from tyrsim.core.stats.intervals import wilson_interval
from tyrsim.games.tyranno_ex.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

MATCHUP = ["attacker_strength", "attacker_dice", "defender_strength", "defender_dice"]
MC_BLOCK = 1 << 20  # fights simulated per numpy block; bounds memory, not results


@dataclass(frozen=True)
class FightRules:
    """The rules a fight reads, and nothing else: every function of the odds takes one in place of a
    full `Rules`, so rule sets that differ only off the battlefield can share a combat table (a fight's
    effects on the board, `fight_effects`, read the game's `Rules`)."""

    die_faces: int
    rounds_to_win: int
    tie_rule: str
    max_strength: int
    max_dice: int

    @classmethod
    def of(cls, rules: Rules | FightRules) -> FightRules:
        return cls(rules.die_faces, rules.rounds_to_win, rules.tie_rule, rules.max_strength, rules.max_dice)


def strength(die: int | None) -> int:
    """A card's strength: its strength die's value, or 1 without a die."""
    return 1 if die is None else die


def outcome_columns(rules: Rules | FightRules) -> list[str]:
    """Outcome columns, attacker's clean win first: p_attacker_2_0, p_attacker_2_1, p_defender_2_1, p_defender_2_0."""
    r = rules.rounds_to_win
    return [f"p_attacker_{r}_{k}" for k in range(r)] + [f"p_defender_{r}_{k}" for k in reversed(range(r))]


def columns(rules: Rules | FightRules, method: str) -> list[str]:
    """The table's columns in their published order."""
    cols = [*MATCHUP, "method", *outcome_columns(rules), "p_attacker_wins", "p_round_tie", "expected_rolls", "decisive"]
    return cols + ["n_fights", "ci_low", "ci_high"] if method == "mc" else cols


# --- one fight -------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """One roll of both sides' dice."""

    attacker_rolls: tuple[int, ...]
    defender_rolls: tuple[int, ...]
    attacker_hits: int
    defender_hits: int
    winner: str | None  # "attacker", "defender", or None for a tie that doesn't count

    @property
    def tied(self) -> bool:
        return self.attacker_hits == self.defender_hits


@dataclass
class Fight:
    """A fight's result and its rolls, in order."""

    winner: str | None  # None: the fight can never end (not decisive)
    attacker_rounds: int = 0
    defender_rounds: int = 0
    rolls: list[Roll] = field(default_factory=list)

    @property
    def loser_rounds(self) -> int:
        return self.defender_rounds if self.winner == "attacker" else self.attacker_rounds


def _check_matchup(sa: int, da: int, sd: int, dd: int, rules: Rules | FightRules) -> None:
    for name, value, high in (
        ("attacker strength", sa, rules.max_strength),
        ("defender strength", sd, rules.max_strength),
    ):
        if not 1 <= value <= high:
            raise ValueError(f"{name} must be from 1 to {high}, got {value}")
    for name, value in (("attacker dice", da), ("defender dice", dd)):
        if not 0 <= value <= rules.max_dice:
            raise ValueError(f"{name} must be from 0 to {rules.max_dice}, got {value}")


def resolve_fight(
    attacker_strength: int,
    attacker_dice: int,
    defender_strength: int,
    defender_dice: int,
    rules: Rules | FightRules | None = None,
    *,
    rng: np.random.Generator | None = None,
    rolls: Iterable[tuple[Sequence[int], Sequence[int]]] | None = None,
) -> Fight:
    """Play one fight, rolling dice with `rng` or reading them from `rolls`.

    `rolls` yields (attacker's dice, defender's dice) per roll; running out of
    them before the fight ends is an error. A fight that can never end returns
    at once with winner None.
    """
    rules = rules or Rules()
    most_strength, most_dice = rules.max_strength, rules.max_dice
    if not (
        1 <= attacker_strength <= most_strength and 1 <= defender_strength <= most_strength
        and 0 <= attacker_dice <= most_dice and 0 <= defender_dice <= most_dice
    ):  # fmt: skip
        _check_matchup(attacker_strength, attacker_dice, defender_strength, defender_dice, rules)
    fight = Fight(winner=None)
    if not is_decisive(attacker_strength, attacker_dice, defender_strength, defender_dice, rules):
        return fight
    if rolls is None:
        if rng is None:
            raise ValueError("resolve_fight needs rng or rolls")
        rolls = iter(
            lambda: (
                rng.integers(1, rules.die_faces + 1, attacker_dice),
                rng.integers(1, rules.die_faces + 1, defender_dice),
            ),
            None,
        )
    to_win = rules.rounds_to_win
    tie_winner = None if rules.tie_rule == "reroll" else rules.tie_rule
    fight_rolls = fight.rolls
    attacker_rounds = defender_rounds = 0
    for a_rolls, d_rolls in rolls:
        a_rolls, d_rolls = tuple(map(int, a_rolls)), tuple(map(int, d_rolls))
        if len(a_rolls) != attacker_dice or len(d_rolls) != defender_dice:
            raise ValueError(
                f"a roll needs {attacker_dice} attacker and {defender_dice} defender dice, "
                f"got {len(a_rolls)} and {len(d_rolls)}"
            )
        a_hits = len([r for r in a_rolls if r <= attacker_strength])
        d_hits = len([r for r in d_rolls if r <= defender_strength])
        if a_hits > d_hits:
            winner = "attacker"
        elif d_hits > a_hits:
            winner = "defender"
        else:
            winner = tie_winner
        fight_rolls.append(Roll(a_rolls, d_rolls, a_hits, d_hits, winner))
        if winner == "attacker":
            attacker_rounds += 1
            if attacker_rounds == to_win:
                break
        elif winner == "defender":
            defender_rounds += 1
            if defender_rounds == to_win:
                break
    else:
        raise ValueError(f"the rolls ran out before the fight ended ({attacker_rounds}:{defender_rounds})")
    fight.winner = winner
    fight.attacker_rounds, fight.defender_rounds = attacker_rounds, defender_rounds
    return fight


@dataclass(frozen=True)
class Effects:
    """What a fight's result does to the two cards."""

    winner_die: int | None
    loser_die: int | None
    loser_eliminated: bool
    loser_face_down: bool


def fight_effects(
    winner_die: int | None, loser_die: int | None, loser_rounds: int, rules: Rules | None = None
) -> Effects:
    """The outcome effects of a won fight.

    The winner's die rises by 1 (up to max_strength) only if its strength was
    not higher than the loser's. A loser that won no round (2:0) is eliminated.
    A loser that won a round (2:1) is turned face down and its die falls by 1
    if it has one. Ruling: a die never falls below 1 — a die showing 1 stays
    (it still hits on a 1, as no die does). Ruling `winner_without_die`: "The
    winner may raise their strength die by 1" for a winner without a die reads
    as no die to raise ("nothing", the default: the rulebook earns a die for a
    card without one and raises a die it has, and combat says only "raise"),
    or as its strength 1 ("its rolls only hit on a 1") raised to a die showing 2
    ("earns_die").
    """
    rules = rules or Rules()
    new_winner = winner_die
    has_die_to_raise = winner_die is not None or rules.winner_without_die == "earns_die"
    if has_die_to_raise and strength(winner_die) <= strength(loser_die):
        new_winner = min(rules.max_strength, strength(winner_die) + 1)
    if loser_rounds == 0:
        return Effects(new_winner, loser_die, loser_eliminated=True, loser_face_down=False)
    new_loser = None if loser_die is None else max(1, loser_die - 1)
    return Effects(new_winner, new_loser, loser_eliminated=False, loser_face_down=True)


# --- exact odds --------------------------------------------------------------


def matchups(
    attacker_strength: int | Iterable[int],
    attacker_dice: int | Iterable[int],
    defender_strength: int | Iterable[int],
    defender_dice: int | Iterable[int],
    rules: Rules | FightRules | None = None,
) -> pd.DataFrame:
    """Every combination of the given values, validated, as a matchup table."""
    import pandas as pd

    rules = rules or Rules()
    values = [
        [v] if isinstance(v, int | np.integer) else list(v)
        for v in (attacker_strength, attacker_dice, defender_strength, defender_dice)
    ]
    table = pd.DataFrame(list(itertools.product(*values)), columns=MATCHUP, dtype=np.int64)
    for col, low, high in (
        ("attacker_strength", 1, rules.max_strength),
        ("defender_strength", 1, rules.max_strength),
        ("attacker_dice", 0, rules.max_dice),
        ("defender_dice", 0, rules.max_dice),
    ):
        bad = table[(table[col] < low) | (table[col] > high)]
        if len(bad):
            raise ValueError(f"{col.replace('_', ' ')} must be from {low} to {high}, got {bad[col].iloc[0]}")
    return table


def _sure_hits(strength_: np.ndarray, dice: np.ndarray, faces: int) -> tuple[np.ndarray, np.ndarray]:
    """(certain, hits): whether a side's hit count is certain, and that count."""
    always = strength_ >= faces
    return always | (dice == 0), np.where(always, dice, 0)


def is_decisive(sa, da, sd, dd, rules: Rules | FightRules | None = None):
    """False where every roll is surely a tie and tied rolls are rerolled: the fight never ends."""
    rules = rules or Rules()
    if type(sa) is int and type(da) is int and type(sd) is int and type(dd) is int:  # one matchup: plain Python
        if rules.tie_rule != "reroll":
            return True
        faces = rules.die_faces
        certain_a, certain_d = sa >= faces or da == 0, sd >= faces or dd == 0
        return not (certain_a and certain_d and (da if sa >= faces else 0) == (dd if sd >= faces else 0))
    if rules.tie_rule != "reroll":
        return np.ones(np.broadcast(sa, da, sd, dd).shape, dtype=bool) if np.ndim(sa) else True
    certain_a, hits_a = _sure_hits(np.asarray(sa), np.asarray(da), rules.die_faces)
    certain_d, hits_d = _sure_hits(np.asarray(sd), np.asarray(dd), rules.die_faces)
    result = ~(certain_a & certain_d & (hits_a == hits_d))
    return result if np.ndim(result) else bool(result)


def _hit_pmf(sa, da, sd, dd, rules: Rules | FightRules) -> tuple[np.ndarray, np.ndarray]:
    """Each side's hit-count distribution, Binomial(dice, strength / faces), one row per matchup.

    Computed once per distinct (strength, dice) and looked up, so a table of
    tens of thousands of matchups costs a few hundred binomials.
    """
    from scipy import stats  # here, not at the top: see tyrsim.core.stats.intervals

    strengths = np.minimum(np.concatenate([sa, sd]), rules.die_faces)
    dice = np.concatenate([da, dd])
    pairs, where = np.unique(np.stack([strengths, dice]), axis=1, return_inverse=True)
    k = np.arange(int(dice.max()) + 1)
    pmf = stats.binom.pmf(k, pairs[1][:, None], pairs[0][:, None] / rules.die_faces)[where.ravel()]
    return pmf[: len(sa)], pmf[len(sa) :]


def round_probabilities(sa, da, sd, dd, rules: Rules | FightRules | None = None):
    """Exact chances that one roll has the attacker ahead, the defender ahead, or equal hits."""
    rules = rules or Rules()
    sa, da, sd, dd = np.broadcast_arrays(*(np.atleast_1d(np.asarray(x, dtype=np.int64)) for x in (sa, da, sd, dd)))
    pmf_a, pmf_d = _hit_pmf(sa, da, sd, dd, rules)
    cdf_a, cdf_d = np.cumsum(pmf_a, axis=1), np.cumsum(pmf_d, axis=1)
    p_attacker = np.sum(pmf_a[:, 1:] * cdf_d[:, :-1], axis=1)
    p_defender = np.sum(pmf_d[:, 1:] * cdf_a[:, :-1], axis=1)
    p_tie = np.clip(1.0 - p_attacker - p_defender, 0.0, 1.0)
    return p_attacker, p_defender, p_tie


def counting_round_chances(p_a, p_d, p_t, rules: Rules | FightRules):
    """(a, d, rolls per counting round) once the tie rule is applied."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if rules.tie_rule == "reroll":
            return p_a / (p_a + p_d), p_d / (p_a + p_d), 1.0 / (1.0 - p_t)
        if rules.tie_rule == "attacker":
            return p_a + p_t, p_d, np.ones_like(p_a)
        return p_a, p_d + p_t, np.ones_like(p_a)


def odds(
    attacker_strength: int | Iterable[int],
    attacker_dice: int | Iterable[int],
    defender_strength: int | Iterable[int],
    defender_dice: int | Iterable[int],
    rules: Rules | FightRules | None = None,
) -> pd.DataFrame:
    """Exact odds for every combination of the given values (one row per matchup)."""
    rules = rules or Rules()
    table = matchups(attacker_strength, attacker_dice, defender_strength, defender_dice, rules)
    return odds_table(table, rules)


def odds_table(table: pd.DataFrame, rules: Rules | FightRules) -> pd.DataFrame:
    """Exact odds for the matchups in `table` (columns MATCHUP)."""
    import pandas as pd
    from scipy import special

    sa, da, sd, dd = (table[c].to_numpy() for c in MATCHUP)
    out = table[MATCHUP].reset_index(drop=True).copy()
    out["method"] = "exact"
    r = rules.rounds_to_win
    decisive = is_decisive(sa, da, sd, dd, rules)
    if len(out) == 0:
        return pd.DataFrame(columns=columns(rules, "exact"))
    p_a, p_d, p_t = round_probabilities(sa, da, sd, dd, rules)
    a, d, rolls_per_round = counting_round_chances(p_a, p_d, p_t, rules)
    expected_rounds = np.zeros(len(out))
    with np.errstate(invalid="ignore"):
        for k in range(r):
            ways = special.comb(r - 1 + k, k)
            win, loss = ways * a**r * d**k, ways * d**r * a**k
            out[f"p_attacker_{r}_{k}"] = np.where(decisive, win, np.nan)
            out[f"p_defender_{r}_{k}"] = np.where(decisive, loss, np.nan)
            expected_rounds += (r + k) * (win + loss)
    # a sum of exact terms can pass 1 by a rounding error (3e-15); a probability never does
    out["p_attacker_wins"] = out[[f"p_attacker_{r}_{k}" for k in range(r)]].sum(axis=1, min_count=1).clip(0.0, 1.0)
    out["p_round_tie"] = p_t
    out["expected_rolls"] = np.where(decisive, expected_rounds * rolls_per_round, np.inf)
    out["decisive"] = decisive
    return out[columns(rules, "exact")]


# --- Monte Carlo -------------------------------------------------------------


def _race_tables(to_win: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every sequence of 2R-1 counting rounds (bit j set: the attacker won round j):
    the outcome column, the rounds actually played, and the rounds the attacker won in them.

    Outcome column k: the attacker won with the loser on k rounds; column 2R-1-k:
    the defender won with the loser on k rounds.
    """
    slots = 2 * to_win - 1
    outcome = np.zeros((1 << slots, 2 * to_win), dtype=np.int64)
    played = np.zeros(1 << slots, dtype=np.int64)
    attacker_rounds = np.zeros(1 << slots, dtype=np.int64)
    for code in range(1 << slots):
        wins_a = wins_d = 0
        for j in range(slots):
            if code >> j & 1:
                wins_a += 1
            else:
                wins_d += 1
            if to_win in (wins_a, wins_d):
                break
        column = wins_d if wins_a == to_win else 2 * to_win - 1 - wins_a
        outcome[code, column] = 1
        played[code] = wins_a + wins_d
        attacker_rounds[code] = wins_a
    return outcome, played, attacker_rounds


def _simulate_block(a, p_a, p_d, p_t, n: int, rules: Rules | FightRules, rng: np.random.Generator):
    """Simulate n fights of each matchup in the block.

    Each fight draws its 2R-1 possible counting rounds as Bernoulli(a) bits and
    reads its outcome from the race tables. Returns per-matchup outcome counts,
    tied rolls and rolls.

    Tied rolls are only reported summed over a matchup's fights, so they are drawn
    in aggregate, exactly: with ties rerolled, the tied rolls before each of the
    P counting rounds played are independent Geometric counts, whose sum is
    NegativeBinomial(P, 1 - p_t); with ties awarded to a side, each of the W
    rounds that side won was a tie with chance p_t / (p_side + p_t), so the ties
    are Binomial(W, that chance).
    """
    r = rules.rounds_to_win
    slots = 2 * r - 1
    m = len(a)
    won = rng.random((m, n, slots)) < a[:, None, None]
    code = np.zeros((m, n), dtype=np.int64)
    for j in range(slots):
        code |= won[..., j].astype(np.int64) << j
    code += (np.arange(m) << slots)[:, None]
    by_code = np.bincount(code.ravel(), minlength=m << slots).reshape(m, 1 << slots)
    outcome, played, attacker_rounds = _race_tables(r)
    counts = by_code @ outcome
    rounds = by_code @ played
    if rules.tie_rule == "reroll":
        ties = rng.negative_binomial(rounds, 1.0 - p_t)
        return counts, ties, rounds + ties
    side = p_a if rules.tie_rule == "attacker" else p_d
    side_rounds = by_code @ (attacker_rounds if rules.tie_rule == "attacker" else played - attacker_rounds)
    with np.errstate(divide="ignore", invalid="ignore"):
        tie_share = np.nan_to_num(p_t / (side + p_t))
    return counts, rng.binomial(side_rounds, tie_share), rounds


def simulate_counts(
    table: pd.DataFrame,
    n_fights: int,
    rng: np.random.Generator,
    rules: Rules | FightRules,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Raw Monte Carlo counts for each matchup of `table`: outcomes, tied rolls, rolls, fights.

    Fights that can never end are not simulated (n_fights 0 for them). Counts
    from several runs add up, so chunks of a long run can be combined.
    `progress`, if given, is called with the number of fights just simulated.
    """
    if n_fights < 0:
        raise ValueError(f"n_fights must be >= 0, got {n_fights}")
    sa, da, sd, dd = (table[c].to_numpy() for c in MATCHUP)
    out = table[MATCHUP].reset_index(drop=True).copy()
    r = rules.rounds_to_win
    m = len(out)
    counts = np.zeros((m, 2 * r), dtype=np.int64)
    ties = np.zeros(m, dtype=np.int64)
    rolls = np.zeros(m, dtype=np.int64)
    n = np.where(is_decisive(sa, da, sd, dd, rules), n_fights, 0) if m else np.zeros(0, dtype=np.int64)
    decisive = np.flatnonzero(n > 0)
    if len(decisive):
        p_a, p_d, p_t = round_probabilities(sa[decisive], da[decisive], sd[decisive], dd[decisive], rules)
        a, _, _ = counting_round_chances(p_a, p_d, p_t, rules)
        fights_per_block = min(n_fights, MC_BLOCK)
        matchups_per_block = max(1, MC_BLOCK // fights_per_block)
        for start in range(0, len(decisive), matchups_per_block):
            block = slice(start, start + matchups_per_block)
            rows = decisive[block]
            for done in range(0, n_fights, fights_per_block):
                c, t, rl = _simulate_block(
                    a[block], p_a[block], p_d[block], p_t[block], min(fights_per_block, n_fights - done), rules, rng
                )
                counts[rows] += c
                ties[rows] += t
                rolls[rows] += rl
                if progress is not None:
                    progress(len(rows) * min(fights_per_block, n_fights - done))
    names = outcome_columns(rules)
    for j, name in enumerate(names):
        out[name.replace("p_", "n_", 1)] = counts[:, j]
    out["n_tied_rolls"] = ties
    out["n_rolls"] = rolls
    out["n_fights"] = n
    return out


def count_columns(rules: Rules | FightRules) -> list[str]:
    return [c.replace("p_", "n_", 1) for c in outcome_columns(rules)] + ["n_tied_rolls", "n_rolls", "n_fights"]


def summarize_counts(counts: pd.DataFrame, rules: Rules | FightRules) -> pd.DataFrame:
    """Monte Carlo odds table from (possibly summed) raw counts."""
    import pandas as pd

    counts = counts.groupby(MATCHUP, sort=False, as_index=False)[count_columns(rules)].sum()
    out = counts[MATCHUP].copy()
    out["method"] = "mc"
    n = counts["n_fights"].to_numpy()
    decisive = is_decisive(*(counts[c].to_numpy() for c in MATCHUP), rules)
    with np.errstate(divide="ignore", invalid="ignore"):
        for name in outcome_columns(rules):
            out[name] = np.where(n > 0, counts[name.replace("p_", "n_", 1)] / n, np.nan)
        r = rules.rounds_to_win
        wins = counts[[f"n_attacker_{r}_{k}" for k in range(r)]].sum(axis=1).to_numpy()
        out["p_attacker_wins"] = np.where(n > 0, wins / n, np.nan)
        out["p_round_tie"] = np.where(decisive, counts["n_tied_rolls"] / counts["n_rolls"], 1.0)
        out["expected_rolls"] = np.where(decisive, counts["n_rolls"] / n, np.inf)
    out["decisive"] = decisive
    out["n_fights"] = pd.array(n, dtype="Int64")  # stays an integer beside exact rows, which have none
    out["ci_low"], out["ci_high"] = wilson_interval(wins, n)
    return out[columns(rules, "mc")]


def simulate(
    attacker_strength: int | Iterable[int],
    attacker_dice: int | Iterable[int],
    defender_strength: int | Iterable[int],
    defender_dice: int | Iterable[int],
    n_fights: int,
    seed: int | np.random.Generator,
    rules: Rules | FightRules | None = None,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Monte Carlo odds for every combination of the given values, `n_fights` fights each."""
    rules = rules or Rules()
    table = matchups(attacker_strength, attacker_dice, defender_strength, defender_dice, rules)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return summarize_counts(simulate_counts(table, n_fights, rng, rules, progress), rules)


def round_check(sa: int, da: int, sd: int, dd: int, n_rolls: int, rng: np.random.Generator,
                rules: Rules | FightRules | None = None):
    """Roll actual dice n_rolls times: observed (attacker ahead, defender ahead, tie) shares.

    Used to check that `round_probabilities` — and so the simulator built on it —
    is the same as rolling every die.
    """
    rules = rules or Rules()
    a_hits = (rng.integers(1, rules.die_faces + 1, (n_rolls, da)) <= sa).sum(axis=1)
    d_hits = (rng.integers(1, rules.die_faces + 1, (n_rolls, dd)) <= sd).sum(axis=1)
    return float(np.mean(a_hits > d_hits)), float(np.mean(d_hits > a_hits)), float(np.mean(a_hits == d_hits))
