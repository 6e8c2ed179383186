"""Long requests cannot starve short ones: the requests whose work grows with a whole game or source (its game
page, handbook, source text, rulebook, editions and diffs, a term's page) or runs a calculator, and searches with a
long question, take a slot of a few; the rest of waitress's threads are always free for everything else (a search
as people ask one, a ruling, /api/games).

A heavy request beyond the slots waits for one, a few seconds at most, among a bounded number of waiters; the
ones after that, and a waiter whose time runs out, are answered 503 with Retry-After at once. So however many
heavy requests arrive, at most SLOTS + WAITING of THREADS threads hold them."""
from __future__ import annotations

import threading

from flask import Flask, current_app, g, request
from werkzeug.exceptions import ServiceUnavailable

# waitress's worker threads (`rulings serve`). Every page is bounded (linear in what it shows) and heavy ones hold
# at most SLOTS + WAITING of them: THREADS - SLOTS - WAITING always answer light requests.
THREADS = 16
# Heavy requests running at once: their work is Python (one core at a time, whatever the threads), so more would
# only slow each; two keep one long request from holding up the next.
SLOTS = 2
WAITING = 8  # heavy requests that may wait for a slot
WAIT_SECONDS = 10  # how long one waits before it is told to come back
RETRY_AFTER = 2  # seconds, in the 503's Retry-After
# The endpoints whose work grows with a game's or a source's size, or that run a calculator. A term's page reads
# its section's rules and every ruling using it: 60 at once of a 0.24 s one kept a light request 6.5 s.
HEAVY = frozenset({"pages.game", "pages.handbook", "pages.source", "pages.rules", "pages.versions", "pages.diff",
                   "pages.calc", "pages.term", "api.versions_json", "api.diff_json", "api.calc_json",
                   "api.term_json"})
# The endpoints that search with the question `q`, and the length past which a question passes the gate too: its
# search grows with its words (30 at once of 1,000 characters kept a light request 2.5 s); the questions people
# ask are far shorter (the longest of tests/*.jsonl has 124 characters).
SEARCHES = frozenset({"pages.index", "api.search"})
LONG_QUESTION = 200


def is_heavy() -> bool:
    """Whether the request being answered passes the gate: a HEAVY endpoint, or a search with a long question."""
    return request.endpoint in HEAVY or (
        request.endpoint in SEARCHES and len(request.args.get("q", "").strip()) > LONG_QUESTION)


class Gate:
    """At most `slots` heavy requests run at once and `waiting` more wait up to `wait` seconds for a slot;
    `enter` says whether this one may run (then `leave` must follow)."""

    def __init__(self, slots: int = SLOTS, waiting: int = WAITING, wait: float = WAIT_SECONDS):
        self._admitted = threading.BoundedSemaphore(slots + waiting)
        self._running = threading.BoundedSemaphore(slots)
        self.wait = wait

    def enter(self) -> bool:
        if not self._admitted.acquire(blocking=False):
            return False
        if self._running.acquire(timeout=self.wait):
            return True
        self._admitted.release()
        return False

    def leave(self) -> None:
        self._running.release()
        self._admitted.release()


def install(app: Flask, gate: Gate | None = None) -> None:
    """Make `app`'s heavy requests (`is_heavy`) pass `gate` (default: a Gate of SLOTS, WAITING, WAIT_SECONDS), kept
    as `app.extensions["gate"]`: one refused is a 503 with Retry-After, in the app's own error format."""
    app.extensions["gate"] = gate or Gate()

    @app.before_request
    def enter():
        if not is_heavy():
            return
        gate = current_app.extensions["gate"]
        if not gate.enter():
            g.gate_refused = True
            raise ServiceUnavailable("The server is busy with other long requests: try again in a few seconds.")
        g.gate_entered = gate

    @app.after_request
    def retry_after(response):
        if g.pop("gate_refused", False):
            response.headers["Retry-After"] = str(RETRY_AFTER)
        return response

    @app.teardown_request
    def leave(_exc=None):
        entered = g.pop("gate_entered", None)
        if entered:
            entered.leave()
