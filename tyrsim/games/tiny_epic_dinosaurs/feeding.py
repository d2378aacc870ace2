"""Phase 5, feeding: what a dinosaur eats, what a herd needs, whether the food is there, how it is
eaten, and every way to feed a herd when it is not.

Food is counted as (leaves, meat, units of either kind) (`Food`): a herd's food fits a player's
stock when the leaves and the meat are in stock and all units together do not exceed leaves plus
meat. The engine (`game.py`), the forecast of the round's end (`forecast.py`) and the greedy
policies (`policies.py`) all feed by these functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from tyrsim.games.tiny_epic_dinosaurs.actions import Feed
from tyrsim.games.tiny_epic_dinosaurs.components import Dinosaur


class Food(NamedTuple):
    """Food one dinosaur or a herd eats in Phase 5."""

    leaf: int
    meat: int
    either: int  # units of leaf or meat (rule `either_food` says which)


def diet(dinosaur: Dinosaur, less: int) -> Food:
    """The food one `dinosaur` eats when research makes it eat `less` units less (leaves first, then
    meat, then either food)."""
    leaf, meat, either = dinosaur.leaf, dinosaur.meat, dinosaur.either
    for _ in range(less):
        if leaf:
            leaf -= 1
        elif meat:
            meat -= 1
        elif either:
            either -= 1
    return Food(leaf, meat, either)


def food_needed(fed: Iterable[tuple[str, int]], diet: Callable[[str], Sequence[int]]) -> Food:
    """The food the dinosaurs in `fed` ((kind, n) pairs) eat together, each kind eating `diet(kind)`."""
    leaf = meat = either = 0
    for kind, n in fed:
        a, b, c = diet(kind)
        leaf, meat, either = leaf + a * n, meat + b * n, either + c * n
    return Food(leaf, meat, either)


def fits(need: Sequence[int], resources: Sequence[int]) -> bool:
    """Whether the food `need` (leaf, meat, either) can be eaten from these (leaf, meat, ...) resources."""
    leaf, meat, either = need
    return leaf <= resources[0] and meat <= resources[1] and either <= resources[0] - leaf + resources[1] - meat


def food_left(leaf: int, meat: int, need: Sequence[int], either_food: str) -> tuple[int, int]:
    """(leaf, meat) left of these stocks after the food `need` is eaten (it fits: `fits`)."""
    eat_leaf, eat_meat, either = need
    return eat_either(leaf - eat_leaf, meat - eat_meat, either, either_food)


def eat_either(leaf: int, meat: int, either: int, food: str) -> tuple[int, int]:
    """(leaf, meat) left after `either` units of either food are eaten from these stocks (enough for them).

    Ruling (rule `either_food`): each unit comes from the more plentiful of leaf and meat ('plentiful', leaf
    on a tie), or from leaf while there is any ('leaf'), or from meat while there is any ('meat')."""
    for _ in range(either):
        if food == "leaf":
            from_leaf = leaf > 0
        elif food == "meat":
            from_leaf = meat == 0
        else:
            from_leaf = leaf >= meat
        if from_leaf:
            leaf -= 1
        else:
            meat -= 1
    return leaf, meat


def unfed(herd: Iterable[tuple[str, int]], fed: Iterable[tuple[str, int]]) -> dict[str, int]:
    """The dinosaurs of `herd` ((kind, n) pairs) left out of `fed`, by kind: they escape."""
    eaten = dict(fed)
    return {kind: n - eaten.get(kind, 0) for kind, n in herd if n > eaten.get(kind, 0)}


def feedings(
    herd: tuple[tuple[str, int], ...], diets: tuple[Sequence[int], ...], resources: Sequence[int], most: bool = False
) -> list[Feed]:
    """Every maximal way to feed `herd` ((kind, n) pairs eating `diets`) from `resources`, most fed first; with
    `most` (rule `must_place_and_feed`: 'most'), only those feeding the most dinosaurs there can be.

    A depth-first search over how many of each kind are fed (from as many as fit down to none)
    that keeps the choices where no unfed dinosaur could still be fed. A choice fits as in `fits`.
    """
    have_leaf, have_meat = resources[0], resources[1]
    have_food = have_leaf + have_meat
    wanted = [n for _, n in herd]
    # per kind: (leaves, meat, all units) one dinosaur eats
    eats = [(a, b, a + b + c) for a, b, c in diets]
    counts = [0] * len(herd)
    last = len(herd) - 1
    # (leaves, meat, units) the kinds after i eat when all of them are fed: the most they can still take
    later = [(0, 0, 0)] * len(herd)
    for i in range(last - 1, -1, -1):
        (a, b, t), n, (leaf, meat, food) = eats[i + 1], wanted[i + 1], later[i + 1]
        later[i] = (leaf + a * n, meat + b * n, food + t * n)
    options = []

    def extend(i: int, leaf: int, meat: int, food: int) -> None:
        # the food eaten so far fits; every constraint grows with the number fed, so the numbers
        # of this kind that still fit are 0 up to `most`
        a, b, t = eats[i]
        most = wanted[i]
        if a:
            most = min(most, (have_leaf - leaf) // a)
        if b:
            most = min(most, (have_meat - meat) // b)
        if t:
            most = min(most, (have_food - food) // t)
        if i < last:
            later_leaf, later_meat, later_food = later[i]
            for fed in range(most, -1, -1):
                counts[i] = fed
                leaf_now, meat_now, food_now = leaf + a * fed, meat + b * fed, food + t * fed
                if (
                    fed < most
                    and leaf_now + a + later_leaf <= have_leaf
                    and meat_now + b + later_meat <= have_meat
                    and food_now + t + later_food <= have_food
                ):
                    # one more of this kind would fit even if every later dinosaur ate: this and every
                    # smaller number leave it unfed though it could be fed, so none is maximal
                    return
                extend(i + 1, leaf_now, meat_now, food_now)
            return
        # fewer of the last kind would leave one that could still be fed: only `most` can be maximal
        counts[i] = most
        leaf, meat, food = leaf + a * most, meat + b * most, food + t * most
        for j, (a2, b2, t2) in enumerate(eats):
            if counts[j] < wanted[j] and leaf + a2 <= have_leaf and meat + b2 <= have_meat and food + t2 <= have_food:
                return  # not maximal: this dinosaur could still be fed
        options.append(Feed(tuple([(kind, n) for (kind, _), n in zip(herd, counts, strict=True) if n])))

    if herd:
        extend(0, 0, 0, 0)
    else:
        options.append(Feed(()))
    if most:
        fed = [sum(n for _, n in plan.fed) for plan in options]
        options = [plan for plan, n in zip(options, fed, strict=True) if n == max(fed)]
    return options
