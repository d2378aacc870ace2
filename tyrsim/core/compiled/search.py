"""Information-set Monte Carlo tree search in compiled code: `tyrsim.core.engine.search`'s single-observer
ISMCTS, the same search step for step, over any compiled engine.

The tree lives in preallocated arrays, not objects: `new_tree(iterations)` (and `room`, which adds the arrays a
descent works in, made once a process for each size) gives one NODE record per node a search can add (one an
iteration, and the root) and as many again, each holding

- `visits`, `available`: how often the node was passed, and how often its action was legal when
  its parent was passed (the availability count of Cowling, Powley and Whitehouse 2012);
- `totals[p]`: the sum of player p's values over the visits (max-n: every player chooses for
  itself, values on the win-share scale [0, 1]);
- `parent`, `key`: the node it hangs from and the action that leads to it (the game's `action_key`);
- `index`: the tree's hash index of its nodes by (parent, key), open addressing in the `index` fields of
  all the records (NO_NODE: a free slot), so that finding a node's child costs the same however many
  actions a decision offers.

The game is passed in as its compiled functions, which the search calls by these names:

- `determinize(real, world, rules, observer, bits)`: write into `world` a full position consistent with
  what `observer` has seen in `real` under `rules`, the unseen drawn from `bits` (never read from `real`);
- `legal_actions(world, rules, work) -> n`: list the n legal actions in the game's work record;
- `action_key(work, i) -> int64`: the i-th listed action as a number, the same action the same
  number in every determinization;
- `apply_action(world, rules, work, i, bits)`: play the i-th listed action;
- `is_over(world)`, `to_move(world)`: the game's end and the player to move;
- `final_values(world, rules, work, out)`: each player's win share of a finished game into `out` (`work` free
  to use);
- `evaluate(world, rules, work, out)`: each player's value of an unfinished position into `out` (`work` free to use);
- `rollout(world, rules, bits, work, n) -> i`: the rollout policy's choice among the n listed actions.

A game's module calls `ismcts` from its own `@njit(cache=True)` function that names its functions
through their module (`module.determinize`); numba caches that function with the search compiled in. The
functions here that take a game's functions are not cached themselves: one cache index would then hold
every game's signatures, naming functions of modules another process has not imported, and numba fails
on saving such an index ("underlying object has vanished"). The work record holds the uniform block
`tyrsim.core.compiled.chance.uniform` draws from: the untried action is chosen as
`tyrsim.core.engine.search` chooses it, `untried[floor(u * len(untried))]`.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from tyrsim.core.compiled.chance import uniform
from tyrsim.core.compiled.numba_cache import keep_fresh

keep_fresh(__file__)

MAX_PLAYERS = 8
NO_NODE = np.int64(-1)
NODE = np.dtype([("visits", np.int64), ("available", np.int64), ("totals", np.float64, (MAX_PLAYERS,)),
                 ("parent", np.int64), ("key", np.int64), ("index", np.int64)])
SPREAD = 1_000_003  # a prime spreading the parents: parent * SPREAD + key stays in int64 for keys below 2**62


def new_tree(iterations: int) -> np.recarray:
    """Room for a search of `iterations` descents: the root and one node an iteration, in a table at least twice
    as long (a prime length, the hash index's) (a recarray, whose fields plain Python reads as attributes too,
    under NUMBA_DISABLE_JIT)."""
    size = 2 * (iterations + 1) + 1
    while any(size % d == 0 for d in range(2, int(size**0.5) + 1)):
        size += 1
    tree = np.zeros(size, NODE).view(np.recarray)
    tree.index[:] = NO_NODE
    return tree


@functools.lru_cache(maxsize=16)
def room(iterations: int, actions: int) -> tuple[np.recarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tree (`new_tree`), path (a descent passes at most one node an iteration), values (one per player) and
    untried actions (room for a decision's `actions`) of a search of `iterations` descents, made once a process
    for each size (a search sets them afresh)."""
    return (new_tree(iterations), np.zeros(iterations + 2, np.int64), np.zeros(MAX_PLAYERS),
            np.zeros(actions, np.int64))


@njit(cache=True)
def slot_of(tree, parent, key) -> np.int64:
    """Where the hash index begins looking for the child of `parent` reached by `key`."""
    return np.int64((parent * SPREAD + key) % len(tree))


@njit(cache=True)
def add_child(tree, size, parent, key) -> np.int64:
    """A new node (number `size`) under `parent` for the action `key`, entered in the index; its number."""
    node = tree[size]
    node.visits, node.available, node.parent, node.key = 0, 1, parent, key
    for p in range(MAX_PLAYERS):
        node.totals[p] = 0.0
    slot = slot_of(tree, parent, key)
    while tree[slot].index != NO_NODE:
        slot = (slot + 1) % len(tree)
    tree[slot].index = size
    return np.int64(size)


@njit(cache=True)
def child_of(tree, parent, key) -> np.int64:
    """The child of `parent` reached by the action `key`, or NO_NODE."""
    slot = slot_of(tree, parent, key)
    while tree[slot].index != NO_NODE:
        child = tree[slot].index
        if tree[child].parent == parent and tree[child].key == key:
            return child
        slot = (slot + 1) % len(tree)
    return NO_NODE


@njit(cache=True)
def clear(tree) -> None:
    """An empty tree: the root alone (no visits), and an empty index."""
    for slot in range(len(tree)):
        tree[slot].index = NO_NODE
    root = tree[0]
    root.visits, root.available, root.parent, root.key = 0, 0, NO_NODE, NO_NODE
    for p in range(MAX_PLAYERS):
        root.totals[p] = 0.0


@njit(cache=True)
def bound(tree, child, mover, exploration) -> float:
    """The upper confidence bound of `child` for the player to move: its mean plus the exploration term
    over its availability count."""
    node = tree[child]
    return node.totals[mover] / node.visits + exploration * np.sqrt(np.log(node.available) / node.visits)


@njit  # compiled into the game's cached search, not cached alone: see the module's docstring
def ismcts(real, world, rules, players, iterations, exploration, rollout_depth, bits, work, tree, path, values,
           untried, determinize, legal_actions, action_key, apply_action, is_over, to_move, final_values, evaluate,
           rollout) -> np.int64:
    """The search's decision at `real` (the observer to move, more than one legal action): the key of the
    root's most visited action, ties to the best mean for the observer, then to the first listed.

    `world` is a scratch position, `tree` a `new_tree(iterations)`, `path` an int64 array of iterations + 2
    (a descent passes no more nodes than the tree holds, and the new one), `values` a float64 array of
    MAX_PLAYERS, `untried` an int64 array as long as the longest action list."""
    observer = to_move(real)
    clear(tree)
    size = np.int64(1)
    for _ in range(iterations):
        determinize(real, world, rules, observer, bits)
        depth, size = descend(world, rules, exploration, bits, work, tree, size, path, untried, legal_actions,
                              action_key, apply_action, is_over, to_move)
        leaf_values(world, rules, players, rollout_depth, bits, work, values, legal_actions, apply_action, is_over,
                    final_values, evaluate, rollout)
        for d in range(depth):
            node = tree[path[d]]
            node.visits += 1
            for p in range(players):
                node.totals[p] += values[p]
    return most_visited(real, rules, observer, work, tree, legal_actions, action_key)


@njit  # compiled into the game's cached search, not cached alone: see the module's docstring
def descend(world, rules, exploration, bits, work, tree, size, path, untried, legal_actions, action_key,
            apply_action, is_over, to_move):
    """Walk the tree in `world` (played on as it goes) down to one new node: (nodes on the path, tree size).

    At every node the actions legal in this determinization compete (at the root: the real decision's, which
    every determinization shares); each passed child counts one more availability."""
    node = np.int64(0)
    path[0] = node
    depth = 1
    while not is_over(world):
        n = legal_actions(world, rules, work)
        mover = to_move(world)
        tried = 0
        for i in range(n):
            child = child_of(tree, node, action_key(work, i))
            if child == NO_NODE:
                untried[tried] = i
                tried += 1
            else:
                tree[child].available += 1
        if tried:
            i = untried[int(uniform(bits, work) * tried)]
            child = add_child(tree, size, node, action_key(work, i))
            apply_action(world, rules, work, i, bits)
            path[depth] = child
            return depth + 1, size + 1
        best, best_bound = -1, -np.inf
        for i in range(n):
            b = bound(tree, child_of(tree, node, action_key(work, i)), mover, exploration)
            if b > best_bound:
                best, best_bound = i, b
        node = child_of(tree, node, action_key(work, best))
        apply_action(world, rules, work, best, bits)
        path[depth] = node
        depth += 1
    return depth, size


@njit  # compiled into the game's cached search, not cached alone: see the module's docstring
def leaf_values(world, rules, players, rollout_depth, bits, work, values, legal_actions, apply_action, is_over,
                final_values, evaluate, rollout) -> None:
    """Play the rollout policy for at most `rollout_depth` decisions (-1: to the end) and value the position
    into `values`: a finished game's win shares, else the game's evaluation."""
    depth = rollout_depth
    while not is_over(world) and depth != 0:
        n = legal_actions(world, rules, work)
        apply_action(world, rules, work, rollout(world, rules, bits, work, n), bits)
        depth -= 1
    for p in range(MAX_PLAYERS):
        values[p] = 0.0
    if is_over(world):
        final_values(world, rules, work, values)
    else:
        evaluate(world, rules, work, values)


@njit  # compiled into the game's cached search, not cached alone: see the module's docstring
def most_visited(real, rules, observer, work, tree, legal_actions, action_key) -> np.int64:
    """The key of the real decision's action the search chose: most visits, then best mean for the observer,
    then the first listed (an action never tried is last)."""
    n = legal_actions(real, rules, work)
    best_key, best_visits, best_mean = action_key(work, 0), np.int64(-1), -np.inf
    for i in range(n):
        child = child_of(tree, 0, action_key(work, i))
        visits, mean = np.int64(0), -np.inf
        if child != NO_NODE and tree[child].visits > 0:
            visits, mean = tree[child].visits, tree[child].totals[observer] / tree[child].visits
        if visits > best_visits or (visits == best_visits and mean > best_mean):
            best_key, best_visits, best_mean = action_key(work, i), visits, mean
    return best_key
