"""The studio's ASGI app (FastAPI) and the server that runs it (uvicorn).

Routes: `/` the page for the variant (and the search's marks, targets and budget) its address holds; `/view` what
an edit replaces (controls and the job's live answer: a new job, unless the variant is the one playing);
`/open` (POST, a scenario file's bytes) the same for the variant the file holds; `/events/{job}` the job's
answers as server-sent events; `/search` starts the page's balance search ("Find a balanced variant") and
answers its panel, `/search/events/{id}` its progress and answer as server-sent events; `/scenario` the variant
as a scenario file; `/log` a sample game; `/static/` the shipped htmx. Every field is read by
`variant.parse_variant` and `search.parse_view`, with the command line's checks: a request that cannot be played
is answered 400 with the page showing each problem beside its control, never a 500. The app is handed the game
registry (`games`, `names`): core never imports it.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import threading
import time
import webbrowser
from collections.abc import AsyncIterator, Callable, Sequence
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from fastapi.sse import format_sse_event
from fastapi.staticfiles import StaticFiles

from tyrsim.core.engine.analysis import ArgumentError
from tyrsim.core.engine.datafile import MAX_BYTES
from tyrsim.core.engine.limits import MAX_TRIALS
from tyrsim.core.engine.rng import MAX_SEED, task_rng
from tyrsim.core.engine.runner import GameTooLong, play
from tyrsim.core.engine.spec import GameLookup, GameSpec, UnknownGame
from tyrsim.core.studio.jobs import Jobs, JobsBusy, Worker
from tyrsim.core.studio.page import HTMX_CONFIG, controls_context, live_context, render, search_context, search_form
from tyrsim.core.studio.search import SETTINGS, TARGET, VARY, parse_search, parse_view, plan, split_query
from tyrsim.core.studio.variant import (
    DEFAULT_SEED,
    RULE,
    SCENARIO,
    Variant,
    VariantError,
    default_policies,
    parse_variant,
    tuned_policies,
    variant_from_scenario,
)

SESSION = "tyrsim_studio"  # the cookie naming a page's session: its job is cancelled by its next edit
EVENT_POLL = 0.1  # seconds between looks at a job's answer while streaming it
BAD_REQUEST = 400
TOO_MANY_REQUESTS = 429  # a new job while too many earlier ones still play
# the upload "Open scenario" sends: the file's bytes as they are (the page reads no path, and sends none)
OPEN_BODY = {"requestBody": {"required": True, "content": {"application/toml": {
    "schema": {"type": "string", "maxLength": MAX_BYTES},
    "example": 'game = "zooloretto-duell"\nanalysis = "game"\nseed = 1\n[rules]\nstarting_coins = 3\n'}}}}
MOST_LOG_ACTIONS = 20_000  # a sample game's moves at most (the guards end every game far sooner)
LOG_SECONDS = 20.0  # a sample game's time at most: a search policy's game takes minutes, and holds a server thread


def _query_parameters(specs: Sequence[GameSpec], *, games: bool = False, search: bool = False) -> dict[str, Any]:
    """The OpenAPI description of a variant's query string (the app reads it itself, with the command line's
    checks, so a bad value is a 400 with its message, not FastAPI's 422): what a client may send and what
    Schemathesis generates. The games' names, player counts and policies are listed, each valid for some game;
    a rule's field, rule.NAME, differs from game to game and is not listed. `search`: the search's fields too
    (the marked rules, each some game's rule, the targets and the settings)."""
    def one(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
        return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}

    policies = sorted({p for spec in specs for p in [*spec.policies, *tuned_policies(spec)]})
    parameters = [
        one("game", {"type": "string", "enum": [spec.name for spec in specs]}, "the game (default: the first)"),
        one("players", {"type": "integer", "enum": sorted({n for spec in specs for n in spec.players})},
            "the number of players (default: the game's)"),
        {**one("policy", {"type": "array", "items": {"type": "string", "enum": policies}},
               "each seat's policy, in seat order (default: the game's tuned policy)"),
         "style": "form", "explode": True},
        one("seed", {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
            f"the run's seed (default: {DEFAULT_SEED})"),
    ]
    if games:
        parameters.append(one("games", {"type": "integer", "minimum": 1, "maximum": MAX_TRIALS},
                              "the games the scenario plays"))
    if search:
        rules = sorted({name for spec in specs for name in spec.rules.field_names()})
        parameters += [
            {**one(VARY, {"type": "array", "items": {"type": "string", "enum": rules}},
                   "a rule marked to vary in the balance search (repeat)"), "style": "form", "explode": True},
            {**one(TARGET, {"type": "array", "items": {"type": "string", "example": "largest_seat_gap<=0.05"}},
                   "a target of the balance search, METRIC<=VALUE, METRIC>=VALUE or METRIC=VALUE (repeat)"),
             "style": "form", "explode": True},
            *(one(s.name, {"type": "integer", "minimum": s.low, "maximum": s.high}, f"the search's {s.words}")
              for s in SETTINGS)]
    return {"parameters": parameters}


def make_app(games: GameLookup, names: Sequence[str], jobs: Jobs | None = None,
             log_seconds: float = LOG_SECONDS) -> FastAPI:
    """The studio app over the games `names` (looked up with `games`); a sample game is stopped after
    `log_seconds`."""
    jobs = jobs or Jobs()
    app = FastAPI(title="tyrsim studio", docs_url=None, redoc_url=None)
    app.state.jobs = jobs
    app.mount("/static", StaticFiles(directory=str(resources.files("tyrsim.core.studio") / "static")), name="static")
    specs = [games(name) for name in names]

    def session(request: Request) -> str:
        return request.cookies.get(SESSION) or secrets.token_urlsafe(12)

    def search_panel(who: str) -> dict[str, Any] | None:
        search = jobs.search_of_session(who)
        return search_context(search) if search is not None else None

    def view(request: Request, whole: bool, query: list[tuple[str, str]] | None = None) -> Response:
        """The page (`whole`) or its edited part for the variant the query asks for (the request's own, unless
        given): its job (a new one unless the session's plays this variant), or 400 (what cannot be played; a
        search's field that is wrong is a 400 too, beside its control, but the variant's games play on), or 429
        (too many earlier jobs still playing). The session's search, if any, is shown below its button."""
        query = list(request.query_params.multi_items()) if query is None else query
        who = session(request)
        address = ""
        shown, searched = split_query(query)
        try:
            variant = parse_variant(shown, games, names)
        except VariantError as exc:
            jobs.stop(who)
            problems = dict(exc.problems)
            try:
                parse_search(searched, None, jobs.most_games)
            except VariantError as more:
                problems.update(more.problems)
            context = _asked(query, games, names, specs, problems)
            job_id = None
            status = BAD_REQUEST
        else:
            try:
                search, problems = parse_search(searched, variant, jobs.most_games), {}
            except VariantError as exc:
                search, problems = None, exc.problems
            context = controls_context(specs, variant.spec, variant, {}, problems, search_form(search, searched))
            if search is not None:
                address = "&".join(part for part in (variant.query(), search.query()) if part)
            try:
                job = jobs.keep_or_start(who, variant)
            except JobsBusy as exc:
                context.update(busy=str(exc), findings=[f"Nothing is played yet: {exc}"], status="", rows=[],
                               games=0, query="", means_from=0)
                job_id, status = None, TOO_MANY_REQUESTS
            else:
                context.update(live_context(variant, job))
                job_id, status = job.id, BAD_REQUEST if problems else 200
        context.update(job_id=job_id, htmx_config=HTMX_CONFIG, title="tyrsim studio", search_panel=search_panel(who))
        response = HTMLResponse(render("studio.html" if whole else "view.html", **context), status_code=status)
        if status == 200:
            response.headers["HX-Push-Url"] = f"/?{address}"
        response.set_cookie(SESSION, who, httponly=True, samesite="strict")
        return response

    @app.get("/favicon.ico")
    def icon() -> Response:
        return Response(status_code=204)

    variant_query = _query_parameters(specs)
    view_query = _query_parameters(specs, search=True)

    @app.get("/", response_class=HTMLResponse, openapi_extra=view_query)
    def page(request: Request) -> Response:
        return view(request, whole=True)

    @app.get("/view", response_class=HTMLResponse, openapi_extra=view_query)
    def edit(request: Request) -> Response:
        return view(request, whole=False)

    @app.get("/search", response_class=HTMLResponse, openapi_extra=view_query)
    def find(request: Request) -> Response:
        """Start the page's balance search (the session's earlier one cancelled): its panel, streaming its
        progress; or 400 naming each field that cannot be searched, or 429 (too many earlier jobs still
        playing), the panel saying why."""
        who = session(request)
        status = BAD_REQUEST
        try:
            variant, search = parse_view(list(request.query_params.multi_items()), games, names, jobs.most_games)
            setup = plan(variant, search)
        except VariantError as exc:
            problems = exc.problems
        else:
            try:
                jobs.start_search(who, variant, setup, search.query())
            except JobsBusy as exc:
                problems, status = {"search": str(exc)}, TOO_MANY_REQUESTS
            else:
                problems, status = {}, 200
        panel = render("search_panel.html", search_problems=problems, search_panel=search_panel(who))
        response = HTMLResponse(panel, status_code=status)
        response.set_cookie(SESSION, who, httponly=True, samesite="strict")
        return response

    @app.get("/search/events/{search_id}")
    def search_events(search_id: str) -> Response:
        search = jobs.search(int(search_id)) if search_id.isdecimal() and len(search_id) < 12 else None
        if search is None:
            return PlainTextResponse(f"no search {search_id!r} is playing (a newer search replaced it, or it never "
                                     "was)", status_code=404)
        return StreamingResponse(_stream(search, "progress", lambda: render(
            "search_live.html", s=search_context(search))), media_type="text/event-stream",
            headers={"Cache-Control": "no-store"})

    @app.post("/open", response_class=HTMLResponse, openapi_extra=OPEN_BODY)
    async def open_scenario(request: Request) -> Response:
        """A scenario file opened in the page (the upload's bytes, at most MAX_BYTES): the edited part for its
        variant, its address pushed, or 4xx with one paragraph saying what is wrong or what the studio opens."""
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BYTES:
                return PlainTextResponse(f"the file is larger than {MAX_BYTES:,} bytes; a scenario file is a few KB "
                                         "of TOML", status_code=413)
        try:
            variant = variant_from_scenario(bytes(data), games, names)
        except VariantError as exc:
            return PlainTextResponse(exc.problems[SCENARIO], status_code=BAD_REQUEST)
        return view(request, whole=False, query=parse_qsl(variant.query()))

    @app.get("/events/{job_id}")
    def events(job_id: str) -> Response:
        job = jobs.get(int(job_id)) if job_id.isdecimal() and len(job_id) < 12 else None
        if job is None:
            return PlainTextResponse(f"no job {job_id!r} is playing (a newer edit replaced it, or it never was)",
                                     status_code=404)
        return StreamingResponse(_stream(job, "answer", lambda: render("live.html", **live_context(job.variant, job))),
                                 media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    @app.get("/scenario", openapi_extra=_query_parameters(specs, games=True))
    def scenario(request: Request) -> Response:
        query = list(request.query_params.multi_items())
        asked = [(k, v) for k, v in query if k != "games"]
        counts = [v for k, v in query if k == "games"]
        try:
            variant = parse_variant(asked, games, names)
            played = _games(counts)
        except VariantError as exc:
            return PlainTextResponse("\n".join(f"{k}: {m}" for k, m in exc.problems.items()), status_code=BAD_REQUEST)
        return Response(variant.scenario(played), media_type="application/toml",
                        headers={"Content-Disposition": f'attachment; filename="studio_{variant.spec.name}.toml"'})

    @app.get("/log", openapi_extra=variant_query)
    def log(request: Request) -> Response:
        """One sample game of the variant, move by move: the game `tyrsim play` prints with its seed (the object
        engine, which writes play logs)."""
        try:
            variant = parse_variant(list(request.query_params.multi_items()), games, names)
        except VariantError as exc:
            return PlainTextResponse("\n".join(f"{k}: {m}" for k, m in exc.problems.items()), status_code=BAD_REQUEST)
        try:
            return PlainTextResponse(sample_game(variant, log_seconds))
        except GameTooLong as exc:
            return PlainTextResponse(f"{exc}: these rules may never end a game", status_code=422)
        except SampleTooSlow as exc:
            return PlainTextResponse(
                f"the sample game was stopped after {log_seconds:g} s, at move {exc.moves:,}: a search policy plays "
                "a move in a second or more; choose faster policies to see a sample game (the answer's games are "
                "played on)", status_code=422)

    @app.get("/status")
    def status(request: Request) -> dict[str, Any]:
        """The session's job in numbers (for scripts and the benchmark), how soon its stale one stopped, and its
        search's progress and answer."""
        who = session(request)
        stale = jobs.stale(who)
        replaced = None if stale is None else {"job": stale.id, "ended": stale.ended,
                                               "stopped_after": stale.cancel_seconds}
        found = jobs.search_of_session(who)
        search = None
        if found is not None:
            played, spent, batches, _, fresh = found.snapshot()
            search = {"search": found.id, "games": played, "search_games": spent, "batches": batches,
                      "fresh_games": fresh, "ended": found.ended, "cancelled": found.cancelled, "error": found.error,
                      "findings": found.findings}
        job = jobs.of_session(who)
        if job is None:
            return {"job": None, "stale": replaced, "search": search}
        _, rows, played = job.snapshot()
        return {"job": job.id, "stale": replaced, "games": played, "ended": job.ended, "cancelled": job.cancelled,
                "error": job.error,
                "rows": [{"measure": r.measure, "rulebook": r.rulebook, "variant": r.variant,
                          "difference": r.difference, "differs": r.differs} for r in rows], "search": search}

    return app


class SampleTooSlow(RuntimeError):
    """A sample game went on past its time; `moves` were played."""

    def __init__(self, moves: int):
        super().__init__(f"stopped after {moves} moves")
        self.moves = moves


def sample_game(variant: Variant, seconds: float = LOG_SECONDS) -> str:
    """The play log of one game of the variant, its seats and its final scores; SampleTooSlow past `seconds`
    (looked at after each move, so a search policy's last move may run over)."""
    lines: list[str] = []
    deadline = time.perf_counter() + seconds

    def write(line: str) -> None:
        if time.perf_counter() > deadline:
            raise SampleTooSlow(sum(not line.startswith(" ") for line in lines))
        lines.append(line)

    record = play(variant.spec.make_game(variant.rules, variant.players),
                  [variant.spec.make_policy(text) for text in variant.policies], task_rng(variant.seed, 0, 0),
                  log=write, max_actions=MOST_LOG_ACTIONS)
    lines.append("")
    for seat, (text, score) in enumerate(zip(variant.policies, record.scores, strict=True)):
        lines.append(f"P{seat} ({text}): {score:g}{'  winner' if seat in record.winners else ''}")
    return "\n".join(lines) + "\n"


def _games(counts: list[str]) -> int:
    """The scenario's games: one whole number from 1 to MAX_TRIALS, else VariantError("games")."""
    if len(counts) != 1 or not counts[0].isdecimal() or not 1 <= int(counts[0]) <= MAX_TRIALS:
        raise VariantError({"games": f"{counts!r}: give games once, a whole number from 1 to {MAX_TRIALS:,}"})
    return int(counts[0])


def _asked(query: list[tuple[str, str]], games: GameLookup, names: Sequence[str], specs: list,
           problems: dict[str, str]) -> dict[str, Any]:
    """The controls for a query that cannot be played: as sent, beside each problem."""
    query, searched = split_query(query)
    single = dict(query)
    try:
        spec = games(single.get("game") or names[0])
    except UnknownGame:
        spec = None
    asked = {"policies": [v for k, v in query if k == "policy"], "seed": single.get("seed", DEFAULT_SEED),
             "rules": {k[len(RULE):]: v for k, v in query if k.startswith(RULE)}}
    if spec is not None:
        known = set(spec.rules.field_names())
        asked["rules"] = {k: v for k, v in asked["rules"].items() if k in known}
        if not asked["policies"]:
            try:
                asked["policies"] = default_policies(spec, None)
            except ArgumentError:
                asked["policies"] = []
    context = controls_context(specs, spec, None, asked, problems, search_form(None, searched))
    context.update(findings=["Nothing is played: " + "; ".join(problems.values())], status="", rows=[], games=0,
                   query="", means_from=0)
    return context


async def _stream(work: Worker, event: str, shown: Callable[[], str]) -> AsyncIterator[bytes]:
    """A job's or a search's answer as server-sent events: `event` with `shown()` whenever it grows, `done` when
    it ends."""
    seen = -1
    while True:
        version = work.version
        if version != seen:
            seen = version
            yield format_sse_event(event=event, data_str=shown())
        if work.ended and version == work.version:
            yield format_sse_event(event="done", data_str="")
            return
        await asyncio.sleep(EVENT_POLL)


def serve(games: GameLookup, names: Sequence[str], host: str = "127.0.0.1", port: int = 8765,
          open_browser: bool = True) -> None:
    """Run the studio until interrupted: print its address, open the browser unless told not to."""
    import uvicorn

    app = make_app(games, names)
    # a page's event stream stays open while its job plays: a stop waits for it at most a moment
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    print(f"tyrsim studio: {address} (Ctrl-C stops it)", flush=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, (address,)).start()
    try:
        server.run()
    finally:
        app.state.jobs.cancel_all()
        sys.stdout.flush()
