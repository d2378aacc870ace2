"""The decisions a player makes, as small named tuples that read like a play-by-play."""

from __future__ import annotations

from typing import NamedTuple


class Place(NamedTuple):
    """Phase 2: send ranchers (and/or the ranch owner) to an action space and carry out its action.

    `choice` is what the action needs: the dinosaur bought or placed, the dinosaur removed
    for research (`research_remove`) or the contract taken (with `extra` = "private" to
    fulfil the private contract alongside). The research card is chosen next (`PickResearch`).
    """

    space: str
    action: str
    ranchers: int
    owner: bool
    choice: str = ""
    extra: str = ""

    def __repr__(self) -> str:
        group = ["owner" if self.owner else "", f"{self.ranchers} rancher(s)" if self.ranchers else ""]
        who = " + ".join(filter(None, group))
        what = " ".join(filter(None, [self.action, self.choice, self.extra]))
        return f"Place({self.space} {what}; {who})"


class PickResearch(NamedTuple):
    """Take a face-up research card or "draw" three from the deck; then keep one of the three drawn."""

    card: str

    def __repr__(self) -> str:
        return f"PickResearch({self.card})"


class MoveFence(NamedTuple):
    """Fence rearranging: move a fence token from edge `source` ("holding" for a new one) to edge `target`."""

    source: str
    target: str

    def __repr__(self) -> str:
        return f"MoveFence({self.source} -> {self.target})"


class StopRearranging(NamedTuple):
    """End fence rearranging."""

    def __repr__(self) -> str:
        return "StopRearranging()"


class PlaceFence(NamedTuple):
    """Phase 4: put a fence from Holding on an edge of the ranch."""

    edge: str

    def __repr__(self) -> str:
        return f"PlaceFence({self.edge})"


class Enclose(NamedTuple):
    """Phase 4: give the enclosure whose first space is `enclosure` (with `size` spaces) to one kind."""

    enclosure: str
    size: int
    kind: str

    def __repr__(self) -> str:
        return f"Enclose({self.kind} in {self.size}-space enclosure at {self.enclosure})"


class Feed(NamedTuple):
    """Phase 5 with too little food: how many of each kind are fed ((kind, n) pairs); the rest escape."""

    fed: tuple[tuple[str, int], ...]

    def __repr__(self) -> str:
        return "Feed(" + ", ".join(f"{n} {kind}" for kind, n in self.fed) + ")"


class EscapeAs(NamedTuple):
    """An escaping omnivore counts as a 'herbivore' (lose a fence) or a 'carnivore' (lose a dinosaur)."""

    group: str

    def __repr__(self) -> str:
        return f"EscapeAs({self.group})"


class LoseFence(NamedTuple):
    """Herbivore escape penalty: remove this fence from the ranch."""

    edge: str

    def __repr__(self) -> str:
        return f"LoseFence({self.edge})"


class LoseDinosaur(NamedTuple):
    """Carnivore escape penalty: remove one dinosaur of this kind from the ranch."""

    kind: str

    def __repr__(self) -> str:
        return f"LoseDinosaur({self.kind})"
