"""The HTML pages: ask, ruling, game, source (its versions and what changed), calculators and the printable
handbook."""
from __future__ import annotations

import io
import json
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping
from itertools import groupby, pairwise
from urllib.parse import urlencode

from datasette.utils import tilde_encode
from flask import (Blueprint, Response, abort, current_app, make_response, redirect, render_template, request,
                   send_file, stream_template, url_for)
from markupsafe import Markup, escape
from werkzeug.exceptions import BadRequest

from kb import rulings, store
from kb.layout import blocks
from kb.rulebook import place_of, rule_anchor, rulebook
from kb.editions import redirected
from kb.rulings import details, game_contents, game_rulings, grouped, proof, says_nothing
from kb.search import MAX_K, ask
from kb.terms import named_term, term_page, terms, terms_in
from model import values
from model.kinds import KIND_LABELS
from service.db import get_db
from service.editions import (diff_sections, edition_count, requested_diff, requested_renumbered, ruling_change,
                              source_versions)
from service.params import MAX_QUERY, as_of_arg, search_args

pages = Blueprint("pages", __name__)
# A ruling's stored text as paragraphs, lists and tables; a verification status in plain words.
pages.add_app_template_filter(blocks)
pages.add_app_template_global(proof, "proof_text")
pages.add_app_template_global(says_nothing)
pages.add_app_template_global(rule_anchor)
LINES = re.compile(r"(\d{1,7})(?:-(\d{1,7}))?")


@pages.app_template_global()
def original_url(source_id: str, version: str | None = None, fragment: str = "") -> str:
    """The source's original document (of edition `version`, so that a citation keeps opening the edition it
    cites when a newer one is added), opened where `fragment` says (a PDF's page); under the app's root."""
    return request.script_root + rulings.original_url(source_id, version, fragment)


@pages.app_template_global()
def cite_url(source_id: str, line_start: int, line_end: int, start: int | None = None,
             end: int | None = None) -> str:
    """The source page opened at a citation: scrolled to its exact characters [start, end) of the original text,
    highlighted, when they are given; else at its lines, with those lines highlighted."""
    if start is not None and end is not None:
        return url_for("pages.source", source_id=source_id, start=start, end=end, _anchor="cited")
    return url_for("pages.source", source_id=source_id, lines=f"{line_start}-{line_end}", _anchor=f"L{line_start}")


@pages.app_template_global()
def datasette_url(table: str | None = None, pk: str | None = None, **query) -> str:
    """A Datasette URL for the database, one of its tables or one row (primary keys are tilde-encoded)."""
    parts = [current_app.config["DATASETTE_URL"], current_app.config["DB_PATH"].stem]
    if table:
        parts.append(table)
    if pk:
        parts.append(tilde_encode(pk))
    url = "/".join(parts)
    if query:
        url += "?" + urlencode(query, doseq=True)
    return url


@pages.app_template_global()
def kind_label(kind: str) -> str:
    """What a kind of source is called beside its rulings ("Official FAQ", "House rule")."""
    return KIND_LABELS.get(kind, kind)


class Links(list):
    """A ruling's links (`{"start", "end", "to_id"}`) in text order, with their starts for bisection: a text of
    many pieces (list items, table cells) and many links is linked in n log n, each piece taking only its own."""

    def __init__(self, links: list[dict]):
        super().__init__(sorted(links, key=lambda found: found["start"]))
        self.starts = [found["start"] for found in self]

    def within(self, start: int, end: int) -> list[dict]:
        """The links that start in [start, end]."""
        return self[bisect_left(self.starts, start):bisect_right(self.starts, end)]


@pages.app_template_global()
def link_index(links: list[dict]) -> Links:
    """`links` made ready for `linked` to take each piece's own (once per text, not once per piece)."""
    return links if isinstance(links, Links) else Links(links)


@pages.app_template_global()
def linked(text: str, links: list[dict], anchors: bool | Mapping[str, str] = False, offset: int | None = 0) -> Markup:
    """A ruling's text, escaped, with each place it refers to another ruling (`links`: start, end, to_id)
    made a link to that ruling: its page, or with `anchors` its place on this page: `#<its id>` (the handbook),
    or, where `anchors` maps ruling ids to anchors (the rulebook), `#<anchor>` for a ruling it maps. `text`
    may be a piece of the ruling's text that starts at `offset` (a paragraph, list item or table cell of
    `kb.layout.blocks`): links elsewhere are left out (pass `link_index(links)` for a text of many pieces)."""
    if offset is None:  # a padding cell
        return escape(text)
    parts, at = [], 0
    for link in link_index(links).within(offset, offset + len(text)):
        start, end = link["start"] - offset, link["end"] - offset
        if start < at or end > len(text):  # overlapping or out of this piece: leave it as text
            continue
        target = link["to_id"]
        if isinstance(anchors, Mapping) and target in anchors:
            href = f"#{anchors[target]}"
        elif anchors is True:
            href = f"#{target}"
        else:
            href = url_for("pages.ruling", ruling_id=target)
        parts += [escape(text[at:start]), Markup('<a class="xref" href="{}">{}</a>').format(href, text[start:end])]
        at = end
    parts.append(escape(text[at:]))
    return Markup("").join(parts)


def outline(rulings: list[dict]) -> list[dict]:
    """A game's rulings (in document order, source by source) as its sources, each with its header (the
    rulings that are its title, credits and changes) and its sections: `{"id", "title", "header",
    "sections": [{"anchor", "title", "rulings", "continued", "total"}]}`. A section the document returns to after
    a subsection is `continued`; `total` counts the rulings of every part of the section (the contents shows it
    beside the first); rulings before any section have the title "" and neither is in a contents. One pass,
    linear in the rulings: a 4,000-section rulebook is one page."""
    found, anchor = [], 0
    for source_id, members in groupby(rulings, key=lambda r: r["citation"]["source"]):
        members = list(members)
        entry = {"id": source_id, "title": members[0]["citation"]["source_title"],
                 "header": [r for r in members if r["header"]], "sections": []}
        first: dict[str, dict] = {}  # a section's title -> its first part, which holds the section's total
        body = (r for r in members if not r["header"])
        for section, run in groupby(body, key=lambda r: r["citation"]["section"]):
            anchor += 1
            part = {"anchor": f"s{anchor}", "title": section, "rulings": list(run), "continued": section in first,
                    "total": 0}
            first.setdefault(section, part)["total"] += len(part["rulings"])
            entry["sections"].append(part)
        found.append(entry)
    return found


@pages.route("/")
def index():
    question, game, k = search_args(require_query=False)
    conn = get_db()
    # A link answers as it says: without `game`, in the game its question names, or in all games. The game
    # remembered from the last question only preselects the form's choice, said beside it with a link to clear it.
    remembered = None if "game" in request.args else remembered_game(conn)
    as_of = as_of_arg()
    answer = ask(conn, question, game, k, as_of=as_of) if question else None
    # A question about what a term is or does ("What is ward?") leads to the term's page too: a term of the game
    # asked about, else of the first ruling's.
    term_game = answer and (game or answer["game"] or (answer["results"][0]["game"] if answer["results"] else None))
    about = named_term(conn, term_game, question) if term_game else None
    known = store.games(conn)
    page = make_response(render_template(
        "index.html", question=question, game=game, form_game=game or remembered, remembered=remembered, k=k,
        games=known, answer=answer, groups=grouped(answer) if answer else [], term=about, term_game=term_game,
        as_of=as_of, game_names={g["slug"]: g["name"] for g in known}, max_k=MAX_K, max_query=MAX_QUERY))
    if "game" in request.args:
        page.set_cookie(GAME_COOKIE, game or "", max_age=GAME_KEPT if game else 0, samesite="Lax")
    return page


GAME_COOKIE = "game"
INLINE_RULINGS = 400  # a game page shows its rulings whole up to this many, else its contents
GAME_KEPT = 60 * 60 * 24 * 30  # a month: a tournament, a league season


def remembered_game(conn) -> str | None:
    """The game chosen at the last question, if it is still a game of the database."""
    slug = request.cookies.get(GAME_COOKIE) or None
    return slug if slug and store.game(conn, slug) else None


@pages.route("/r/<path:ruling_id>")
def ruling(ruling_id: str):
    try:
        page = details(get_db(), ruling_id)
    except store.UnknownRuling:
        moved = redirected(get_db(), ruling_id)
        if moved:  # an id its ruling had before its editions were matched by what they say
            return redirect(url_for("pages.ruling", ruling_id=moved), 301)
        abort(404, f"No ruling has the id {ruling_id!r}.")
    return render_template("ruling.html", **page, change=ruling_change(get_db(), ruling_id),
                           terms=terms_in(get_db(), page["ruling"]))


@pages.route("/games/<slug>")
def game(slug: str):
    from engine.calculators import describe
    from engine.registry import games as engine_games
    found = store.game(get_db(), slug) or abort(404, f"No game has the slug {slug!r}.")
    # A game of a few hundred rulings is shown whole; a bigger one by its contents, each section linking to its
    # place in its source's rulebook page (a 3,000-rule rulebook whole was a 4.6 MB page).
    whole = sum(source["rulings"] for source in found["sources"]) <= INLINE_RULINGS
    sources = outline(game_rulings(get_db(), slug)) if whole else game_contents(get_db(), slug)
    if not whole:
        abbrevs = {source["id"]: source["abbrev"] for source in found["sources"]}
        for source in sources:
            for section in source["sections"]:
                section["url"] = url_for("pages.rules", source_id=source["id"]) + "#" + rule_anchor(
                    section["first_id"], section["first_ref"], abbrevs[source["id"]])
    # A game the engine has no calculators for gets no link to an empty page.
    return render_template("game.html", game=found, sources=sources, whole=whole,
                           headers={source["id"]: source["header"] for source in sources},
                           has_calculators=bool(describe().get(slug)), terms=terms(get_db(), slug),
                           has_engine=slug in engine_games())


@pages.route("/terms/<game>/<term>")
def term(game: str, term: str):
    """A term's page: its glossary entries, the rules that define it, every other ruling using it, its history."""
    found = store.game(get_db(), game) or abort(404, f"No game has the slug {game!r}.")
    page = term_page(get_db(), game, term) or abort(404, f"{found['name']} has no term {term!r}: its terms are "
                                                         f"listed on its page, /games/{game}.")
    return render_template("term.html", game=found, page=page)


@pages.route("/handbook/<slug>")
def handbook(slug: str):
    found = store.game(get_db(), slug) or abort(404, f"No game has the slug {slug!r}.")
    return render_template("handbook.html", game=found, sources=outline(game_rulings(get_db(), slug)))


@pages.route("/sources/<source_id>", merge_slashes=False)
def source(source_id: str):
    found = store.source(get_db(), source_id) or abort(404, f"No source has the id {source_id!r}.")
    cited = cited_lines(request.args.get("lines"))
    span = cited_span(request.args.get("start"), request.args.get("end"), len(found["original_text"]))
    chrome, lines = source_lines(found, span)
    return render_template("source.html", source=found, chrome=chrome, lines=lines, cited=cited, span=span,
                           editions=edition_count(get_db(), source_id))


@pages.route("/sources/<source_id>/original", merge_slashes=False)
def original(source_id: str):
    """The source's document as it came, read-only (an edition's with `version`): a kept file as it came (a PDF
    opens at its page with `#page=N`); a text document as plain text."""
    found = store.original(get_db(), source_id, request.args.get("version"))
    if found is None:
        known = store.source(get_db(), source_id) is not None
        abort(404, f"The database keeps no original file of {source_id!r}: it was added before files were kept; "
                   "add it again to keep it." if known else f"No source has the id {source_id!r}.")
    # Header values from the database: the file name made one clean line (a name may hold a newline or a
    # quote), the ETag the document's hash (a version may hold quotes or characters no header can carry).
    response = send_file(io.BytesIO(found["content"]), mimetype=found["media_type"],
                         download_name=values.file_name(found["file"]), etag=found["sha256"], conditional=True)
    # Never run what a document holds; a file served as it came (a PDF) may still need the browser's viewer (an
    # object), which a sandbox would block.
    response.headers["Content-Security-Policy"] = "default-src 'none'; frame-ancestors 'none'; " + (
        "object-src 'self'" if found["as_file"] else "sandbox")
    return response


@pages.route("/rules/<source_id>", merge_slashes=False)
def rules(source_id: str):
    """The source as a rulebook: every rule in document order under its headings, each at its number's anchor. Sent
    as it is written: a big rulebook's page is megabytes (Magic's, 1.7 MB in 0.9 s), and its first screen shows
    while the rest is made."""
    found = rulebook(get_db(), source_id) or abort(404, f"No source has the id {source_id!r}.")
    return Response(in_pieces(stream_template("rulebook.html", **found)))  # a page: Flask's default type


STREAMED_PIECE = 32 * 1024  # characters of a streamed page sent at once: a screenful of rules and more


def in_pieces(parts: Iterator[str]) -> Iterator[str]:
    """A template's stream (many small strings) as pieces of about STREAMED_PIECE characters, the first sent as
    soon as it is written."""
    piece, size = [], 0
    for part in parts:
        piece.append(part)
        size += len(part)
        if size >= STREAMED_PIECE:
            yield "".join(piece)
            piece, size = [], 0
    yield "".join(piece)


@pages.route("/rules/<source_id>/go", merge_slashes=False)
def rule_at(source_id: str):
    """The rulebook page's "go to rule" box without script: `rule` (a number as a judge says it, "702.19b" or "rule
    702.19b") redirects to its place on the page; a number the source gives no rule or heading is a 404 saying so."""
    found = store.source(get_db(), source_id) or abort(404, f"No source has the id {source_id!r}.")
    asked = request.args.get("rule", "").strip()
    if not asked or len(asked) > MAX_QUERY:
        raise BadRequest(f"parameter 'rule' must be a rule's number, e.g. 4.3.6 (at most {MAX_QUERY} characters)")
    anchor = place_of(get_db(), source_id, asked)
    if anchor is None:
        abort(404, f"{found['title']} has no rule or heading numbered {asked!r}.")
    return redirect(url_for("pages.rules", source_id=source_id, _anchor=anchor))


@pages.route("/sources/<source_id>/versions", merge_slashes=False)
def versions(source_id: str):
    """A source's editions, oldest first, each with what it changed and a link to its diff."""
    listed = source_versions(get_db(), source_id)
    return render_template("versions.html", source=source_heading(source_id), versions=listed)


@pages.route("/sources/<source_id>/diff", merge_slashes=False)
def diff(source_id: str):
    """What changed between two editions of a source (`from`, `to`), section by section; the rules moved with their
    text unchanged counted, and listed too with `moved=all`."""
    listed = source_versions(get_db(), source_id)
    found = requested_diff(get_db(), source_id, listed)
    shown = requested_renumbered()
    toggle = url_for("pages.diff", source_id=source_id, to=found["to"], moved=None if shown else "all",
                     **{"from": found["from"]})
    return render_template("diff.html", source=source_heading(source_id), diff=found, versions=listed,
                           sections=diff_sections(get_db(), found, renumbered=shown), renumbered_shown=shown,
                           renumbered=sum(row["diff"] is None for row in found["moved"]), toggle=toggle)


def source_heading(source_id: str) -> dict:
    """What a page about a source's editions names it by: its id, title, game and game's name."""
    return store.one(get_db(), "select s.id, s.title, s.game, g.name as game_name from sources s "
                               "join games g on g.slug = s.game where s.id = ?", [source_id])


def cited_span(start: str | None, end: str | None, length: int) -> tuple[int, int] | None:
    """The `start` and `end` parameters (character offsets into the original text) as a span, or None."""
    if start is None and end is None:
        return None
    values = []
    for name, value in (("start", start), ("end", end)):
        if value is None or not value.isdigit() or len(value) > 9:
            raise BadRequest(f"parameter '{name}' must be a character offset (a whole number) and comes with "
                             f"'{'end' if name == 'start' else 'start'}'")
        values.append(int(value))
    if not values[0] <= values[1] <= length:
        raise BadRequest(f"parameters 'start' and 'end' must satisfy start <= end <= {length} (the text's length)")
    return values[0], values[1]


def source_lines(found: dict, span: tuple[int, int] | None) -> tuple[list[dict], list[dict]]:
    """The source's original lines as (chrome, body): each line {"number", "pieces"}, with the line number its
    citations use (None: none shown) and its text cut into pieces {"text", "mark", "first", "rulings"}:
    `mark` for text inside the cited span (`first` on its first piece), `rulings` for the rulings that start
    where the piece does. Chrome is a web listing's header, the lines before its first numbered line."""
    text = found["original_text"]
    starts: dict[int, list[dict]] = {}
    for row in found["rulings_list"]:
        starts.setdefault(min(row["char_start"], len(text)), []).append(row)
    low, high = span or (0, 0)
    # Every place a piece may end, in order: each line takes those inside it by bisection, not by testing all.
    cuts = sorted({*starts, low, high})
    lines, pos, first = [], 0, True
    for number, line in zip(json.loads(found["line_numbers"]), text.split("\n"), strict=True):
        stop = pos + len(line)
        inside = cuts[bisect_right(cuts, pos):bisect_left(cuts, stop)]
        pieces = []
        for a, b in pairwise(sorted({pos, stop, *inside})):
            mark = low <= a and b <= high and low < high
            pieces.append({"text": text[a:b], "mark": mark, "first": mark and first, "rulings": starts.get(a, [])})
            first = first and not mark
        if stop in starts:  # a ruling starting at the line's end (an empty line, or the end of the text)
            pieces.append({"text": "", "mark": False, "first": False, "rulings": starts[stop]})
        lines.append({"number": number, "pieces": pieces})
        pos = stop + 1
    header = next((i for i, line in enumerate(lines) if line["number"] is not None), 0)
    return lines[:header], lines[header:]


def cited_lines(value: str | None) -> range:
    """The `lines=26-31` (or `lines=26`) parameter as a range of document line numbers."""
    if value is None:
        return range(0)
    match = LINES.fullmatch(value)
    if not match:
        raise BadRequest("parameter 'lines' must look like 26 or 26-31")
    first = int(match[1])
    last = int(match[2] or first)
    if last < first:
        raise BadRequest("parameter 'lines': the range ends before it starts")
    return range(first, last + 1)


@pages.route("/calc/<game>")
def calc(game: str):
    """A form per calculator, generated from its declaration; with `calc=<name>`, that calculator's answer."""
    from engine.calculators import (
        TRUE_WORDS,
        CalcError,
        UnknownCalculator,
        allowed,
        calculators,
        describe,
        find_game,
        run,
        specs,
    )
    try:
        game = find_game(game)
    except UnknownCalculator as exc:
        abort(404, str(exc))
    declared = describe()[game]
    chosen = request.args.get("calc")
    # A checkbox sends "true" after its hidden "false": the last value of a parameter is the one that counts.
    params = {key: request.args.getlist(key)[-1] for key in request.args if key != "calc"}
    params = {key: value for key, value in params.items() if value != ""}
    answer = error = None
    if chosen is not None:
        try:
            answer = run(game, chosen, params)
        except UnknownCalculator as exc:
            raise BadRequest(f"parameter 'calc': {exc}") from None
        except CalcError as exc:
            error = str(exc)
        else:
            answer["rulings"] = ruling_links(answer["rulings"])
    found = store.game(get_db(), game)
    return render_template(
        "calc.html", game=game, game_name=found["name"] if found else game, calculators=declared,
        allowed={name: {param: allowed(spec) for param, spec in specs(calc.function).items()}
                 for name, calc in calculators(game).items()},
        rulings={name: ruling_links(calc["rulings"]) for name, calc in declared.items()},
        chosen=chosen, answer=answer, error=error, params=params, true_words=TRUE_WORDS), 400 if error else 200


def ruling_links(ruling_ids: list[str]) -> list[dict]:
    """The rulings with these ids as `{"id", "ref", "title", "url"}` (a path on this site), in the given order
    (ref and title None if not in the database)."""
    marks = ",".join("?" * len(ruling_ids))
    found = {row["id"]: row for row in
             store.dicts(get_db(), f"select id, ref, title from rulings where id in ({marks})", ruling_ids)}
    unknown = {"ref": None, "title": None}
    return [{"id": ruling_id, "ref": found.get(ruling_id, unknown)["ref"],
             "title": found.get(ruling_id, unknown)["title"], "url": url_for("pages.ruling", ruling_id=ruling_id)}
            for ruling_id in ruling_ids]


@pages.app_template_global()
def ruling_calculators(ruling_id: str) -> list[dict]:
    """The calculators a ruling decides, each with the URL of its form."""
    from engine.calculators import for_ruling
    return [{**found, "url": url_for("pages.calc", game=found["game"], _anchor=f"calc-{found['name']}")}
            for found in for_ruling(ruling_id)]
