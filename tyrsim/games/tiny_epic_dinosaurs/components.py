"""The components the rulebook does not print, loaded from data/*.toml (or a user's own files).

Dinosaurs (diets, points), contracts, research cards and the central boards'
action spaces. The ranch layout is loaded by `ranch.py`. Every loader checks
its file and raises `DataFileError` naming the file, the key and what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tyrsim.core.engine.datafile import DataFileError, data_file_cache, integer, load_data

RESOURCES = ("leaf", "meat", "supply")
FOODS = ("leaf", "meat", "either")
GROUPS = ("herbivore", "carnivore", "omnivore")
ACTIONS = ("hunt", "buy", "place_now", "gain", "first_player", "research", "research_remove", "contract")
BUY_KINDS = ("any", "herbivore", "carnivore")
EFFECTS = ("none", "income", "cheaper", "points_per", "feed_less", "extra_fences")
PLAYER_COUNTS = (2, 3, 4)
MOST = 99  # the largest count a data file may give (points, dinosaurs, resources): a larger one is a slip


def remember(memo: dict, key: Any, value: Any, limit: int = 4096) -> Any:
    """Keep `value` under `key` in a memo of at most `limit` entries (emptied when full: the
    engine's memos repeat few keys within a run of games) and return it."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value


def read_toml(path: str, bundled: str) -> tuple[str, dict[str, Any]]:
    """(name for messages, parsed TOML) of the user's `path`, or of the bundled `bundled` when path is ""."""
    return load_data(path, "tyrsim.games.tiny_epic_dinosaurs", bundled)


def _table(source: str, key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DataFileError(f"{source}: {key} must be a table, got {value!r}")
    return value


def _choice(source: str, key: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise DataFileError(f"{source}: {key} is {value!r}; allowed: {', '.join(allowed)}")
    return value


def _amounts(source: str, key: str, value: Any, allowed: tuple[str, ...]) -> dict[str, int]:
    table = _table(source, key, value)
    for name in table:
        _choice(source, f"{key}.{name}", name, allowed)
    return {name: integer(source, f"{key}.{name}", table.get(name, 0), high=MOST) for name in allowed}


def _new_name(source: str, key: str, value: Any, taken: set[str], unique_among: str) -> str:
    """A non-empty string not in `taken` (which it then joins)."""
    if not isinstance(value, str) or not value or value in taken:
        raise DataFileError(f"{source}: {key} must be a non-empty string unique among {unique_among}, got {value!r}")
    taken.add(value)
    return value


def _list(source: str, data: dict[str, Any], key: str) -> list[Any]:
    items = data.get(key)
    if not isinstance(items, list) or not items:
        raise DataFileError(f"{source}: needs a non-empty [[{key}]] list")
    return items


# --- dinosaurs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dinosaur:
    """A kind of dinosaur: what it eats, how it escapes, what it scores."""

    name: str
    group: str  # herbivore / carnivore / omnivore
    leaf: int  # leaves eaten each round
    meat: int  # meat eaten each round
    either: int  # units of leaf or meat eaten each round
    points: int
    unique: bool = False

    @property
    def herbivore(self) -> bool:
        return self.group in ("herbivore", "omnivore")

    @property
    def carnivore(self) -> bool:
        return self.group in ("carnivore", "omnivore")


def _dinosaur(source: str, key: str, name: str, entry: dict[str, Any], points: int, unique: bool) -> Dinosaur:
    group = _choice(source, f"{key}.group", entry.get("group"), GROUPS)
    diet = _amounts(source, f"{key}.diet", entry.get("diet", {}), FOODS)
    return Dinosaur(name, group, diet["leaf"], diet["meat"], diet["either"], points, unique)


@data_file_cache(maxsize=16)
def load_dinosaurs(path: str = "") -> tuple[Dinosaur, ...]:
    """The basic dinosaur kinds, in file order."""
    source, data = read_toml(path, "dinosaurs.toml")
    table = _table(source, "[dinosaur]", data.get("dinosaur"))
    if not table:
        raise DataFileError(f"{source}: needs at least one [dinosaur.NAME] table")
    kinds = []
    for name, entry in table.items():
        key = f"dinosaur.{name}"
        entry = _table(source, key, entry)
        points = integer(source, f"{key}.points", entry.get("points"), high=MOST)
        kinds.append(_dinosaur(source, key, name, entry, points, False))
    return tuple(kinds)


# --- contracts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contract:
    """A contract card: give up these dinosaurs, score these points."""

    name: str
    dinosaurs: tuple[tuple[str, int], ...]  # (kind, how many)
    points: int

    def __repr__(self) -> str:
        wants = "+".join(f"{n} {kind}" for kind, n in self.dinosaurs)
        return f"{self.name}({wants}: {self.points}pt)"


@data_file_cache(maxsize=16)
def load_contracts(path: str = "", kinds: tuple[str, ...] = ()) -> tuple[Contract, ...]:
    """The contract deck; `kinds` are the basic dinosaur names a contract may ask for."""
    source, data = read_toml(path, "contracts.toml")
    contracts = []
    names = set()
    for i, entry in enumerate(_list(source, data, "contract")):
        key = f"contract[{i}]"
        entry = _table(source, key, entry)
        name = _new_name(source, f"{key}.name", entry.get("name"), names, "contracts")
        wanted = _amounts(source, f"{key}.dinosaurs", entry.get("dinosaurs"), kinds)
        dinosaurs = tuple((kind, n) for kind, n in wanted.items() if n > 0)
        if not dinosaurs:
            raise DataFileError(f"{source}: {key}.dinosaurs must ask for at least one dinosaur")
        contracts.append(Contract(name, dinosaurs, integer(source, f"{key}.points", entry.get("points"), high=MOST)))
    return tuple(contracts)


# --- research cards ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """A research card's ability, one of EFFECTS."""

    type: str = "none"
    resource: str = ""  # income, cheaper
    action: str = ""  # cheaper
    dinosaur: str = ""  # points_per, feed_less
    amount: int = 0


@dataclass(frozen=True)
class ResearchCard:
    """A research card; a dinosaur card carries its unique dinosaur."""

    name: str
    points: int
    effect: Effect
    dinosaur: Dinosaur | None = None  # the unique dinosaur of a dinosaur card

    def __repr__(self) -> str:
        return self.name


def _effect(source: str, key: str, value: Any, kinds: tuple[str, ...]) -> Effect:
    table = _table(source, key, value)
    kind = _choice(source, f"{key}.type", table.get("type", "none"), EFFECTS)
    if kind == "none":
        return Effect()
    amount = integer(source, f"{key}.amount", table.get("amount"), 1, 13)
    if kind == "income":
        resource = _choice(source, f"{key}.resource", table.get("resource"), RESOURCES)
        return Effect(kind, resource=resource, amount=amount)
    if kind == "cheaper":
        return Effect(
            kind,
            resource=_choice(source, f"{key}.resource", table.get("resource"), RESOURCES),
            action=_choice(source, f"{key}.action", table.get("action"), ACTIONS),
            amount=amount,
        )
    if kind in ("points_per", "feed_less"):
        return Effect(kind, dinosaur=_choice(source, f"{key}.dinosaur", table.get("dinosaur"), kinds), amount=amount)
    return Effect(kind, amount=amount)


@data_file_cache(maxsize=16)
def load_research(path: str = "", kinds: tuple[str, ...] = ()) -> tuple[ResearchCard, ...]:
    """The research deck; `kinds` are the basic dinosaur names an effect may name."""
    source, data = read_toml(path, "research.toml")
    cards = []
    names = set(kinds)
    for i, entry in enumerate(_list(source, data, "card")):
        key = f"card[{i}]"
        entry = _table(source, key, entry)
        name = _new_name(source, f"{key}.name", entry.get("name"), names, "cards and dinosaur kinds")
        kind = _choice(source, f"{key}.kind", entry.get("kind"), ("dinosaur", "science"))
        points = integer(source, f"{key}.points", entry.get("points"), high=MOST)
        effect = _effect(source, f"{key}.effect", entry.get("effect", {}), kinds)
        unique = _dinosaur(source, key, name, entry, points, True) if kind == "dinosaur" else None
        cards.append(ResearchCard(name, points, effect, unique))
    return tuple(cards)


# --- action spaces -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Space:
    """An action space on a central board."""

    id: str
    action: str
    cost: tuple[int, int, int]  # leaf, meat, supply paid
    gain: tuple[int, int, int]  # leaf, meat, supply received
    fences: int  # fences received
    dinosaur: str  # the pictured dinosaur of a hunt space
    kinds: str  # what a buy space sells: any / herbivore / carnivore
    players: tuple[int, ...]

    def gains(self) -> str:
        """What a gain space gives, for the play-by-play: "2 fence(s) for 1 supply"."""
        got = [f"{n} {r}" for r, n in zip(RESOURCES, self.gain, strict=True) if n]
        if self.fences:
            got.insert(0, f"{self.fences} fence(s)")
        paid = [f"{n} {r}" for r, n in zip(RESOURCES, self.cost, strict=True) if n]
        return " + ".join(got) + (" for " + " + ".join(paid) if paid else "")


@data_file_cache(maxsize=16)
def load_spaces(path: str = "", kinds: tuple[str, ...] = ()) -> tuple[Space, ...]:
    """Every action space of the central boards (all player counts)."""
    source, data = read_toml(path, "spaces.toml")
    spaces = []
    ids = set()
    for i, entry in enumerate(_list(source, data, "space")):
        key = f"space[{i}]"
        entry = _table(source, key, entry)
        sid = _new_name(source, f"{key}.id", entry.get("id"), ids, "spaces")
        action = _choice(source, f"{key}.action", entry.get("action"), ACTIONS)
        cost = _amounts(source, f"{key}.cost", entry.get("cost", {}), RESOURCES)
        gain = _amounts(source, f"{key}.gain", entry.get("gain", {}), (*RESOURCES, "fences"))
        dinosaur = _choice(source, f"{key}.dinosaur", entry.get("dinosaur"), kinds) if action == "hunt" else ""
        sells = _choice(source, f"{key}.kinds", entry.get("kinds"), BUY_KINDS) if action == "buy" else ""
        players = entry.get("players")
        if not isinstance(players, list) or not players or any(p not in PLAYER_COUNTS for p in players):
            raise DataFileError(f"{source}: {key}.players must be a non-empty list of 2, 3 and/or 4, got {players!r}")
        if action == "gain" and not any(gain.values()):
            raise DataFileError(f"{source}: {key}.gain must give at least one resource or fence")
        spaces.append(
            Space(
                sid,
                action,
                (cost["leaf"], cost["meat"], cost["supply"]),
                (gain["leaf"], gain["meat"], gain["supply"]),
                gain["fences"],
                dinosaur,
                sells,
                tuple(players),
            )
        )
    # the player count is not a rule, so a spaces file must serve every count the game is played with
    for count in PLAYER_COUNTS:
        if not any(count in space.players for space in spaces):
            raise DataFileError(f"{source}: no [[space]] lists {count} in its players; every player count "
                                f"({', '.join(map(str, PLAYER_COUNTS))}) needs its action spaces")
    return tuple(spaces)
