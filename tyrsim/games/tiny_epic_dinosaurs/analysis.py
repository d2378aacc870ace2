"""Tiny Epic Dinosaurs analyses: the hunt die's exact value, a vectorized herd-growth kernel, whole games.

- `hunt`: exact (no trials) expected dinosaurs, injury and egg chances of a hunt
  against the buy spaces' cost per dinosaur.
- `herd-growth`: many ranches of one basic kind at once (numpy arrays, one Python
  step per round): herd size by round, feeding shortfalls and escapes for a given
  enclosure capacity, food income, starting herd and hunts per round.
- `game`: policies play whole games (tyrsim.core.studies.game) with extra tables:
  points by source, escapes / contracts / research per game, the first-player
  marker and how often bumping happens; on the compiled engine wherever every
  seat's policy has a compiled form (`COMPILED`, tyrsim.core.compiled.engines).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tyrsim.core.compiled.engines import CompiledEngine
from tyrsim.core.engine.analysis import Analysis, ArgumentError, Metric, Param
from tyrsim.core.stats import intervals as stats
from tyrsim.core.studies.balance_analysis import balance_analysis
from tyrsim.core.studies.explore import explore_analysis
from tyrsim.core.studies.game import game_analysis
from tyrsim.core.studies.ladder import ladder_analysis
from tyrsim.core.studies.rate import rating_analysis
from tyrsim.core.studies.rulings import rulings_analysis
from tyrsim.core.studies.trace import trace_analysis
from tyrsim.games.tiny_epic_dinosaurs.components import RESOURCES, load_dinosaurs, load_spaces
from tyrsim.games.tiny_epic_dinosaurs.findings import (
    GAME_GLOSSARY,
    HERD_GLOSSARY,
    HUNT_GLOSSARY,
    game_findings,
    herd_findings,
    hunt_findings,
)
from tyrsim.games.tiny_epic_dinosaurs.game import TinyEpicDinosaursGame
from tyrsim.games.tiny_epic_dinosaurs.policies import POLICIES
from tyrsim.games.tiny_epic_dinosaurs.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

# --- hunt: exact ---------------------------------------------------------------------------------


def _hunt_run(rules: Rules, args: Mapping[str, Any], first: int, count: int, rng: np.random.Generator) -> pd.DataFrame:
    import pandas as pd

    kinds = load_dinosaurs(rules.dinosaurs_file)
    names = tuple(d.name for d in kinds)
    odds = rules.hunt_odds()
    rows = []
    for space in load_spaces(rules.spaces_file, names):
        if space.action not in ("hunt", "buy"):
            continue
        if space.action == "hunt":
            dino = next(d for d in kinds if d.name == space.dinosaur)
            rows.append(
                {
                    "space": space.id,
                    "action": f"hunt {dino.name}",
                    "dinosaurs": odds["dinosaurs"],
                    "sd_dinosaurs": odds["sd"],
                    "p_injury": odds["p_injury"],
                    "p_egg": odds["p_egg"],
                    "cost": "nothing",
                    "resources_per_dinosaur": 0.0,
                    "points": odds["dinosaurs"] * dino.points,
                }
            )
            continue
        sold = [d for d in kinds if space.kinds in ("any", d.group)]
        cost = " + ".join(f"{n} {r}" for r, n in zip(RESOURCES, space.cost, strict=True) if n)
        rows.append(
            {
                "space": space.id,
                "action": f"buy {space.kinds}",
                "dinosaurs": 1.0,
                "sd_dinosaurs": 0.0,
                "p_injury": 0.0,
                "p_egg": 0.0,
                "cost": cost or "nothing",
                "resources_per_dinosaur": float(sum(space.cost)),
                "points": float(max((d.points for d in sold), default=0)),
            }
        )
    return pd.DataFrame(rows).drop_duplicates(subset=["action", "cost"]).reset_index(drop=True)


def _hunt_tables(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    import pandas as pd

    odds = rules.hunt_odds()
    buys = raw[raw["action"].str.startswith("buy")]
    cheapest = float(buys["resources_per_dinosaur"].min()) if len(buys) else float("nan")
    # a hunt is worth what the buy spaces would charge for its expected dinosaurs
    value = pd.DataFrame(
        {
            "quantity": [
                "expected dinosaurs per hunt",
                "sd of dinosaurs per hunt",
                "chance of an injury (rancher to the hospital)",
                "chance of an egg",
                "resources the cheapest buy space charges per dinosaur",
                "resources a hunt saves against buying",
            ],
            "value": [
                odds["dinosaurs"],
                odds["sd"],
                odds["p_injury"],
                odds["p_egg"],
                cheapest,
                odds["dinosaurs"] * cheapest,
            ],
        }
    )
    return {"spaces": raw, "hunt_value": value}


HUNT = Analysis(
    name="hunt",
    summary="exact value of the hunt die (expected dinosaurs, injury and egg chances) against the buy spaces",
    params=(),
    run=_hunt_run,
    tables=_hunt_tables,
    trials=None,
    outputs=lambda args: (("spaces", "hunt_value"), ()),
    findings=hunt_findings,
    glossary=HUNT_GLOSSARY,
)


# --- herd growth: vectorized kernel ------------------------------------------------------------


def herd_growth(
    rules: Rules,
    kind: str,
    ranches: int,
    start_herd: int,
    enclosures: int,
    capacity: int,
    income: int,
    hunts: int,
    rng: np.random.Generator,
) -> dict[str, np.ndarray]:
    """Simulate `ranches` ranches of one basic kind for the rules' rounds; arrays of shape (rounds, ranches).

    Each round: collect `income` food (at most the resource cap), hunt `hunts` times
    with the hunt die, place the herd in `enclosures` enclosures of `capacity` spaces
    (the rest escape), feed (unfed dinosaurs escape), breed (one newborn per
    `breed_group` in an enclosure; no room: it escapes). An escape round costs the
    penalty once: a carnivore takes one more dinosaur; a herbivore costs a fence,
    which the kernel counts but which does not shrink the enclosures. The supply
    caps the herd at `dinosaurs_per_kind`.
    """
    dino = next((d for d in load_dinosaurs(rules.dinosaurs_file) if d.name == kind), None)
    if dino is None:
        names = ", ".join(d.name for d in load_dinosaurs(rules.dinosaurs_file))
        raise ArgumentError("kind", f"{kind!r} is not a basic dinosaur; expected one of {names}")
    eats = dino.leaf + dino.meat + dino.either
    group = rules.breed_group
    room = enclosures * capacity
    supply = rules.dinosaurs_per_kind
    faces = rules.hunt_net_faces + rules.hunt_injury_faces + rules.hunt_egg_faces
    p_egg = rules.hunt_egg_faces / faces

    herd = np.full(ranches, min(start_herd, supply), dtype=np.int64)
    food = np.zeros(ranches, dtype=np.int64)
    out = {name: np.zeros((rules.rounds, ranches), dtype=np.int64) for name in ("herd", "unfed", "escapes", "fences")}
    for r in range(rules.rounds):
        food = np.minimum(food + income, rules.resource_cap)
        if hunts:
            eggs = rng.binomial(hunts, p_egg, size=ranches)
            herd = np.minimum(herd + hunts + eggs * (rules.egg_dinosaurs - 1), supply)
        overflow = np.maximum(herd - room, 0)
        herd = herd - overflow
        fed = np.minimum(herd, food // eats) if eats else herd
        food = food - fed * eats
        unfed = herd - fed
        herd = fed
        newborn = np.minimum(herd // group, enclosures * (capacity // group))
        newborn = np.minimum(newborn, supply - herd)
        placed = np.minimum(newborn, room - herd)
        herd = herd + placed
        escapes = overflow + unfed + (newborn - placed)
        penalty = escapes > 0
        if dino.carnivore and not dino.herbivore:
            herd = herd - (penalty & (herd > 0))
        elif dino.herbivore and not dino.carnivore:
            out["fences"][r] = penalty
        out["herd"][r], out["unfed"][r], out["escapes"][r] = herd, unfed, escapes
    return out


def herd_growth_reference(
    rules: Rules,
    kind: str,
    start_herd: int,
    enclosures: int,
    capacity: int,
    income: int,
    hunts: int,
    rng: np.random.Generator,
) -> list[tuple[int, int, int, int]]:
    """One ranch, round by round, as a plain loop: (herd, unfed, escapes, fences lost) per round.

    The same model as `herd_growth`, written the straightforward way; the tests
    check the kernel against it and the benchmark measures the kernel against it.
    """
    dino = next(d for d in load_dinosaurs(rules.dinosaurs_file) if d.name == kind)
    eats = dino.leaf + dino.meat + dino.either
    faces = rules.hunt_net_faces + rules.hunt_injury_faces + rules.hunt_egg_faces
    room, supply = enclosures * capacity, rules.dinosaurs_per_kind
    herd, food, rounds = min(start_herd, supply), 0, []
    for _ in range(rules.rounds):
        food = min(food + income, rules.resource_cap)
        for _ in range(hunts):
            egg = rng.random() < rules.hunt_egg_faces / faces
            herd = min(herd + (rules.egg_dinosaurs if egg else 1), supply)
        overflow = max(herd - room, 0)
        herd -= overflow
        fed = min(herd, food // eats) if eats else herd
        food -= fed * eats
        unfed, herd = herd - fed, fed
        newborn = min(herd // rules.breed_group, enclosures * (capacity // rules.breed_group), supply - herd)
        placed = min(newborn, room - herd)
        herd += placed
        escapes = overflow + unfed + newborn - placed
        fences = 0
        if escapes and dino.carnivore and not dino.herbivore and herd:
            herd -= 1
        elif escapes and dino.herbivore and not dino.carnivore:
            fences = 1
        rounds.append((herd, unfed, escapes, fences))
    return rounds


HERD_PARAMS = (
    Param("kind", "stegosaurus", "the basic dinosaur kind of the herd"),
    Param("ranches", 200_000, "number of ranches simulated", low=1),
    Param("start_herd", 2, "dinosaurs on the ranch at the start", low=0, high=60),
    Param("enclosures", 2, "enclosures the herd may use", low=1, high=20),
    Param("capacity", 6, "spaces in each enclosure", low=1, high=40),
    Param("income", 5, "food of the kind's diet collected each round", low=0, high=30),
    Param("hunts", 0, "hunts per round (hunt die) adding to the herd", low=0, high=6),
)


def _herd_run(rules: Rules, args: Mapping[str, Any], first: int, count: int, rng: np.random.Generator) -> pd.DataFrame:
    import pandas as pd

    result = herd_growth(
        rules,
        args["kind"],
        count,
        args["start_herd"],
        args["enclosures"],
        args["capacity"],
        args["income"],
        args["hunts"],
        rng,
    )
    rows = []
    for r in range(rules.rounds):
        row: dict[str, float] = {"round": r + 1, "n": count}
        for name, values in result.items():
            v = values[r].astype(float)
            row[f"{name}_sum"] = float(v.sum())
            row[f"{name}_sq"] = float((v * v).sum())
        row["shortfall"] = float((result["unfed"][r] > 0).sum())
        row["any_escape"] = float((result["escapes"][r] > 0).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def _moments(raw: pd.DataFrame, name: str) -> pd.DataFrame:
    """Per round: mean, sd and n of a per-ranch quantity from the chunks' sums."""
    import pandas as pd

    g = raw.groupby("round", sort=True)
    n = g["n"].sum()
    total, squares = g[f"{name}_sum"].sum(), g[f"{name}_sq"].sum()
    mean = total / n
    sd = np.sqrt(np.maximum(squares - n * mean**2, 0.0) / np.maximum(n - 1, 1))
    return pd.DataFrame({"mean": mean, "sd": sd, "n": n}).reset_index()


def _herd_tables(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    import pandas as pd

    by_round = pd.DataFrame({"round": sorted(raw["round"].unique())})
    for name in ("herd", "unfed", "escapes", "fences"):
        m = _moments(raw, name)
        low, high = stats.t_interval(m["mean"], m["sd"], m["n"])
        by_round[f"{name}_mean"], by_round[f"{name}_low"], by_round[f"{name}_high"] = m["mean"], low, high
    g = raw.groupby("round", sort=True)
    n = g["n"].sum().to_numpy()
    for name in ("shortfall", "any_escape"):
        k = g[name].sum().to_numpy()
        low, high = stats.wilson_interval(k, n)
        by_round[f"p_{name}"], by_round[f"p_{name}_low"], by_round[f"p_{name}_high"] = k / n, low, high
    by_round["ranches"] = n
    return {"by_round": by_round}


def _herd_figures(tables: dict[str, pd.DataFrame], rules: Rules, args: Mapping[str, Any]) -> dict[str, Any]:
    import matplotlib.pyplot as plt

    t = tables["by_round"]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(t["round"], t["herd_mean"], marker="o", label="herd after breeding")
    ax.fill_between(t["round"], t["herd_low"], t["herd_high"], alpha=0.3)
    ax.plot(t["round"], t["escapes_mean"], marker="s", label="escapes")
    ax.set_xlabel("round")
    ax.set_ylabel(f"{args['kind']} per ranch")
    ax.legend()
    fig.tight_layout()
    return {"herd_by_round": fig}


def _final_herd(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    m = _moments(raw, "herd")
    return m[m["round"] == m["round"].max()].assign(item="final herd")[["item", "mean", "sd", "n"]]


def _shortfall(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> pd.DataFrame:
    import pandas as pd

    g = raw.groupby("round", sort=True)
    return pd.DataFrame({"successes": g["shortfall"].sum(), "n": g["n"].sum()}).reset_index()


HERD_GROWTH = Analysis(
    name="herd-growth",
    summary="vectorized herd growth of one kind: herd size, feeding shortfalls and escapes by round",
    params=HERD_PARAMS,
    run=_herd_run,
    tables=_herd_tables,
    figures=_herd_figures,
    trials="ranches",
    trial_unit="ranches",
    chunk_size=100_000,
    quick_trials=20_000,
    metrics={
        "final_herd": Metric("mean", ("item",), _final_herd, "mean herd after the last round"),
        "shortfall": Metric("proportion", ("round",), _shortfall, "share of ranches with an unfed dinosaur"),
    },
    headline="final_herd",
    outputs=lambda args: (("by_round",), ("herd_by_round",)),
    findings=herd_findings,
    glossary=HERD_GLOSSARY,
)


# --- game: extra tables ------------------------------------------------------------------------

SOURCES = ("contracts", "dinosaurs", "unique", "research")
ACTIVITY = ("escapes", "unfed", "bred", "contracts_public", "contracts_private", "research", "hunts", "bumps")


def _means(raw: pd.DataFrame, columns: Mapping[str, str], label: str) -> pd.DataFrame:
    """Mean of each column (renamed by `columns`) per policy, with a t interval."""
    import pandas as pd

    rows = []
    for policy, group in raw.groupby("policy", sort=True):
        for column, name in columns.items():
            mean, low, high = stats.mean_interval(group[column])
            rows.append(
                {"policy": policy, label: name, "mean": mean, "ci_low": low, "ci_high": high, "games": len(group)}
            )
    return pd.DataFrame(rows)


def game_tables(raw: pd.DataFrame, rules: Rules, args: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """Points by source, activity per game, the first-player marker's value and bumping frequency."""
    import pandas as pd

    points = _means(raw, {f"points_{source}": source for source in SOURCES}, "source")
    activity = _means(raw, {name: name for name in ACTIVITY}, "counter")

    # the first-player marker: win rate by the number of rounds a seat began as first player
    g = raw.groupby("first_player_rounds", sort=True)
    first = pd.DataFrame({"games": g.size(), "wins": g["win_share"].sum()})
    first["win_rate"] = first["wins"] / first["games"]
    first["win_low"], first["win_high"] = stats.wilson_interval(first["wins"], first["games"])

    per_game = raw.groupby("game_id").agg(bumps=("bumps", "sum"), placements=("placements", "sum"))
    n = len(per_game)
    bumped = int((per_game["bumps"] > 0).sum())
    p_low, p_high = stats.wilson_interval(bumped, n)
    rows = [("bumps per game", *stats.mean_interval(per_game["bumps"]))]
    rows.append(("share of games with a bump", bumped / n, float(p_low), float(p_high)))
    # placements within a game are not independent: the share is averaged over games
    shares = per_game["bumps"] / per_game["placements"]
    rows.append(("share of a game's placements that bump", *stats.mean_interval(shares)))
    bumping = pd.DataFrame(rows, columns=["quantity", "estimate", "ci_low", "ci_high"]).assign(games=n)
    return {
        "points_by_source": points,
        "activity": activity,
        "first_player": first.reset_index(),
        "bumping": bumping,
    }


def game_figures(tables: dict[str, pd.DataFrame], rules: Rules, args: Mapping[str, Any]) -> dict[str, Any]:
    import matplotlib.pyplot as plt

    points = tables["points_by_source"].pivot(index="policy", columns="source", values="mean")[list(SOURCES)]
    fig, ax = plt.subplots(figsize=(6, 4))
    bottom = np.zeros(len(points))
    for source in SOURCES:
        ax.bar(points.index, points[source], bottom=bottom, label=source)
        bottom += points[source].to_numpy()
    ax.set_ylabel("mean points")
    ax.legend(title="source")
    fig.tight_layout()
    return {"points_by_source": fig}


# the compiled engine (`compiled.py`, `compiled_policies.py`): the same games as the object engine, in numba
COMPILED = CompiledEngine("tyrsim.games.tiny_epic_dinosaurs.compiled",
                          "tyrsim.games.tiny_epic_dinosaurs.compiled_policies",
                          "the random, greedy, hunter, breeder and contractor policies",
                          search=("ismcts", "tyrsim.games.tiny_epic_dinosaurs.compiled_search"),
                          game=TinyEpicDinosaursGame.name, policy_table=POLICIES)
GAME = game_analysis(
    default_policies=("hunter", "breeder", "contractor"),
    extra_tables=game_tables,
    extra_figures=game_figures,
    extra_outputs=(("points_by_source", "activity", "first_player", "bumping"), ("points_by_source",)),
    extra_findings=game_findings,
    extra_glossary=GAME_GLOSSARY,
    default_games=600,
).then(COMPILED.with_engine)

ANALYSES = {
    "hunt": HUNT,
    "herd-growth": HERD_GROWTH,
    "game": GAME,
    "rate": rating_analysis(("hunter", "breeder", "contractor", "greedy", "random"), 2),
    "ladder": ladder_analysis(("random", "greedy", "hunter", "ismcts"), 2),
    "trace": trace_analysis("ismcts", 2),
    "explore": explore_analysis(
        ("hunter", "breeder", "contractor"), ("breed_group=2:4", "hunt_net_faces=1:5", "resource_cap=8:16"),
    ),
    "rulings": rulings_analysis(("hunter", "breeder", "contractor")),
    # seat balance at three players: the ranch owner's strength, the later seats' starting resources and the
    # public contracts, for seats within five points of each other
    "balance": balance_analysis(
        ("hunter:weights=bundled:hunter_tuned.toml",) * 3,
        ("owner_strength=1:3", "first_player_bonuses=true,false", "extra_public_contracts=0:2"),
        ("largest_seat_gap<=0.05",),
    ),
}
