"""Long requests cannot starve short ones: the requests whose work grows with a whole game or source (its game
page, handbook, source text, rulebook, editions and diffs) or runs a calculator take a slot of a few; the rest of
waitress's threads are always free for everything else (a search, a ruling, /api/games).

A heavy request beyond the slots waits for one, a few seconds at most, among a bounded number of waiters; the
ones after that, and a waiter whose time runs out, are answered 503 with Retry-After at once. So however many
heavy requests arrive, at most SLOTS + WAITING of THREADS threads hold them."""
from __future__ import annotations

import threading

from flask import Flask, g, request
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
# The endpoints whose work grows with a game's or a source's size, or that run a calculator.
HEAVY = frozenset({"pages.game", "pages.handbook", "pages.source", "pages.rules", "pages.versions", "pages.diff",
                   "pages.calc", "api.versions_json", "api.diff_json", "api.calc_json"})


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
    """Make `app`'s heavy endpoints (HEAVY) pass `gate` (default: a Gate of SLOTS, WAITING, WAIT_SECONDS): one
    refused is a 503 with Retry-After, in the app's own error format."""
    gate = gate or Gate()

    @app.before_request
    def enter():
        if request.endpoint not in HEAVY:
            return
        if not gate.enter():
            g.gate_refused = True
            raise ServiceUnavailable("The server is busy with other long requests: try again in a few seconds.")
        g.gate_entered = True

    @app.after_request
    def retry_after(response):
        if g.pop("gate_refused", False):
            response.headers["Retry-After"] = str(RETRY_AFTER)
        return response

    @app.teardown_request
    def leave(_exc=None):
        if g.pop("gate_entered", False):
            gate.leave()
