"""Tiny Epic Dinosaurs rules as data; every default is the rulebook's (or a documented ruling)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from tyrsim.core.engine.rules import RuleError, RuleSet, rule
from tyrsim.games.tiny_epic_dinosaurs.components import (
    DataFileError,
    load_contracts,
    load_dinosaurs,
    load_research,
    load_spaces,
)
from tyrsim.games.tiny_epic_dinosaurs.ranch import load_ranch

BORDERS = ("open", "fence")
UNIQUE_TERRAINS = ("grass", "any")
INJURY_RULINGS = ("leaves", "stays")
PRIVATE_CONTRACT_TIMINGS = ("with_public", "also_end_of_round")
PENALTY_PERIODS = ("round", "phase")
COVER_ORDERS = tuple("-".join(order) for order in permutations(("leaf", "meat", "supply")))
EITHER_FOODS = ("plentiful", "leaf", "meat")
MUST_READINGS = ("most", "maximal")
NO_PLACEMENT_SKIPS = ("turn", "round")
TIE_ORDERS = ("last_round", "marker")


@dataclass(frozen=True)
class Rules(RuleSet):
    """Tiny Epic Dinosaurs rules; defaults are the rulebook's."""

    # --- game length and workers ("Setup", "Phase 2", "Phase 7") ---
    rounds: int = rule(6, "rounds in a game", low=1, high=12)
    start_ranchers: int = rule(3, "ordinary ranchers each player starts with", low=1, high=6)
    extra_rancher_round: int = rule(4, "round from which each player has one more rancher (0: never)", low=0, high=12)
    owner_strength: int = rule(2, "how many ranchers the ranch owner counts as", low=1, high=4)

    # Ruling: "If it becomes a player's turn but they have no ranchers left and no abilities available to use, they
    # are skipped": a player with ranchers but no space they may take is skipped for that 'turn' (default: the
    # words skip a turn, and a later injury can free a space; Phase 2 ends when nobody can place), or keeps the
    # rest of their ranchers home for the 'round'.
    no_placement_skips: str = rule(
        "turn",
        "a player with ranchers left but no legal placement is skipped this 'turn' (Phase 2 ends when nobody can "
        "place) or for the rest of the 'round'",
        choices=NO_PLACEMENT_SKIPS,
        ruling=True,
    )

    # --- resources ("Phase 1") ---
    resource_cap: int = rule(13, "most of each resource a player may hold", low=1, high=50)
    first_player_bonuses: bool = rule(True, "2nd/3rd/4th player start with 1 leaf / 1 meat / 1 supply")

    # --- components ("Components") ---
    dinosaurs_per_kind: int = rule(15, "figures of each basic dinosaur kind in the supply", low=1, high=60)
    fence_tokens: int = rule(26, "fence tokens in the general supply", low=0, high=100)
    research_display: int = rule(3, "research cards laid out face up each round", low=0, high=10)
    research_draw: int = rule(3, "cards drawn when a player draws research from the deck", low=1, high=10)
    extra_public_contracts: int = rule(1, "public contracts on display = players + this", low=0, high=5)

    # --- hunt die ("Dinosaur Hunt Space and Hunt Die") ---
    hunt_net_faces: int = rule(3, "net faces on the hunt die: take the pictured dinosaur", low=0, high=12)
    hunt_injury_faces: int = rule(2, "injury faces: take the dinosaur, the rancher goes to hospital", low=0, high=12)
    hunt_egg_faces: int = rule(1, "egg faces: take `egg_dinosaurs` of the pictured dinosaur", low=0, high=12)
    egg_dinosaurs: int = rule(2, "dinosaurs taken on an egg (all must be taken)", low=1, high=5)
    # Ruling: "Injury: Take the 1st pictured dinosaur, but move the rancher to the hospital zone": the
    # rulebook does not say whether the space is then free for the next player ('leaves') or not ('stays').
    injured_rancher: str = rule(
        "leaves",
        "an injured rancher's group 'leaves' its hunt space for the hospital (freeing it) or 'stays' blocking it",
        choices=INJURY_RULINGS,
        ruling=True,
    )

    # --- the ranch ("Enclosures", "Phase 4") ---
    # Ruling: "An enclosure is any area of grass that is fully surrounded on all sides by some
    # combination of fences, mountains, and water. On each player's starting ranch there is one
    # permanent enclosure": the board's edge is none of the three, so it needs fence tokens ('open');
    # 'fence' reads the edge as a fence (the starting ranch then has two enclosures).
    border: str = rule(
        "open",
        "the ranch's outer edge is 'open' (a fence token must stand on it, as the rulebook names only fences, "
        "mountains and water) or bounds an enclosure like a 'fence'",
        choices=BORDERS,
        ruling=True,
    )
    # Ruling: the rulebook says unique dinosaurs "do not need to be placed in an enclosure" but not that
    # they may stand on a mountain or water space; 'grass' (default) keeps them on grass like every
    # dinosaur, 'any' lets them stand on mountains and water too (they then cover no resource symbol).
    unique_terrain: str = rule(
        "grass",
        "spaces a unique dinosaur may stand on: 'grass' only, or 'any' (mountain and water too)",
        choices=UNIQUE_TERRAINS,
        ruling=True,
    )
    # Ruling: the rulebook lets the place-now and first-player spaces "rearrange the fences on your ranch";
    # fences gained this round are in Holding, "not yet considered to be on your ranch".
    rearrange_holding: bool = rule(
        False, "fence rearranging may also place fences still in Holding (gained this round)", ruling=True
    )
    # A choice, not a reading: "For each resource symbol on your ranch that is not covered by a dinosaur,
    # collect one resource of that type": which spaces of an enclosure its dinosaurs cover is the player's to
    # say; the engine says it for every player alike. They take the spaces without a symbol first, then the
    # symbols in this order; they leave in the reverse order. The default keeps the scarcest income (the ranch
    # prints 5 leaves, 3 meat, 1 supply).
    cover_order: str = rule(
        "leaf-meat-supply",
        "the order in which dinosaurs cover resource symbols, after the spaces without one (the last is kept longest)",
        choices=COVER_ORDERS,
        kind="choice",
    )

    # Ruling: "If you are able to place a dinosaur, you must do so" (Phase 4, and the newborns of Phase 6,
    # placed "following the normal rules for placing dinosaurs") and "If a dinosaur can be fed, then it must be
    # fed!" (Phase 5) are one kind of sentence, read the same way. 'most' (default): a dinosaur the player was
    # able to house (feed) in some layout (feeding) must be, so the layout houses and the feeding feeds the most
    # dinosaurs there can be, and the player chooses among those. 'maximal': any layout (feeding) after which no
    # dinosaur left out could still be housed (fed) without moving (unfeeding) another.
    must_place_and_feed: str = rule(
        "most",
        "'If you are able to place a dinosaur, you must do so' and 'If a dinosaur can be fed, then it must be fed!': "
        "the layout houses and the feeding feeds the 'most' dinosaurs there can be, or any 'maximal' one (none "
        "left out could still be housed or fed)",
        choices=MUST_READINGS,
        ruling=True,
    )

    # --- feeding ("Phase 5") ---
    # A choice, not a reading: "Unique dinosaurs list what they eat on their own cards"; the bundled cards give
    # the omnivores units of "either" leaf or meat, which the player pays as they like; the engine pays them for
    # every player alike. 'plentiful' eats each unit from the more plentiful of the two (the player keeps both
    # stocks even); 'leaf' and 'meat' eat that food while there is any.
    either_food: str = rule(
        "plentiful",
        "an omnivore's food of 'either' kind is eaten from the more 'plentiful' of leaf and meat, or 'leaf' "
        "first, or 'meat' first",
        choices=EITHER_FOODS,
        kind="choice",
    )

    # --- escapes, breeding, contracts ---
    penalty_once_per: str = rule(
        "round", "escape penalties are paid once per type per 'round' or per 'phase'", choices=PENALTY_PERIODS
    )
    breed_group: int = rule(2, "every this many dinosaurs of a kind in one enclosure produce one more", low=1, high=6)
    private_contract_timing: str = rule(
        "with_public",
        "a private contract is fulfilled only 'with_public' (when taking a public one) or 'also_end_of_round'",
        choices=PRIVATE_CONTRACT_TIMINGS,
    )

    # Ruling: "In the event of a tie, whichever tied player is earlier in turn order wins": the game ends after
    # round 6, and the first player marker orders the *next* round ("Next round, placement onto ranches will start
    # with you"), so the turn order at the end is the one the 'last_round' was played in (default); 'marker' counts
    # from whoever holds the marker at the end (taking it in the last round then wins every tie).
    tie_break: str = rule(
        "last_round",
        "a tie goes to the tied player earliest in the turn order the 'last_round' was played in, or counted from "
        "the 'marker' holder at the end",
        choices=TIE_ORDERS,
        ruling=True,
    )

    # --- data files ("" = the bundled file) ---
    # Each is an assumed component (the rulebook prints none of them; each file says what it assumes),
    # so each is a ruling whose alternative is another bundled reading.
    ranch_file: str = rule(
        "", "TOML file with the ranch layout (empty: bundled data/ranch.toml)", data_file=True,
        ruling=("bundled:ranch_alt.toml",),
    )
    spaces_file: str = rule(
        "", "TOML file with the central boards' action spaces (empty: bundled)", data_file=True,
        ruling=("bundled:spaces_allosaurus_hunt.toml",),
    )
    dinosaurs_file: str = rule(
        "", "TOML file with the basic dinosaurs' diets and points (empty: bundled)", data_file=True,
        ruling=("bundled:dinosaurs_alt.toml",),
    )
    contracts_file: str = rule(
        "", "TOML file with the contract cards (empty: bundled)", data_file=True,
        ruling=("bundled:contracts_bonus1.toml",),
    )
    research_file: str = rule(
        "", "TOML file with the research cards (empty: bundled)", data_file=True,
        ruling=("bundled:research_no_abilities.toml",),
    )

    def hunt_odds(self) -> dict[str, float]:
        """Exact distribution of one hunt: expected dinosaurs (and sd), chances of an injury and of an egg."""
        faces = self.hunt_net_faces + self.hunt_injury_faces + self.hunt_egg_faces
        p_egg = self.hunt_egg_faces / faces
        mean = (1 - p_egg) + p_egg * self.egg_dinosaurs
        variance = (1 - p_egg) * (1 - mean) ** 2 + p_egg * (self.egg_dinosaurs - mean) ** 2
        return {"dinosaurs": mean, "sd": variance**0.5, "p_injury": self.hunt_injury_faces / faces, "p_egg": p_egg}

    def cover_symbols(self) -> tuple[str, ...]:
        """The resource symbols in the order dinosaurs cover them (rule `cover_order`)."""
        return tuple(self.cover_order.split("-"))

    def check(self) -> None:
        if self.hunt_net_faces + self.hunt_injury_faces + self.hunt_egg_faces == 0:
            raise RuleError("rules 'hunt_*_faces': the hunt die needs at least one face")
        if self.extra_rancher_round > self.rounds:
            raise RuleError(
                f"rule 'extra_rancher_round': {self.extra_rancher_round} is after the last round ({self.rounds}); "
                "use 0 for no extra rancher"
            )
        self._check_files()

    def _check_files(self) -> None:
        """Load every data file now, so a bad one is reported as a bad rule value when the rules are made.

        The files meet in the basic dinosaur kinds: a contract, a research card or a hunt space may
        name only kinds of the dinosaurs file. With a user's dinosaurs file the bundled files are
        checked against it as well, and a bundled file naming a kind it lacks is its error.
        """
        kinds = tuple(d.name for d in self.check_file("dinosaurs_file", load_dinosaurs))
        self.check_file("ranch_file", lambda path: load_ranch(path, self.border, self.cover_symbols()))
        for name, load in (("spaces_file", load_spaces), ("contracts_file", load_contracts),
                           ("research_file", load_research)):
            if getattr(self, name) or not self.dinosaurs_file:
                self.check_file(name, lambda path, load=load: load(path, kinds))
                continue
            try:
                load("", kinds)
            except DataFileError as exc:
                raise DataFileError(f"rule 'dinosaurs_file': {self.dinosaurs_file} does not fit the bundled "
                                    f"file used with it: {exc}") from None
