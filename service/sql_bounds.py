"""Bounds on the SQL anyone may run through Datasette (`rulings browse`): one query stays within a memory bound
and ends near Datasette's time limit.

- No string or blob longer than `value_limit` (SQLite's SQLITE_LIMIT_LENGTH): 1 MiB, or twice the longest value
  the database stores if that is more (a value longer than the limit could not even be read back). A function
  asked for more fails with SQLite's "string or blob too big", at once.
- The rows one query returns add up to at most MAX_ROWS_SIZE characters and bytes; past that the query fails
  with a message saying so, before Datasette renders anything.
- `rulings browse` caps SQLite's memory (`limit_heap`), which holds a whole result row at once: a row of many
  long values fails with "out of memory" instead of taking the server's memory.
- Datasette's time limit is SQLite's progress handler, which SQLite calls every thousand instructions, never
  inside one function call: a thousand instructions can hold a hundred calls of a function written in Python
  (rulings_search takes tens of milliseconds). So every Python function on the connection first asks the
  statement's `Deadline` (the time limit from the moment SQLite's trace callback saw the statement start): past
  it, the function does no work and interrupts the statement, which fails as Datasette's own limit makes it fail
  ("SQL query took too long", a 400). A slow function answers a repeated call within one statement from a memo.
- Every function works on values no longer than the limit, so one call takes milliseconds, except for those
  whose time grows with the product of their arguments' lengths (instr, replace, trim, like, glob) or with a
  number they are given (printf's %c repeated N times): those are replaced on the connection by ones that refuse
  work past MAX_WORK (or a repetition past the limit) with "string or blob too big", and otherwise give what
  SQLite's own give, computed by SQLite in a private in-memory connection. A statement is at most MAX_SQL
  characters, so one row holds a bounded number of calls.
- Functions in REFUSED cannot be called at all ("not authorized"): fts3_tokenizer gives the address of code in
  the process, and given an address it registers a tokenizer there.
- Columns in HIDDEN read as null: pragma_database_list's file is the database's absolute path on the server.
  (Datasette's own `PRAGMA database_list`, a statement no one else may run there, still reads it.)
"""
from __future__ import annotations

import functools
import re
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Hashable
from functools import cache
from pathlib import Path

MAX_VALUE = 2**20
MAX_ROWS_SIZE = 32 * 2**20
MAX_HEAP = 128 * 2**20
MAX_SQL = 10_000
# The longest product of the lengths of the first two arguments each function may work on: a few tenths of a
# second of one core at worst (measured: instr and replace compare with memcmp, about 0.01 ns a pair; trim
# about 4 ns, like and glob about 2 ns, and only for patterns made to backtrack).
MAX_WORK = {"instr": 10**10, "replace": 10**10, "trim": 5 * 10**7, "ltrim": 5 * 10**7, "rtrim": 5 * 10**7,
            "like": 2 * 10**8, "glob": 2 * 10**8}
ARITIES = {"instr": (2,), "replace": (3,), "trim": (2,), "ltrim": (2,), "rtrim": (2,), "like": (2, 3),
           "glob": (2,)}
# A printf conversion: flags, width and precision (each digits or * for the next argument), its letter.
CONVERSION = re.compile(r"%([-+ #0,!]*)(\*|\d+)?(?:\.(\*|\d*))?(?:ll|l)?(.?)")
LEADING_INTEGER = re.compile(r"\s*[-+]?\d+")
REFUSED = {"fts3_tokenizer"}
HIDDEN = {("pragma_database_list", "file")}
MAX_MEMO = 100  # answers one statement keeps (a slow function gives at most a few dozen within the time limit)


class TooLarge(sqlite3.DataError):
    """The rows of one query pass MAX_ROWS_SIZE (a DatabaseError, so Datasette shows it as the query's error)."""


@cache
def value_lengths(db_path: str) -> dict[str, dict[str, int]]:
    """The length in bytes of the longest string or blob in each column of each table and view of the database at
    `db_path`: {table: {column: length}}."""
    conn = sqlite3.connect(Path(db_path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        found = {}
        for (table,) in conn.execute("select name from sqlite_master where type in ('table', 'view') "
                                     "and coalesce(sql, '') not like 'create virtual%'").fetchall():
            columns = [row[1] for row in conn.execute("select * from pragma_table_info(?)", (table,))]
            sizes = conn.execute("select " + ", ".join(f"max(length(cast({quoted(c)} as blob)))" for c in columns)
                                 + f" from {quoted(table)}").fetchone()
            found[table] = {column: size or 0 for column, size in zip(columns, sizes)}
        return found
    finally:
        conn.close()


def longest_stored(db_path: str) -> int:
    """The length in bytes of the longest string or blob any table of the database at `db_path` holds."""
    return max((size for columns in value_lengths(db_path).values() for size in columns.values()), default=0)


def quoted(name: str) -> str:
    """`name` as an SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def value_limit(db_path: str | None) -> int:
    """The longest string or blob a query may make on the database at `db_path` (None: one without a file)."""
    return max(MAX_VALUE, 2 * longest_stored(db_path)) if db_path else MAX_VALUE


def limit_heap(db_path: str) -> int:
    """Cap the memory SQLite may allocate in this process (all connections together), enough for many rows of
    the longest values the database at `db_path` allows; returns the cap in bytes. It can only be lowered."""
    heap = max(MAX_HEAP, 16 * value_limit(db_path))
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(f"pragma hard_heap_limit = {heap}")
    finally:
        conn.close()
    return heap


def bound(conn: sqlite3.Connection, db_path: str | None, seconds: float) -> Deadline:
    """Bound what one query on `conn` may take (see the module's description); `db_path`: its database's file;
    `seconds`: the time limit of one statement. Returns the connection's Deadline, for the functions the caller
    adds to it (Deadline.guard)."""
    limit = value_limit(db_path)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, limit)
    conn.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, MAX_SQL)
    conn.set_authorizer(authorize)
    deadline = Deadline(conn, seconds)
    builtin = Builtins(limit)
    for name in ("printf", "format"):
        conn.create_function(name, -1, deadline.guard(builtin.printf), deterministic=True)
    for name, arities in ARITIES.items():
        for arity in arities:
            conn.create_function(name, arity, deadline.guard(builtin.bounded(name)), deterministic=True)
    conn.row_factory = bounded_rows(conn.row_factory or (lambda cursor, row: row))
    return deadline


def authorize(action: int, first: str | None, second: str | None, *_) -> int:
    """SQLite's authorizer, asked as a statement is prepared: deny a call of a function in REFUSED (for
    SQLITE_FUNCTION, SQLite gives the function's name second); read a column in HIDDEN as null (for
    SQLITE_READ, the table and the column)."""
    if action == sqlite3.SQLITE_FUNCTION and second and second.lower() in REFUSED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_READ and first and second and (first.lower(), second.lower()) in HIDDEN:
        return sqlite3.SQLITE_IGNORE
    return sqlite3.SQLITE_OK


class Deadline:
    """When the statement running on a connection must end: `seconds` after SQLite's trace callback reported it
    starting (each run of a statement, a cached one too). Functions `guard`ed by it do no work past that, and
    interrupt the statement instead."""

    def __init__(self, conn: sqlite3.Connection, seconds: float):
        self.conn, self.seconds = conn, seconds
        self.memo: dict[Hashable, object] = {}  # one statement's answers (`remembered`)
        self.started("")
        conn.set_trace_callback(self.started)

    def started(self, sql: str) -> None:
        self.ends = time.perf_counter() + self.seconds
        self.memo.clear()

    def passed(self) -> bool:
        """Whether the statement is past its time; if so, it is interrupted (it fails with "interrupted", which
        Datasette answers as a query that took too long)."""
        if time.perf_counter() < self.ends:
            return False
        self.conn.interrupt()
        return True

    def guard(self, function: Callable) -> Callable:
        """`function`, doing nothing (and giving null to a statement that fails at once) once the statement is past
        its time."""
        @functools.wraps(function)
        def guarded(*args):
            return None if self.passed() else function(*args)
        return guarded

    def remembered(self, key: Hashable, answer: Callable[[], object]):
        """answer(), or what it gave for `key` earlier in this statement (up to MAX_MEMO answers are kept)."""
        if key in self.memo:
            return self.memo[key]
        found = answer()
        if len(self.memo) < MAX_MEMO:
            self.memo[key] = found
        return found


class Builtins:
    """SQLite's own functions, called in a private in-memory connection per thread with the same length limit."""

    def __init__(self, limit: int):
        self.limit = limit
        self.local = threading.local()

    def call(self, name: str, args: tuple):
        if not hasattr(self.local, "conn"):
            self.local.conn = sqlite3.connect(":memory:")
            self.local.conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, self.limit)
        return self.local.conn.execute(f"select {name}({', '.join('?' * len(args))})", args).fetchone()[0]

    def bounded(self, name: str):
        """SQLite's `name`, refusing arguments whose lengths multiply past MAX_WORK[name]."""
        def function(*args):
            first, second = (len(arg) if isinstance(arg, (str, bytes)) else 20 for arg in args[:2])
            if first * second > MAX_WORK[name]:
                raise OverflowError(name)  # SQLite's "string or blob too big"
            return self.call(name, args)
        return function

    def printf(self, form=None, *args):
        """SQLite's printf, refusing a %c repeated past the length limit at once (SQLite's own counts up to the
        repetition asked for, however large, and then gives null)."""
        if isinstance(form, str) and any(precision > self.limit for precision in repeats(form, args)):
            raise OverflowError("printf")
        return self.call("printf", (form, *args))


def repeats(form: str, args: tuple) -> list[int]:
    """How many times each %c conversion of printf format `form` repeats its character (its precision)."""
    found, next_arg = [], 0
    for match in CONVERSION.finditer(form):
        width, precision, letter = match.group(2), match.group(3), match.group(4)
        if letter == "%":
            continue
        if width == "*":
            next_arg += 1
        if precision == "*":
            precision = integer(args[next_arg]) if next_arg < len(args) else 0
            next_arg += 1
        if letter == "c":
            found.append(abs(int(precision or 0)))
        next_arg += 1
    return found


def integer(value) -> int:
    """An argument as SQLite's printf reads a number from it."""
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    number = LEADING_INTEGER.match(value) if isinstance(value, str) else None
    return int(number.group()) if number else 0


def bounded_rows(row_factory):
    """`row_factory`, failing a query (TooLarge) once the rows it has returned pass MAX_ROWS_SIZE."""
    returned = weakref.WeakKeyDictionary()  # cursor -> characters and bytes of its rows so far

    def make_row(cursor, row):
        size = returned.get(cursor, 0) + sum(len(value) if isinstance(value, (str, bytes)) else 8 for value in row)
        if size > MAX_ROWS_SIZE:
            raise TooLarge(f"the rows of this query pass {MAX_ROWS_SIZE // 2**20} MiB: ask for fewer rows or "
                           "columns, or shorter values (e.g. substr(text, 1, 1000))")
        returned[cursor] = size
        return row_factory(cursor, row)

    return make_row
