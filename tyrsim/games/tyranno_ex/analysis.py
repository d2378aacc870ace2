"""Tyranno Ex game analyses: `game` (whole games by policy) and `survival` (kernel or games).

`game` is the generic playout analysis with Tyranno Ex tables: points by
source, what a card scores by the row it entered, card survival by row and by
number of distinct symbols, fights and their outcomes, rapid changes
(cascades), game length and the "5" marker.

`survival` gives the chance that a card of each symbol pattern survives an
environment phase. Its default source, a vectorized kernel, needs no
decisions: it lays chips of random symbols on random spaces of fresh
environment cards, resolving every change and cascade for many trials at once
in numpy arrays, and also reports the dice a card would fight with. Chip
symbols are drawn uniformly and independently (the bag holds 21 of each; the
game draws without replacement, a small difference for a few chips). Its
other source plays whole games of a policy mix and counts survival checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, permutations
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.compiled.engines import CompiledEngine
from tyrsim.core.engine.analysis import Analysis, Metric, Param
from tyrsim.core.engine.protocols import make_policy
from tyrsim.core.engine.runner import play_chunk
from tyrsim.core.report.figures import legend_outside
from tyrsim.core.stats import intervals as stats
from tyrsim.core.studies.balance_analysis import balance_analysis
from tyrsim.core.studies.explore import explore_analysis
from tyrsim.core.studies.game import game_analysis
from tyrsim.core.studies.ladder import ladder_analysis
from tyrsim.core.studies.rate import rating_analysis
from tyrsim.core.studies.rulings import rulings_analysis
from tyrsim.core.studies.trace import trace_analysis
from tyrsim.games.tyranno_ex import findings
from tyrsim.games.tyranno_ex.combat_analysis import COMBAT
from tyrsim.games.tyranno_ex.environment import NUM_SYMBOLS, SPACES
from tyrsim.games.tyranno_ex.game import TyrannoExGame, make_game
from tyrsim.games.tyranno_ex.policies import POLICIES
from tyrsim.games.tyranno_ex.rules import Rules
from tyrsim.games.tyranno_ex.survival_findings import SURVIVAL_GLOSSARY, survival_findings

if TYPE_CHECKING:
    import pandas as pd

SOURCES = ("rows", "empty", "special", "five")  # points_<source> counters, per seat
PLACES = ("row0", "row3", "row6", "row9", "special")  # where a card's survival was checked
PATTERNS = {"aaa": 1, "aab": 2, "abc": 3}  # symbol patterns and their distinct symbols


# --- game ------------------------------------------------------------------------------


def _mean_row(values: pd.Series) -> dict[str, float]:
    mean, low, high = stats.mean_interval(values.dropna())
    return {"mean": mean, "ci_low": low, "ci_high": high, "n": int(values.notna().sum())}


def _share_row(successes: float, n: float) -> dict[str, float]:
    low, high = stats.wilson_interval(successes, n)
    return {"share": successes / n if n else np.nan, "ci_low": float(low), "ci_high": float(high), "n": n}


def points_by_source(raw: pd.DataFrame) -> pd.DataFrame:
    """Mean points per game from each source, per policy, with t intervals."""
    import pandas as pd

    rows = []
    for policy, group in raw.groupby("policy", sort=True):
        for source in SOURCES:
            rows.append({"policy": policy, "source": source, **_mean_row(group[f"points_{source}"])})
        rows.append({"policy": policy, "source": "total", **_mean_row(group["score"])})
    return pd.DataFrame(rows)


def card_worth(raw: pd.DataFrame) -> pd.DataFrame:
    """Points a card scores over the whole game by the row it entered (0 or 3), per policy, with t intervals.

    The cards of one game are not independent, so the intervals are somewhat narrow.
    """
    import pandas as pd

    rows = []
    for policy, group in raw.groupby("policy", sort=True):
        for row in (0, 3):
            n = group[f"cards_entered_row{row}"].sum()
            total, squares = group[f"card_points_row{row}"].sum(), group[f"card_points_sq_row{row}"].sum()
            mean = total / n if n else np.nan
            sd = np.sqrt(max(squares - n * mean**2, 0.0) / (n - 1)) if n > 1 else np.nan
            low, high = stats.t_interval(mean, sd, n)
            rows.append({"policy": policy, "entry_row": row, "cards": int(n), "mean_points": mean,
                         "ci_low": float(low), "ci_high": float(high)})  # fmt: skip
    return pd.DataFrame(rows)


def survival_by(raw: pd.DataFrame, places: Mapping[str, str], label: str) -> pd.DataFrame:
    """Share of survival checks a card passed, per policy and place, with Wilson intervals.

    Checks of one game are not independent, so the intervals are somewhat narrow.
    """
    import pandas as pd

    rows = []
    for policy, group in raw.groupby("policy", sort=True):
        for name, key in places.items():
            checked, lost = group[f"checked_{key}"].sum(), group[f"lost_{key}"].sum()
            share = _share_row(checked - lost, checked)
            rows.append({"policy": policy, label: name, "checked": int(checked), "survived": share["share"],
                         "ci_low": share["ci_low"], "ci_high": share["ci_high"]})  # fmt: skip
    return pd.DataFrame(rows)


def fights_table(raw: pd.DataFrame) -> pd.DataFrame:
    """Fights per game by outcome (means with t intervals) and the share of started fights won, per policy."""
    import pandas as pd

    games = raw.drop_duplicates("game_id")
    rows = [{"policy": "all", "quantity": f"{name} per game", **_mean_row(games[name])}
            for name in ("fights", "fights_clean", "fights_close", "fights_endless", "track_tie_fights")]  # fmt: skip
    share = _share_row(games["fights_clean"].sum(), games["fights"].sum() - games["fights_endless"].sum())
    rows.append({"policy": "all", "quantity": "share of decided fights won 2:0", "mean": share["share"],
                 "ci_low": share["ci_low"], "ci_high": share["ci_high"], "n": share["n"]})  # fmt: skip
    for policy, group in raw.groupby("policy", sort=True):
        rows.append({"policy": policy, "quantity": "fights started per game", **_mean_row(group["fights_started"])})
        share = _share_row(group["fights_won"].sum(), group["fights_started"].sum())
        rows.append({"policy": policy, "quantity": "share of started fights won", "mean": share["share"],
                     "ci_low": share["ci_low"], "ci_high": share["ci_high"], "n": share["n"]})  # fmt: skip
    return pd.DataFrame(rows)


def cascades_table(raw: pd.DataFrame) -> pd.DataFrame:
    """Changes of the current conditions per game: all, rapid changes (cascades), ties, longest cascade."""
    import pandas as pd

    games = raw.drop_duplicates("game_id")
    rows = [{"quantity": f"{name} per game", **_mean_row(games[name])}
            for name in ("changes", "cascades", "ties", "longest_cascade")]  # fmt: skip
    share = _share_row(float((games["cascades"] > 0).sum()), float(len(games)))
    rows.append({"quantity": "share of games with a cascade", "mean": share["share"],
                 "ci_low": share["ci_low"], "ci_high": share["ci_high"], "n": share["n"]})  # fmt: skip
    return pd.DataFrame(rows)


def length_table(raw: pd.DataFrame) -> pd.DataFrame:
    """Game length in rounds: the share of games of each length (Wilson) and the mean (t)."""
    import pandas as pd

    games = raw.drop_duplicates("game_id")
    n = len(games)
    rows = [{"rounds": str(int(r)), **_share_row(float(k), float(n))}
            for r, k in games["rounds"].value_counts().sort_index().items()]  # fmt: skip
    mean = _mean_row(games["rounds"])
    rows.append({"rounds": "mean", "share": mean["mean"], "ci_low": mean["ci_low"], "ci_high": mean["ci_high"],
                 "n": mean["n"]})  # fmt: skip
    return pd.DataFrame(rows)


def five_table(raw: pd.DataFrame) -> pd.DataFrame:
    """The "5" marker per policy: share of games it was used (Wilson) and the round it was used in (t)."""
    import pandas as pd

    rows = []
    for policy, group in raw.groupby("policy", sort=True):
        used = _share_row(group["five_used"].sum(), float(len(group)))
        when = _mean_row(group["five_round"])
        rows.append({"policy": policy, "used": used["share"], "used_low": used["ci_low"],
                     "used_high": used["ci_high"], "round_used": when["mean"], "round_low": when["ci_low"],
                     "round_high": when["ci_high"], "games": len(group)})  # fmt: skip
    return pd.DataFrame(rows)


def game_tables(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    return {
        "points_by_source": points_by_source(raw),
        "card_worth": card_worth(raw),
        "survival_by_row": survival_by(raw, {p: p for p in PLACES}, "place"),
        "survival_by_symbols": survival_by(raw, {str(k): f"sym{k}" for k in (1, 2, 3)}, "distinct_symbols"),
        "fights": fights_table(raw),
        "cascades": cascades_table(raw),
        "game_length": length_table(raw),
        "five_marker": five_table(raw),
    }


def game_figures(tables: dict[str, pd.DataFrame], rules: Rules, args: Mapping[str, Any]) -> dict[str, Any]:
    """Points by source per policy (stacked bars) and survival by row per policy."""
    import matplotlib.pyplot as plt

    out = {}
    points = tables["points_by_source"]
    points = points[points["source"] != "total"].pivot(index="policy", columns="source", values="mean")
    fig, ax = plt.subplots(figsize=(7, 4))
    points[list(SOURCES)].plot.bar(stacked=True, ax=ax)
    ax.set_ylabel("mean points per game")
    ax.set_title("Points by source")
    fig.tight_layout()
    out["points_by_source"] = fig
    survival = tables["survival_by_row"]
    fig, ax = plt.subplots(figsize=(7, 4))
    for policy, group in survival.groupby("policy", sort=True):
        ax.errorbar(group["place"], group["survived"],
                    yerr=[group["survived"] - group["ci_low"], group["ci_high"] - group["survived"]],
                    marker="o", capsize=3, label=str(policy))  # fmt: skip
    ax.set_ylabel("share of survival checks passed")
    ax.set_xlabel("where the card was")
    legend_outside(ax, title="policy")
    fig.tight_layout()
    out["survival_by_row"] = fig
    return out


# the compiled engine (`compiled.py`, `compiled_policies.py`): the same games as the object engine, in numba
COMPILED = CompiledEngine("tyrsim.games.tyranno_ex.compiled", "tyrsim.games.tyranno_ex.compiled_policies",
                          "the random, greedy, aggressive and builder policies",
                          search=("ismcts", "tyrsim.games.tyranno_ex.compiled_search"),
                          game=TyrannoExGame.name, policy_table=POLICIES)
GAME = game_analysis(
    default_policies=("greedy", "aggressive", "builder", "random"),
    summary="policies play whole games: win rates, points by source, survival, fights, cascades, game length",
    extra_tables=game_tables,
    extra_figures=game_figures,
    extra_outputs=(
        ("points_by_source", "card_worth", "survival_by_row", "survival_by_symbols", "fights", "cascades",
         "game_length", "five_marker"),
        ("points_by_source", "survival_by_row"),
    ),
    extra_findings=findings.game_findings,
    extra_glossary=findings.GLOSSARY,
).then(COMPILED.with_engine)


# --- survival kernel -------------------------------------------------------------------------


def lay_chips(
    opening: np.ndarray, spaces: np.ndarray, symbols: np.ndarray, rules: Rules, rng: np.random.Generator,
    record: set[int],
) -> dict[int, np.ndarray]:
    """Lay chips one at a time on environment cards, many trials at once.

    `opening` (trials, 4) holds the symbol of each space's one starting chip;
    chip j of trial t has symbol symbols[t, j] and goes on space spaces[t, j].
    After each chip the space changes while its potential chips outnumber its
    current ones (cascades included); a tie for the most chips is settled at
    random ("chooser" and "random": there is no decision here), leaves the
    space with no current chips ("empty") or as it is ("no_change"); under `majority = "over_half"` a space changes
    only when one symbol holds more than half of its revealed chips. Returns {chips laid: current chips per symbol
    (trials, 4)} for the recorded numbers of chips.
    """
    trials, steps = spaces.shape
    t = np.arange(trials)
    cur = opening.copy()
    count = np.ones((trials, SPACES), dtype=np.int64)
    pot = np.zeros((trials, SPACES, NUM_SYMBOLS), dtype=np.int64)
    out = {}

    def chips_per_symbol() -> np.ndarray:
        chips = np.zeros((trials, NUM_SYMBOLS), dtype=np.int64)
        for space in range(SPACES):
            np.add.at(chips, (t, cur[:, space]), count[:, space])
        return chips

    if 0 in record:
        out[0] = chips_per_symbol()
    for step in range(1, steps + 1):
        space = spaces[:, step - 1]
        pot[t, space, symbols[:, step - 1]] += 1
        active = t[pot[t, space].sum(axis=1) > count[t, space]]
        while active.size:
            sp = space[active]
            p = pot[active, sp]
            top = p.max(axis=1, keepdims=True)
            if rules.majority == "over_half":  # only a symbol with more than half of the revealed chips wins
                keep = 2 * top[:, 0] > p.sum(axis=1)
                active, sp, p, top = active[keep], sp[keep], p[keep], top[keep]
            elif rules.majority_tie in ("empty", "no_change"):
                tied = (p == top).sum(axis=1) > 1
                if rules.majority_tie == "empty":  # the current chips are removed and none take their place
                    count[active[tied], sp[tied]] = 0
                active, sp, p, top = active[~tied], sp[~tied], p[~tied], top[~tied]
            winner = np.argmax((p == top) * (1.0 + rng.random(p.shape)), axis=1)
            cur[active, sp] = winner
            count[active, sp] = p[np.arange(len(active)), winner]
            pot[active, sp, winner] = 0
            active = active[pot[active, sp].sum(axis=1) > count[active, sp]]
        if step in record:
            out[step] = chips_per_symbol()
    return out


def pattern_outcomes(chips: np.ndarray, pattern: str) -> tuple[np.ndarray, np.ndarray]:
    """Per trial: the share of symbol choices for which a card of the pattern survives, and its mean dice.

    Averaged over every way to give the pattern's letters distinct symbols.
    """
    k = PATTERNS[pattern]
    survive = np.zeros(len(chips))
    dice = np.zeros(len(chips))
    choices = [c for subset in combinations(range(NUM_SYMBOLS), k) for c in permutations(subset)]
    for symbols in choices:
        letters = dict(zip("abc", symbols, strict=False))
        printed = [letters[ch] for ch in pattern]
        survive += (chips[:, list(set(printed))] > 0).any(axis=1)
        dice += chips[:, printed].sum(axis=1)
    return survive / len(choices), dice / len(choices)


def _kernel_run(rules: Rules, args: Mapping[str, Any], count: int, rng: np.random.Generator) -> pd.DataFrame:
    """Sums and sums of squares per (chips laid, pattern), so chunks add up."""
    import pandas as pd

    laid = sorted(set(args["chips"]))
    # the bag holds as many chips of each symbol: every chip's symbol is uniform, and so is its space
    opening = rng.integers(NUM_SYMBOLS, size=(count, SPACES))
    spaces = rng.integers(SPACES, size=(count, max(laid)))
    symbols = rng.integers(NUM_SYMBOLS, size=(count, max(laid)))
    snapshots = lay_chips(opening, spaces, symbols, rules, rng, set(laid))
    rows = []
    for chips_laid in laid:
        for pattern in PATTERNS:
            survive, dice = pattern_outcomes(snapshots[chips_laid], pattern)
            rows.append({"chips": chips_laid, "pattern": pattern, "n": count,
                         "survive_sum": survive.sum(), "survive_sq": (survive**2).sum(),
                         "dice_sum": dice.sum(), "dice_sq": (dice**2).sum()})  # fmt: skip
    return pd.DataFrame(rows)


def _games_run(rules: Rules, args: Mapping[str, Any], first: int, count: int, rng: np.random.Generator):
    """Whole games with the policy mix: survival checks and losses per policy and pattern."""
    import pandas as pd

    texts = list(args["policies"])
    policies = [make_policy(POLICIES, "tyranno-ex", t) for t in texts]
    raw = play_chunk(make_game(rules, len(texts)), texts, policies, first, count, rng)
    rows = []
    for policy, group in raw.groupby("policy", sort=True):
        for pattern, k in PATTERNS.items():
            checked = group[f"checked_sym{k}"].sum()
            rows.append({"policy": policy, "pattern": pattern, "checked": checked,
                         "survived": checked - group[f"lost_sym{k}"].sum()})  # fmt: skip
    return pd.DataFrame(rows)


def survival_run(
    rules: Rules, args: Mapping[str, Any], first: int, count: int, rng: np.random.Generator
) -> pd.DataFrame:
    """One chunk: environment cards for the kernel, or games for the policy mix."""
    if args["source"] == "games":
        return _games_run(rules, args, first, count, rng)
    return _kernel_run(rules, args, count, rng)


def _summed(raw: pd.DataFrame) -> pd.DataFrame:
    total = raw.groupby(["chips", "pattern"], sort=True, as_index=False)[
        ["n", "survive_sum", "survive_sq", "dice_sum", "dice_sq"]
    ].sum()
    for name in ("survive", "dice"):
        n = total["n"]
        mean = total[f"{name}_sum"] / n
        var = np.maximum(total[f"{name}_sq"] - n * mean**2, 0.0) / (n - 1)
        total[f"{name}_mean"], total[f"{name}_sd"] = mean, np.sqrt(var)
    return total


def _in_play(raw: pd.DataFrame) -> pd.DataFrame:
    total = raw.groupby(["policy", "pattern"], sort=True, as_index=False)[["checked", "survived"]].sum()
    total["distinct_symbols"] = total["pattern"].map(PATTERNS)
    with np.errstate(divide="ignore", invalid="ignore"):
        total["survival"] = total["survived"] / total["checked"]
    total["survival_low"], total["survival_high"] = stats.wilson_interval(total["survived"], total["checked"])
    return total


def survival_tables(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """`survival` from the kernel (t intervals), or `survival_in_play` from games (Wilson intervals)."""
    if args["source"] == "games":
        return {"survival_in_play": _in_play(raw)}
    total = _summed(raw)
    table = total[["chips", "pattern", "n"]].copy()
    table["distinct_symbols"] = table["pattern"].map(PATTERNS)
    for name, label in (("survive", "survival"), ("dice", "mean_dice")):
        table[label] = total[f"{name}_mean"]
        table[f"{label}_low"], table[f"{label}_high"] = stats.t_interval(
            total[f"{name}_mean"], total[f"{name}_sd"], total["n"]
        )
    return {"survival": table}


def survival_figures(tables: dict[str, pd.DataFrame], rules: Rules, args: Mapping[str, Any]) -> dict[str, Any]:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    if "survival_in_play" in tables:
        table = tables["survival_in_play"]
        for policy, group in table.groupby("policy", sort=True):
            ax.errorbar(group["pattern"], group["survival"],
                        yerr=[group["survival"] - group["survival_low"], group["survival_high"] - group["survival"]],
                        marker="o", capsize=3, label=str(policy))  # fmt: skip
        ax.set_xlabel("symbol pattern")
        legend_outside(ax, title="policy")
    else:
        table = tables["survival"]
        for pattern, group in table.groupby("pattern", sort=True):
            ax.errorbar(group["chips"], group["survival"],
                        yerr=[group["survival"] - group["survival_low"], group["survival_high"] - group["survival"]],
                        marker="o", capsize=3, label=f"{pattern} ({PATTERNS[pattern]} distinct)")  # fmt: skip
        ax.set_xlabel("chips laid on the environment card")
        legend_outside(ax, title="symbol pattern")
    ax.set_ylabel("P(card survives an environment phase)")
    fig.tight_layout()
    return {"survival": fig}


def _kernel_metric(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    """Survival per (chips laid, pattern) from the kernel; empty for games."""
    import pandas as pd

    if args["source"] != "kernel":
        return pd.DataFrame(columns=["chips", "pattern", "mean", "sd", "n"])
    total = _summed(raw)
    return pd.DataFrame({"chips": total["chips"], "pattern": total["pattern"], "mean": total["survive_mean"],
                         "sd": total["survive_sd"], "n": total["n"]})  # fmt: skip


def _games_metric(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    """Survival checks passed per (policy, pattern) in games; empty for the kernel."""
    import pandas as pd

    if args["source"] != "games":
        return pd.DataFrame(columns=["policy", "pattern", "successes", "n"])
    total = _in_play(raw)
    return pd.DataFrame({"policy": total["policy"], "pattern": total["pattern"], "successes": total["survived"],
                         "n": total["checked"]})  # fmt: skip


SURVIVAL = Analysis(
    name="survival",
    summary="chance that a card of each symbol pattern survives an environment phase: "
    "random chips (vectorized kernel) or a policy mix's games",
    params=(
        Param("source", "kernel", "'kernel': chips laid at random, vectorized; 'games': whole games of `policies`",
              choices=("kernel", "games")),  # fmt: skip
        Param("chips", (0, 2, 4, 8, 16, 24), "kernel: numbers of chips laid at random on a fresh environment card",
              low=0, high=200, item=int),  # fmt: skip
        Param("policies", ("greedy", "aggressive", "builder", "random"), "games: one policy per seat", item=str),
        Param("trials", 100_000, "environment cards (kernel) or games (games)", low=2),
    ),
    run=survival_run,
    tables=survival_tables,
    figures=survival_figures,
    trials="trials",
    chunk_size=2_000,
    metrics={
        "survival": Metric("mean", ("chips", "pattern"), _kernel_metric, "kernel: P(card of the pattern survives)"),
        "survival_in_play": Metric(
            "proportion", ("policy", "pattern"), _games_metric, "games: share of survival checks passed"
        ),
    },
    headline="survival",
    outputs=lambda args: (("survival_in_play",) if args["source"] == "games" else ("survival",), ("survival",)),
    findings=survival_findings,
    glossary=SURVIVAL_GLOSSARY,
)


ANALYSES = {
    "combat": COMBAT,
    "game": GAME,
    "survival": SURVIVAL,
    "rate": rating_analysis(("greedy", "aggressive", "builder", "random"), 4),
    "ladder": ladder_analysis(("random", "builder", "greedy", "ismcts"), 4),
    "trace": trace_analysis("ismcts", 4),
    "explore": explore_analysis(
        ("greedy", "aggressive", "builder", "greedy"), ("chips_per_player=8:16", "die_rounds=0:6", "five_points=0:10"),
    ),
    "rulings": rulings_analysis(("greedy", "aggressive", "builder", "greedy")),
    # a closer four-player finish that favours no seat: the dice rounds, the chips and the '5' marker's points,
    # for a mean winning margin of at most 18 points with no two seats' win rates more than 0.04 apart
    "balance": balance_analysis(
        ("greedy:weights=bundled:greedy_tuned.toml",) * 4,
        ("die_rounds=0:6", "chips_per_player=8:16", "five_points=0:10"),
        ("mean_margin<=18", "largest_seat_gap<=0.04"),
    ),
}
