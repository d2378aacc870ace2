"""Tyros analyses: empire sizes from the vectorized kernel, and points by source in full games."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.compiled.engines import CompiledEngine
from tyrsim.core.engine.analysis import Analysis, Metric, Param
from tyrsim.core.report.figures import legend_outside
from tyrsim.core.stats import intervals as stats
from tyrsim.core.studies.balance_analysis import balance_analysis
from tyrsim.core.studies.explore import explore_analysis
from tyrsim.core.studies.game import game_analysis
from tyrsim.core.studies.ladder import ladder_analysis
from tyrsim.core.studies.rate import rating_analysis
from tyrsim.core.studies.rulings import rulings_analysis
from tyrsim.core.studies.trace import trace_analysis
from tyrsim.games.tyros import findings
from tyrsim.games.tyros.board import TYROS, Board
from tyrsim.games.tyros.components import COLOUR_NAMES, EMPIRES
from tyrsim.games.tyros.expansion import TILE_POLICIES, simulate_expansion
from tyrsim.games.tyros.game import NAME
from tyrsim.games.tyros.policies import POLICIES
from tyrsim.games.tyros.rules import SETUPS, Rules

if TYPE_CHECKING:
    import pandas as pd

COLOURS = [COLOUR_NAMES[e] for e in EMPIRES]
SOURCES = ("city_points", "ship_points", "bonus_points")


# ---- empire-sizes -----------------------------------------------------------------
def run_expansion(rules: Rules, args: Mapping[str, Any], first: int, count: int, rng: np.random.Generator):
    rules = dataclasses.replace(rules, setup=args["setup"])
    raw = simulate_expansion(rules, args["players"], count, rng, policy=args["tile_policy"])
    raw.insert(0, "game_id", np.arange(first, first + count))
    return raw


def proportion_rows(successes, n) -> dict[str, Any]:
    low, high = stats.wilson_interval(successes, n)
    return {"games": n, "share": successes / n if n else np.nan, "ci_low": float(low), "ci_high": float(high)}


def expansion_tables(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    import pandas as pd

    n = len(raw)
    sizes, dist, ranks, extremes, tyros = [], [], [], [], []
    for empire, colour in zip(EMPIRES, COLOURS, strict=True):
        size = raw[f"size_{colour}"]
        mean, low, high = stats.mean_interval(size)
        sizes.append({"empire": colour, "mean_size": mean, "ci_low": low, "ci_high": high, "sd": size.std(ddof=1),
                      "median": size.median(), "min": size.min(), "max": size.max(), "games": n})
        for value, k in size.value_counts().sort_index().items():
            dist.append({"empire": colour, "size": int(value), "count": int(k), **proportion_rows(k, n)})
        rank = raw[f"rank_{colour}"]
        for r in range(1, 5):
            ranks.append({"empire": colour, "rank": r, **proportion_rows(int((rank == r).sum()), n)})
        for what, r in (("largest", 1), ("smallest", 4)):
            extremes.append({"empire": colour, "position": what, **proportion_rows(int((rank == r).sum()), n)})
        tyros.append({"tyros": colour, **proportion_rows(int((raw["tyros_colour"] == empire).sum()), n)})
    tyros.append({"tyros": "any empire", **proportion_rows(int((raw["tyros_colour"] >= 0).sum()), n)})
    tyros.append({"tyros": "no empire", **proportion_rows(int((raw["tyros_colour"] < 0).sum()), n)})
    length = []
    for name in ("rounds", "tiles_left", "blocked"):
        mean, low, high = stats.mean_interval(raw[name])
        length.append({"quantity": name, "mean": mean, "ci_low": low, "ci_high": high, "sd": raw[name].std(ddof=1),
                       "min": raw[name].min(), "max": raw[name].max(), "games": n})
    distributions = []
    for name in ("rounds", "tiles_left"):
        for value, k in raw[name].value_counts().sort_index().items():
            distributions.append({"quantity": name, "value": int(value), "count": int(k), **proportion_rows(k, n)})
    return {
        "empire_sizes": pd.DataFrame(sizes),
        "size_distribution": pd.DataFrame(dist),
        "rank_matrix": pd.DataFrame(ranks),
        "largest_smallest": pd.DataFrame(extremes),
        "tyros_joins": pd.DataFrame(tyros),
        "game_length": pd.DataFrame(length),
        "length_distribution": pd.DataFrame(distributions),
    }


def expansion_figures(tables: dict[str, pd.DataFrame], rules: Rules, args: Mapping[str, Any]) -> dict[str, Any]:
    import matplotlib.pyplot as plt

    dist = tables["size_distribution"]
    fig, axes = plt.subplots(1, 4, figsize=(12, 3), sharey=True)
    for ax, colour in zip(axes, COLOURS, strict=True):
        part = dist[dist["empire"] == colour]
        ax.bar(part["size"], part["share"], color=colour if colour != "yellow" else "gold")
        ax.set_title(colour)
        ax.set_xlabel("final size (spaces)")
    axes[0].set_ylabel("share of games")
    fig.suptitle(f"Empire sizes: {args['setup']} set-up, {args['players']} players, {args['tile_policy']} tiles")
    fig.tight_layout()

    ranks = tables["rank_matrix"].pivot(index="empire", columns="rank", values="share").loc[COLOURS]
    heat, ax = plt.subplots(figsize=(5, 4))
    image = ax.imshow(ranks.to_numpy(), cmap="viridis", vmin=0, vmax=1)
    ax.set_xticks(range(4), [f"rank {r}" for r in ranks.columns])
    ax.set_yticks(range(4), ranks.index)
    for i in range(4):
        for j in range(4):
            ax.text(j, i, f"{ranks.iat[i, j]:.2f}", ha="center", va="center", color="white")
    heat.colorbar(image, ax=ax, label="share of games")
    ax.set_title("Size rank of each empire (1 = largest)")
    heat.tight_layout()
    return {"size_histograms": fig, "rank_matrix": heat}


def _rank_share(rank: int):
    def compute(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame([{"empire": c, "successes": int((raw[f"rank_{c}"] == rank).sum()), "n": len(raw)}
                             for c in COLOURS])

    return compute


def _mean_size(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame([{"empire": c, "mean": raw[f"size_{c}"].mean(), "sd": raw[f"size_{c}"].std(ddof=1),
                          "n": len(raw)} for c in COLOURS])


def _tyros_joins(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame([{"tyros": "joins", "successes": int((raw["tyros_colour"] >= 0).sum()), "n": len(raw)}])


def _rounds(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame([{"quantity": "rounds", "mean": raw["rounds"].mean(), "sd": raw["rounds"].std(ddof=1),
                          "n": len(raw)}])


EMPIRE_SIZES = Analysis(
    name="empire-sizes",
    summary="final empire sizes and ranks, Tyros joining, rounds and tiles left, from the vectorized tile kernel",
    params=(
        Param("setup", "variable", "empire set-up", choices=SETUPS),
        Param("players", 4, "number of players", choices=(3, 4)),
        Param("tile_policy", "random", "how players choose tiles", choices=TILE_POLICIES),
        Param("games", 100_000, "number of games", low=1),
    ),
    run=run_expansion,
    tables=expansion_tables,
    figures=expansion_figures,
    trials="games",
    trial_unit="games",
    chunk_size=25_000,
    metrics={
        "p_largest": Metric("proportion", ("empire",), _rank_share(1), "share of games each empire ends largest"),
        "p_smallest": Metric("proportion", ("empire",), _rank_share(4), "share of games each empire ends smallest"),
        "mean_size": Metric("mean", ("empire",), _mean_size, "mean final size of each empire"),
        "p_tyros_joins": Metric("proportion", ("tyros",), _tyros_joins, "share of games Tyros joins an empire"),
        "rounds": Metric("mean", ("quantity",), _rounds, "mean number of rounds"),
    },
    headline="p_largest",
    outputs=lambda args: (
        ("empire_sizes", "size_distribution", "rank_matrix", "largest_smallest", "tyros_joins", "game_length",
         "length_distribution"),
        ("size_histograms", "rank_matrix"),
    ),
    findings=findings.empire_findings,
    glossary=findings.EMPIRE_GLOSSARY,
)


# ---- game -------------------------------------------------------------------------
def share_interval(part: pd.Series, whole: pd.Series) -> tuple[float, float, float]:
    """(share, low, high) of sum(part) / sum(whole) over games, by the t interval of the linearised ratio."""
    total = whole.sum()
    if not total:
        return np.nan, np.nan, np.nan
    share = part.sum() / total
    residuals = (part - share * whole) / whole.mean()
    low, high = stats.t_interval(share, residuals.std(ddof=1), len(part))
    return float(share), float(low), float(high)


def points_by_source(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    import pandas as pd

    rows = []
    for policy, group in raw.groupby("policy", sort=True):
        for source in SOURCES:
            mean, low, high = stats.mean_interval(group[source])
            share, share_low, share_high = share_interval(group[source], group["score"])
            rows.append({"policy": policy, "source": source, "mean_points": mean, "ci_low": low, "ci_high": high,
                         "share_of_points": share, "share_ci_low": share_low, "share_ci_high": share_high})
    return {"points_by_source": pd.DataFrame(rows)}


def points_figure(tables: dict[str, pd.DataFrame], rules: Rules, args: Mapping[str, Any]) -> dict[str, Any]:
    import matplotlib.pyplot as plt

    table = tables["points_by_source"].pivot(index="policy", columns="source", values="mean_points")[list(SOURCES)]
    fig, ax = plt.subplots(figsize=(6, 4))
    bottom = np.zeros(len(table))
    for source in SOURCES:
        ax.bar(table.index, table[source], bottom=bottom, label=source.replace("_", " "))
        bottom += table[source].to_numpy()
    ax.set_ylabel("mean points per game")
    legend_outside(ax)
    ax.set_title("Points by source")
    fig.tight_layout()
    return {"points_by_source": fig}


# the compiled engine (`compiled.py`, `compiled_policies.py`): the same games as the object engine, in numba
COMPILED = CompiledEngine("tyrsim.games.tyros.compiled", "tyrsim.games.tyros.compiled_policies",
                          "the random, greedy and planner policies",
                          search=("ismcts", "tyrsim.games.tyros.compiled_search"),
                          game=NAME, policy_table=POLICIES)
GAME = game_analysis(
    default_policies=("planner", "greedy", "random", "planner"),
    extra_tables=points_by_source,
    extra_figures=points_figure,
    extra_outputs=(("points_by_source",), ("points_by_source",)),
    extra_findings=findings.game_findings,
    extra_glossary=findings.GAME_GLOSSARY,
    default_games=400,
).then(COMPILED.with_engine)


# ---- the map ----------------------------------------------------------------------
def board_figure(board: Board, chips: list[int] | None = None):
    """The map grid: spaces with their numbers, sea connections, removed tiles and empire chips if given."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 7))
    fill = {-1: "white", 0: "orange", 1: "gold", 2: "yellowgreen", 3: "orchid"}
    for s in board.spaces:
        if board.cells[s] is None:
            continue
        row, col = board.cells[s]
        colour = fill[chips[s]] if chips is not None else "white"
        hatch = "//" if s in board.removed_tiles else None
        ax.add_patch(plt.Rectangle((col, -row), 0.95, 0.95, facecolor=colour, edgecolor="grey", hatch=hatch))
        ax.text(col + 0.47, -row + 0.47, "Tyros" if s == TYROS else str(s), ha="center", va="center")
    if board.open_sea is not None:
        row, col = board.open_sea
        ax.add_patch(plt.Rectangle((col, -row), 0.95, 0.95, facecolor="lightsteelblue"))
        ax.text(col + 0.47, -row + 0.47, "open\nsea", ha="center", va="center", fontsize=8)
    # a sea connection is a blue bar across the border it crosses; a second coast's bars sit apart
    for c, coast in enumerate(board.coasts):
        for d in board.sea[c]:
            a, b = board.cells[coast.space], board.cells[board.coasts[d].space]
            if c > d or a is None or b is None:
                continue
            names = {coast.name, board.coasts[d].name}
            offset = 0.2 if "east" in names else -0.2 if "west" in names else 0.0
            x, y = (a[1] + b[1]) / 2 + 0.47, -(a[0] + b[0]) / 2 + 0.47
            if a[0] == b[0]:  # side by side: a vertical bar on the shared side
                ax.plot([x, x], [y - 0.15 + offset, y + 0.15 + offset], color="steelblue", lw=5)
            else:
                ax.plot([x - 0.15 + offset, x + 0.15 + offset], [y, y], color="steelblue", lw=5)
    ax.set_xlim(-0.2, 7.2)
    ax.set_ylim(-6.2, 1.1)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Tyros board: sea connections (blue bars), removed tiles (hatched)")
    fig.tight_layout()
    return fig


ANALYSES = {
    "empire-sizes": EMPIRE_SIZES,
    "game": GAME,
    "rate": rating_analysis(("planner", "greedy", "random"), 4),
    "ladder": ladder_analysis(("random", "greedy", "planner", "ismcts"), 4),
    "trace": trace_analysis("ismcts", 4),
    "explore": explore_analysis(
        ("planner", "greedy", "planner", "greedy"), ("city_cost=3:7", "cards_kept=0:5", "bank_buy_cost=2:5"),
    ),
    "rulings": rulings_analysis(("planner", "greedy", "planner", "greedy")),
    # a shorter game at four players, and what the most-cities bonus does to the finish: the passes, the cards
    # dealt and the bonus, for at most 4 rounds and a mean winning margin of at most 4.5 points
    "balance": balance_analysis(
        ("planner:weights=bundled:planner_tuned.toml",) * 4,
        ("later_passes_4p=1:2", "cards_dealt_4p=8:12", "most_cities_bonus=0:12"),
        ("mean_rounds<=4", "mean_margin<=4.5"),
    ),
}
