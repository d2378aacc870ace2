"""The studio: a local web page where a designer edits a rule and watches what it does, live (`tyrsim studio`).

`variant` reads and checks what the page asks for (the address is the variant), `measures` turns games into the
live answer with anytime-valid intervals, `jobs` plays the games in chunks and cancels a stale job, `app` is the
ASGI app (FastAPI) serving the page, its parts (the report's templates and its own in `templates/`) and the
shipped htmx (`static/`).
"""
