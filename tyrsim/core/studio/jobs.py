"""The studio's jobs: a variant's games played in chunks in a thread, under the variant and the rulebook's rules
(the rulebook's chunk on a second thread at the same time), tallied as they come (`measures.Tally`), and stopped
when an edit makes them stale; and the balance searches the page starts ("Find a balanced variant"), each a
`tyrsim balance` study played in a thread.

Game g of a job is played under both rule sets from its own stream (`blocks.games_player(..., paired=True)`, the
stream `trial_rng(task_rng(seed, 0, 0), g)`), by the game's compiled engine wherever it plays them (by the object
engine, the same games from the same draws, while this process has the compiled engine not yet ready:
`warm.Engines`): the games and so the answer after n games are the same whatever the chunks and the engine
were, and the chunks are sized to take about
`CHUNK_SECONDS`, so that a cancelled job stops within one chunk. A job stops by itself after `MOST_GAMES`;
`Jobs` keeps one job per page session and at most `MOST_JOBS` at once (the oldest is cancelled), and refuses a new
job (`JobsBusy`) while `MOST_PLAYING` jobs' threads still play, cancelled ones included, so neither the games, the
threads nor the memory pages can ask for are unbounded.

A search (`SearchJob`) runs `balance.balance` on one core in its thread (`n_jobs=1`: joblib plays its tasks in
the thread itself) and counts its games as they come (`SearchProgress`, the study's progress meter); it stops at
the end of the task it is in (at most `balance.TASK_GAMES` games) once cancelled. `Jobs` keeps one search per page
session (a new one cancels the session's old one), at most `MOST_JOBS` at once, and counts each against
`MOST_PLAYING` like any job; an edit of the page does not stop it (its answer stays beside the live one).
"""

from __future__ import annotations

import itertools
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Self

from tyrsim.core.engine.rng import task_rng
from tyrsim.core.run.progress import Progress
from tyrsim.core.studies.balance import BalanceResult, BalanceSetup, balance
from tyrsim.core.studies.blocks import games_player, prepare_blocks
from tyrsim.core.studio.measures import Tally, game_measures
from tyrsim.core.studio.variant import Variant
from tyrsim.core.studio.warm import ENGINES, Engines

FIRST_CHUNK = 20  # games in a job's first chunk, and in a chunk at least
CHUNK_SECONDS = 0.1  # what a chunk aims to take at least (at most twice this): a cancelled job stops within it
MOST_CHUNK = 20_000  # games in one chunk at most
MOST_GAMES = 200_000  # games a job plays under each rule set before it stops by itself
MOST_JOBS = 4  # jobs alive at once in one studio (and searches alive at once)
# jobs whose threads still play at once, the cancelled ones finishing their chunk included (a chunk of a search
# policy's games can run for minutes after an edit cancels it); a new job past this is refused until some stop
MOST_PLAYING = 2 * MOST_JOBS


@dataclass(kw_only=True)
class Worker(ABC):
    """Work done in a thread until done, cancelled or failed: a subclass's `_work` does it, looking at
    `cancelled`."""

    id: int = 0
    version: int = 0  # bumped whenever the answer grows or the work ends
    error: str | None = None
    cancel_seconds: float | None = None  # from `cancel` to the thread stopping
    _cancelled: threading.Event = field(default_factory=threading.Event)
    _ended: threading.Event = field(default_factory=threading.Event)
    _cancelled_at: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Self:
        threading.Thread(target=self._run, name=f"studio-job-{self.id}", daemon=True).start()
        return self

    @property
    def ended(self) -> bool:
        return self._ended.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Ask the work to stop (it stops after the call to the engine it is in)."""
        if not self._cancelled.is_set():
            self._cancelled_at = time.perf_counter()
            self._cancelled.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the work has ended; whether it has."""
        return self._ended.wait(timeout)

    @abstractmethod
    def _work(self) -> None:
        """Do the work (a job's games, a search), stopping soon once `cancelled`."""

    def _run(self) -> None:
        try:
            self._work()
        except Exception as exc:  # shown on the page in place of the answer; the server goes on
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            if self.cancelled:
                self.cancel_seconds = time.perf_counter() - self._cancelled_at
            with self._lock:
                self.version += 1
            self._ended.set()


@dataclass
class Job(Worker):
    """One variant's games, played in a thread until done, cancelled or failed; its answer grows chunk by chunk."""

    variant: Variant
    most_games: int = MOST_GAMES
    tally: Tally = field(default_factory=Tally)
    # the studio's compiled engines (None: compile, or load numba's cache, before the first game)
    engines: Engines | None = None
    waiting: bool = False  # the object engine plays the games while the game's compiled engine compiles

    @property
    def compile_failed(self) -> str | None:
        """Why the game's compiled engine did not compile (the object engine plays on), or None."""
        return self.engines.failed.get(self.variant.spec.name) if self.engines is not None else None

    def _work(self) -> None:
        variant, spec = self.variant, self.variant.spec
        seats, rulebook = variant.policies, spec.rules()
        compared = bool(variant.changes)
        stream = task_rng(variant.seed, 0, 0)  # game g draws from trial_rng(stream, g) under both rule sets
        blocks = [(variant.rules, seats), (rulebook, seats)]
        compiled_plays = spec.compiled is not None and any(spec.compiled.refusal(r, s) is None for r, s in blocks)
        self.waiting = compiled_plays and self.engines is not None and not self.engines.ready(spec)

        def players() -> tuple:
            # each rule set's games made ready once (the compiled engine's tables and forms), for every chunk
            compiled = not self.waiting
            play_variant = games_player(spec, variant.rules, seats, stream, paired=True, compiled=compiled)
            play_rulebook = games_player(spec, rulebook, seats, stream, paired=True, compiled=compiled) \
                if compared else None
            return play_variant, play_rulebook

        with ThreadPoolExecutor(1, thread_name_prefix=f"studio-job-{self.id}-rulebook") as beside:
            if not self.waiting:
                prepare_blocks(spec, blocks)
            play_variant, play_rulebook = players()
            first, size = 0, FIRST_CHUNK
            warming = True  # the first chunk may load numba's cache: its time says nothing of the next ones
            while first < self.most_games and not self.cancelled:
                if self.waiting and self.engines.ready(spec):  # the same games go on, compiled
                    self.waiting, warming = False, True
                    play_variant, play_rulebook = players()
                size = min(size, self.most_games - first)
                started = time.perf_counter()
                # the rulebook's chunk on a second thread while this one plays the variant's: the compiled turn
                # loops release the GIL, so on two cores a pair of games takes little more than one game
                rulebook_chunk = beside.submit(
                    lambda n=first, k=size, play=play_rulebook: game_measures(play(n, k))[0]) if compared else None
                played, kinds = game_measures(play_variant(first, size))
                base = rulebook_chunk.result() if compared else played
                if self.cancelled:
                    break
                with self._lock:
                    self.tally.add(played, base, kinds)
                    self.version += 1
                first += size
                # twice the games while a chunk takes less than its time, half while it takes over twice that (a
                # call's fixed cost, tens of milliseconds, keeps a smaller chunk from paying)
                took = time.perf_counter() - started
                if took < CHUNK_SECONDS:
                    size = min(MOST_CHUNK, 2 * size)
                elif took > 2 * CHUNK_SECONDS and not warming:
                    size = max(FIRST_CHUNK, size // 2)
                warming = False

    def snapshot(self):
        """(version, rows of the answer, games played) read together."""
        with self._lock:
            return self.version, self.tally.rows(), self.tally.games

    def score_counts(self) -> tuple[dict[int, int], dict[int, int]]:
        """How often each final score came up at a seat so far: (under the variant, under the rulebook's rules)."""
        with self._lock:
            return dict(self.tally.scores[0]), dict(self.tally.scores[1])


class SearchStopped(Exception):
    """Raised in a search's thread, between two tasks of games, once the search is cancelled."""


class SearchProgress(Progress):
    """A search's progress meter, silent: the study tells it each task of games it starts and ends; it counts the
    games played, and stops the study (SearchStopped) where the search is cancelled."""

    def __init__(self, search: SearchJob):
        super().__init__(0, "games", enabled=False)
        self.search = search

    def grow(self, steps: int) -> None:
        self.search.stop_if_cancelled()
        super().grow(steps)

    def update(self, steps: int, trials: int) -> None:
        super().update(steps, trials)
        self.search.played_more(trials)


@dataclass
class SearchJob(Worker):
    """A `tyrsim balance` study of the page's rules, its progress counted as its games come, its answer (the
    balance page's sentences, `balance_page.findings`) once done."""

    variant: Variant  # the page's variant when the search started: the study's run's rules, policies and seed
    setup: BalanceSetup
    asked: str = ""  # the search's fields of the page's address (`search.Search.query`)
    played: int = 0  # games played so far (the search's and then the fresh ones; each skill matchup's included)
    spent: int = 0  # search games spent after the last batch
    batches: int = 0
    least: float = float("nan")  # the incumbent's distance from the targets after the last batch
    fresh: int | None = None  # the finalists' fresh games, once the search has ended and they are played
    result: BalanceResult | None = None
    findings: list[str] = field(default_factory=list)

    def snapshot(self) -> tuple[int, int, int, float, int | None]:
        """(games played, search games spent, batches done, least distance so far, fresh games) read together."""
        with self._lock:
            return self.played, self.spent, self.batches, self.least, self.fresh

    def stop_if_cancelled(self) -> None:
        if self.cancelled:
            raise SearchStopped

    def played_more(self, games: int) -> None:
        with self._lock:
            self.played += games * self.setup.tables
            self.version += 1
        self.stop_if_cancelled()

    def _batch_done(self, batch: int, spent: int, distance: float) -> None:
        with self._lock:
            self.batches, self.spent, self.least = batch + 1, spent, distance
            self.version += 1

    def _checking(self, games: int) -> None:
        with self._lock:
            self.fresh = games
            self.version += 1

    def _work(self) -> None:
        from tyrsim.core.report.balance_page import findings

        try:
            result = balance(self.variant.spec, self.setup, n_jobs=1, progress=SearchProgress(self),
                             on_batch=self._batch_done, on_check=self._checking)
        except SearchStopped:
            return
        said = findings(result)
        with self._lock:
            self.result, self.findings = result, said


class JobsBusy(RuntimeError):
    """A new job refused while too many jobs' threads still play (cancelled ones finishing their chunk)."""


class Jobs:
    """The studio's jobs: one per page session (a new one cancels the session's old one), at most `most` alive
    and at most `most_playing` still playing, cancelled ones included; and the sessions' searches, one per
    session and at most `most` alive, counted among the threads playing."""

    def __init__(self, most: int = MOST_JOBS, most_games: int = MOST_GAMES, most_playing: int = MOST_PLAYING,
                 engines: Engines = ENGINES):
        self.most, self.most_games, self.most_playing, self.engines = most, most_games, most_playing, engines
        self._playing: list[Worker] = []  # every job and search started whose thread has not ended
        self._by_session: OrderedDict[str, Job] = OrderedDict()
        self._by_id: dict[int, Job] = {}
        self._stale: OrderedDict[str, Job] = OrderedDict()  # each session's last cancelled job (the newest `most`)
        self._searches: OrderedDict[str, SearchJob] = OrderedDict()
        self._search_by_id: dict[int, SearchJob] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def _room(self, again: str) -> None:
        """JobsBusy while `most_playing` threads still play (under the lock)."""
        self._playing = [work for work in self._playing if not work.ended]
        if len(self._playing) >= self.most_playing:
            playing = len(self._playing)
            raise JobsBusy(f"{playing} earlier job{'s are' if playing != 1 else ' is'} still playing (an edit "
                           "stops a job only after its chunk of games, which a search policy can take minutes "
                           f"over); {again} once {'they have' if playing != 1 else 'it has'} stopped")

    def start(self, session: str, variant: Variant) -> Job:
        """A new job for `session`, its stale one cancelled; the oldest session's job cancelled beyond `most`;
        JobsBusy while `most_playing` jobs still play."""
        self.stop(session)
        with self._lock:
            self._room("edit again")
            while len(self._by_session) >= self.most:
                _, oldest = self._by_session.popitem(last=False)
                oldest.cancel()
                self._by_id.pop(oldest.id, None)
            job = Job(variant, self.most_games, engines=self.engines, id=next(self._ids))
            self._by_session[session] = job
            self._by_id[job.id] = job
            self._playing.append(job)
        return job.start()

    def keep_or_start(self, session: str, variant: Variant) -> Job:
        """The session's job where it plays this very variant (an edit that changed only the search's fields, or
        a page reloaded), else a new one (`start`)."""
        with self._lock:
            job = self._by_session.get(session)
        if job is not None and job.variant == variant:
            return job
        return self.start(session, variant)

    def start_search(self, session: str, variant: Variant, setup: BalanceSetup, asked: str) -> SearchJob:
        """A new search for `session`, its earlier one cancelled; the oldest session's cancelled beyond `most`;
        JobsBusy while `most_playing` jobs and searches still play."""
        with self._lock:
            if (old := self._searches.pop(session, None)) is not None:
                old.cancel()
                self._search_by_id.pop(old.id, None)
            self._room("start the search again")
            while len(self._searches) >= self.most:
                _, oldest = self._searches.popitem(last=False)
                oldest.cancel()
                self._search_by_id.pop(oldest.id, None)
            search = SearchJob(variant, setup, asked, id=next(self._ids))
            self._searches[session] = search
            self._search_by_id[search.id] = search
            self._playing.append(search)
        return search.start()

    def stop(self, session: str) -> None:
        """Cancel the session's job (an edit that cannot be played makes it stale too)."""
        with self._lock:
            if (old := self._by_session.pop(session, None)) is not None:
                old.cancel()
                self._by_id.pop(old.id, None)
                self._stale[session] = old
                self._stale.move_to_end(session)
                while len(self._stale) > self.most:
                    self._stale.popitem(last=False)

    def get(self, job_id: int) -> Job | None:
        with self._lock:
            return self._by_id.get(job_id)

    def search(self, search_id: int) -> SearchJob | None:
        with self._lock:
            return self._search_by_id.get(search_id)

    def of_session(self, session: str) -> Job | None:
        with self._lock:
            return self._by_session.get(session)

    def search_of_session(self, session: str) -> SearchJob | None:
        with self._lock:
            return self._searches.get(session)

    def stale(self, session: str) -> Job | None:
        """The session's last cancelled job (to read how soon it stopped)."""
        with self._lock:
            return self._stale.get(session)

    def cancel_all(self) -> None:
        with self._lock:
            for work in [*self._by_session.values(), *self._searches.values()]:
                work.cancel()
