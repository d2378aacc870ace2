"""What the Zooloretto Duell `zoo-ev` and `game` pages' own tables say, in the sentences that open them.

The core writes who wins, whether the seats are fair (the first player is seat 0) and how long a
game lasts; these sentences add what a zoo is worth (the expected final score by source), how
often the player ahead on each source wins, how often the symbols fire, and what ends the game.
The `zoo-ev` page answers its question first (`zoo_ev_findings`: the expected score, then the
core's sentences, then the rest); the `game` page keeps the core's first (`extra_findings`).
Each number carries its interval, written through `tyrsim.core.report.words`; for a sweep each of the
first points gets its own sentences, named as the core names them ("With expert = True: ...").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tyrsim.core.report import words
from tyrsim.core.report.findings import MAX_POINTS, game_findings, points_by_name
from tyrsim.core.report.words import row_percent

if TYPE_CHECKING:
    import pandas as pd

# what each source of points is called in a sentence, in the order the final scoring adds them
SOURCE_WORDS = {"marker_points": "interim scoring markers", "majority_points": "final majorities",
                "coin_points": "coins"}  # fmt: skip
LEADER_WORDS = {"marker_points": "interim scoring markers", "majority_points": "final majorities",
                "coins": "coins"}  # fmt: skip
SYMBOL_WORDS = {"heart": "a heart brings an offspring", "square": "a square a card from the discard pile",
                "lightning": "a lightning a minus point", "stand_coin": "a second stand symbol a coin"}  # fmt: skip
END_WORDS = {"card": "the final-round card", "marker": "the final-round marker", "pile": "an empty draw pile"}

GLOSSARY = {
    "source": "where points come from: marker_points (interim scoring markers), majority_points (1 per species "
              "with more animals than the opponent at the end), coin_points (1 per 2 coins), minus_points "
              "(subtracted), score (the final score); in leader_wins, coins counts the coins themselves",
    "mean": "mean per player and game (per game for game length), with its 95% t interval (ci_low, ci_high)",
    "games_with_a_leader": "games in which one player had more of the source than the other",
    "leader_win_rate": "share of those games the player with more of the source won, with its 95% Wilson "
                       "interval (ci_low, ci_high)",
    "counter": "a symbol or action per player and game: lightning (second lightning of a species: a minus point), "
               "heart (second heart: the offspring joins), heart_wasted (the offspring already gone), square "
               "(second square: a card from the discard pile), square_wasted, third_symbol (third card with the "
               "same symbol: discarded for a minus point), stand_coin (second stand with the same symbol: a coin), "
               "steals, disposals (minus points returned), expert_discards",
    "share_of_games": "share of games (per player) in which the counter fired at least once, with its 95% Wilson "
                      "interval (share_low, share_high)",
    "value": "a final margin: own score minus the opponent's",
    "share": "share of games, with its 95% Wilson interval (ci_low, ci_high)",
    "quantity": "rounds per game, or decisions (actions) per game",
    "rounds": "rounds a game lasted",
    "first_player_win_rate": "share of games the first player (seat 0) won, a shared victory counting half, with "
                             "its 95% Wilson interval (win_low, win_high)",
    "first_player_margin": "the first player's score minus the second's, with its 95% t interval (margin_low, "
                           "margin_high)",
    "ended_by": "what made the last round the final one: the final-round card, the final-round marker, or the "
                "last card of the draw pile",
    "games": "games (or, per policy and seat, seats played) the row's figures come from",
    "seat": "0 = the first player, 1 = the second",
    "wins": "games won, a shared victory counting half",
}


def _mean(row: pd.Series) -> str:
    """A mean with its interval, to at most two decimals (points and counts per game need no more)."""
    digits = min(2, words.digits_for((row["ci_high"] - row["ci_low"]) / 2))
    return words.number(row["mean"], row["ci_low"], row["ci_high"], digits=digits)


def expected_score_sentence(prefix: str, policy: str, sources: pd.DataFrame, alone: bool) -> str | None:
    """A policy's expected final score, where most of it comes from, and what each other source adds."""
    rows = sources[sources["policy"] == policy].set_index("source")
    if "score" not in rows.index:
        return None
    plus = [s for s in SOURCE_WORDS if s in rows.index]
    top = max(plus, key=lambda s: rows.loc[s, "mean"])
    positive = sum(max(0.0, rows.loc[s, "mean"]) for s in plus)
    share = "most of it" if positive and rows.loc[top, "mean"] > positive / 2 else "the largest part"
    who = "A player's" if alone else f"{policy}'s"
    rest = [f"{SOURCE_WORDS[s]} {_mean(rows.loc[s])}" for s in plus if s != top]
    sentence = (f"{prefix}{who} expected final score is {_mean(rows.loc['score'])} points, {share} from "
                f"{SOURCE_WORDS[top]} ({_mean(rows.loc[top])}); {words.listing(rest)} add the rest")
    if "minus_points" in rows.index:
        sentence += f", and minus points take {_mean(rows.loc['minus_points'])} away"
    return sentence + "."


def expected_scores(tables: Mapping[str, pd.DataFrame]) -> list[str]:
    """The expected final score of each policy (a two-player game has at most two), per point."""
    out = []
    for prefix, rows in list(points_by_name(tables, "points_by_source", "policy").items())[:MAX_POINTS]:
        policies = list(dict.fromkeys(rows["policy"]))
        out += [expected_score_sentence(prefix, p, rows, len(policies) == 1) for p in policies]
    return [s for s in out if s]


def leader_sentence(prefix: str, leaders: pd.DataFrame) -> str | None:
    """How often the player ahead on each source wins the game."""
    rows = leaders.set_index("source")
    parts = [(LEADER_WORDS[s], row_percent(rows.loc[s], "leader_win_rate")) for s in LEADER_WORDS
             if s in rows.index and rows.loc[s, "games_with_a_leader"] > 0]
    if not parts:
        return None
    (what, share), rest = parts[0], parts[1:]
    return (f"{prefix}The player ahead on {what} wins {share} of the games in which one is ahead"
            + "".join(f"; ahead on {w}, {s}" for w, s in rest) + ".")


def symbols_sentence(prefix: str, symbols: pd.DataFrame, policy: str | None) -> str | None:
    """How often each symbol fires per player and game, and how often a player steals."""
    rows = symbols[symbols["policy"] == policy] if policy is not None else symbols
    rows = rows.set_index("counter")
    parts = [f"{SYMBOL_WORDS[c]} {_mean(rows.loc[c])}" for c in SYMBOL_WORDS if c in rows.index]
    if not parts:
        return None
    who = f"{policy} player" if policy is not None else "player"
    sentence = f"{prefix}Per {who} and game, {words.listing(parts)} times"
    if "steals" in rows.index:
        sentence += f"; a {who} steals {_mean(rows.loc['steals'])} animals"
    return sentence + "."


def ends_sentence(prefix: str, ends: pd.DataFrame) -> str:
    """What made the last round the final one."""
    rows = ends.sort_values("share", ascending=False)
    parts = [f"{END_WORDS.get(r['ended_by'], r['ended_by'])} in {row_percent(r, 'share')}" for _, r in rows.iterrows()]
    return f"{prefix}The final round is set off by {words.listing(parts)} of games."


def _leading_policy(tables: Mapping[str, pd.DataFrame]) -> str | None:
    """The policy the symbols sentence speaks of: the one that wins most (None when one policy plays both seats)."""
    by_policy = tables.get("by_policy")
    if by_policy is None or by_policy["policy"].nunique() < 2:
        return None
    return str(by_policy.sort_values(["win_rate", "policy"], ascending=[False, True]).iloc[0]["policy"])


def other_findings(tables: Mapping[str, pd.DataFrame]) -> tuple[list[str], list[str]]:
    """(who wins by being ahead on which source, per point; for a single point, symbols and end triggers)."""
    leaders = [leader_sentence(prefix, rows)
               for prefix, rows in list(points_by_name(tables, "leader_wins", "source").items())[:MAX_POINTS]]
    symbols, ends = points_by_name(tables, "symbols", "policy"), points_by_name(tables, "end_triggers", "ended_by")
    rest = []
    if len(symbols) == 1 and len(ends) == 1:
        (only_symbols,), (only_ends,) = symbols.values(), ends.values()
        rest = [symbols_sentence("", only_symbols, _leading_policy(tables)), ends_sentence("", only_ends)]
    return [s for s in leaders if s], [s for s in rest if s]


def extra_findings(tables: Mapping[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> list[str]:
    """The `game` page, after the core's sentences: the expected score, then the rest."""
    leaders, rest = other_findings(tables)
    return [*expected_scores(tables), *leaders, *rest]


def zoo_ev_findings(tables: Mapping[str, pd.DataFrame], rules: Any, args: Mapping[str, Any]) -> list[str]:
    """The `zoo-ev` page: what a zoo is worth and which source decides the game first, then the core's
    sentences (who wins, the seats, game length), then symbols and end triggers."""
    leaders, rest = other_findings(tables)
    return [*expected_scores(tables), *leaders, *game_findings(dict(tables)), *rest]
