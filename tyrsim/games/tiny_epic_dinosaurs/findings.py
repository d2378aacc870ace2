"""What the Tiny Epic Dinosaurs analyses' own tables say, in the sentences that open their report pages.

`hunt_findings` answers the `hunt` page (what a hunt brings, against buying; exact, so no
intervals), `herd_findings` the `herd-growth` page (how big the herd grows, when food runs
short, when it escapes) and `game_findings` adds to the core's sentences of the `game` page
(who wins, the seats, game length) where the points come from, what the first-player marker
is worth and how often players bump each other and lose dinosaurs. Every simulated number
carries its interval, written through `tyrsim.core.report.words`; for a sweep each point gets its own
sentence, named as the core names it ("With breed_group = 3: ...").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tyrsim.core.report import words
from tyrsim.core.report.findings import MAX_POINTS, points_of
from tyrsim.core.report.words import count, listing, row_percent
from tyrsim.core.stats import intervals as stats

if TYPE_CHECKING:
    import pandas as pd

SOURCE_WORDS = {"contracts": "contracts", "dinosaurs": "basic dinosaurs", "unique": "unique dinosaurs",
                "research": "research cards"}  # fmt: skip
SHORT = 0.05  # a round "runs short of food" for the herd-growth page when more ranches than this cannot feed all

HUNT_GLOSSARY = {
    "space": "the action space on the central boards (A: hunts, B: buying dinosaurs)",
    "action": "what the space does: hunt the kind it pictures, or buy a dinosaur of the group named",
    "dinosaurs": "dinosaurs one use of the space brings on average (exact, from the hunt die's faces)",
    "sd_dinosaurs": "standard deviation of the dinosaurs one use brings",
    "p_injury": "chance the hunt die shows an injury: the group goes to the hospital",
    "p_egg": "chance the hunt die shows an egg: two dinosaurs instead of one",
    "cost": "resources paid to use the space",
    "resources_per_dinosaur": "resources paid per dinosaur the space gives",
    "points": "points of what one use brings on average (a buy space: its most valuable kind)",
    "quantity": "what the row measures",
    "value": "its exact value",
}

HERD_GLOSSARY = {
    "round": "the round of the game (1 to the rules' rounds)",
    "herd_mean": "dinosaurs on a ranch after the round's breeding, mean over ranches, with its 95% t interval "
                 "(herd_low, herd_high)",
    "unfed_mean": "dinosaurs left unfed in the round (they escape), mean per ranch, with its 95% t interval",
    "escapes_mean": "dinosaurs escaping in the round (no room, unfed, or newborn without room), mean per ranch, "
                    "with its 95% t interval",
    "fences_mean": "fences lost to the herbivore escape penalty in the round, mean per ranch, with its 95% t interval",
    "p_shortfall": "share of ranches that cannot feed their whole herd in the round, with its 95% Wilson interval",
    "p_any_escape": "share of ranches with at least one escape in the round, with its 95% Wilson interval",
    "ranches": "ranches simulated",
}

GAME_GLOSSARY = {
    "source": "where points come from: contracts, basic dinosaurs on the ranch, unique dinosaurs on the ranch, "
              "research cards (their points and points-per-dinosaur abilities)",
    "mean": "mean per player and game, with its 95% t interval (ci_low, ci_high)",
    "games": "games the row's figures come from",
    "counter": "escapes: dinosaurs escaped; unfed: dinosaurs that went hungry; bred: newborns; contracts_public, "
               "contracts_private: contracts fulfilled; research: research cards taken; hunts: hunts made; "
               "bumps: placements on a space another player held",
    "first_player_rounds": "rounds a player began with the first-player marker",
    "wins": "games won (a shared victory split between its winners)",
    "quantity": "what the row measures",
    "estimate": "its value, with its 95% interval (ci_low, ci_high)",
}


def _apart(a: pd.Series, b: pd.Series, low: str = "ci_low", high: str = "ci_high") -> bool:
    """The two rows' 95% intervals do not overlap."""
    return bool(a[low] > b[high] or b[low] > a[high])


def _mean(row: Any, column: str = "mean", low: str = "ci_low", high: str = "ci_high") -> str:
    return words.number(row[column], row[low], row[high])


# ---- hunt (exact) -----------------------------------------------------------------------------
def hunt_sentences(prefix: str, spaces: pd.DataFrame, value: pd.DataFrame) -> list[str]:
    """What a hunt brings and what it saves against buying, from one point's tables."""
    import pandas as pd

    v = value.set_index("quantity")["value"]
    hunt = (f"{prefix}A hunt brings {words.number(v['expected dinosaurs per hunt'], digits=2)} dinosaurs on average "
            f"(exact; sd {words.number(v['sd of dinosaurs per hunt'], digits=2)}): an egg, two dinosaurs, with "
            f"chance {words.percent(v['chance of an egg'])}, and an injury, which sends the group to the hospital, "
            f"with chance {words.percent(v['chance of an injury (rancher to the hospital)'])}.")
    out = [hunt]
    cheapest = v["resources the cheapest buy space charges per dinosaur"]
    if pd.notna(cheapest):
        best = spaces.sort_values(["points", "space"], ascending=[False, True]).iloc[0]
        charge = count(int(cheapest), "resource") if float(cheapest).is_integer() else f"{cheapest:.2f} resources"
        saved = words.number(v["resources a hunt saves against buying"], digits=2)
        out.append(f"{prefix}The cheapest buy space charges {charge} a dinosaur, so a hunt, which costs nothing, "
                   f"is worth {saved} resources of buying; per use, {best['action']} at {best['space']} brings the "
                   f"most points: {words.number(best['points'], digits=2)}.")
    return out


def hunt_findings(tables: Mapping[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> list[str]:
    """The `hunt` page: per point (a few of a sweep), the hunt's expected catch and its worth against buying."""
    spaces, value = dict(points_of(tables["spaces"], "space")), dict(points_of(tables["hunt_value"], "quantity"))
    points = [p for p in value if p in spaces][:MAX_POINTS]
    if len(points) == 1:
        return hunt_sentences(points[0], spaces[points[0]], value[points[0]])
    return [hunt_sentences(p, spaces[p], value[p])[0] for p in points]


# ---- herd growth --------------------------------------------------------------------------------
def herd_sentence(prefix: str, rows: pd.DataFrame, kind: str) -> str:
    """How big the herd ends, and the round it is largest."""
    rows = rows.sort_values("round")
    last, peak = rows.iloc[-1], rows.loc[rows["herd_mean"].idxmax()]
    sentence = (f"{prefix}A herd of {kind} ends round {int(last['round'])} with "
                f"{_mean(last, 'herd_mean', 'herd_low', 'herd_high')} dinosaurs per ranch")
    if peak["herd_mean"] > last["herd_mean"]:
        sentence += (f", down from {_mean(peak, 'herd_mean', 'herd_low', 'herd_high')} after round "
                     f"{int(peak['round'])}")
    return sentence + "."


def food_sentence(prefix: str, rows: pd.DataFrame) -> str:
    """The first round in which food runs short for many ranches, and the round with the most escapes."""
    rows = rows.sort_values("round")

    short = rows[rows["p_shortfall"] > SHORT]
    if len(short):
        first = short.iloc[0]
        food = (f"Food first runs short in round {int(first['round'])}, "
                f"for {row_percent(first, 'p_shortfall', own=True)} of ranches")
    else:
        most = rows.loc[rows["p_shortfall"].idxmax()]
        food = (f"Food runs short for at most {row_percent(most, 'p_shortfall', own=True)} of ranches in any round "
                f"(round {int(most['round'])})")
    worst = rows.loc[rows["escapes_mean"].idxmax()]
    if worst["escapes_mean"] > 0:
        escapes = (f"escapes peak in round {int(worst['round'])} at "
                   f"{_mean(worst, 'escapes_mean', 'escapes_low', 'escapes_high')} dinosaurs per ranch, "
                   f"when {row_percent(worst, 'p_any_escape', own=True)} of ranches see one")
    else:
        escapes = "no dinosaur ever escapes"
    return f"{prefix}{food}; {escapes}."


def herd_findings(tables: Mapping[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> list[str]:
    """The `herd-growth` page: the final herd per point (a few of a sweep); for one point also food and escapes."""
    points = list(points_of(tables["by_round"], "round"))[: MAX_POINTS + 1]
    kind = args.get("kind", "dinosaurs")
    out = []
    for prefix, rows in points:
        point_kind = rows["kind"].iloc[0] if "kind" in rows.columns else kind
        out.append(herd_sentence(prefix, rows, point_kind))
    if len(points) == 1:
        out.append(food_sentence(*points[0]))
    return out


# ---- game -----------------------------------------------------------------------------------------
def leader(by_policy: pd.DataFrame | None) -> str | None:
    """The policy with the highest win rate (a tie: the first by name)."""
    if by_policy is None or not len(by_policy):
        return None
    return by_policy.sort_values(["win_rate", "policy"], ascending=[False, True]).iloc[0]["policy"]


def sources_sentence(prefix: str, policy: str, by_policy: pd.DataFrame, sources: pd.DataFrame) -> str | None:
    """Where the leading policy's points come from, largest source first; with several policies, the source
    that separates them most (or that they cannot be told apart in it)."""
    rows = sources[sources["policy"] == policy].sort_values("mean", ascending=False)
    if not len(rows):
        return None
    score = by_policy[by_policy["policy"] == policy].iloc[0]
    parts = [f"{_mean(r)} from {SOURCE_WORDS[r['source']]}" for _, r in rows.iterrows() if r["mean"] > 0]
    who = f"{policy}, the policy with the most wins," if by_policy["policy"].nunique() > 1 else policy
    sentence = (f"{prefix}{who} scores {_mean(score, 'mean_score', 'score_low', 'score_high')} points a game: "
                f"{listing(parts)}")
    if sources["policy"].nunique() > 1:
        spread = sources.groupby("source", sort=False)["mean"].agg(lambda m: m.max() - m.min())
        source = spread.idxmax()
        ranked = sources[sources["source"] == source].sort_values("mean", ascending=False)
        top, bottom = ranked.iloc[0], ranked.iloc[-1]
        gap = f"{top['policy']} {_mean(top)}, {bottom['policy']} {_mean(bottom)}"
        sentence += (f"; the policies differ most in points from {SOURCE_WORDS[source]} ({gap}"
                     + (")" if _apart(top, bottom) else ", though their intervals overlap)"))
    return sentence + "."


def first_player_sentence(prefix: str, first: pd.DataFrame, rounds: int, players: int) -> str | None:
    """Win rates of seats that began more than half of the rounds with the first-player marker against those
    that began fewer than half."""
    import pandas as pd

    often = first[first["first_player_rounds"] * 2 > rounds]
    seldom = first[first["first_player_rounds"] * 2 < rounds]
    if not len(often) or not len(seldom) or not often["games"].sum() or not seldom["games"].sum():
        return None
    rates = []
    for rows in (often, seldom):
        wins, games = float(rows["wins"].sum()), int(rows["games"].sum())
        low, high = stats.wilson_interval(wins, games)
        rates.append(pd.Series({"rate": wins / games, "low": float(low), "high": float(high)}))
    more, fewer = rates
    if more["low"] > fewer["high"]:
        verdict = "holding the marker pays"
    elif fewer["low"] > more["high"]:
        verdict = "holding the marker costs more than it brings"
    else:
        verdict = "the two cannot be told apart (their intervals overlap)"
    return (f"{prefix}Players who began more than half of the {rounds} rounds with the first-player marker won "
            f"{words.percent(more['rate'], more['low'], more['high'])} of their games, those who began fewer than "
            f"half {words.percent(fewer['rate'], fewer['low'], fewer['high'])} (par {words.percent(1 / players)}): "
            f"{verdict}.")


def bumping_sentence(prefix: str, bumping: pd.DataFrame, activity: pd.DataFrame, policy: str) -> str | None:
    """How often a placement outbids a player already on the space, and what escapes cost the leader."""
    rows = bumping.set_index("quantity")
    if "bumps per game" not in rows.index:
        return None
    per_game = rows.loc["bumps per game"]
    sentence = f"{prefix}A game has {_mean(per_game, 'estimate')} bumps"
    if "share of a game's placements that bump" in rows.index:
        share = rows.loc["share of a game's placements that bump"]
        sentence += (f" ({words.percent(share['estimate'], share['ci_low'], share['ci_high'])} of placements outbid "
                     "a player already on the space)")
    escapes = activity[(activity["policy"] == policy) & (activity["counter"] == "escapes")]
    if len(escapes):
        sentence += f"; {policy} loses {_mean(escapes.iloc[0])} dinosaurs a game to escapes"
    return sentence + "."


def game_findings(tables: Mapping[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> list[str]:
    """The `game` page, after the core's sentences: where the leading policy's points come from (per point of a
    sweep, a few); for one point also the first-player marker's worth and how often players bump and escape."""
    by_policy = dict(points_of(tables["by_policy"], "policy"))
    sources = dict(points_of(tables["points_by_source"], "policy"))
    points = [p for p in by_policy if p in sources][:MAX_POINTS]
    out = []
    for prefix in points:
        policy = leader(by_policy[prefix])
        out.append(sources_sentence(prefix, policy, by_policy[prefix], sources[prefix]))
    if len(points) == 1:
        prefix, policy = points[0], leader(by_policy[points[0]])
        players = len(args["policies"])
        out.append(first_player_sentence(prefix, tables["first_player"], rules.rounds, players))
        out.append(bumping_sentence(prefix, tables["bumping"], tables["activity"], policy))
    return [s for s in out if s]
