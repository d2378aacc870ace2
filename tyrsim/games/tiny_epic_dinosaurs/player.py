"""One player's ranch, resources, ranchers, Holding and cards, and what their research cards let them do."""

from __future__ import annotations

from tyrsim.games.tiny_epic_dinosaurs.components import RESOURCES, Contract, ResearchCard, Space
from tyrsim.games.tiny_epic_dinosaurs.ranch import Ranch, RanchBoard

# what `stats()` counts for each player (see docs/tiny_epic_dinosaurs.md, "Counters")
COUNTERS = (
    "escapes",
    "penalty_fences",
    "penalty_dinosaurs",
    "unfed",
    "bred",
    "hunts",
    "injuries",
    "placements",
    "bumps",
    "contracts_public",
    "contracts_private",
    "research",
    "first_player_rounds",
)


class Player:
    """One player's ranch, resources, workers, holding area and cards."""

    __slots__ = (
        "ranch",
        "resources",
        "ranchers",
        "ranchers_left",
        "owner_left",
        "holding",
        "holding_fences",
        "private",
        "contracts",
        "research",
        "paid_herbivore",
        "paid_carnivore",
        "counters",
        "extra_income",
        "discounts",
        "feed_less",
        "extra_fences",
        "points_per",
    )

    def __init__(self, board: RanchBoard, ranchers: int) -> None:
        self.ranch = Ranch(board)
        self.resources = [0, 0, 0]  # leaf, meat, supply
        self.ranchers = ranchers
        self.ranchers_left = 0
        self.owner_left = False
        self.holding: list[str] = []  # dinosaurs in Holding
        self.holding_fences = 0
        self.private: Contract | None = None
        self.contracts: list[Contract] = []
        self.research: list[ResearchCard] = []
        self.paid_herbivore = False
        self.paid_carnivore = False
        self.counters = dict.fromkeys(COUNTERS, 0)
        self.learn()

    def copy(self) -> Player:
        """An independent player in the same position. Contracts and research cards are immutable and
        shared; every list and dict a move changes in place is copied."""
        new = Player.__new__(Player)
        new.ranch = self.ranch.copy()
        new.resources = self.resources.copy()
        new.ranchers, new.ranchers_left, new.owner_left = self.ranchers, self.ranchers_left, self.owner_left
        new.holding = self.holding.copy()
        new.holding_fences = self.holding_fences
        new.private = self.private
        new.contracts = self.contracts.copy()
        new.research = self.research.copy()
        new.paid_herbivore, new.paid_carnivore = self.paid_herbivore, self.paid_carnivore
        new.counters = self.counters.copy()
        new.extra_income = self.extra_income.copy()
        new.discounts = {action: off.copy() for action, off in self.discounts.items()}  # `learn_card` adds in place
        new.feed_less = self.feed_less.copy()
        new.extra_fences = self.extra_fences
        new.points_per = self.points_per.copy()
        return new

    def learn(self) -> None:
        """Sum up the abilities of the research cards held (after one is lost; `learn_card` adds one)."""
        self.extra_income = [0, 0, 0]
        self.discounts: dict[str, list[int]] = {}  # action -> [leaf, meat, supply] off its cost
        self.feed_less: dict[str, int] = {}  # dinosaur -> food units it eats less
        self.extra_fences = 0
        self.points_per: dict[str, int] = {}  # dinosaur -> end-game points each
        for card in self.research:
            self.learn_card(card)

    def learn_card(self, card: ResearchCard) -> None:
        """Add the ability of a research card just gained."""
        effect = card.effect
        if effect.type == "income":
            self.extra_income[RESOURCES.index(effect.resource)] += effect.amount
        elif effect.type == "cheaper":
            self.discounts.setdefault(effect.action, [0, 0, 0])[RESOURCES.index(effect.resource)] += effect.amount
        elif effect.type == "feed_less":
            self.feed_less[effect.dinosaur] = self.feed_less.get(effect.dinosaur, 0) + effect.amount
        elif effect.type == "extra_fences":
            self.extra_fences += effect.amount
        elif effect.type == "points_per":
            self.points_per[effect.dinosaur] = self.points_per.get(effect.dinosaur, 0) + effect.amount

    def gain(self, resource: int, amount: int, cap: int) -> None:
        """Add `amount` of a resource (by index); the stock stays within 0..cap, the rest is lost."""
        self.resources[resource] = max(0, min(cap, self.resources[resource] + amount))

    def cost(self, space: Space) -> tuple[int, ...] | list[int]:
        """The (leaf, meat, supply) this player pays for `space`, after the discounts of their research cards."""
        if not self.discounts:
            return space.cost
        off = self.discounts.get(space.action)
        if off is None:
            return space.cost
        return [max(0, c - o) for c, o in zip(space.cost, off, strict=True)]
