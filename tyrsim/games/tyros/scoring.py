"""End-of-game scoring, in the rulebook's order.

1. Remove all ships from spaces with ships of more than one player.
2. Remove all ships from spaces with cities.
3. Award 7 points per empire to a player who alone has the most cities there.
4. Count city control (12/10/9/8) and ship control (6/5/4/3) by the empire's
   size rank; equal sizes rank orange, yellow, green, violet.
Plus 7 points to the first player to have built a city in each of the four
empires (a ruling, rule `first_city_bonus`: by default one bonus, to the first
player with cities in all four; 'each-empire': 7 to the first city builder in
each empire, counted as points in that empire; see docs/tyros.md).
Ties on the total go to the most points in the largest empire.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tyrsim.core.report.words import count
from tyrsim.games.tyros.board import TYROS
from tyrsim.games.tyros.components import COLOUR_NAMES, EMPIRES
from tyrsim.games.tyros.rules import Rules


@dataclass
class Score:
    city_points: int = 0
    ship_points: int = 0
    all_empires_bonus: int = 0
    most_cities_bonus: int = 0
    largest_empire_points: int = 0  # the tie-break: control points and majority bonus in the largest empire
    per_empire: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def total(self) -> int:
        return self.city_points + self.ship_points + self.all_empires_bonus + self.most_cities_bonus


def empire_sizes(chips: list[int], rules: Rules) -> list[int]:
    """Spaces per empire; Tyros counts only if the rules say so (a ruling)."""
    sizes = [0, 0, 0, 0]
    for space, colour in enumerate(chips):
        if colour >= 0 and (space != TYROS or rules.tyros_counts_for_size):
            sizes[colour] += 1
    return sizes


def size_ranks(sizes: list[int]) -> list[int]:
    """Rank of each empire, 0 = largest; equal sizes rank in colour order (orange first)."""
    order = sorted(EMPIRES, key=lambda e: (-sizes[e], e))
    ranks = [0, 0, 0, 0]
    for rank, empire in enumerate(order):
        ranks[empire] = rank
    return ranks


RANK_NAMES = ("largest", "second largest", "third largest", "smallest")


def space_name(space: int) -> str:
    """A space in a play log: its number, or "Tyros"."""
    return "Tyros" if space == TYROS else str(space)


def score_game(
    rules: Rules,
    num_players: int,
    chips: list[int],
    cities: list[int],
    ship_spaces: list[list[int]],
    all_empires_first: int,
    first_cities: Sequence[int] = (-1, -1, -1, -1),
    items: list[tuple[int, int, str]] | None = None,
) -> list[Score]:
    """Each player's score for the position: `ship_spaces[p]` lists the space of each of p's ships.

    `all_empires_first` is the first player with a city in all four empires and `first_cities[e]` the
    first to build a city in empire e (-1: nobody yet); rule `first_city_bonus` says which one counts.
    `items`, if given (a play log), receives each award as (player, points, why) in the rulebook's order,
    and each space whose ships are removed as (-1, 0, why).
    """
    scores = [Score() for _ in range(num_players)]
    ranks = size_ranks(empire_sizes(chips, rules))
    owners: dict[int, set[int]] = {}
    for player, spaces in enumerate(ship_spaces):
        for space in spaces:
            owners.setdefault(space, set()).add(player)
    # steps 1 and 2: ships remain only where one player alone has ships and there is no city
    ship_control = {space: next(iter(who)) for space, who in owners.items() if len(who) == 1 and cities[space] < 0}
    if items is not None:
        for space in sorted(set(owners) - set(ship_control)):
            why = "a city stands there" if cities[space] >= 0 else "more than one player has ships there"
            items.append((-1, 0, f"ships in {space_name(space)} are removed ({why})"))
    # step 3: most cities in each empire
    city_counts = [[0] * num_players for _ in EMPIRES]
    for space, owner in enumerate(cities):
        if owner >= 0 and chips[space] >= 0:
            city_counts[chips[space]][owner] += 1
    for empire in EMPIRES:
        most = max(city_counts[empire])
        leaders = [p for p in range(num_players) if city_counts[empire][p] == most]
        if most > 0 and len(leaders) == 1:
            scores[leaders[0]].most_cities_bonus += rules.most_cities_bonus
            scores[leaders[0]].per_empire[empire] += rules.most_cities_bonus
            if items is not None:
                why = f"the most cities in {COLOUR_NAMES[empire]} ({count(most, 'city', 'cities')})"
                items.append((leaders[0], rules.most_cities_bonus, why))
    # step 4: control of each space with an empire chip
    for space, colour in enumerate(chips):
        if colour < 0:
            continue
        if cities[space] >= 0:
            points = rules.city_points[ranks[colour]]
            scores[cities[space]].city_points += points
            scores[cities[space]].per_empire[colour] += points
            if items is not None:
                items.append((cities[space], points, f"the city in {space_name(space)} "
                              f"({COLOUR_NAMES[colour]}, {RANK_NAMES[ranks[colour]]})"))
        elif space in ship_control:
            points = rules.ship_points[ranks[colour]]
            scores[ship_control[space]].ship_points += points
            scores[ship_control[space]].per_empire[colour] += points
            if items is not None:
                items.append((ship_control[space], points, f"ships in {space_name(space)} "
                              f"({COLOUR_NAMES[colour]}, {RANK_NAMES[ranks[colour]]})"))
    if rules.first_city_bonus == "all-four":
        if all_empires_first >= 0:
            scores[all_empires_first].all_empires_bonus += rules.all_empires_bonus
            if items is not None:
                items.append((all_empires_first, rules.all_empires_bonus, "the first cities in all four empires"))
    else:  # "each-empire": the bonus belongs to its empire, so it counts for the tie-break there too
        for empire, player in enumerate(first_cities):
            if player >= 0:
                scores[player].all_empires_bonus += rules.all_empires_bonus
                scores[player].per_empire[empire] += rules.all_empires_bonus
                if items is not None:
                    items.append((player, rules.all_empires_bonus, f"the first city in {COLOUR_NAMES[empire]}"))
    largest = ranks.index(0)
    for score in scores:
        score.largest_empire_points = score.per_empire[largest]
    return scores


def winners(scores: list[Score]) -> list[int]:
    """The highest totals; ties broken by points in the largest empire, then shared."""
    best = max((s.total, s.largest_empire_points) for s in scores)
    return [p for p, s in enumerate(scores) if (s.total, s.largest_empire_points) == best]
