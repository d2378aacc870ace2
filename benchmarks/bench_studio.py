"""How quickly the studio answers an edit, through its HTTP interface, as a page does.

Run: python benchmarks/bench_studio.py [--seconds S] [--games NAME:PLAYERS ...] [--fresh]

Starts `tyrsim studio --no-browser` on a free port of this machine and, per game (tuned policies at every seat,
numba's cache warm: a first page at the rulebook's rules loads it and is not timed), measures:
- first answer: seconds from an edit (one rule changed) to its first tallied chunk, the answer sentence with
  its intervals (`/status` polled every 10 ms);
- +-1 point: seconds and games until the variant's first-seat win rate has an anytime interval of half-width
  at most 1 percentage point (at most S seconds; else the half-width reached), with the paired difference's
  half-width then, and the games per second of pairs (a game under each rule set);
- cancel: seconds from a second edit to the stale job's thread stopping (its `stopped_after`), the median of
  five edits, against the chunk time the jobs aim for (`jobs.CHUNK_SECONDS`) as the baseline.

With `--fresh`, as on a fresh install: the studio starts with an empty numba cache, and for each game the time from
the command's start to the first answer of an edit (one rule changed, the first page asked), the game's compiled
engine compiled on the way, is printed instead.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tyrsim.core.studio.jobs import CHUNK_SECONDS
from tyrsim.games import get_game

POLL = 0.01
GAMES = ("zooloretto-duell:2", "tiny-epic-dinosaurs:2", "tiny-epic-dinosaurs:4", "tyros:4", "tyranno-ex:4")


def edited_rule(name: str) -> tuple[str, int]:
    """A rule to edit: the game's first integer rule (not a guard) that may rise by one."""
    for f in dataclasses.fields(get_game(name).rules):
        meta = f.metadata
        if (type(f.default) is int and meta.get("kind", "rule") == "rule" and meta.get("high") is not None
                and f.default + 1 <= meta["high"]):
            return f.name, f.default + 1
    raise SystemExit(f"{name}: no integer rule to edit")


def wait_for(client: httpx.Client, ready, most: float) -> tuple[dict, float]:
    """Poll `/status` until `ready(status)` or `most` seconds: (the last status, seconds waited)."""
    start = time.perf_counter()
    while True:
        status = client.get("/status").json()
        waited = time.perf_counter() - start
        if ready(status) or waited > most:
            return status, waited
        time.sleep(POLL)


def first_seat(status: dict) -> dict:
    return next(row for row in status["rows"] if row["measure"] == "seat 1 win rate")


def measure(client: httpx.Client, game: str, players: int, seconds: float) -> dict:
    rule, value = edited_rule(game)
    base = f"/view?game={game}&players={players}"
    client.get(base)  # the rulebook's rules: loads numba's cache, not timed
    wait_for(client, lambda s: s.get("games", 0) >= 200, 600)

    start = time.perf_counter()
    assert client.get(f"{base}&rule.{rule}={value}").status_code == 200
    _, first = wait_for(client, lambda s: s.get("games", 0) > 0, 600)
    first += time.perf_counter() - start - first  # from the request itself

    def half(row: dict, which: str) -> float:
        return (row[which][2] - row[which][1]) / 2

    status, reached = wait_for(client, lambda s: s["rows"] and half(first_seat(s), "variant") <= 0.01, seconds)
    reached = time.perf_counter() - start
    row = first_seat(status)

    stops = []
    for k in range(5):
        client.get(f"{base}&rule.{rule}={value}&seed={k + 2}")
        wait_for(client, lambda s: s.get("games", 0) > 0, 600)
        client.get(f"{base}&rule.{rule}={value}&seed={k + 100}")
        stale, _ = wait_for(client, lambda s: s["stale"] and s["stale"]["ended"], 60)
        stops.append(stale["stale"]["stopped_after"])
    return {"game": f"{game} ({players} players)", "edit": f"{rule}={value}", "first": first, "seconds": reached,
            "games": status["games"], "half": half(row, "variant"), "paired_half": half(row, "difference"),
            "rate": status["games"] / reached, "cancel": statistics.median(stops)}


def first_answer_fresh(client: httpx.Client, game: str, players: int, started: float) -> tuple[float, float]:
    """(seconds from the studio's start, seconds from the request) to the first answer of an edit, the first page
    the studio is asked for."""
    rule, value = edited_rule(game)
    asked = time.perf_counter()
    assert client.get(f"/view?game={game}&players={players}&rule.{rule}={value}").status_code == 200
    wait_for(client, lambda s: s.get("games", 0) > 0, 900)
    return time.perf_counter() - started, time.perf_counter() - asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="longest wait for +-1 point, per game")
    parser.add_argument("--games", nargs="*", default=list(GAMES), help="NAME:PLAYERS")
    parser.add_argument("--fresh", action="store_true",
                        help="an empty numba cache: time the first answer, the compile included")
    options = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    if options.fresh:
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-fresh-")
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "tyrsim.cli", "studio", "--no-browser", "--port", str(port)],
                              stdout=subprocess.PIPE, text=True, env=env)
    try:
        address = re.search(r"http://\S+/", server.stdout.readline())[0]
        with httpx.Client(base_url=address, timeout=600) as client:
            for _ in range(600):
                try:
                    client.get("/favicon.ico")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            if options.fresh:
                for item in options.games:
                    name, players = item.split(":")
                    since_start, since_asked = first_answer_fresh(client, name, int(players), started)
                    print(f"{name} ({players} players), empty numba cache: the first answer {since_start:.1f} s after "
                          f"`tyrsim studio` started ({since_asked:.1f} s after the page asked)", flush=True)
                return
            print(f"{'game':32} {'edit':28} {'first answer':>12} {'+-1 point':>10} {'games':>7} {'half-width':>10} "
                  f"{'paired':>7} {'pairs/s':>8} {'cancel':>7}")
            for item in options.games:
                name, players = item.split(":")
                r = measure(client, name, int(players), options.seconds)
                print(f"{r['game']:32} {r['edit']:28} {r['first']:11.2f}s {r['seconds']:9.1f}s {r['games']:7,} "
                      f"{100 * r['half']:8.2f}pp {100 * r['paired_half']:5.2f}pp {r['rate']:8,.0f} "
                      f"{1000 * r['cancel']:5.0f}ms", flush=True)
        print(f"cancel baseline: a chunk aims at {1000 * CHUNK_SECONDS:.0f} to {2000 * CHUNK_SECONDS:.0f} ms")
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
