"""The studio's jobs: a variant's games played in chunks in a thread, under the variant and the rulebook's rules
(the rulebook's chunk on a second thread at the same time), tallied as they come (`measures.Tally`), and stopped
when an edit makes them stale.

Game g of a job is played under both rule sets from its own stream (`blocks.games_player(..., paired=True)`, the
stream `trial_rng(task_rng(seed, 0, 0), g)`), by the game's compiled engine wherever it plays them: the games and
so the answer after n games are the same whatever the chunks were, and the chunks are sized to take about
`CHUNK_SECONDS`, so that a cancelled job stops within one chunk. A job stops by itself after `MOST_GAMES`;
`Jobs` keeps one job per page session and at most `MOST_JOBS` at once (the oldest is cancelled), and refuses a new
job (`JobsBusy`) while `MOST_PLAYING` jobs' threads still play, cancelled ones included, so neither the games, the
threads nor the memory pages can ask for are unbounded.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from tyrsim.core.engine.rng import task_rng
from tyrsim.core.studies.blocks import games_player, prepare_blocks
from tyrsim.core.studio.measures import Tally, game_measures
from tyrsim.core.studio.variant import Variant

FIRST_CHUNK = 20  # games in a job's first chunk, and in a chunk at least
CHUNK_SECONDS = 0.1  # what a chunk aims to take at least (at most twice this): a cancelled job stops within it
MOST_CHUNK = 20_000  # games in one chunk at most
MOST_GAMES = 200_000  # games a job plays under each rule set before it stops by itself
MOST_JOBS = 4  # jobs alive at once in one studio
# jobs whose threads still play at once, the cancelled ones finishing their chunk included (a chunk of a search
# policy's games can run for minutes after an edit cancels it); a new job past this is refused until some stop
MOST_PLAYING = 2 * MOST_JOBS


@dataclass
class Job:
    """One variant's games, played in a thread until done, cancelled or failed; its answer grows chunk by chunk."""

    variant: Variant
    most_games: int = MOST_GAMES
    id: int = 0
    tally: Tally = field(default_factory=Tally)
    version: int = 0  # bumped whenever the tally grows or the job ends
    error: str | None = None
    cancel_seconds: float | None = None  # from `cancel` to the job's thread stopping
    _cancelled: threading.Event = field(default_factory=threading.Event)
    _ended: threading.Event = field(default_factory=threading.Event)
    _cancelled_at: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Job:
        threading.Thread(target=self._play, name=f"studio-job-{self.id}", daemon=True).start()
        return self

    @property
    def ended(self) -> bool:
        return self._ended.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Ask the job to stop (it stops after the call to the engine it is in)."""
        if not self._cancelled.is_set():
            self._cancelled_at = time.perf_counter()
            self._cancelled.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the job has ended; whether it has."""
        return self._ended.wait(timeout)

    def _play(self) -> None:
        variant = self.variant
        seats, rulebook = variant.policies, variant.spec.rules()
        compared = bool(variant.changes)
        stream = task_rng(variant.seed, 0, 0)  # game g draws from trial_rng(stream, g) under both rule sets
        beside = ThreadPoolExecutor(1, thread_name_prefix=f"studio-job-{self.id}-rulebook")
        try:
            prepare_blocks(variant.spec, [(variant.rules, seats), (rulebook, seats)])
            # each rule set's games made ready once (the compiled engine's tables and forms), for every chunk
            play_variant = games_player(variant.spec, variant.rules, seats, stream, paired=True)
            play_rulebook = games_player(variant.spec, rulebook, seats, stream, paired=True) if compared else None
            first, size = 0, FIRST_CHUNK
            warming = True  # the first chunk may load numba's cache: its time says nothing of the next ones
            while first < self.most_games and not self.cancelled:
                size = min(size, self.most_games - first)
                started = time.perf_counter()
                # the rulebook's chunk on a second thread while this one plays the variant's: the compiled turn
                # loops release the GIL, so on two cores a pair of games takes little more than one game
                rulebook_chunk = beside.submit(lambda n=first, k=size: game_measures(play_rulebook(n, k))[0]) \
                    if compared else None
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
        except Exception as exc:  # shown on the page in place of the answer; the server goes on
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            beside.shutdown()
            if self.cancelled:
                self.cancel_seconds = time.perf_counter() - self._cancelled_at
            with self._lock:
                self.version += 1
            self._ended.set()

    def snapshot(self):
        """(version, rows of the answer, games played) read together."""
        with self._lock:
            return self.version, self.tally.rows(), self.tally.games

    def score_counts(self) -> tuple[dict[int, int], dict[int, int]]:
        """How often each final score came up at a seat so far: (under the variant, under the rulebook's rules)."""
        with self._lock:
            return dict(self.tally.scores[0]), dict(self.tally.scores[1])


class JobsBusy(RuntimeError):
    """A new job refused while too many jobs' threads still play (cancelled ones finishing their chunk)."""


class Jobs:
    """The studio's jobs: one per page session (a new one cancels the session's old one), at most `most` alive
    and at most `most_playing` still playing, cancelled ones included."""

    def __init__(self, most: int = MOST_JOBS, most_games: int = MOST_GAMES, most_playing: int = MOST_PLAYING):
        self.most, self.most_games, self.most_playing = most, most_games, most_playing
        self._playing: list[Job] = []  # every job started whose thread has not ended
        self._by_session: OrderedDict[str, Job] = OrderedDict()
        self._by_id: dict[int, Job] = {}
        self._stale: OrderedDict[str, Job] = OrderedDict()  # each session's last cancelled job (the newest `most`)
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def start(self, session: str, variant: Variant) -> Job:
        """A new job for `session`, its stale one cancelled; the oldest session's job cancelled beyond `most`;
        JobsBusy while `most_playing` jobs still play."""
        self.stop(session)
        with self._lock:
            self._playing = [job for job in self._playing if not job.ended]
            if len(self._playing) >= self.most_playing:
                playing = len(self._playing)
                raise JobsBusy(f"{playing} earlier job{'s are' if playing != 1 else ' is'} still playing (an edit "
                               "stops a job only after its chunk of games, which a search policy can take minutes "
                               f"over); edit again once {'they have' if playing != 1 else 'it has'} stopped")
            while len(self._by_session) >= self.most:
                _, oldest = self._by_session.popitem(last=False)
                oldest.cancel()
                self._by_id.pop(oldest.id, None)
            job = Job(variant, self.most_games, next(self._ids))
            self._by_session[session] = job
            self._by_id[job.id] = job
            self._playing.append(job)
        return job.start()

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

    def of_session(self, session: str) -> Job | None:
        with self._lock:
            return self._by_session.get(session)

    def stale(self, session: str) -> Job | None:
        """The session's last cancelled job (to read how soon it stopped)."""
        with self._lock:
            return self._stale.get(session)

    def cancel_all(self) -> None:
        with self._lock:
            for job in self._by_session.values():
                job.cancel()
