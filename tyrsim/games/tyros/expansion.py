"""Vectorized empire expansion: whole games of tile play for many games at once.

The card-action phase does not change where empires grow, so the final empire
sizes follow from the set-up, the expansion passes and the end condition alone.
Every game is a row of numpy arrays and all games take the same turn at the
same time, so there is no Python loop per game. Sets of spaces (the spaces
with chips, each player's tile hand, the spaces next to each empire) are
bitmasks in one uint64 per game, so a board may have at most 64 spaces; the
tile pile is a ring buffer. Tile policies:

- "random": uniform over the legal (tile, empire) plays, like RandomPolicy;
- "largest": extend the largest empire that can be extended (equal sizes: the
  rulebook's rank order orange, yellow, green, violet), any of its tiles;
- "smallest": the same with the smallest empire.

A blocked player puts a random tile of the hand under the pile and draws one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tyrsim.games.tyros.board import TYROS, Board, conflicting, load_board
from tyrsim.games.tyros.components import COLOUR_NAMES, EMPIRES
from tyrsim.games.tyros.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

TILE_POLICIES = ("random", "largest", "smallest")
MAX_ROUNDS = 500  # a safety limit far above any real game (about 4-8 rounds)
ONE = np.uint64(1)


def bit(spaces) -> np.ndarray:
    return np.left_shift(ONE, np.asarray(spaces, dtype=np.uint64))


def select_bit(masks: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The index of the j-th set bit (counting from 0) of each mask, by binary search on popcounts."""
    j = j.astype(np.int64)
    position = np.zeros(masks.shape, dtype=np.int64)
    for width in (32, 16, 8, 4, 2, 1):
        low = np.bitwise_count(masks & np.uint64((1 << width) - 1)).astype(np.int64)
        step = (j >= low) * width
        j = j - (step > 0) * low
        position += step
        masks = masks >> step.astype(np.uint64)
    return position


class _Expansion:
    def __init__(self, board: Board, rules: Rules, players: int, games: int, rng: np.random.Generator) -> None:
        if board.size > 64:
            raise ValueError(f"board {board.source}: the expansion kernel handles at most 64 spaces, not {board.size}")
        self.board, self.rules, self.players, self.games, self.rng = board, rules, players, games, rng
        # spaces next to each space; Tyros's chip extends an empire only by the ruling
        self.near_mask = np.zeros(board.size, dtype=np.uint64)
        for s in board.spaces:
            if s != TYROS or rules.tyros_extends_empire:
                self.near_mask[s] = np.bitwise_or.reduce(bit(sorted(board.land[s])))
        self.next_to_tyros = np.zeros(board.size, dtype=bool)
        self.next_to_tyros[sorted(board.land[TYROS])] = True
        self.occupied = np.zeros(games, dtype=np.uint64)
        self.near = np.zeros((games, 4), dtype=np.uint64)  # spaces next to each empire
        self.owned = np.zeros((games, 4), dtype=np.uint64)  # each empire's spaces
        self.sizes = np.zeros((games, 4), dtype=np.int64)
        self.chips_used = np.zeros((games, 4), dtype=np.int64)  # Tyros's chip included, whatever the size ruling
        self.tyros = np.full(games, -1, dtype=np.int64)  # Tyros's colour
        self.tyros_round = np.full(games, -1, dtype=np.int64)
        self.blocked = np.zeros(games, dtype=np.int64)
        self.round = 0

    # ---- chips ------------------------------------------------------------
    def place(self, g: np.ndarray, space: np.ndarray, colour: np.ndarray) -> None:
        """Put chips of `colour` on `space` in games `g` (one space per game), then the Tyros rule (`tyros_takes`
        in game.py, with rule `tyros_chip`)."""
        self.occupied[g] |= bit(space)
        at = g * 4 + colour  # (game, colour) in the flattened per-colour arrays
        self.near.reshape(-1)[at] |= self.near_mask[space]
        self.owned.reshape(-1)[at] |= bit(space)
        self.sizes.reshape(-1)[at] += 1
        used = self.chips_used.reshape(-1)
        used[at] += 1
        free = self.tyros[g] < 0
        if self.rules.tyros_chip == "latest-replaces":
            free |= self.tyros[g] != colour
        joins = self.next_to_tyros[space] & free & (used[at] < self.rules.chips_per_empire)
        if joins.any():
            gj, cj = g[joins], colour[joins]
            self.leave_tyros(gj)
            self.tyros[gj] = cj
            self.tyros_round[gj] = np.where(self.tyros_round[gj] < 0, self.round, self.tyros_round[gj])
            self.occupied[gj] |= bit(TYROS)
            self.near[gj, cj] |= self.near_mask[TYROS]
            self.owned[gj, cj] |= bit(TYROS)
            self.sizes[gj, cj] += int(self.rules.tyros_counts_for_size)
            self.chips_used[gj, cj] += 1

    def leave_tyros(self, g: np.ndarray) -> None:
        """Rule `tyros_chip` = 'latest-replaces': in games `g` Tyros's chip (if any) goes back to the box, and its
        empire's size, chips and neighbours lose Tyros."""
        g = g[self.tyros[g] >= 0]
        if g.size == 0:
            return
        old = self.tyros[g]
        self.sizes[g, old] -= int(self.rules.tyros_counts_for_size)
        self.chips_used[g, old] -= 1
        self.owned[g, old] &= ~bit(TYROS)
        near = np.zeros(g.size, dtype=np.uint64)
        for s in self.board.spaces:
            near |= np.where(self.owned[g, old] & bit(s), self.near_mask[s], np.uint64(0))
        self.near[g, old] = near

    # ---- set-up -------------------------------------------------------------
    def set_up(self) -> np.ndarray:
        """Place the starting empires; return each game's remaining tiles, shuffled."""
        board, G = self.board, self.games
        tiles = np.array(board.tiles)
        all_games = np.arange(G)
        if self.rules.setup == "first-game":
            starts = np.broadcast_to(np.array(board.first_game), (G, 4))
            rest = tiles[~np.isin(tiles, board.first_game)]
            remaining = self.rng.permuted(np.broadcast_to(rest, (G, rest.size)), axis=1)
        else:
            pile = self.rng.permuted(np.broadcast_to(tiles, (G, tiles.size)), axis=1)
            # conflict[s]: the spaces that may not start an empire once s has one
            conflict = np.zeros(board.size, dtype=np.uint64)
            for a in board.tiles:
                conflict[a] = np.bitwise_or.reduce(bit(
                    [b for b in board.tiles if conflicting(board, a, b, self.rules.start_both_beside_tyros)] + [a]
                ))
            chosen = np.zeros((G, 4), dtype=np.int64)
            barred = np.zeros(G, dtype=np.uint64)
            count = np.zeros(G, dtype=np.int64)
            taken = np.zeros((G, tiles.size), dtype=bool)
            todo = all_games  # games still turning tiles
            for i in range(tiles.size):
                tile = pile[todo, i]
                ok = (barred[todo] >> tile.astype(np.uint64)) & ONE == 0
                g = todo[ok]
                chosen[g, count[g]] = tile[ok]
                barred[g] |= conflict[tile[ok]]
                taken[g, i] = True
                count[g] += 1
                todo = todo[count[todo] < 4]
                if todo.size == 0:
                    break
            if todo.size:
                raise ValueError(f"board {board.source}: cannot place four non-adjacent empires")
            starts = -np.sort(-chosen, axis=1)  # highest number is orange, then yellow, green, violet
            # "shuffle the remaining map tiles": the re-drawn tiles go back in too
            remaining = self.rng.permuted(pile[~taken].reshape(G, tiles.size - 4), axis=1)
        for empire in EMPIRES:
            self.place(all_games, np.ascontiguousarray(starts[:, empire]), np.full(G, empire))
        return remaining

    # ---- play -------------------------------------------------------------------
    def run(self, policy: str) -> pd.DataFrame:
        G, P = self.games, self.players
        remaining = self.set_up()
        T = remaining.shape[1]
        k = self.rules.tiles_per_player
        # per player, one row over all games (player-major, so a turn reads contiguous memory)
        self.hands = np.zeros((P, G), dtype=np.uint64)
        for p in range(P):
            self.hands[p] = np.bitwise_or.reduce(bit(remaining[:, p * k:(p + 1) * k]), axis=1)
        # a small user board may not have four tiles for every player
        self.hand_count = np.array([[min(k, max(0, T - p * k))] * G for p in range(P)], dtype=np.int64)
        self.unplayed = np.bitwise_or.reduce(bit(remaining), axis=1)  # tiles in hands or the pile
        dealt = min(P * k, T)
        self.pile = np.zeros((G, T), dtype=np.int64)
        self.pile[:, : T - dealt] = remaining[:, dealt:]
        self.head = np.zeros(G, dtype=np.int64)
        self.pile_count = np.full(G, T - dealt, dtype=np.int64)
        active = np.ones(G, dtype=bool)
        rounds = np.zeros(G, dtype=np.int64)
        start = 0
        self.round = 1
        while active.any():
            if self.round > MAX_ROUNDS:
                raise RuntimeError("expansion did not end: the board leaves tiles that can never be played")
            for _ in range(self.rules.expansion_passes(self.round, P)):
                for turn in range(P):
                    self.turn((start + turn) % P, active, policy)
            ended = active & ((self.hand_count.min(axis=0) == 0) | self.stalled())
            rounds[ended] = self.round
            active &= ~ended
            start = (start + 1) % P
            self.round += 1
        return self.results(rounds)

    def stalled(self) -> np.ndarray:
        """Games whose remaining tiles can never be played: every empire next to one is out of chips."""
        growing = np.where(self.chips_used < self.rules.chips_per_empire, ~np.uint64(0), np.uint64(0))
        return ~(((self.unplayed & ~self.occupied)[:, None] & self.near & growing) > 0).any(axis=1)

    def uniform(self, counts: np.ndarray) -> np.ndarray:
        """A uniform integer in [0, counts) per game."""
        return (self.rng.random(counts.size) * counts).astype(np.int64)

    def turn(self, player: int, active: np.ndarray, policy: str) -> None:
        hands, hand_count = self.hands[player], self.hand_count[player]
        g = np.flatnonzero(active & (hand_count > 0))
        if g.size == 0:
            return
        hand = hands[g]
        # playable tiles per empire colour; an empire without chips left cannot grow
        growing = self.chips_used[g] < self.rules.chips_per_empire
        options = np.where(growing, (hand & ~self.occupied[g])[:, None] & self.near[g], np.uint64(0))
        counts = np.bitwise_count(options).astype(np.int64)
        rows = np.arange(g.size)
        if policy == "random":
            # uniform over (tile, colour) pairs: a colour with weight = its options, then one of its tiles
            cum = np.cumsum(counts, axis=1)
            total = cum[:, -1]
            u = self.uniform(total)
            colour = np.minimum((cum <= u[:, None]).sum(axis=1), 3)  # 3 only stands in for blocked games
            j = u - (cum - counts)[rows, colour]
        else:
            # the best size among colours with a playable tile; equal sizes: colour order
            key = 4 * self.sizes[g] + (3 - np.arange(4)) if policy == "largest" else -4 * self.sizes[g] - np.arange(4)
            colour = np.argmax(np.where(counts > 0, key, np.iinfo(np.int64).min), axis=1)
            total = counts.sum(axis=1)
            j = self.uniform(counts[rows, colour])
        can = total > 0
        gp, cp = g[can], colour[can]
        if gp.size:
            space = select_bit(options[rows[can], cp], j[can])
            hands[gp] &= ~bit(space)
            self.unplayed[gp] &= ~bit(space)
            self.place(gp, space, cp)
            self.draw(gp, player, drawing=self.pile_count[gp] > 0)
        # blocked hands: a random tile under the pile, then draw the top tile
        gb = g[~can]
        if gb.size:
            tile = select_bit(hand[~can], self.uniform(hand_count[gb]))
            hands[gb] &= ~bit(tile)
            self.pile[gb, (self.head[gb] + self.pile_count[gb]) % self.pile.shape[1]] = tile
            self.pile_count[gb] += 1
            self.blocked[gb] += 1
            self.draw(gb, player, drawing=np.ones(gb.size, dtype=bool))

    def draw(self, g: np.ndarray, player: int, drawing: np.ndarray) -> None:
        """Players in games `g` used a tile; those with `drawing` take the pile's top tile."""
        self.hand_count[player, g] -= 1
        g = g[drawing]
        size = self.pile.shape[1]
        tile = self.pile.reshape(-1)[g * size + self.head[g]]
        self.head[g] = (self.head[g] + 1) % size
        self.pile_count[g] -= 1
        self.hands[player, g] |= bit(tile)
        self.hand_count[player, g] += 1

    def results(self, rounds: np.ndarray) -> pd.DataFrame:
        import pandas as pd

        sizes = self.sizes
        # rank 1 = largest; equal sizes rank in colour order (a stable sort keeps it)
        ranks = np.argsort(np.argsort(-sizes, axis=1, kind="stable"), axis=1, kind="stable")
        out = {"rounds": rounds, "tiles_left": self.pile_count + self.hand_count.sum(axis=0),
               "tyros_colour": self.tyros, "tyros_round": self.tyros_round, "blocked": self.blocked}
        for e in EMPIRES:
            out[f"size_{COLOUR_NAMES[e]}"] = sizes[:, e]
            out[f"rank_{COLOUR_NAMES[e]}"] = ranks[:, e] + 1
        return pd.DataFrame(out)


def simulate_expansion(
    rules: Rules,
    players: int,
    games: int,
    rng: np.random.Generator,
    policy: str = "random",
    board: Board | None = None,
) -> pd.DataFrame:
    """Play the tiles of `games` games; one row per game.

    Columns: rounds, tiles_left, tyros_colour (-1: Tyros never joined an empire),
    tyros_round, blocked (turns without a tile), and size_<colour> and
    rank_<colour> (1 = largest, equal sizes in colour order) for each empire.
    """
    if policy not in TILE_POLICIES:
        raise ValueError(f"unknown tile policy {policy!r}; expected one of {', '.join(TILE_POLICIES)}")
    if players not in (3, 4):
        raise ValueError(f"Tyros is played by 3 or 4 players, not {players}")
    board = board or load_board(rules.board or None)
    return _Expansion(board, rules, players, games, rng).run(policy)
