"""Tiny Epic Dinosaurs in compiled code (numba): the same game as `game.py`, rule for rule, a game at a time.

`game.py` stays the readable reference, the engine of play logs and of the search; this module
plays the same games, move for move, many times faster. The same seed gives the same game:
set-up shuffles the contract and research decks with numpy's own algorithm and draws
(`shuffle`), the hunt die and the random policy take the uniform doubles `tyrsim.core.engine.rng.uniform`
hands out (`uniform`), a reshuffle of the research discard pile draws as `Generator.shuffle` does.
Compiled code takes the generator's bit generator (`rng.bit_generator`, here `bits`) and draws as
numpy does (`tyrsim.core.compiled.chance`).

How a position is held: one numpy record of the dtype `POSITION` (a one-element array; a
function reads and writes `game[0]` in place). A dinosaur is its *kind*, the index of its name
in the object engine's `components.dinosaurs` (the basic kinds in file order, then the unique
dinosaurs in research-card order); a contract or a research card is its index in its data file;
a space on a central board its index among the spaces of the player count; a ranch space its
index (row * cols + col); an edge its index in `RanchLayout.edge_names`. Lists keep the object
engine's order (a size and the items, first at 0), because the order of the legal actions and of
what is drawn next follows them:

- `contract_deck` (drawn from the end), `public`; `research_deck` (drawn from the end),
  `discard`, `display`; `supply[kind]` (basic kinds), `fence_supply`;
- `occupancy[space, seat]`: the group (ranchers, the owner counting `owner_strength`) of that
  seat on the space, 0 for none;
- per player p: `cells[p, space]` (a kind, or EMPTY), `fences[p]` (fence tokens as bits, as
  `Ranch.fence_bits`), `resources[p]` (leaf, meat, supply), `ranchers`, `ranchers_left`,
  `owner_left`, `holding[p]` (kinds in the order gained), `holding_fences`, `private` (a
  contract or NONE), `taken[p]` (contracts fulfilled, in order), `research[p]` (cards held, in
  order), `paid_herbivore`, `paid_carnivore`, `counts[p]` (player.COUNTERS); the abilities of the
  cards held (`learn`): `extra_income`, `discount[p, action]`, `feed_less[p, kind]`,
  `extra_fences`, `points_per[p, kind]`;
- the question asked (prompts.py): `prompt` (one of the prompt codes below, NO_PROMPT when the
  game is over or between steps) and `prompt_player`; its data: `moved` (Rearranging: the edges
  fences were moved to, as bits), `drawn` (DrawnResearch), `escape_herbivore` and
  `escape_carnivore` (OmnivoreEscape); Enclosing's `assignment[enclosure]` (a kind or NONE),
  `assigned` (the enclosures in the order given, as `lay_out` reads them), `herd_kinds` (the basic
  kinds to lay out in the object engine's dict order) with `herd[kind]` and `unplaced[kind]`,
  and `uniques` (the unique dinosaurs to lay out); Housing (Phase 6) uses the same fields for the
  newborns wanting room in empty enclosures, the enclosures with dinosaurs in them TAKEN;
- `steps[i]` (kind, seat, a, b): the steps still to run (steps.py, the object engine's `_todo`), the
  next one last;
- `round_number` (the round), `first_player`, `round_first` (who placed first in this round), `turn`,
  `actions` (decisions made by policies).

The rules and data files become one record of the dtype `RULES`, made once per rule set and
player count by `rule_tables(rules, players)` from the object engine's own loaders. An action
is a row of six integers (type, a, b, c, d, e): see `legal_actions`, which lists them in the
object engine's order, so that an index into one list is the same action in the other.

A chunk's scratch (the action list, the feeding plans, the flood fill's regions, the
assignment search's buffers, the uniform doubles drawn ahead) is one record of the dtype
`WORKSPACE`: compiled code passes records as plain pointers, but counts the references to every
array it passes on.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from tyrsim.core.compiled.chance import UNIFORM_FIELDS, shuffle, uniform
from tyrsim.core.compiled.forms import weight_record
from tyrsim.core.compiled.numba_cache import keep_fresh
from tyrsim.core.compiled.positions import differing_fields
from tyrsim.games.tiny_epic_dinosaurs.components import ACTIONS, EFFECTS, GROUPS, RESOURCES
from tyrsim.games.tiny_epic_dinosaurs.game import TinyEpicDinosaursGame, TinyEpicDinosaursState
from tyrsim.games.tiny_epic_dinosaurs.player import COUNTERS
from tyrsim.games.tiny_epic_dinosaurs.rules import EITHER_FOODS, Rules
from tyrsim.games.tiny_epic_dinosaurs.weights import GreedyWeights

keep_fresh(__file__)

# `@compiled_only`: a function only compiled code calls, which numba compiles without the wrapper that calls it from
# Python (1.2 to 1.5 s of a fresh compilation, for the engine's 70 such functions); those that Python calls
# (`play_chunk`, the tests) are `@njit(cache=True)`, the layers that only forward `@njit(cache=True, inline="always")`
compiled_only = njit(cache=True, no_cpython_wrapper=True)

# fixed shapes; `supported` names the rule (or data file) a rule set would need more of
MAX_PLAYERS = 4
MAX_CELLS = 62  # ranch spaces (a set of them is an int64's bits)
MAX_EDGES = 62  # edges a fence could matter on (a set of fences is an int64's bits)
MAX_KINDS = 40  # basic kinds and unique dinosaurs
MAX_BASIC = 10
MAX_CONTRACTS = 64
MAX_RESEARCH = 64
MAX_SPACES = 40
MAX_FACES = 36
MAX_HOLDING = 128
MAX_STEPS = 64  # steps waiting to run
MAX_ACTIONS = 4096
MAX_DECISIONS = 100_000  # a safety limit far above any game (about 100)
MAX_FEEDS = 4096  # different feeding plans a search meets (`compiled_search`: each gets its number)
# Every integer a compiled function is passed is an int64: the record fields, and the constants, numpy scalars
# (a Python int passed is a literal type, a compilation of the callee of its own), as are the counters that start
# at a literal 0 and are passed on (`n = np.int64(0)`).
EMPTY = np.int64(-1)  # a free ranch space
NONE = np.int64(-1)  # no contract, no kind, no card
TAKEN = np.int64(-2)  # Phase 6: an enclosure with dinosaurs in it (no newborns of another kind may go there)

# the hunt die's faces
NET, INJURY, EGG = np.arange(3)
# a dinosaur's group (components.GROUPS)
HERBIVORE, CARNIVORE, OMNIVORE = (np.int64(GROUPS.index(g)) for g in ("herbivore", "carnivore", "omnivore"))
# a space's action, a research card's effect (components.ACTIONS, EFFECTS)
HUNT, BUY, PLACE_NOW, GAIN, FIRST_PLAYER, RESEARCH, RESEARCH_REMOVE, CONTRACT = np.arange(len(ACTIONS))
E_NONE, E_INCOME, E_CHEAPER, E_POINTS_PER, E_FEED_LESS, E_EXTRA_FENCES = np.arange(len(EFFECTS))
GRASS, MOUNTAIN, WATER = np.arange(3)
# resources (components.RESOURCES); a dinosaur's food is LEAF, MEAT or EITHER
LEAF, MEAT, SUPPLY = np.arange(len(RESOURCES))
EITHER = np.int64(2)
PLENTIFUL, LEAF_FIRST, MEAT_FIRST = np.arange(len(EITHER_FOODS))
# counters (player.COUNTERS)
(ESCAPES, PENALTY_FENCES, PENALTY_DINOSAURS, UNFED, BRED, HUNTS, INJURIES, PLACEMENTS, BUMPS, CONTRACTS_PUBLIC,
 CONTRACTS_PRIVATE, RESEARCH_TAKEN, FIRST_PLAYER_ROUNDS) = np.arange(len(COUNTERS))

# prompts (prompts.py)
(NO_PROMPT, ASSIGN, TAKE_RESEARCH, PICK_RESEARCH, REARRANGE, PLACE_FENCE_PROMPT, ENCLOSE_PROMPT, ESCAPE_AS_PROMPT,
 LOSE_FENCE_PROMPT, LOSE_DINOSAUR_PROMPT, FEED_PROMPT, HOUSE_PROMPT) = np.arange(12)
# steps (steps.py): a row (kind, seat, a, b)
(START_ROUND, ASSIGN_TURN, RETURN_RANCHERS, ARRANGE, FEED, BREED, END_ROUND, PENALTIES,
 LOSE_DINOSAUR_PENALTY) = np.arange(9)
# action types (actions.py): a row (type, a, b, c, d, e)
PLACE = np.int64(0)  # a space, b ranchers, c owner, d choice (kind or contract), e WITH_PRIVATE or ALONE
PICK = np.int64(1)  # a card, or NONE: draw
MOVE_FENCE = np.int64(2)  # a source edge (NONE: from Holding), b target edge
STOP_REARRANGING = np.int64(3)
PLACE_FENCE = np.int64(4)  # a edge
ENCLOSE = np.int64(5)  # a enclosure index, b kind
FEED_PLAN = np.int64(6)  # a the plan's index in WORKSPACE.plans
ESCAPE_AS = np.int64(7)  # a HERBIVORE or CARNIVORE
LOSE_FENCE = np.int64(8)  # a edge
LOSE_DINOSAUR = np.int64(9)  # a kind
ALONE, WITH_PRIVATE = np.int64(0), np.int64(1)  # a contract placement pays the private contract too, or not

POSITION = np.dtype([
    ("round_number", np.int64), ("first_player", np.int64), ("round_first", np.int64), ("turn", np.int64),
    ("actions", np.int64),
    ("fence_supply", np.int64), ("supply", np.int64, (MAX_BASIC,)),
    ("contract_deck", np.int64, (MAX_CONTRACTS,)), ("contract_deck_size", np.int64),
    ("public", np.int64, (MAX_CONTRACTS,)), ("public_size", np.int64),
    ("research_deck", np.int64, (MAX_RESEARCH,)), ("research_deck_size", np.int64),
    ("discard", np.int64, (MAX_RESEARCH,)), ("discard_size", np.int64),
    ("display", np.int64, (MAX_RESEARCH,)), ("display_size", np.int64),
    ("occupancy", np.int64, (MAX_SPACES, MAX_PLAYERS)),
    ("cells", np.int64, (MAX_PLAYERS, MAX_CELLS)), ("fences", np.int64, (MAX_PLAYERS,)),
    ("resources", np.int64, (MAX_PLAYERS, 3)), ("ranchers", np.int64, (MAX_PLAYERS,)),
    ("ranchers_left", np.int64, (MAX_PLAYERS,)), ("owner_left", np.int64, (MAX_PLAYERS,)),
    ("holding", np.int64, (MAX_PLAYERS, MAX_HOLDING)), ("holding_size", np.int64, (MAX_PLAYERS,)),
    ("holding_fences", np.int64, (MAX_PLAYERS,)), ("private", np.int64, (MAX_PLAYERS,)),
    ("taken", np.int64, (MAX_PLAYERS, MAX_CONTRACTS)), ("taken_size", np.int64, (MAX_PLAYERS,)),
    ("research", np.int64, (MAX_PLAYERS, MAX_RESEARCH)), ("research_size", np.int64, (MAX_PLAYERS,)),
    ("paid_herbivore", np.int64, (MAX_PLAYERS,)), ("paid_carnivore", np.int64, (MAX_PLAYERS,)),
    ("counts", np.int64, (MAX_PLAYERS, len(COUNTERS))),
    ("extra_income", np.int64, (MAX_PLAYERS, 3)), ("discount", np.int64, (MAX_PLAYERS, len(ACTIONS), 3)),
    ("feed_less", np.int64, (MAX_PLAYERS, MAX_KINDS)), ("extra_fences", np.int64, (MAX_PLAYERS,)),
    ("points_per", np.int64, (MAX_PLAYERS, MAX_KINDS)),
    ("prompt", np.int64), ("prompt_player", np.int64), ("moved", np.int64),
    ("drawn", np.int64, (MAX_RESEARCH,)), ("drawn_size", np.int64),
    ("escape_herbivore", np.int64), ("escape_carnivore", np.int64),
    ("assignment", np.int64, (MAX_CELLS,)), ("assigned", np.int64, (MAX_CELLS,)), ("assigned_size", np.int64),
    ("herd_kinds", np.int64, (MAX_BASIC,)), ("herd_kinds_size", np.int64),
    ("herd", np.int64, (MAX_KINDS,)), ("unplaced", np.int64, (MAX_KINDS,)),
    ("uniques", np.int64, (MAX_KINDS,)), ("uniques_size", np.int64),
    ("steps", np.int64, (MAX_STEPS, 4)), ("steps_size", np.int64),
])

RULES = np.dtype([
    ("players", np.int64), ("rounds", np.int64), ("start_ranchers", np.int64), ("extra_rancher_round", np.int64),
    ("owner_strength", np.int64), ("resource_cap", np.int64), ("first_player_bonuses", np.int64),
    ("dinosaurs_per_kind", np.int64), ("fence_tokens", np.int64), ("research_display", np.int64),
    ("research_draw", np.int64), ("extra_public_contracts", np.int64), ("egg_dinosaurs", np.int64),
    ("injured_leaves", np.int64), ("unique_anywhere", np.int64), ("rearrange_holding", np.int64),
    ("either_food", np.int64), ("penalty_per_phase", np.int64), ("breed_group", np.int64),
    ("private_end_of_round", np.int64), ("most", np.int64), ("skip_round", np.int64), ("tie_last_round", np.int64),
    ("die", np.int64, (MAX_FACES,)), ("die_size", np.int64),
    # the expected catch of a hunt (`Rules.hunt_odds`) and its nearest whole number (Python's round), as the
    # greedy policies value a hunt
    ("hunt_mean", np.float64), ("hunt_rounded", np.int64),
    # dinosaurs: kinds (basic first), their group, diet (leaf, meat, either), points
    ("kinds", np.int64), ("basic", np.int64), ("group", np.int64, (MAX_KINDS,)), ("diet", np.int64, (MAX_KINDS, 3)),
    ("points", np.int64, (MAX_KINDS,)), ("unique", np.int64, (MAX_KINDS,)), ("card_of", np.int64, (MAX_KINDS,)),
    # contracts: the dinosaurs each asks for by basic kind, its points
    ("contracts", np.int64), ("need", np.int64, (MAX_CONTRACTS, MAX_BASIC)),
    ("contract_points", np.int64, (MAX_CONTRACTS,)),
    # research cards: points, the unique dinosaur (or NONE), the ability
    ("cards", np.int64), ("card_points", np.int64, (MAX_RESEARCH,)), ("card_kind", np.int64, (MAX_RESEARCH,)),
    ("effect", np.int64, (MAX_RESEARCH,)), ("effect_resource", np.int64, (MAX_RESEARCH,)),
    ("effect_action", np.int64, (MAX_RESEARCH,)), ("effect_kind", np.int64, (MAX_RESEARCH,)),
    ("effect_amount", np.int64, (MAX_RESEARCH,)),
    # the action spaces of this player count, in file order
    ("spaces", np.int64), ("action", np.int64, (MAX_SPACES,)), ("cost", np.int64, (MAX_SPACES, 3)),
    ("gain", np.int64, (MAX_SPACES, 3)), ("gain_fences", np.int64, (MAX_SPACES,)), ("hunted", np.int64, (MAX_SPACES,)),
    ("sells", np.int64, (MAX_SPACES, MAX_BASIC)),
    # the ranch: per space its terrain, symbol (NONE, or a resource), its grass links (neighbour, edge) and the
    # border edges that must be fenced ('open' border) as bits; the fence slots; the fill and remove orders
    ("cell_count", np.int64), ("terrain", np.int64, (MAX_CELLS,)), ("symbol", np.int64, (MAX_CELLS,)),
    ("link_count", np.int64, (MAX_CELLS,)), ("link_cell", np.int64, (MAX_CELLS, 4)),
    ("link_edge", np.int64, (MAX_CELLS, 4)),
    ("open_bits", np.int64, (MAX_CELLS,)), ("grass_bits", np.int64), ("permanent_bits", np.int64),
    ("edges", np.int64), ("slots", np.int64, (MAX_EDGES,)), ("slot_count", np.int64),
    ("fill_order", np.int64, (MAX_CELLS,)), ("remove_order", np.int64, (MAX_CELLS,)),
    # every name an action holds (dinosaur kinds, research cards, edges, "draw", "holding", "herbivore",
    # "carnivore") as its place in their sorted list (`names`): the search tells actions apart as the object
    # engine's named tuples compare, by what they hold, and the forecast orders kinds by name
    ("kind_name", np.int64, (MAX_KINDS,)), ("card_name", np.int64, (MAX_RESEARCH,)),
    ("edge_name", np.int64, (MAX_EDGES,)), ("draw_name", np.int64), ("holding_name", np.int64),
    ("herbivore_name", np.int64), ("carnivore_name", np.int64), ("names", np.int64),
])

# the greedy policies' weights by their names (`weights.GreedyWeights`; a record: `weights.hunt_weight`)
WEIGHT_RECORD = weight_record(GreedyWeights)

WORKSPACE = np.dtype([
    ("actions", np.int64, (MAX_ACTIONS, 6)), ("count", np.int64),  # the legal actions (`legal_actions`)
    ("values", np.float64, (MAX_ACTIONS,)),  # a greedy policy's value of each (compiled_policies.py)
    ("plans", np.int8, (MAX_ACTIONS, MAX_KINDS)),  # feeding plans: dinosaurs fed, by kind
    # the flood fill's grass regions (cells as bits, enclosed) and the enclosures among them
    ("regions", np.int64, (MAX_CELLS,)), ("enclosed", np.int64, (MAX_CELLS,)), ("region_count", np.int64),
    ("enclosures", np.int64, (MAX_CELLS,)), ("enclosure_count", np.int64),
    ("filled", np.int64), ("filled_fences", np.int64),  # whether they are, and for which fence set
    ("stack", np.int64, (MAX_CELLS,)),
    # the assignment search (`unhoused`): capacities and, per depth, the needs still wanting room
    ("capacities", np.int64, (MAX_CELLS + 1,)), ("wanting", np.int64, (MAX_CELLS + 2, MAX_BASIC + 1)),
    ("frame_length", np.int64, (MAX_CELLS + 2,)), ("frame_at", np.int64, (MAX_CELLS + 2,)),
    ("frame_best", np.int64, (MAX_CELLS + 2,)),
    ("choices", np.int64, (MAX_CELLS * MAX_BASIC, 2)),
    # feeding plans' search (`feedings`)
    ("eats", np.int64, (MAX_KINDS, 3)), ("wanted", np.int64, (MAX_KINDS,)), ("later", np.int64, (MAX_KINDS, 3)),
    ("fed", np.int64, (MAX_KINDS,)), ("most", np.int64, (MAX_KINDS,)), ("eaten", np.int64, (MAX_KINDS + 1, 3)),
    ("herd_order", np.int64, (MAX_KINDS,)), ("herd_size", np.int64),
    ("have", np.int64, (3,)),
    ("escaped", np.int64, (MAX_KINDS,)), ("escaped_order", np.int64, (MAX_KINDS,)), ("escaped_size", np.int64),
    ("split", np.int64, (MAX_CELLS,)), ("spare", np.int64, (MAX_CELLS,)),
    # the layout's and breeding's lists: a kind's enclosures (indexes, sizes), enclosures to fill (targets),
    # newborns by kind (born, in the order found: born_order) and those without room (lost)
    ("indexes", np.int64, (MAX_CELLS,)), ("sizes", np.int64, (MAX_CELLS,)), ("targets", np.int64, (MAX_CELLS,)),
    ("born", np.int64, (MAX_KINDS,)), ("born_order", np.int64, (MAX_KINDS,)), ("lost", np.int64, (MAX_KINDS,)),
    # a greedy policy's view: my dinosaurs on the ranch and in Holding by kind; enclosure sizes and herd counts,
    # largest first (compiled_policies.py; both of one shape, so that `sort_in` compiles once)
    ("herd_all", np.int64, (MAX_KINDS,)), ("sizes_desc", np.int64, (MAX_CELLS,)),
    ("counts_desc", np.int64, (MAX_CELLS,)),
    ("on_ranch", np.int64, (MAX_KINDS,)),  # a player's dinosaurs on the ranch by kind (`herd_on_ranch`)
    ("fresh", np.int64),  # 1: work.actions already lists the prompt's options (an assign turn listed them)
    ("parts", np.int64, (4,)),  # a player's points by source (`score_parts`)
    # the uniform doubles `tyrsim.core.engine.rng.uniform` would hold for the chunk's generator (`chance.uniform`:
    # one block per generator, kept across the games of a chunk)
    *UNIFORM_FIELDS,
    # a search's (compiled_search.py): each listed action's number (`keys`); at the root decision (the position
    # of `root_actions` decisions) with `pruning`, the actions `offered` (by their places in the full list); the
    # rollout policy (a compiled_policies kind) and its weights; hunter's weights (the pruning's values, the
    # forecast's fences); the leaf evaluation's values, scratch position (`ahead`), escaped kinds (`gone`) and
    # each player's prospect; the feeding plans numbered so far, as (kind, number fed) pairs
    ("keys", np.int64, (MAX_ACTIONS,)), ("offered", np.int8, (MAX_ACTIONS,)), ("pruning", np.int64),
    ("root_actions", np.int64), ("rollout", np.int64), ("rollout_weights", WEIGHT_RECORD),
    ("hunter_weights", WEIGHT_RECORD),
    ("resource_value", np.float64), ("rancher_value", np.float64), ("breed_value", np.float64),
    ("scale", np.float64), ("ahead", POSITION, (1,)), ("gone", np.int64, (MAX_KINDS,)),
    ("prospects", np.float64, (MAX_PLAYERS,)),
    ("feeds", np.int8, (MAX_FEEDS, MAX_KINDS, 2)), ("feed_pairs", np.int64, (MAX_FEEDS,)), ("feed_count", np.int64),
])

# The rules this engine plays, written out: a rule added to `Rules` and not yet here is one this engine does not
# play, so `supported` names it (and `--engine auto` falls back to the object engine). Never derive this from
# `Rules`: the guard could then never fire.
PLAYED = (
    "rounds", "start_ranchers", "extra_rancher_round", "owner_strength", "resource_cap", "first_player_bonuses",
    "dinosaurs_per_kind", "fence_tokens", "research_display", "research_draw", "extra_public_contracts",
    "hunt_net_faces", "hunt_injury_faces", "hunt_egg_faces", "egg_dinosaurs", "injured_rancher", "border",
    "unique_terrain", "rearrange_holding", "cover_order", "either_food", "penalty_once_per", "breed_group",
    "private_contract_timing", "must_place_and_feed", "no_placement_skips", "tie_break", "ranch_file",
    "spaces_file", "dinosaurs_file", "contracts_file", "research_file",
)


def supported(rules: Rules, players: int = 2) -> str | None:
    """None if the compiled engine plays `rules`, else a one-line message naming the first rule (or data file)
    it cannot."""
    for f in dataclasses.fields(rules):
        if f.name not in PLAYED:
            return f"rule {f.name!r}: the compiled engine does not play it yet (the object engine does)"
    game = TinyEpicDinosaursGame(rules, players)
    comp, layout = game.components, game.components.layout
    limits = (
        ("ranch_file", len(layout.terrain), MAX_CELLS, "ranch spaces"),
        ("ranch_file", len(layout.edge_names), MAX_EDGES, "edges"),
        ("dinosaurs_file", len(comp.basic), MAX_BASIC, "basic dinosaur kinds"),
        ("research_file", len(comp.dinosaurs), MAX_KINDS, "dinosaurs (basic and unique)"),
        ("contracts_file", len(comp.contracts), MAX_CONTRACTS, "contracts"),
        ("research_file", len(comp.research), MAX_RESEARCH, "research cards"),
        ("spaces_file", len(game.spaces), MAX_SPACES, "action spaces for a player count"),
    )
    for name, count, most, what in limits:
        if count > most:
            return f"rule {name!r}: the compiled engine plays up to {most} {what}, not {count} (the object engine any)"
    if len(game.hunt_die) > MAX_FACES:
        return f"rules 'hunt_*_faces': the compiled engine plays a hunt die of up to {MAX_FACES} faces"
    if rules.dinosaurs_per_kind * len(comp.basic) + len(comp.research) > MAX_HOLDING - 1:
        return f"rule 'dinosaurs_per_kind': the compiled engine holds up to {MAX_HOLDING} dinosaurs in Holding"
    return None


def rule_tables(rules: Rules, players: int) -> np.ndarray:
    """The rules and their data files, for `players` players, as one `RULES` record (a one-element array);
    ValueError for rules the engine cannot play (`supported`). The files are read by the object engine's own
    loaders (`TinyEpicDinosaursGame`), so they are checked and read exactly as there."""
    problem = supported(rules, players)
    if problem is not None:
        raise ValueError(problem)
    game = TinyEpicDinosaursGame(rules, players)
    comp, layout = game.components, game.components.layout
    out = np.zeros(1, RULES).view(np.recarray)
    r = out[0]
    r["players"] = players
    for name in ("rounds", "start_ranchers", "extra_rancher_round", "owner_strength", "resource_cap",
                 "first_player_bonuses", "dinosaurs_per_kind", "fence_tokens", "research_display", "research_draw",
                 "extra_public_contracts", "egg_dinosaurs", "breed_group"):
        r[name] = int(getattr(rules, name))
    r["injured_leaves"] = rules.injured_rancher == "leaves"
    r["unique_anywhere"] = rules.unique_terrain == "any"
    r["rearrange_holding"] = rules.rearrange_holding
    r["either_food"] = EITHER_FOODS.index(rules.either_food)
    r["penalty_per_phase"] = rules.penalty_once_per == "phase"
    r["private_end_of_round"] = rules.private_contract_timing == "also_end_of_round"
    r["most"] = rules.must_place_and_feed == "most"
    r["skip_round"] = rules.no_placement_skips == "round"
    r["tie_last_round"] = rules.tie_break == "last_round"
    faces = {"net": NET, "injury": INJURY, "egg": EGG}
    r["die_size"] = len(game.hunt_die)
    r["die"][: len(game.hunt_die)] = [faces[f] for f in game.hunt_die]
    r["hunt_mean"] = rules.hunt_odds()["dinosaurs"]
    r["hunt_rounded"] = round(rules.hunt_odds()["dinosaurs"])
    names = list(comp.dinosaurs)
    r["kinds"], r["basic"] = len(names), len(comp.basic)
    r["card_of"][:] = NONE
    for k, name in enumerate(names):
        d = comp.dinosaurs[name]
        r["group"][k] = GROUPS.index(d.group)
        r["diet"][k] = (d.leaf, d.meat, d.either)
        r["points"][k] = d.points
        r["unique"][k] = d.unique
    r["contracts"] = len(comp.contracts)
    for c, contract in enumerate(comp.contracts):
        for kind, n in contract.dinosaurs:
            r["need"][c, names.index(kind)] = n
        r["contract_points"][c] = contract.points
    r["cards"] = len(comp.research)
    for i, card in enumerate(comp.research):
        r["card_points"][i] = card.points
        r["card_kind"][i] = NONE if card.dinosaur is None else names.index(card.dinosaur.name)
        if card.dinosaur is not None:
            r["card_of"][names.index(card.dinosaur.name)] = i
        e = card.effect
        r["effect"][i] = EFFECTS.index(e.type)
        r["effect_resource"][i] = RESOURCES.index(e.resource) if e.resource else NONE
        r["effect_action"][i] = ACTIONS.index(e.action) if e.action else NONE
        r["effect_kind"][i] = names.index(e.dinosaur) if e.dinosaur else NONE
        r["effect_amount"][i] = e.amount
    r["spaces"] = len(game.spaces)
    r["hunted"][:] = NONE
    for s, space in enumerate(game.spaces):
        r["action"][s] = ACTIONS.index(space.action)
        r["cost"][s], r["gain"][s], r["gain_fences"][s] = space.cost, space.gain, space.fences
        if space.action == "hunt":
            r["hunted"][s] = names.index(space.dinosaur)
        if space.action == "buy":
            for kind, _ in game.full_ways[space.id]:
                r["sells"][s, names.index(kind)] = 1
    terrain = {"grass": GRASS, "mountain": MOUNTAIN, "water": WATER}
    r["cell_count"] = len(layout.terrain)
    r["edges"] = len(layout.edge_names)
    for cell in range(len(layout.terrain)):
        r["terrain"][cell] = terrain[layout.terrain[cell]]
        r["symbol"][cell] = RESOURCES.index(layout.symbols[cell]) if layout.symbols[cell] else NONE
        r["link_count"][cell] = len(layout.links[cell])
        for j, (other, edge) in enumerate(layout.links[cell]):
            r["link_cell"][cell, j], r["link_edge"][cell, j] = other, edge
        r["open_bits"][cell] = layout.open_bits[cell]
    r["grass_bits"], r["permanent_bits"] = layout.grass_bits, layout.permanent_bits
    r["slot_count"] = len(layout.fence_slots)
    r["slots"][: len(layout.fence_slots)] = layout.fence_slots
    r["fill_order"][: len(layout.fill_order)] = layout.fill_order
    r["remove_order"][: len(layout.remove_order)] = layout.remove_order
    name_actions(r, comp, layout)
    return out


def name_actions(r, comp, layout) -> None:
    """The names actions hold, each as its place in their sorted list (RULES' `kind_name` ... `names`)."""
    groups = ("draw", "holding", "herbivore", "carnivore")
    card_names = [card.name for card in comp.research]
    names = sorted({*comp.dinosaurs, *card_names, *layout.edge_names, *groups})
    place = {name: i for i, name in enumerate(names)}
    r["kind_name"][: len(comp.dinosaurs)] = [place[name] for name in comp.dinosaurs]
    r["card_name"][: len(card_names)] = [place[name] for name in card_names]
    r["edge_name"][: len(layout.edge_names)] = [place[name] for name in layout.edge_names]
    for name in groups:
        r[name + "_name"] = place[name]
    r["names"] = len(names)


def new_position() -> np.recarray:
    """An empty position (a one-element recarray of POSITION): fill it with `set_up`. Compiled code takes it or
    its plain ndarray view; without the JIT (NUMBA_DISABLE_JIT=1) the functions need the recarray, whose records
    have attributes."""
    return np.zeros(1, POSITION).view(np.recarray)


def new_workspace() -> np.recarray:
    """A chunk's work space (a one-element recarray of WORKSPACE: compiled code takes `work[0]`)."""
    return np.zeros(1, WORKSPACE).view(np.recarray)


# --- set-up ----------------------------------------------------------------------------------------------------


@njit(cache=True)
def set_up(game, tables, bits, workspace) -> None:
    """`deal` in the one-position array `game` under the rules' `tables`, then on to the first decision;
    `workspace` a one-element WORKSPACE array (`new_workspace`), whose uniform doubles are kept across the games
    of a chunk. Called from Python (the turn loop, `compiled_policies.play_games`, calls `deal` and `advance`)."""
    pos, rules, work = game[0], tables[0], workspace[0]
    deal(pos, rules, bits)
    advance(pos, rules, bits, work, NONE)


# `inline="always"`: a layer that only forwards (to the rules below it) is compiled into its caller's code instead
# of as a function of its own. A compiled function's machine code holds everything it calls, so every layer of
# calls compiles all below it again (as functions of their own, `set_up`, `play_action`, `advance`, `run_step`,
# `resolve` and `legal_actions` took 4.2, 3.5, 3.4, 1.8, 3.3 and 3.2 s of a fresh compilation); these take only
# records, numbers and the bit generator, so inlining them adds no reference counts. `advance` has one call in the
# turn loop (and one in each of the entries from Python, `set_up` and `play_action`, which only the tests call).


@compiled_only
def deal(pos, rules, bits) -> None:
    """Set-up of a zeroed position, drawing from the bit generator `bits` (`rng.bit_generator`) what
    `TinyEpicDinosaursState.__init__` draws from `rng`, in its order: the contract deck shuffled, one private
    contract each, the public contracts, the research deck shuffled and the display; then the first-player
    bonuses, and round 1 is to begin (`advance` runs it)."""
    n = rules.players
    for k in range(rules.basic):
        pos.supply[k] = rules.dinosaurs_per_kind
    pos.fence_supply = rules.fence_tokens
    pos.cells[:, :] = EMPTY
    for p in range(n):
        pos.ranchers[p] = rules.start_ranchers
        pos.private[p] = NONE
    for c in range(rules.contracts):
        pos.contract_deck[c] = c
    shuffle(bits, pos.contract_deck, rules.contracts)
    pos.contract_deck_size = rules.contracts
    for p in range(n):
        pos.private[p] = draw_contract(pos)
    refill_contracts(pos, rules)
    for c in range(rules.cards):
        pos.research_deck[c] = c
    shuffle(bits, pos.research_deck, rules.cards)
    pos.research_deck_size = rules.cards
    reveal_research(pos, rules, bits)
    if rules.first_player_bonuses:
        for seat in range(1, n):  # 2nd player 1 leaf, 3rd 1 meat, 4th 1 supply
            gain(pos, rules, seat, seat - 1, np.int64(1))
    pos.round_number = 1
    pos.prompt = NO_PROMPT
    then(pos, START_ROUND, 0, 0, 0)


@compiled_only
def draw_contract(pos) -> int:
    if pos.contract_deck_size == 0:
        return NONE
    pos.contract_deck_size -= 1
    return pos.contract_deck[pos.contract_deck_size]


@compiled_only
def refill_contracts(pos, rules) -> None:
    """Public contracts up to players + `extra_public_contracts`, while the deck lasts."""
    wanted = rules.players + rules.extra_public_contracts
    while pos.public_size < wanted and pos.contract_deck_size:
        pos.public[pos.public_size] = draw_contract(pos)
        pos.public_size += 1


@compiled_only
def draw_research(pos, bits, into, size, n) -> int:
    """Draw up to `n` research cards onto into[size:]; the new size. Ruling: when the research deck runs out,
    the discard pile is shuffled into a new deck."""
    for _ in range(n):
        if pos.research_deck_size == 0 and pos.discard_size:
            for i in range(pos.discard_size):
                pos.research_deck[i] = pos.discard[i]
            pos.research_deck_size = pos.discard_size
            pos.discard_size = 0
            shuffle(bits, pos.research_deck, pos.research_deck_size)
        if pos.research_deck_size == 0:
            break
        pos.research_deck_size -= 1
        into[size] = pos.research_deck[pos.research_deck_size]
        size += 1
    return size


@compiled_only
def reveal_research(pos, rules, bits) -> None:
    """Lay out `research_display` new cards face up (the display is empty)."""
    pos.display_size = draw_research(pos, bits, pos.display, 0, rules.research_display)


@compiled_only
def research_left(pos) -> bool:
    return pos.research_deck_size > 0 or pos.discard_size > 0


@compiled_only
def gain(pos, rules, p, resource, amount) -> None:
    """Add `amount` of a resource; the stock stays within 0..resource_cap, the rest is lost."""
    pos.resources[p, resource] = max(0, min(rules.resource_cap, pos.resources[p, resource] + amount))


# --- the steps of a round --------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def then(pos, kind, seat, a, b) -> None:
    """Do this step next (before anything already scheduled); steps pushed one after another run last first."""
    row = pos.steps[pos.steps_size]
    row[0], row[1], row[2], row[3] = kind, seat, a, b
    pos.steps_size += 1


@njit(cache=True, inline="always")
def ask(pos, prompt, player) -> None:
    pos.prompt = prompt
    pos.prompt_player = player


@njit(cache=True, inline="always")
def advance(pos, rules, bits, work, answer) -> None:
    """Answer the prompt with the listed option `answer` (NONE: none is answered, as at set-up), then run steps
    until a player must choose among two or more options (listed in `work`), or the game ends. A prompt with one
    option is answered with it (`TinyEpicDinosaursState._advance`). The one place a prompt is answered and its
    options listed, so that `resolve` and `legal_actions` are compiled once, into it."""
    while True:
        if answer != NONE:
            resolve(pos, rules, bits, work, answer)
            answer = NONE
        if pos.prompt != NO_PROMPT:
            if work.fresh:
                work.fresh = 0
                if work.count > 1:
                    return
            elif legal_actions(pos, rules, work) > 1:
                return
            answer = np.int64(0)  # the only option
            continue
        if pos.steps_size == 0:
            work.count = 0
            return
        pos.steps_size -= 1
        row = pos.steps[pos.steps_size]
        run_step(pos, rules, bits, work, row[0], row[1], row[2], row[3])


@njit(cache=True, inline="always")
def run_step(pos, rules, bits, work, kind, seat, a, b) -> None:
    if kind == START_ROUND:
        collect_resources(pos, rules)
    elif kind == ASSIGN_TURN:
        assign_turn(pos, rules, work)
    elif kind == RETURN_RANCHERS:
        return_ranchers(pos, rules)
    elif kind == ARRANGE:
        arrange_ranch(pos, rules, work, seat)
    elif kind == FEED:
        feed_dinosaurs(pos, rules, work, seat)
    elif kind == BREED:
        breed_dinosaurs(pos, rules, work, seat)
    elif kind == END_ROUND:
        end_round(pos, rules, bits, work)
    elif kind == PENALTIES:
        pay_penalties(pos, seat, a, b)
    else:  # LOSE_DINOSAUR_PENALTY
        ask(pos, LOSE_DINOSAUR_PROMPT, seat)


@njit(cache=True)
def play_action(game, tables, bits, workspace, i) -> None:
    """A policy's decision in the one-position array `game`: the i-th legal action (`legal_actions`), then the
    game runs on to the next decision. Called from Python (the turn loop calls `advance`)."""
    pos = game[0]
    pos.actions += 1
    advance(pos, tables[0], bits, workspace[0], i)


@njit(cache=True)
def answer(pos, rules, bits, work, i) -> None:
    """`play_action` on the records (a search's): the i-th legal action, then on to the next decision."""
    pos.actions += 1
    advance(pos, rules, bits, work, i)


@njit(cache=True, inline="always")
def resolve(pos, rules, bits, work, i) -> None:
    """Carry out the i-th listed action for the prompt (`_resolve_*`)."""
    row = work.actions[i]
    kind, a, b, c, d, e = row[0], row[1], row[2], row[3], row[4], row[5]
    p = pos.prompt_player
    prompt = pos.prompt
    pos.prompt = NO_PROMPT
    if kind == PLACE:
        place_rancher(pos, rules, bits, work, p, a, b, c, d, e)
    elif kind == PICK:
        if prompt == TAKE_RESEARCH:
            take_research(pos, rules, bits, p, a)
        else:
            keep_drawn(pos, rules, p, a)
    elif kind == MOVE_FENCE:
        if a == NONE:
            pos.holding_fences[p] -= 1
        else:
            pos.fences[p] &= ~(np.int64(1) << a)
        pos.fences[p] |= np.int64(1) << b
        pos.moved |= np.int64(1) << b
        ask(pos, REARRANGE, p)
    elif kind == STOP_REARRANGING:
        pos.moved = 0
    elif kind == PLACE_FENCE:
        pos.fences[p] |= np.int64(1) << a
        pos.holding_fences[p] -= 1
        arrange_ranch(pos, rules, work, p)  # the next fence, or the layout
    elif kind == ENCLOSE:
        pos.assignment[a] = b
        pos.assigned[pos.assigned_size] = a
        pos.assigned_size += 1
        enclosures(pos, rules, work, p)
        pos.unplaced[b] = max(0, pos.unplaced[b] - popcount(work.enclosures[a]))
        if prompt == HOUSE_PROMPT:
            house(pos, rules, work, p)
        else:
            enclose(pos, rules, work, p)
    elif kind == FEED_PLAN:
        eat_plan(pos, rules, work, p, a)
    elif kind == ESCAPE_AS:
        herbivore = pos.escape_herbivore or a == HERBIVORE
        carnivore = pos.escape_carnivore or a == CARNIVORE
        pos.escape_herbivore = pos.escape_carnivore = 0
        then(pos, PENALTIES, p, (1 if herbivore else 0) + (2 if carnivore else 0), 0)
    elif kind == LOSE_FENCE:
        # Dinosaurs left unenclosed stay where they are until the next Phase 4 (they cannot breed).
        pos.fences[p] &= ~(np.int64(1) << a)
        pos.fence_supply += 1
        pos.counts[p, PENALTY_FENCES] += 1
    else:  # LOSE_DINOSAUR; ruling: the removed dinosaur is not an escape itself (no further penalty)
        remove_from_ranch(pos, rules, work, p, a)
        pos.counts[p, PENALTY_DINOSAURS] += 1


# Phase 1: collect resources


@compiled_only
def collect_resources(pos, rules) -> None:
    """Every player collects one resource per uncovered symbol plus their cards' income, and gets their ranchers
    back; Phase 2 begins with the first player."""
    for p in range(rules.players):
        pos.paid_herbivore[p] = pos.paid_carnivore[p] = 0
        for resource in range(3):
            gain(pos, rules, p, resource, income(pos, rules, p, resource) + pos.extra_income[p, resource])
        pos.ranchers_left[p] = pos.ranchers[p]
        pos.owner_left[p] = 1
    pos.counts[pos.first_player, FIRST_PLAYER_ROUNDS] += 1
    pos.turn = pos.round_first = pos.first_player
    then(pos, ASSIGN_TURN, 0, 0, 0)


@compiled_only
def income(pos, rules, p, resource) -> int:
    """The resource symbols of this kind on p's ranch not covered by a dinosaur."""
    found = 0
    for c in range(rules.cell_count):
        if rules.symbol[c] == resource and pos.cells[p, c] == EMPTY:
            found += 1
    return found


# Phase 2: assign ranchers


@compiled_only
def assign_turn(pos, rules, work) -> None:
    """The next player in turn who can place a group is asked; one who cannot is skipped (rule
    `no_placement_skips`); when nobody can, Phase 3 comes."""
    n = rules.players
    for i in range(n):
        seat = (pos.turn + i) % n
        if pos.ranchers_left[seat] or pos.owner_left[seat]:
            if placements(pos, rules, work, seat) > 0:
                work.fresh = 1  # `advance` takes this list
                pos.turn = seat
                ask(pos, ASSIGN, seat)
                return
            # Ruling (rule `no_placement_skips`): a player who cannot carry out any action is skipped this turn, or
            # keeps the rest of their ranchers home for the round
            if rules.skip_round:
                pos.ranchers_left[seat] = 0
                pos.owner_left[seat] = 0
    then(pos, RETURN_RANCHERS, 0, 0, 0)


@njit(cache=True, inline="always")
def add(work, n, kind, a, b, c, d, e) -> int:
    row = work.actions[n]
    row[0], row[1], row[2], row[3], row[4], row[5] = kind, a, b, c, d, e
    return n + 1


@compiled_only
def add_groups(work, n, s, need, send_owner, strength, choice, extra) -> int:
    """The groups for one way of acting (`TinyEpicDinosaursGame.placements`): `need` ranchers, and with
    send_owner 1 also the owner with fewer; send_owner 2: only with the owner."""
    if send_owner != 2:
        n = add(work, n, PLACE, s, need, 0, choice, extra)
    if send_owner != 0:
        n = add(work, n, PLACE, s, max(0, need - strength), 1, choice, extra)
    return n


@compiled_only
def cost(pos, rules, p, s, resource) -> int:
    """What p pays of a resource for space s, after the discounts of their research cards."""
    return max(0, rules.cost[s, resource] - pos.discount[p, rules.action[s], resource])


@compiled_only
def pays(rules, work, contract, less) -> bool:
    """Whether the ranch counted into work.on_ranch (`herd_on_ranch`) holds the dinosaurs `contract` asks for, after
    `less` (a contract, or NONE) is paid."""
    for k in range(rules.basic):
        wanted = rules.need[contract, k] + (rules.need[less, k] if less != NONE else 0)
        if wanted and work.on_ranch[k] < wanted:
            return False
    return True


@compiled_only
def placements(pos, rules, work, p) -> int:
    """Every placement (`_options_assign`): a space p is not on yet, with a group that may go there (an empty
    space takes one rancher or the owner alone; an occupied one exactly one more than its largest group), whose
    cost p can pay and whose action p can carry out, in the object engine's order."""
    ranchers, has_owner = pos.ranchers_left[p], pos.owner_left[p]
    strength = rules.owner_strength
    research = research_left(pos) or pos.display_size > 0
    herd = herd_on_ranch(pos, rules, work, p)  # once for every contract `pays` looks at
    n = np.int64(0)
    for s in range(rules.spaces):
        need = 0
        occupied = False
        for q in range(rules.players):
            if pos.occupancy[s, q]:
                occupied = True
                need = max(need, pos.occupancy[s, q])
        if occupied and pos.occupancy[s, p]:
            continue  # never a space where you already are
        need += 1
        if ranchers >= need:
            send_owner = 1 if has_owner else 0
        elif has_owner and ranchers >= need - strength:
            send_owner = 2  # only with the owner
        else:
            continue
        if (cost(pos, rules, p, s, LEAF) > pos.resources[p, LEAF]
                or cost(pos, rules, p, s, MEAT) > pos.resources[p, MEAT]
                or cost(pos, rules, p, s, SUPPLY) > pos.resources[p, SUPPLY]):
            continue
        action = rules.action[s]
        if action == HUNT:
            if pos.supply[rules.hunted[s]] > 0:
                n = add_groups(work, n, s, need, send_owner, strength, rules.hunted[s], ALONE)
        elif action == BUY:
            for k in range(rules.basic):
                if rules.sells[s, k] and pos.supply[k] > 0:
                    n = add_groups(work, n, s, need, send_owner, strength, k, ALONE)
        elif action == GAIN:
            only_fences = rules.gain_fences[s] and not (rules.gain[s, 0] or rules.gain[s, 1] or rules.gain[s, 2])
            if not (only_fences and pos.fence_supply == 0):  # a space giving only fences needs one left
                n = add_groups(work, n, s, need, send_owner, strength, NONE, ALONE)
        elif action == FIRST_PLAYER:
            n = add_groups(work, n, s, need, send_owner, strength, NONE, ALONE)
        elif action == RESEARCH:
            if research:
                n = add_groups(work, n, s, need, send_owner, strength, NONE, ALONE)
        elif action == RESEARCH_REMOVE:
            if research:
                for i in range(herd):
                    n = add_groups(work, n, s, need, send_owner, strength, work.herd_order[i], ALONE)
        elif action == PLACE_NOW:
            n = place_now_ways(pos, rules, work, p, n, s, need, send_owner, strength)
        else:  # CONTRACT: pay a public contract from the ranch, perhaps the private one alongside
            for i in range(pos.public_size):
                contract = pos.public[i]
                if pays(rules, work, contract, NONE):
                    n = add_groups(work, n, s, need, send_owner, strength, contract, ALONE)
                    if pos.private[p] != NONE and pays(rules, work, pos.private[p], contract):
                        n = add_groups(work, n, s, need, send_owner, strength, contract, WITH_PRIVATE)
    work.count = n
    return n


@compiled_only
def place_now_ways(pos, rules, work, p, n, s, need, send_owner, strength) -> int:
    """The place-now space: each kind in Holding (in the order first held) while a grass space is free; else only
    a unique dinosaur, on a free mountain or water space (rule `unique_terrain`)."""
    size = pos.holding_size[p]
    if size == 0:
        return n
    free_grass, free_any = False, False
    for c in range(rules.cell_count):
        if pos.cells[p, c] == EMPTY:
            free_any = True
            if rules.terrain[c] == GRASS:
                free_grass = True
    if not free_grass and not (rules.unique_anywhere and free_any):
        return n
    for i in range(size):
        kind = pos.holding[p, i]
        first = True
        for j in range(i):
            if pos.holding[p, j] == kind:
                first = False
        if first and (free_grass or rules.unique[kind]):
            n = add_groups(work, n, s, need, send_owner, strength, kind, ALONE)
    return n


@compiled_only
def place_rancher(pos, rules, bits, work, p, s, ranchers, owner, choice, extra) -> None:
    """Send the group to space s and carry out its action at once (`_resolve_assign`)."""
    pos.counts[p, PLACEMENTS] += 1
    for q in range(rules.players):
        if pos.occupancy[s, q]:
            pos.counts[p, BUMPS] += 1
            break
    pos.occupancy[s, p] = ranchers + (rules.owner_strength if owner else 0)
    pos.ranchers_left[p] -= ranchers
    if owner:
        pos.owner_left[p] = 0
    for resource in range(3):
        pos.resources[p, resource] -= cost(pos, rules, p, s, resource)
    pos.turn = (p + 1) % rules.players
    then(pos, ASSIGN_TURN, 0, 0, 0)
    action = rules.action[s]
    if action == HUNT:
        hunt(pos, rules, bits, work, p, s)
    elif action == BUY:
        take_dinosaurs(pos, p, choice, np.int64(1))
    elif action == PLACE_NOW:
        place_now(pos, rules, work, p, choice)
    elif action == GAIN:
        gain_space(pos, rules, p, s)
    elif action == FIRST_PLAYER:
        pos.first_player = p
        pos.moved = 0
        ask(pos, REARRANGE, p)
    elif action == RESEARCH:
        ask(pos, TAKE_RESEARCH, p)
    elif action == RESEARCH_REMOVE:
        remove_from_ranch(pos, rules, work, p, choice)
        ask(pos, TAKE_RESEARCH, p)
    else:
        take_contract(pos, rules, work, p, choice, extra)


@compiled_only
def take_dinosaurs(pos, p, kind, n) -> None:
    """Into Holding. Ruling: the supply limits what is taken; an egg with one figure left gives one."""
    n = min(n, pos.supply[kind])
    pos.supply[kind] -= n
    for _ in range(n):
        pos.holding[p, pos.holding_size[p]] = kind
        pos.holding_size[p] += 1


@compiled_only
def hunt(pos, rules, bits, work, p, s) -> None:
    """Roll the hunt die (one uniform double) and take the pictured dinosaur: net one, injury one and the group to
    the hospital, egg `egg_dinosaurs`."""
    face = rules.die[int(uniform(bits, work) * rules.die_size)]
    pos.counts[p, HUNTS] += 1
    take_dinosaurs(pos, p, rules.hunted[s], rules.egg_dinosaurs if face == EGG else 1)
    if face == INJURY:
        pos.counts[p, INJURIES] += 1
        # Ruling: the injured group goes to the hospital and no longer holds the space
        # (rule `injured_rancher`: "stays" keeps it blocking the space).
        if rules.injured_leaves:
            pos.occupancy[s, p] = 0


@compiled_only
def place_now(pos, rules, work, p, kind) -> None:
    """The place-now space: the dinosaur leaves Holding for the ranch (`Ranch.place_one`), then the fences may be
    rearranged."""
    size = pos.holding_size[p]
    for i in range(size):
        if pos.holding[p, i] == kind:
            for j in range(i, size - 1):
                pos.holding[p, j] = pos.holding[p, j + 1]
            pos.holding_size[p] = size - 1
            break
    place_one(pos, rules, work, p, kind)
    pos.moved = 0
    ask(pos, REARRANGE, p)


@compiled_only
def gain_space(pos, rules, p, s) -> None:
    for resource in range(3):
        gain(pos, rules, p, resource, rules.gain[s, resource])
    if rules.gain_fences[s]:
        # Ruling: fences come from the general supply; when it runs short you get what is left.
        got = min(rules.gain_fences[s] + pos.extra_fences[p], pos.fence_supply)
        pos.fence_supply -= got
        pos.holding_fences[p] += got


@compiled_only
def take_contract(pos, rules, work, p, contract, private) -> None:
    for i in range(pos.public_size):
        if pos.public[i] == contract:
            for j in range(i, pos.public_size - 1):
                pos.public[j] = pos.public[j + 1]
            pos.public_size -= 1
            break
    fulfil(pos, rules, work, p, contract)
    pos.counts[p, CONTRACTS_PUBLIC] += 1
    if private:
        fulfil_private(pos, rules, work, p)


@compiled_only
def fulfil(pos, rules, work, p, contract) -> None:
    """Give up the contract's dinosaurs (to the supply) and score it."""
    for k in range(rules.basic):
        if rules.need[contract, k]:
            remove(pos, rules, work, p, k, rules.need[contract, k])
            pos.supply[k] += rules.need[contract, k]
    pos.taken[p, pos.taken_size[p]] = contract
    pos.taken_size[p] += 1


@compiled_only
def fulfil_private(pos, rules, work, p) -> None:
    fulfil(pos, rules, work, p, pos.private[p])
    pos.counts[p, CONTRACTS_PRIVATE] += 1
    pos.private[p] = draw_contract(pos)


@compiled_only
def remove_from_ranch(pos, rules, work, p, kind) -> None:
    """A dinosaur leaves the ranch for the supply; a unique one takes its research card to the discard."""
    remove(pos, rules, work, p, kind, np.int64(1))
    return_figure(pos, rules, p, kind)


@compiled_only
def return_figure(pos, rules, p, kind) -> None:
    if rules.unique[kind]:
        card = rules.card_of[kind]
        size = pos.research_size[p]
        for i in range(size):
            if pos.research[p, i] == card:
                for j in range(i, size - 1):
                    pos.research[p, j] = pos.research[p, j + 1]
                pos.research_size[p] = size - 1
                break
        learn(pos, rules, p)
        pos.discard[pos.discard_size] = card
        pos.discard_size += 1
    else:
        pos.supply[kind] += 1


@compiled_only
def learn(pos, rules, p) -> None:
    """Sum up the abilities of the research cards p holds (`Player.learn`)."""
    pos.extra_income[p, :] = 0
    pos.discount[p, :, :] = 0
    pos.feed_less[p, :] = 0
    pos.points_per[p, :] = 0
    pos.extra_fences[p] = 0
    for i in range(pos.research_size[p]):
        card = pos.research[p, i]
        effect, amount = rules.effect[card], rules.effect_amount[card]
        if effect == E_INCOME:
            pos.extra_income[p, rules.effect_resource[card]] += amount
        elif effect == E_CHEAPER:
            pos.discount[p, rules.effect_action[card], rules.effect_resource[card]] += amount
        elif effect == E_FEED_LESS:
            pos.feed_less[p, rules.effect_kind[card]] += amount
        elif effect == E_EXTRA_FENCES:
            pos.extra_fences[p] += amount
        elif effect == E_POINTS_PER:
            pos.points_per[p, rules.effect_kind[card]] += amount


# research cards


@compiled_only
def take_research(pos, rules, bits, p, card) -> None:
    """A face-up card, or (NONE) draw `research_draw` from the deck and keep one of them."""
    if card == NONE:
        pos.drawn_size = draw_research(pos, bits, pos.drawn, 0, rules.research_draw)
        ask(pos, PICK_RESEARCH, p)
        return
    for i in range(pos.display_size):
        if pos.display[i] == card:
            for j in range(i, pos.display_size - 1):
                pos.display[j] = pos.display[j + 1]
            pos.display_size -= 1
            break
    gain_research(pos, rules, p, card)


@compiled_only
def keep_drawn(pos, rules, p, card) -> None:
    """Keep one of the cards drawn; the others join the face-up ones."""
    for i in range(pos.drawn_size):
        if pos.drawn[i] == card:
            gain_research(pos, rules, p, card)
        else:
            pos.display[pos.display_size] = pos.drawn[i]
            pos.display_size += 1
    pos.drawn_size = 0


@compiled_only
def gain_research(pos, rules, p, card) -> None:
    pos.research[p, pos.research_size[p]] = card
    pos.research_size[p] += 1
    learn(pos, rules, p)
    pos.counts[p, RESEARCH_TAKEN] += 1
    if rules.card_kind[card] != NONE:  # the unique dinosaur comes with its card
        pos.holding[p, pos.holding_size[p]] = rules.card_kind[card]
        pos.holding_size[p] += 1


# Phase 3: return ranchers; then Phases 4 to 7


@compiled_only
def return_ranchers(pos, rules) -> None:
    pos.occupancy[:, :] = 0
    n = rules.players
    then(pos, END_ROUND, 0, 0, 0)
    for step in (BREED, FEED, ARRANGE):
        for i in range(n - 1, -1, -1):
            then(pos, step, (pos.first_player + i) % n, 0, 0)


# the ranch: enclosures by flood fill over the fence bits


@compiled_only
def popcount(bits) -> int:
    found = 0
    while bits:
        bits &= bits - 1
        found += 1
    return found


@compiled_only
def lowest(bits) -> int:
    """The index of the lowest set bit."""
    i = 0
    while not (bits >> i) & 1:
        i += 1
    return i


@compiled_only
def flood_fill(rules, work, fences) -> None:
    """The grass regions for these fence tokens (plus the permanent fence), by flood fill, the region of the first
    space first (`RanchLayout.areas`): work.regions (cells as bits), work.enclosed; the enclosed ones, in that
    order, in work.enclosures."""
    blocked = rules.permanent_bits | fences
    unseen = rules.grass_bits
    regions = 0
    closed = 0
    stack = work.stack
    while unseen:
        first = lowest(unseen)
        unseen &= ~(np.int64(1) << first)
        stack[0] = first
        top = 1
        cells = np.int64(0)
        enclosed = True
        while top:
            top -= 1
            cell = stack[top]
            cells |= np.int64(1) << cell
            if enclosed and rules.open_bits[cell] & ~blocked:
                enclosed = False  # a border edge without a fence ('open' border)
            for j in range(rules.link_count[cell]):
                other = rules.link_cell[cell, j]
                bit = np.int64(1) << other
                if unseen & bit and not (blocked >> rules.link_edge[cell, j]) & 1:
                    unseen &= ~bit
                    stack[top] = other
                    top += 1
        work.regions[regions] = cells
        work.enclosed[regions] = enclosed
        regions += 1
        if enclosed:
            work.enclosures[closed] = cells
            closed += 1
    work.region_count = regions
    work.enclosure_count = closed
    work.filled, work.filled_fences = 1, fences


@compiled_only
def enclosures(pos, rules, work, p) -> int:
    """p's enclosures into work.enclosures (unless they hold this fence set's already); how many."""
    if not (work.filled and work.filled_fences == pos.fences[p]):
        flood_fill(rules, work, pos.fences[p])
    return work.enclosure_count


@compiled_only
def contents(pos, rules, p, cells):
    """(the one kind in the region, or NONE when it holds none or several kinds; how many it holds)."""
    found, count, mixed = NONE, 0, False
    for c in range(rules.cell_count):
        if (cells >> c) & 1 and pos.cells[p, c] != EMPTY:
            count += 1
            if found == NONE:
                found = pos.cells[p, c]
            elif pos.cells[p, c] != found:
                mixed = True
    return (NONE if mixed else found), count


@compiled_only
def herd_on_ranch(pos, rules, work, p) -> int:
    """The kinds on p's ranch in the order of its spaces (`Survey.herd`) into work.herd_order, and how many of each
    into work.on_ranch (what `pays` reads); how many kinds."""
    for k in range(rules.kinds):
        work.on_ranch[k] = 0
    size = 0
    for c in range(rules.cell_count):
        kind = pos.cells[p, c]
        if kind != EMPTY:
            if work.on_ranch[kind] == 0:
                work.herd_order[size] = kind
                size += 1
            work.on_ranch[kind] += 1
    work.herd_size = size
    return size


@compiled_only
def remove(pos, rules, work, p, kind, n) -> None:
    """Take n dinosaurs of `kind` off p's ranch, one at a time, each the figure whose leaving costs the fewest
    newborns, and among those the one on the space `cover_order` covers last (`Ranch.remove`: a ruling)."""
    group = rules.breed_group
    for _ in range(n):
        breeding = np.int64(0)  # spaces whose figure would cost a newborn
        for e in range(enclosures(pos, rules, work, p)):
            found, count = contents(pos, rules, p, work.enclosures[e])
            if found == kind and count % group == 0:
                breeding |= work.enclosures[e]
        best = -1
        for i in range(rules.cell_count):
            c = rules.remove_order[i]
            if pos.cells[p, c] == kind:
                if not (breeding >> c) & 1:
                    best = c
                    break
                if best < 0:
                    best = c
        pos.cells[p, best] = EMPTY


@compiled_only
def place_one(pos, rules, work, p, kind) -> None:
    """Put one dinosaur on a free space at once (`Ranch.place_one`): into an enclosure of its own kind, else an
    empty enclosure, else any free space it may stand on, in fill order."""
    unique = rules.unique[kind]
    spots = np.int64(-1)  # -1: any free space it may stand on
    empty = np.int64(0)
    for e in range(enclosures(pos, rules, work, p)):
        cells = work.enclosures[e]
        found, count = contents(pos, rules, p, cells)
        if count == popcount(cells):
            continue  # full
        if found == kind and not unique:
            spots = cells
            break
        if count == 0 and empty == 0:
            empty = cells
    if spots == -1 and empty:
        spots = empty
    anywhere = unique and rules.unique_anywhere
    for i in range(rules.cell_count):
        c = rules.fill_order[i]
        if spots == -1:
            if not (anywhere or rules.terrain[c] == GRASS):
                continue
        elif not (spots >> c) & 1:
            continue
        if pos.cells[p, c] == EMPTY:
            pos.cells[p, c] = kind
            return


# Phase 4: arrange the ranch


@compiled_only
def free_slot_count(pos, rules, p) -> int:
    found = 0
    for i in range(rules.slot_count):
        if not (pos.fences[p] >> rules.slots[i]) & 1:
            found += 1
    return found


@compiled_only
def new_phase(pos, rules, p) -> None:
    if rules.penalty_per_phase:
        pos.paid_herbivore[p] = pos.paid_carnivore[p] = 0


@compiled_only
def arrange_ranch(pos, rules, work, p) -> None:
    """Phase 4 for p: each fence from Holding onto a free edge, then the layout of the whole herd."""
    if pos.holding_fences[p]:
        if free_slot_count(pos, rules, p):
            ask(pos, PLACE_FENCE_PROMPT, p)
            return
        # Ruling: a fence with no free edge on the ranch goes back to the supply.
        pos.fence_supply += pos.holding_fences[p]
        pos.holding_fences[p] = 0
    new_phase(pos, rules, p)
    to_lay_out(pos, rules, p)
    enclose(pos, rules, work, p)


@compiled_only
def to_lay_out(pos, rules, p) -> None:
    """The dinosaurs on the ranch, then in Holding: the basic ones by kind (in the order first seen), the unique
    ones one by one (`Ranch.to_lay_out`); no enclosure given yet."""
    pos.herd[:] = 0
    pos.unplaced[:] = 0
    pos.herd_kinds_size = pos.uniques_size = pos.assigned_size = 0
    pos.assignment[:] = NONE
    for i in range(rules.cell_count + pos.holding_size[p]):
        kind = pos.cells[p, i] if i < rules.cell_count else pos.holding[p, i - rules.cell_count]
        if kind == EMPTY:
            continue
        if rules.unique[kind]:
            pos.uniques[pos.uniques_size] = kind
            pos.uniques_size += 1
        else:
            if pos.herd[kind] == 0:
                pos.herd_kinds[pos.herd_kinds_size] = kind
                pos.herd_kinds_size += 1
            pos.herd[kind] += 1
            pos.unplaced[kind] += 1


@compiled_only
def enclose(pos, rules, work, p) -> None:
    """Ask for the next enclosure while dinosaurs lack room and enclosures are free; else lay the ranch out."""
    wanting = False
    for i in range(pos.herd_kinds_size):
        if pos.unplaced[pos.herd_kinds[i]]:
            wanting = True
    if wanting and pos.assigned_size < enclosures(pos, rules, work, p):
        ask(pos, ENCLOSE_PROMPT, p)
        return
    pos.holding_size[p] = 0
    lay_out(pos, rules, work, p)
    pos.herd_kinds_size = pos.uniques_size = pos.assigned_size = 0
    pos.herd[:] = 0
    pos.unplaced[:] = 0
    pos.assignment[:] = 0
    escape(pos, rules, work, p)


@compiled_only
def sort_ascending(values, n) -> None:
    for i in range(1, n):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v


@compiled_only
def unhoused(work, capacities, wanted) -> int:
    """The fewest dinosaurs left without room when the enclosures work.capacities[:capacities] (largest first) go
    each to one kind, the kinds wanting room for work.wanting[0, :wanted] dinosaurs (ascending, no zeros)
    (`ranch._unhoused`). Each enclosure in turn goes to each kind still wanting room: a depth-first search, the
    depth the enclosure given next, with its own stack (compiled recursion does not survive numba's cache)."""
    depth = 0
    work.frame_length[0] = wanted
    entering = True
    while True:
        need = work.wanting[depth]
        length = work.frame_length[depth]
        if entering:
            entering = False
            total = 0
            for i in range(length):
                total += need[i]
            if length == 0 or depth >= capacities:
                result = total
            else:
                work.frame_best[depth] = total
                work.frame_at[depth] = 0
                result = -1
        else:
            result = -1
        if result < 0:
            i = work.frame_at[depth]
            while i < length and i and need[i] == need[i - 1]:
                i += 1  # the same need as the kind before: the same answer
            if i >= length or work.frame_best[depth] == 0:
                result = work.frame_best[depth]
            else:
                work.frame_at[depth] = i
                size = work.capacities[depth]
                after = work.wanting[depth + 1]
                m = 0
                for j in range(length):
                    if j != i:
                        after[m] = need[j]
                        m += 1
                if need[i] > size:
                    after[m] = need[i] - size
                    m += 1
                    sort_ascending(after, m)
                depth += 1
                work.frame_length[depth] = m
                entering = True
                continue
        # this depth is done: its answer goes to the one above
        if depth == 0:
            return result
        depth -= 1
        work.frame_best[depth] = min(work.frame_best[depth], result)
        work.frame_at[depth] += 1


@compiled_only
def free_capacities(pos, work, count, skip) -> int:
    """The sizes of the enclosures not given yet (but `skip`), largest first, into work.capacities; how many."""
    capacities = work.capacities
    m = 0
    for e in range(count):
        if pos.assignment[e] == NONE and e != skip:
            size = popcount(work.enclosures[e])
            j = m
            while j > 0 and capacities[j - 1] < size:  # sorted in as they come
                capacities[j] = capacities[j - 1]
                j -= 1
            capacities[j] = size
            m += 1
    return m


@compiled_only
def enclosure_choices(pos, rules, work, p) -> int:
    """The (enclosure, kind) choices of Phase 4 that still let the layout house the most dinosaurs
    (`ranch.enclosure_choices`: "If you are able to place a dinosaur, you must do so"), or any (rule
    `must_place_and_feed` read as 'maximal'), into work.choices, by enclosure then kind in the herd's order; how
    many."""
    count = enclosures(pos, rules, work, p)
    if not rules.most:
        n = 0
        for e in range(count):
            if pos.assignment[e] == NONE:
                for i in range(pos.herd_kinds_size):
                    if pos.unplaced[pos.herd_kinds[i]]:
                        work.choices[n, 0], work.choices[n, 1] = e, pos.herd_kinds[i]
                        n += 1
        return n
    caps = free_capacities(pos, work, count, NONE)
    wanted = np.int64(0)
    for i in range(pos.herd_kinds_size):
        if pos.unplaced[pos.herd_kinds[i]]:
            work.wanting[0, wanted] = pos.unplaced[pos.herd_kinds[i]]
            wanted += 1
    sort_ascending(work.wanting[0], wanted)
    fewest = unhoused(work, caps, wanted)
    n = 0
    for e in range(count):
        if pos.assignment[e] != NONE:
            continue
        size = popcount(work.enclosures[e])
        rest = free_capacities(pos, work, count, e)
        for i in range(pos.herd_kinds_size):
            kind = pos.herd_kinds[i]
            if not pos.unplaced[kind]:
                continue
            m = np.int64(0)
            for j in range(pos.herd_kinds_size):
                other = pos.herd_kinds[j]
                if other != kind and pos.unplaced[other]:
                    work.wanting[0, m] = pos.unplaced[other]
                    m += 1
            if pos.unplaced[kind] > size:
                work.wanting[0, m] = pos.unplaced[kind] - size
                m += 1
            sort_ascending(work.wanting[0], m)
            if unhoused(work, rest, m) == fewest:
                work.choices[n, 0], work.choices[n, 1] = e, kind
                n += 1
    return n


@compiled_only
def breeding_split(work, count, indexes, sizes, k, group) -> None:
    """Spread `count` dinosaurs of one kind over its k enclosures (sizes[:k], in the order given) to breed the most
    (`ranch.breeding_split`): whole groups first, largest enclosure first, then where the kind stands, then
    wherever there is room; into work.split[:k]."""
    split = work.split
    order = work.spare  # the enclosures by size, largest first, ties in the order given (a stable sort)
    for i in range(k):
        split[i] = 0
        order[i] = i
    for i in range(1, k):
        v = order[i]
        j = i - 1
        while j >= 0 and sizes[order[j]] < sizes[v]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = v
    left = count
    progress = True
    while left >= group and progress:
        progress = False
        for j in range(k):
            i = order[j]
            if left >= group and split[i] + group <= sizes[i]:
                split[i] += group
                left -= group
                progress = True
    for standing in (True, False):  # where the kind stands first (a stable sort)
        for j in range(k):
            i = order[j]
            if (split[i] > 0) == standing:
                room = min(left, sizes[i] - split[i])
                split[i] += room
                left -= room


@compiled_only
def fill(pos, rules, p, cells, kind, n) -> None:
    """Put n of `kind` on the free spaces of a region, in fill order."""
    for i in range(rules.cell_count):
        if n == 0:
            return
        c = rules.fill_order[i]
        if (cells >> c) & 1 and pos.cells[p, c] == EMPTY:
            pos.cells[p, c] = kind
            n -= 1


@compiled_only
def escaped_add(work, kind, n) -> None:
    if work.escaped[kind] == 0:
        work.escaped_order[work.escaped_size] = kind
        work.escaped_size += 1
    work.escaped[kind] += n


@compiled_only
def escaped_clear(work) -> None:
    for i in range(work.escaped_size):
        work.escaped[work.escaped_order[i]] = 0
    work.escaped_size = 0


@compiled_only
def lay_out(pos, rules, work, p) -> None:
    """Clear p's ranch and place the herd as assigned (`Ranch.lay_out`): each kind fills its enclosures, spread to
    breed the most; the unique dinosaurs go to unenclosed spaces they may stand on, else alone into an empty
    enclosure, smallest first. What finds no space escapes (into work.escaped)."""
    count = enclosures(pos, rules, work, p)
    escaped_clear(work)
    for c in range(rules.cell_count):
        pos.cells[p, c] = EMPTY
    sizes, indexes = work.sizes, work.indexes
    for i in range(pos.herd_kinds_size):
        kind = pos.herd_kinds[i]
        k = np.int64(0)
        room = 0
        for j in range(pos.assigned_size):
            e = pos.assigned[j]
            if pos.assignment[e] == kind:
                indexes[k] = e
                sizes[k] = popcount(work.enclosures[e])
                room += sizes[k]
                k += 1
        placed = min(pos.herd[kind], room)
        if k == 1:
            fill(pos, rules, p, work.enclosures[indexes[0]], kind, placed)
        elif placed:
            breeding_split(work, placed, indexes, sizes, k, rules.breed_group)
            for j in range(k):
                fill(pos, rules, p, work.enclosures[indexes[j]], kind, work.split[j])
        if placed < pos.herd[kind]:
            escaped_add(work, kind, pos.herd[kind] - placed)
    if pos.uniques_size:
        enclosed = np.int64(0)
        for e in range(count):
            enclosed |= work.enclosures[e]
        # the empty enclosures, smallest first (a stable sort)
        empty = work.targets
        m = 0
        for e in range(count):
            found, held = contents(pos, rules, p, work.enclosures[e])
            if held == 0:
                size = popcount(work.enclosures[e])
                j = m
                while j > 0 and popcount(empty[j - 1]) > size:
                    empty[j] = empty[j - 1]
                    j -= 1
                empty[j] = work.enclosures[e]
                m += 1
        next_loose, next_empty = 0, 0
        for u in range(pos.uniques_size):
            name = pos.uniques[u]
            spot = -1
            while next_loose < rules.cell_count:
                c = rules.fill_order[next_loose]
                next_loose += 1
                if not (enclosed >> c) & 1 and (rules.unique_anywhere or rules.terrain[c] == GRASS):
                    spot = c
                    break
            if spot < 0 and next_empty < m:
                cells = empty[next_empty]
                next_empty += 1
                for i in range(rules.cell_count):
                    c = rules.fill_order[i]
                    if (cells >> c) & 1:
                        spot = c
                        break
            if spot >= 0:
                pos.cells[p, spot] = name
            else:
                escaped_add(work, name, np.int64(1))


# escapes and their penalties


@compiled_only
def escape(pos, rules, work, p) -> None:
    """The dinosaurs in work.escaped (already off the ranch) return to the supply; penalties follow."""
    if work.escaped_size == 0:
        return
    flags = 0
    for i in range(work.escaped_size):
        kind = work.escaped_order[i]
        for _ in range(work.escaped[kind]):
            return_figure(pos, rules, p, kind)
        pos.counts[p, ESCAPES] += work.escaped[kind]
        group = rules.group[kind]
        flags |= 1 if group == HERBIVORE else (2 if group == CARNIVORE else 4)
    escaped_clear(work)
    then(pos, PENALTIES, p, flags, 0)


@compiled_only
def pay_penalties(pos, p, flags, b) -> None:
    """A herbivore escape costs a fence, a carnivore escape another dinosaur, each once a round (or phase);
    escaping omnivores count as either, the player's choice (`_step_penalties`)."""
    herbivore, carnivore, omnivore = flags & 1, flags & 2, flags & 4
    herbivore_due = herbivore and not pos.paid_herbivore[p]
    carnivore_due = carnivore and not pos.paid_carnivore[p]
    if omnivore and not (pos.paid_herbivore[p] or herbivore_due or pos.paid_carnivore[p] or carnivore_due):
        # Ruling: when one choice adds no penalty (that type is already due or paid this round) it is taken.
        pos.escape_herbivore = 1 if herbivore else 0
        pos.escape_carnivore = 1 if carnivore else 0
        ask(pos, ESCAPE_AS_PROMPT, p)
        return
    if herbivore_due:
        pos.paid_herbivore[p] = 1
        if pos.fences[p]:
            ask(pos, LOSE_FENCE_PROMPT, p)
    if carnivore_due:
        pos.paid_carnivore[p] = 1
        for c in range(MAX_CELLS):
            if pos.cells[p, c] != EMPTY:
                then(pos, LOSE_DINOSAUR_PENALTY, p, 0, 0)
                break


# Phase 5: feed


@compiled_only
def diet(pos, rules, p, kind, food) -> int:
    """One food (LEAF, MEAT or EITHER) a dinosaur of `kind` eats, after p's feed_less abilities (leaves first,
    then meat, then either food)."""
    leaf, meat, either = rules.diet[kind, 0], rules.diet[kind, 1], rules.diet[kind, 2]
    for _ in range(pos.feed_less[p, kind]):
        if leaf:
            leaf -= 1
        elif meat:
            meat -= 1
        elif either:
            either -= 1
    return leaf if food == LEAF else (meat if food == MEAT else either)


@compiled_only
def eat(pos, rules, p, leaf, meat, either) -> None:
    """Pay this food from p's stock (`feeding.food_left`; rule `either_food` for the units of either)."""
    have_leaf, have_meat = pos.resources[p, 0] - leaf, pos.resources[p, 1] - meat
    for _ in range(either):
        if rules.either_food == LEAF_FIRST:
            from_leaf = have_leaf > 0
        elif rules.either_food == MEAT_FIRST:
            from_leaf = have_meat == 0
        else:
            from_leaf = have_leaf >= have_meat
        if from_leaf:
            have_leaf -= 1
        else:
            have_meat -= 1
    pos.resources[p, 0], pos.resources[p, 1] = have_leaf, have_meat


@compiled_only
def feed_dinosaurs(pos, rules, work, p) -> None:
    """Phase 5 for p: the herd eats, or p chooses who is fed."""
    new_phase(pos, rules, p)
    leaf, meat, either = np.int64(0), np.int64(0), np.int64(0)
    for c in range(rules.cell_count):
        kind = pos.cells[p, c]
        if kind != EMPTY:
            leaf += diet(pos, rules, p, kind, LEAF)
            meat += diet(pos, rules, p, kind, MEAT)
            either += diet(pos, rules, p, kind, EITHER)
    have_leaf, have_meat = pos.resources[p, 0], pos.resources[p, 1]
    if leaf <= have_leaf and meat <= have_meat and either <= have_leaf - leaf + have_meat - meat:
        eat(pos, rules, p, leaf, meat, either)
    else:
        ask(pos, FEED_PROMPT, p)


@compiled_only
def maximal_plans(work, last) -> int:
    """`feeding.feedings`' depth-first search: how many of kind i (of the herd's order) are fed, from as many as
    fit down to none, keeping the choices where no unfed dinosaur could still be fed; the plans into work.plans;
    how many. Its own stack: `most[i]`, the food eaten before kind i (`eaten[i]`), the count tried (`fed[i]`)."""
    have_leaf, have_meat, have_food = work.have[0], work.have[1], work.have[2]
    n = 0
    i = 0
    work.eaten[0, 0] = work.eaten[0, 1] = work.eaten[0, 2] = 0
    entering = True
    while True:
        a, b, t = work.eats[i, 0], work.eats[i, 1], work.eats[i, 2]
        leaf, meat, food = work.eaten[i, 0], work.eaten[i, 1], work.eaten[i, 2]
        if entering:
            entering = False
            # the food eaten so far fits; the numbers of this kind that still fit are 0 up to `most`
            most = work.wanted[i]
            if a:
                most = min(most, (have_leaf - leaf) // a)
            if b:
                most = min(most, (have_meat - meat) // b)
            if t:
                most = min(most, (have_food - food) // t)
            work.most[i] = most
            work.fed[i] = most
            if i == last:
                # fewer of the last kind would leave one that could still be fed: only `most` can be maximal
                leaf, meat, food = leaf + a * most, meat + b * most, food + t * most
                maximal = True
                for j in range(last + 1):
                    if (work.fed[j] < work.wanted[j] and leaf + work.eats[j, 0] <= have_leaf
                            and meat + work.eats[j, 1] <= have_meat and food + work.eats[j, 2] <= have_food):
                        maximal = False  # this dinosaur could still be fed
                        break
                if maximal:
                    if n == MAX_ACTIONS:
                        raise RuntimeError("tiny-epic-dinosaurs compiled engine: more feeding plans than it lists")
                    for j in range(last + 1):
                        work.plans[n, j] = work.fed[j]
                    n += 1
                done = True
            else:
                done = False
        else:
            done = False
        if not done:
            fed = work.fed[i]
            if fed < 0:
                done = True
            else:
                leaf_now, meat_now, food_now = leaf + a * fed, meat + b * fed, food + t * fed
                if (fed < work.most[i] and leaf_now + a + work.later[i, 0] <= have_leaf
                        and meat_now + b + work.later[i, 1] <= have_meat
                        and food_now + t + work.later[i, 2] <= have_food):
                    # one more of this kind would fit even if every later dinosaur ate: none smaller is maximal
                    done = True
                else:
                    work.eaten[i + 1, 0], work.eaten[i + 1, 1], work.eaten[i + 1, 2] = leaf_now, meat_now, food_now
                    i += 1
                    entering = True
                    continue
        # this kind is done: the kind before tries one fewer
        if i == 0:
            return n
        i -= 1
        work.fed[i] -= 1


@compiled_only
def feedings(pos, rules, work, p) -> int:
    """Every maximal way to feed p's herd (`feeding.feedings`; rule `must_place_and_feed`), most fed first, as
    FEED_PLAN actions; how many. work.plans[i, j] is how many of the herd's j-th kind (work.herd_order) plan i feeds."""
    size = herd_on_ranch(pos, rules, work, p)
    for j in range(size):
        kind = work.herd_order[j]
        a, b, c = diet(pos, rules, p, kind, LEAF), diet(pos, rules, p, kind, MEAT), diet(pos, rules, p, kind, EITHER)
        work.eats[j, 0], work.eats[j, 1], work.eats[j, 2] = a, b, a + b + c
        work.wanted[j] = work.on_ranch[kind]
    work.have[0], work.have[1] = pos.resources[p, 0], pos.resources[p, 1]
    work.have[2] = pos.resources[p, 0] + pos.resources[p, 1]
    last = size - 1
    work.later[last, 0] = work.later[last, 1] = work.later[last, 2] = 0
    for i in range(last - 1, -1, -1):
        for f in range(3):
            work.later[i, f] = work.later[i + 1, f] + work.eats[i + 1, f] * work.wanted[i + 1]
    n = maximal_plans(work, last)
    if rules.most:
        n = most_fed(work, n, size)
    for i in range(n):
        add(work, i, FEED_PLAN, i, 0, 0, 0, 0)
    return n


@compiled_only
def most_fed(work, n, size) -> int:
    """Of the n feeding plans in work.plans, keep (in order) those feeding the most dinosaurs (rule
    `must_place_and_feed` read as 'most'); how many."""
    most = 0
    for i in range(n):
        fed = 0
        for j in range(size):
            fed += work.plans[i, j]
        most = max(most, fed)
    m = 0
    for i in range(n):
        fed = 0
        for j in range(size):
            fed += work.plans[i, j]
        if fed == most:
            work.plans[m, :size] = work.plans[i, :size]
            m += 1
    return m


@compiled_only
def eat_plan(pos, rules, work, p, plan) -> None:
    """Feed as plan says (`_resolve_feed`); the unfed escape."""
    size = herd_on_ranch(pos, rules, work, p)
    leaf, meat, either = np.int64(0), np.int64(0), np.int64(0)
    escaped_clear(work)
    for j in range(size):
        kind = work.herd_order[j]
        fed = work.plans[plan, j]
        leaf += diet(pos, rules, p, kind, LEAF) * fed
        meat += diet(pos, rules, p, kind, MEAT) * fed
        either += diet(pos, rules, p, kind, EITHER) * fed
        hungry = work.on_ranch[kind] - fed
        if hungry > 0:
            escaped_add(work, kind, hungry)
    eat(pos, rules, p, leaf, meat, either)
    for i in range(work.escaped_size):
        kind = work.escaped_order[i]
        remove(pos, rules, work, p, kind, work.escaped[kind])
        pos.counts[p, UNFED] += work.escaped[kind]
    escape(pos, rules, work, p)


# Phase 6: breed


@compiled_only
def breed_dinosaurs(pos, rules, work, p) -> None:
    """Every `breed_group` dinosaurs of a kind alone in an enclosure give one newborn (`Ranch.breeding`), placed at
    once: into their kind's enclosures (`newborns_at_home`), then into the empty enclosures the player gives them
    (`house`)."""
    new_phase(pos, rules, p)
    count = enclosures(pos, rules, work, p)
    born, order = work.born, work.born_order
    born[:] = 0
    kinds = 0
    for e in range(count):
        kind, held = contents(pos, rules, p, work.enclosures[e])
        if kind != NONE and not rules.unique[kind]:
            n = held // rules.breed_group
            if n:
                if born[kind] == 0:
                    order[kinds] = kind
                    kinds += 1
                born[kind] += n
    pos.herd[:] = 0
    pos.unplaced[:] = 0
    for i in range(kinds):
        kind = order[i]
        # Ruling: only figures left in the supply can be born.
        n = min(born[kind], pos.supply[kind])
        pos.supply[kind] -= n
        pos.counts[p, BRED] += n
        pos.herd_kinds[i] = kind
        pos.unplaced[kind] = n
    pos.herd_kinds_size = kinds
    newborns_at_home(pos, rules, work, p)
    house(pos, rules, work, p)


@compiled_only
def newborns_at_home(pos, rules, work, p) -> None:
    """The newborns (pos.unplaced, by kind) into the free spaces of their kind's enclosures (`Ranch.newborns_at_home`);
    pos.herd and pos.unplaced are then those still wanting room, pos.assignment NONE for the empty enclosures (those
    they may be given) and TAKEN for the others."""
    count = enclosures(pos, rules, work, p)
    pos.assignment[:] = NONE
    pos.assigned_size = 0
    for e in range(count):
        found, held = contents(pos, rules, p, work.enclosures[e])
        if held == 0:
            continue
        pos.assignment[e] = TAKEN
        if found != NONE:
            for i in range(rules.cell_count):
                c = rules.fill_order[i]
                if pos.unplaced[found] and (work.enclosures[e] >> c) & 1 and pos.cells[p, c] == EMPTY:
                    pos.cells[p, c] = found
                    pos.unplaced[found] -= 1
    for i in range(pos.herd_kinds_size):
        pos.herd[pos.herd_kinds[i]] = pos.unplaced[pos.herd_kinds[i]]


@compiled_only
def house(pos, rules, work, p) -> None:
    """Ask for the next empty enclosure while newborns lack room and empty enclosures are free; else the newborns
    go into the enclosures given to their kind, in the order given (`Ranch.house_newborns`), and those without room
    escape."""
    count = enclosures(pos, rules, work, p)
    wanting, free = False, False
    for i in range(pos.herd_kinds_size):
        if pos.unplaced[pos.herd_kinds[i]]:
            wanting = True
    for e in range(count):
        if pos.assignment[e] == NONE:
            free = True
    if wanting and free:
        ask(pos, HOUSE_PROMPT, p)
        return
    house_newborns(pos, rules, work, p)
    escaped_clear(work)
    for i in range(pos.herd_kinds_size):
        kind = pos.herd_kinds[i]
        if pos.herd[kind]:
            escaped_add(work, kind, pos.herd[kind])
    pos.herd_kinds_size = pos.assigned_size = 0
    pos.herd[:] = 0
    pos.unplaced[:] = 0
    pos.assignment[:] = 0
    escape(pos, rules, work, p)


@compiled_only
def house_newborns(pos, rules, work, p) -> None:
    """The newborns wanting room (pos.herd) into the empty enclosures given to their kind, in the order given
    (`Ranch.house_newborns`); pos.herd is then those without room."""
    for i in range(pos.assigned_size):
        e = pos.assigned[i]
        kind = pos.assignment[e]
        for j in range(rules.cell_count):
            c = rules.fill_order[j]
            if pos.herd[kind] and (work.enclosures[e] >> c) & 1:
                pos.cells[p, c] = kind
                pos.herd[kind] -= 1


# Phase 7: end of round


@compiled_only
def end_round(pos, rules, bits, work) -> None:
    """Public contracts refilled, the face-up research discarded and new cards shown; the 4th rancher arrives;
    after the last round the game ends."""
    n = rules.players
    if rules.private_end_of_round:
        # Variant: a private contract the ranch can pay is fulfilled at the end of the round.
        for i in range(n):
            p = (pos.first_player + i) % n
            if pos.private[p] == NONE:
                continue
            herd_on_ranch(pos, rules, work, p)
            if pays(rules, work, pos.private[p], NONE):
                fulfil_private(pos, rules, work, p)
    refill_contracts(pos, rules)
    for i in range(pos.display_size):
        pos.discard[pos.discard_size] = pos.display[i]
        pos.discard_size += 1
    reveal_research(pos, rules, bits)
    if pos.round_number == rules.rounds:
        return  # the game ends: no more steps, no prompt
    pos.round_number += 1
    if pos.round_number == rules.extra_rancher_round:
        for p in range(n):
            pos.ranchers[p] += 1
    then(pos, START_ROUND, 0, 0, 0)


# --- legal actions ---------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def legal_actions(pos, rules, work) -> int:
    """The options of the prompt as action rows into work.actions, in the object engine's order; how many."""
    prompt, p = pos.prompt, pos.prompt_player
    n = 0
    if prompt == ASSIGN:
        return placements(pos, rules, work, p)
    if prompt == TAKE_RESEARCH:
        for i in range(pos.display_size):
            n = add(work, n, PICK, pos.display[i], 0, 0, 0, 0)
        if research_left(pos):
            n = add(work, n, PICK, NONE, 0, 0, 0, 0)
    elif prompt == PICK_RESEARCH:
        for i in range(pos.drawn_size):
            n = add(work, n, PICK, pos.drawn[i], 0, 0, 0, 0)
    elif prompt == REARRANGE:
        # Ruling: each fence token moves at most once per rearranging; fences gained this round are in Holding
        # and placed in Phase 4 unless rule `rearrange_holding` lets them be placed now.
        n = add(work, n, STOP_REARRANGING, 0, 0, 0, 0, 0)
        fences = pos.fences[p]
        for source in range(rules.edges):
            if (fences >> source) & 1 and not (pos.moved >> source) & 1:
                n = fence_moves(pos, rules, work, n, p, source)
        if rules.rearrange_holding and pos.holding_fences[p]:
            n = fence_moves(pos, rules, work, n, p, NONE)
    elif prompt == PLACE_FENCE_PROMPT:
        for i in range(rules.slot_count):
            if not (pos.fences[p] >> rules.slots[i]) & 1:
                n = add(work, n, PLACE_FENCE, rules.slots[i], 0, 0, 0, 0)
    elif prompt == ENCLOSE_PROMPT or prompt == HOUSE_PROMPT:
        for i in range(enclosure_choices(pos, rules, work, p)):
            n = add(work, n, ENCLOSE, work.choices[i, 0], work.choices[i, 1], 0, 0, 0)
    elif prompt == ESCAPE_AS_PROMPT:
        n = add(work, n, ESCAPE_AS, HERBIVORE, 0, 0, 0, 0)
        n = add(work, n, ESCAPE_AS, CARNIVORE, 0, 0, 0, 0)
    elif prompt == LOSE_FENCE_PROMPT:
        for e in range(rules.edges):
            if (pos.fences[p] >> e) & 1:
                n = add(work, n, LOSE_FENCE, e, 0, 0, 0, 0)
    elif prompt == LOSE_DINOSAUR_PROMPT:
        for i in range(herd_on_ranch(pos, rules, work, p)):
            n = add(work, n, LOSE_DINOSAUR, work.herd_order[i], 0, 0, 0, 0)
    elif prompt == FEED_PROMPT:
        n = feedings(pos, rules, work, p)
    work.count = n
    return n


@njit(cache=True)
def options(pos, rules, work) -> int:
    """`legal_actions` as a function of its own (a search's, which lists them from another module)."""
    return legal_actions(pos, rules, work)


@compiled_only
def fence_moves(pos, rules, work, n, p, source) -> int:
    """A fence from `source` to every free fence slot."""
    for i in range(rules.slot_count):
        if not (pos.fences[p] >> rules.slots[i]) & 1:
            n = add(work, n, MOVE_FENCE, source, rules.slots[i], 0, 0, 0)
    return n


# --- scoring ---------------------------------------------------------------------------------------------------


@njit(cache=True)
def score_parts(pos, rules, p, parts) -> int:
    """Points by source (`score_parts`) into parts[:4]: contracts, basic dinosaurs, unique dinosaurs, research
    cards; the score, their sum."""
    for i in range(4):
        parts[i] = 0
    for i in range(pos.taken_size[p]):
        parts[0] += rules.contract_points[pos.taken[p, i]]
    for c in range(rules.cell_count):
        kind = pos.cells[p, c]
        if kind != EMPTY:
            parts[2 if rules.unique[kind] else 1] += rules.points[kind]
            parts[3] += pos.points_per[p, kind]
    for i in range(pos.research_size[p]):
        card = pos.research[p, i]
        if rules.card_kind[card] == NONE:
            parts[3] += rules.card_points[card]
    return parts[0] + parts[1] + parts[2] + parts[3]


@njit(cache=True)
def tie_first(pos, rules) -> np.int64:
    """The seat the turn order a tie is broken in starts with (rule `tie_break`; `TinyEpicDinosaursState.winners`):
    who placed first in the last round, or who holds the first player marker."""
    return pos.round_first if rules.tie_last_round else pos.first_player


@njit(cache=True)
def is_over(pos) -> bool:
    return pos.prompt == NO_PROMPT and pos.steps_size == 0


# --- the object engine's positions as records: every compiled search decision starts from `position_of`
# (compiled_search.choose); the differential tests compare records with `tidy` and `differences` ----------------

PROMPT_CODES = {"assign": ASSIGN, "take_research": TAKE_RESEARCH, "pick_research": PICK_RESEARCH,
                "rearrange": REARRANGE, "place_fence": PLACE_FENCE_PROMPT, "enclose": ENCLOSE_PROMPT,
                "house": HOUSE_PROMPT, "escape_as": ESCAPE_AS_PROMPT, "lose_fence": LOSE_FENCE_PROMPT,
                "lose_dinosaur": LOSE_DINOSAUR_PROMPT, "feed": FEED_PROMPT}
STEP_CODES = {"start_round": START_ROUND, "assign_turn": ASSIGN_TURN, "return_ranchers": RETURN_RANCHERS,
              "arrange": ARRANGE, "feed": FEED, "breed": BREED, "end_round": END_ROUND, "penalties": PENALTIES,
              "lose_dinosaur": LOSE_DINOSAUR_PENALTY}


def position_of(state: TinyEpicDinosaursState) -> np.ndarray:
    """The compiled form of one of the object engine's positions: every compiled search decision starts from it
    (`compiled_search.choose`), and the differential tests compare it with the compiled engine's position
    (`actions` left 0: it does not count them). Long because it copies the object position field by field, in
    the record's order, one line per field."""
    game = state.game
    comp = game.components
    kinds = list(comp.dinosaurs)
    contracts = {c.name: i for i, c in enumerate(comp.contracts)}
    cards = {c.name: i for i, c in enumerate(comp.research)}
    out = np.zeros(1, POSITION)
    pos = out[0]
    pos["round_number"], pos["first_player"], pos["turn"], pos["fence_supply"] = (
        state.round, state.first_player, state.turn, state.fence_supply)
    pos["round_first"] = state.round_first_player
    for k, name in enumerate(state.basic):
        pos["supply"][k] = state.supply[name]

    def fill_list(field, items, index):
        pos[field][: len(items)] = [index[x.name] for x in items]
        pos[field + "_size"] = len(items)

    def fill_herd(prompt):  # a layout prompt's herd: its kinds, each kind's count and those still to place
        pos["herd_kinds"][: len(prompt.herd)] = [kinds.index(k) for k in prompt.herd]
        pos["herd_kinds_size"] = len(prompt.herd)
        for kind, n in prompt.herd.items():
            pos["herd"][kinds.index(kind)] = n
            pos["unplaced"][kinds.index(kind)] = prompt.unplaced[kind]

    fill_list("contract_deck", state.contract_deck, contracts)
    fill_list("public", state.public_contracts, contracts)
    fill_list("research_deck", state.research_deck, cards)
    fill_list("discard", state.research_discard, cards)
    fill_list("display", state.research_display, cards)
    for s, space in enumerate(game.spaces):
        for seat, group in state.occupancy[space.id].items():
            pos["occupancy"][s, seat] = group
    pos["cells"][:] = EMPTY
    for p, player in enumerate(state.players):
        cells = player.ranch.cells
        pos["cells"][p, : len(cells)] = [EMPTY if k is None else kinds.index(k) for k in cells]
        pos["fences"][p] = player.ranch.fence_bits
        pos["resources"][p] = player.resources
        pos["ranchers"][p], pos["ranchers_left"][p], pos["owner_left"][p] = (
            player.ranchers, player.ranchers_left, player.owner_left)
        pos["holding"][p, : len(player.holding)] = [kinds.index(k) for k in player.holding]
        pos["holding_size"][p] = len(player.holding)
        pos["holding_fences"][p] = player.holding_fences
        pos["private"][p] = NONE if player.private is None else contracts[player.private.name]
        pos["taken"][p, : len(player.contracts)] = [contracts[c.name] for c in player.contracts]
        pos["taken_size"][p] = len(player.contracts)
        pos["research"][p, : len(player.research)] = [cards[c.name] for c in player.research]
        pos["research_size"][p] = len(player.research)
        pos["paid_herbivore"][p], pos["paid_carnivore"][p] = player.paid_herbivore, player.paid_carnivore
        pos["counts"][p] = [player.counters[name] for name in COUNTERS]
        pos["extra_income"][p] = player.extra_income
        for action, off in player.discounts.items():
            pos["discount"][p, ACTIONS.index(action)] = off
        for kind, less in player.feed_less.items():
            pos["feed_less"][p, kinds.index(kind)] = less
        pos["extra_fences"][p] = player.extra_fences
        for kind, amount in player.points_per.items():
            pos["points_per"][p, kinds.index(kind)] = amount
    prompt = state.prompt
    pos["assignment"][:] = 0
    if prompt is not None:
        pos["prompt"], pos["prompt_player"] = PROMPT_CODES[prompt.kind], prompt.player
        if prompt.kind == "rearrange":
            pos["moved"] = sum(1 << e for e in prompt.moved)
        elif prompt.kind == "pick_research":
            fill_list("drawn", prompt.drawn, cards)
        elif prompt.kind == "escape_as":
            pos["escape_herbivore"], pos["escape_carnivore"] = prompt.herbivore, prompt.carnivore
        elif prompt.kind == "enclose":
            pos["assignment"][:] = NONE
            for index, kind in prompt.assignment.items():
                pos["assignment"][index] = kinds.index(kind)
            order = list(prompt.assignment)
            pos["assigned"][: len(order)] = order
            pos["assigned_size"] = len(order)
            fill_herd(prompt)
            pos["uniques"][: len(prompt.uniques)] = [kinds.index(k) for k in prompt.uniques]
            pos["uniques_size"] = len(prompt.uniques)
        elif prompt.kind == "house":
            # the prompt lists the empty enclosures; the position indexes all of them, the others TAKEN
            full = [r.name for r in state.players[prompt.player].ranch.enclosures()]
            empty = [r.name for r in prompt.enclosures]
            pos["assignment"][:] = NONE
            pos["assignment"][: len(full)] = [NONE if name in empty else TAKEN for name in full]
            order = [full.index(empty[index]) for index in prompt.assignment]
            for index, kind in prompt.assignment.items():
                pos["assignment"][full.index(empty[index])] = kinds.index(kind)
            pos["assigned"][: len(order)] = order
            pos["assigned_size"] = len(order)
            fill_herd(prompt)
    rows = []
    for step in state._todo:
        code = STEP_CODES[step.name]
        seat = getattr(step, "seat", 0)
        a = 0
        if code == PENALTIES:
            a = step.herbivore + 2 * step.carnivore + 4 * step.omnivore
        rows.append((code, seat, a, 0))
    if rows:
        pos["steps"][: len(rows)] = rows
    pos["steps_size"] = len(rows)
    return out


def tidy(game: np.ndarray) -> np.ndarray:
    """A copy of the position with what no rule reads cleared (the places past each list's size, the prompt data
    of another prompt, `actions`). Two positions are the same game position when their tidy copies are equal."""
    out = game.copy()
    pos = out[0]
    for field in ("contract_deck", "public", "research_deck", "discard", "display", "drawn"):
        pos[field][pos[field + "_size"]:] = 0
    for field in ("holding", "taken", "research"):
        for p in range(MAX_PLAYERS):
            pos[field][p, pos[field + "_size"][p]:] = 0
    pos["steps"][pos["steps_size"]:] = 0
    if pos["prompt"] != PICK_RESEARCH:
        pos["drawn"][:], pos["drawn_size"] = 0, 0
    if pos["prompt"] != REARRANGE:
        pos["moved"] = 0
    if pos["prompt"] != ESCAPE_AS_PROMPT:
        pos["escape_herbivore"] = pos["escape_carnivore"] = 0
    if pos["prompt"] not in (ENCLOSE_PROMPT, HOUSE_PROMPT):
        for field in ("assignment", "assigned", "herd_kinds", "herd", "unplaced", "uniques"):
            pos[field][:] = 0
        pos["assigned_size"] = pos["herd_kinds_size"] = pos["uniques_size"] = 0
    else:
        pos["assigned"][pos["assigned_size"]:] = 0
        pos["herd_kinds"][pos["herd_kinds_size"]:] = 0
        pos["uniques"][pos["uniques_size"]:] = 0
    if pos["prompt"] == NO_PROMPT:
        pos["prompt_player"] = 0
    pos["actions"] = 0
    return out


def differences(game: np.ndarray, other: np.ndarray) -> list[str]:
    """The fields in which two positions differ, each held to `tidy` (empty: the same game position)."""
    return differing_fields(tidy(game), tidy(other))


def action_of(state: TinyEpicDinosaursState, action) -> tuple:
    """One of the object engine's actions as a comparable tuple, in the compiled engine's numbers."""
    game = state.game
    comp = game.components
    kinds = list(comp.dinosaurs)
    contracts = [c.name for c in comp.contracts]
    cards = [c.name for c in comp.research]
    edge = comp.layout.edge_id
    name = type(action).__name__
    if name == "Place":
        s = [sp.id for sp in game.spaces].index(action.space)
        if action.action == "contract":
            choice = contracts.index(action.choice)
        elif action.action in ("hunt", "buy", "place_now", "research_remove"):
            choice = kinds.index(action.choice)
        else:
            choice = NONE
        return (PLACE, s, action.ranchers, int(action.owner), choice, int(action.extra == "private"))
    if name == "PickResearch":
        return (PICK, NONE if action.card == "draw" else cards.index(action.card))
    if name == "MoveFence":
        return (MOVE_FENCE, NONE if action.source == "holding" else edge(action.source), edge(action.target))
    if name == "StopRearranging":
        return (STOP_REARRANGING,)
    if name == "PlaceFence":
        return (PLACE_FENCE, edge(action.edge))
    if name == "Enclose":
        # Phase 6 lists the empty enclosures only; the compiled engine numbers all of them
        listed = state.prompt.enclosures if state.prompt.kind == "enclose" else (
            state.players[state.prompt.player].ranch.enclosures())
        index = [r.name for r in listed].index(action.enclosure)
        return (ENCLOSE, index, kinds.index(action.kind))
    if name == "Feed":
        return (FEED_PLAN, tuple((kinds.index(k), n) for k, n in action.fed))
    if name == "EscapeAs":
        return (ESCAPE_AS, HERBIVORE if action.group == "herbivore" else CARNIVORE)
    if name == "LoseFence":
        return (LOSE_FENCE, edge(action.edge))
    if name == "LoseDinosaur":
        return (LOSE_DINOSAUR, kinds.index(action.kind))
    raise ValueError(f"not a Tiny Epic Dinosaurs action: {action!r}")


def action_row(game: np.ndarray, tables: np.ndarray, workspace: np.ndarray, i: int) -> tuple:
    """The i-th listed compiled action as the comparable tuple `action_of` makes."""
    work = workspace[0]
    row = [int(v) for v in work["actions"][i]]
    kind = row[0]
    if kind == PLACE:
        return tuple(row)
    if kind in (PICK, PLACE_FENCE, ESCAPE_AS, LOSE_FENCE, LOSE_DINOSAUR):
        return (kind, row[1])
    if kind in (MOVE_FENCE, ENCLOSE):
        return (kind, row[1], row[2])
    if kind == STOP_REARRANGING:
        return (kind,)
    order = [int(k) for k in work["herd_order"][: work["herd_size"]]]
    plan = work["plans"][row[1]]
    return (FEED_PLAN, tuple((order[j], int(plan[j])) for j in range(len(order)) if plan[j]))
