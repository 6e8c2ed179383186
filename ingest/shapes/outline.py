"""Line-oriented documents: FAQs and rulebooks whose structure is in line prefixes.

Reads the outline dialect the readers produce. Headings: `# Combat`, `***GENERAL RULES`, an ALL-CAPS line, a
numbered chapter (`6. ABILITIES, EFFECTS, AND RESOLVING`), a decimal title over deeper-numbered rules or
questions (`1.2. Golden Rules`), `Article 4: ...`, a short title line over text, questions or numbered units.
Units: decimal rules of any depth (`1.9.4.2`, `702.11b`, knowing their parent rule); numbered and suffixed
items (`1)`, `36a.`), numbered after the heading above them (`Article 4` + `6.` = `4.6`) or the item they are
indented under; lettered sub-cases (`a.`, `A)`); `Q:`/`A:` pairs; glossary terms, one unit each. `Example:`
blocks attach to the unit they follow and end where the next unit or heading begins. Bullets, captions and
any other line are text of the unit they sit in; paragraphs before the first heading or unit are front matter.
A marked heading numbered like a rule (`#### 6.A.1. TEST CASE...`, `## 4.3.6 Challenge`) is that rule: its
text, code blocks and lists are one unit, or, when rules numbered under it follow, its own text is; the
document's numbering, not the heading markup, decides what a numbered heading or rule sits under. A marked
heading that asks a question is a question with its whole answer. Lines between FENCE lines (code) and
footnotes (`[^1]: ...`) are text, never headings or units.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest import labels, links
from ingest.formats import FENCE
from ingest.segment import HEADING_CONNECTORS, SENTENCE_STARTERS, Block, first_sentence, slugify, trim
from ingest.text import MappedText

_SECTION = re.compile(r"^(?:\*{2,}\s*(?P<star>[^*].*?)\s*\**|(?P<hashes>#{1,6})\s+(?P<hash>.+?))\s*$")
_CAPS_SECTION = re.compile(r"^(?P<caps>[A-Z][A-Z0-9 :&/,'’-]{2,60}[A-Z0-9])$")
_LONGEST_HEADING = 120
# A separator: a rule of dashes, or a few words framed by dashes ("- The End –").
_RULE_LINE = re.compile(r"^\s*(?:[-=_*]{5,}|[-–—]\s*[^\W\d_][\w ]{0,20}?\s*[-–—])\s*$")
_ROW = re.compile(r"^\|.*\|$")  # a table row of the outline dialect
# The rights to a document, which its back matter states.
_RIGHTS = re.compile(r"©|\bcopyrights?\b|\ball rights reserved\b|\blicen[cs](?:e|ed)\b|\btrademarks?\b", re.IGNORECASE)
# A lettered part of a rule number: "103.2.a.1", "727.1.c.3.a".
_DOT_LETTER = r"\.[a-z](?![a-z])"
# A capital letter part: "6.A.1" (test cases, appendices numbered under a chapter).
_DOT_CAPITAL = r"\.[A-Z](?![A-Za-z])"
# A decimal number's parts are taken possessively: else "1.1.1...1x" would be split between the two groups
# every way there is before failing. Its numbers are joined by the separators the document numbers with
# (`labels.separators`): "." always, "-" in a document numbered "1-2-1.".
# A document may letter a rule's subrules without a stop ("a If two abilities…" under "1.6 If an ability…"):
# then `bare` reads them.
def _item(joints: str = ".", bare: bool = False) -> re.Pattern:
    joint = "[" + re.escape(joints) + "]"
    letters = r"|(?P<bare>[a-z])\s+(?=[A-Z“\"(])" if bare else ""
    return re.compile(
        r"^\s*(?:"
        rf"(?P<decimal>\d+(?:(?:{joint}\d+)++[a-z]?|{_DOT_LETTER}|{_DOT_CAPITAL})"
        rf"(?:{joint}\d+|{_DOT_LETTER}|{_DOT_CAPITAL})*+)(?:\s?\((?P<sub>[a-z])\))?\.?\s+"
        r"|(?P<roman>(?=[ivx]{2})x{0,3}(?:ix|iv|v?i{0,3}))\.\s+"
        r"|(?P<number>\d{1,3}[a-z]?)[).]\s+"
        r"|\(?(?P<letter>[A-Za-z])\)\s+|(?P<dotted>[a-z])\.\s+"
        rf"{letters}"
        r"|(?P<question>Q(?:uestion)?\s*\d*\s*[:.)])\s*"
        r"|(?P<answer>A(?:nswer)?\s*\d*\s*[:.])\s*"
        r"|(?P<example>(?:EXAMPLES?|Examples?)(?:\s+(?:\d+|[A-Z]))?\s*:)\s*"
        r")"
    )


_ITEM = _item()
# "Stoneskin (2 points): Add one..." - a numbered item that names something.
_NAMED = re.compile(r"^(?P<name>[A-Z][\w'’ /-]{1,40}?)\s*(?:\([^)]*\))?\s*(?::|\s[-–]\s)")
_BULLET = re.compile(r"^\s*(?:[•◦▪‣∙●○■□►➢➤◊◆❖✓*–—-]|o(?=\s+[A-Z“\"(]))\s+")
# Captions of diagrams and tables name a picture, never a section.
_CAPTION = re.compile(r"^(?:#{1,6}\s+)?(?:[Dd]iagram|DIAGRAM|[Tt]able|TABLE|[Ff]ig(?:ure|\.)|FIG(?:URE|\.)|"
                      r"[Ii]llustration|ILLUSTRATION|[Cc]hart|CHART)\s*(?:\d+[a-z]?|[A-Z])\b")
# "1.      CONCEPTS", "6. ABILITIES, EFFECTS, AND RESOLVING": a chapter.
_CHAPTER = re.compile(r"^(?P<n>\d{1,3})[.)]\s+(?P<title>[A-Z][A-Z0-9 ,:&/'’()-]*[A-Z0-9)])$")
# "1.2. Golden Rules": a decimal line that names what follows (a heading when deeper rules follow it).
# "17.1. Dangerous Play:" names its subrules too, when every word of it is capitalised.
_DECIMAL_TITLE = re.compile(r"^(?P<n>\d+(?:\.(?:\d+|[A-Z](?![A-Za-z])))+[a-z]?)\.?\s+"
                            r"(?P<title>[A-Z“\"'(][^.;:!?]{0,60}?[^.;:!?,])(?P<colon>:)?$")
# "100. General": a numbered line that only names what follows.
# A title with commas ("4. Point, Goal and Game") only over rules numbered under it (4.1).
_NUMBERED_SECTION = re.compile(r"^(?P<n>\d{1,4})[.)]\s+(?P<title>[A-Z][\w'’&/ ,-]{1,50}[\w)])$")
# "103. To play, a player must..." / "429. Add": a plain number of a document that numbers its rules from the top.
_TOP_NUMBER = re.compile(r"^\s*(?P<n>\d{1,3})\.\s+(?P<body>\S(?:.*\S)?)\s*$")  # not `\S.*?\s*$`: quadratic
# "727.", "1.4.6.", "1-2-1." or "a." alone on its line, its text on the next ones.
_BARE_NUMBER = re.compile(r"^\s*(?:\d{1,3}(?:[.\-]\d+|\.[a-z])*\.?|[a-z]\.)\s*$")
# Small words a numbered title may have in lower case ("Playing the Game", "Playing or Activating Abilities").
_TITLE_SMALL = frozenset(HEADING_CONNECTORS | {"or", "at", "by", "from", "as", "vs", "per", "into", "onto"})
# "Article", "ARTICLE", "Rule"…: as a heading writes them, never lower case ("see rule 4.2.2e" is a reference).
_KEYWORD = f"(?:{'|'.join(form for word in labels.KEYWORDS for form in (word, word.upper()))})"
# Keywords that name a part of a document, never one rule: "Section 7.2" heads a section however numbered.
_KEYWORD_PART = re.compile(f"^(?:{'|'.join(labels.SECTION_WORDS)})\\b", re.IGNORECASE)
_KEYWORD_HEADING = re.compile(rf"^{_KEYWORD}\s+(?P<n>\d+(?:\.\d+)*)(?!\.?\d)\s*+(?:[:.–—-]\s*+)?[^.!?]*$")
# The number a heading gives the plain items under it: "Article 4: ...", "3 Movement", "A. Rapidplay".
_HEADING_NUMBER = re.compile(rf"^(?:{_KEYWORD}\s+(?P<named>\d+(?:\.\d+)*)\b"
                             r"|\((?P<bracketed>\d{1,3}(?:\.\d+)+)\)(?=\s)"  # "(1.2) Duplicates"
                             r"|(?P<n>\d{1,3}(?:\.(?:\d+|[A-Za-z](?![A-Za-z])))*)(?=[.:)]?(?:\s|$))"
                             r"|(?P<letter>[A-Z])[.:](?=\s))")
# "3 BASIC RULES and what you can do": a number without a stop, then a title (a heading only in a sequence).
_BARE_NUMBERED = re.compile(r"^(?P<n>\d{1,2})\s+(?P<title>[A-Z][^.!?;:]{0,70}[^\s.!?;:,])$")
# "♦Iron Ward [13]": a symbol and a card's number in brackets may frame it.
_FRAMING = re.compile(r"^[\u2190-\u2bff]|\s\[\w{1,8}\]$")
_TITLE_LINE = re.compile(r"^(?P<title>[\u2190-\u2bff]?[A-Z][\w'’&/ ,.()!–—-]{1,68}[\w)!](?:\s\[\w{1,8}\])?)$")
# "Glossary", "Definitions and Terms", "Terms & Definitions", "Keyword Glossary": glossary words, joined
# ("Keywords" alone names a chapter of keyword rules, no glossary).
_GLOSSARY_WORD = r"(?:glossary|definitions?|terms|key terms|terminology)"
_GLOSSARY = re.compile(rf"^(?:(?:\d+[.)]?|[A-Z][.:])\s+)?(?:keywords?\s+)?{_GLOSSARY_WORD}"
                       rf"(?:\s+(?:(?:and|&|of)\s+)?(?:{_GLOSSARY_WORD}|keywords?))*$", re.IGNORECASE)
# "bag: A non-physical zone...": a glossary term and its definition on one line.
_INLINE_TERM = re.compile(r"^(?P<term>[^\s:–—][^:–—]{0,40}?)\s*(?::|\s[–—]\s)\s*(?P<definition>\S.*)$")
# "Hex. One space of the map.": a capitalised term of a few words closed by a full stop, then its definition.
_DOTTED_TERM = re.compile(r"^(?P<term>[A-Z][\w'’/-]{0,30}(?: [\w'’/()-]{1,30}){0,3})\.\s+(?P<definition>[A-Z“\"(].*)$")
# A heading whose last word names what a glossary holds ("Essential Game Terminology", "Game Terms").
_NAMES_TERMS = re.compile(rf"\b{_GLOSSARY_WORD}$", re.IGNORECASE)
_TERM_WORDS = 7
# A document's record of its own revisions ("UPDATE SUMMARY", "Previous Update Summary", "Revision History").
_CHANGELOG = re.compile(r"^(?:previous\s+|recent\s+|earlier\s+|rules?\s+)?(?:update\s+summar(?:y|ies)|change\s*log|"
                        r"summary\s+of\s+changes|changes\s+(?:in|since|from)\b|revision\s+history|"
                        r"version\s+history|what['’]s\s+new|errata)", re.I)
_SENTENCE_END = re.compile(r"[.!?][”\"')\]]*(?:\s+\d+)?$")  # a page number may follow
_ENDS_CLAUSE = re.compile(r"[.!?:;][”\"')\]]*$")
# "Can a unit retreat twice?": text whose first sentence asks.
_ASKS = re.compile(r"^[^.!?]{3,}\?")
# "… still apply?", "… “Skip a turn”?": text whose last sentence asks.
_ENDS_ASKING = re.compile(r"\?[”\"'’)\]]*$")
_SHORT_LINE = 0.8  # a line shorter than this share of the text's width ended there on purpose
_SIBLING_LINES = 200  # how far a numbered step's next sibling is looked for
_QUESTION_LINES = 16  # the most lines a question runs on over (a PDF breaks its lines at each card name)
# A bullet set inside a line, and a question it opens, answered past a wide gap ("Is there a turn limit?    No").
_INLINE_BULLET = re.compile(r"(?:^|(?<=\s))[•●▪◦](?=\s)")
_INLINE_ASKS = re.compile(r"\s*[^?\s][^?]{2,300}?\?[”\"’]?(?:\s{2,}\S|\s*$)")
_INLINE_QUESTIONS = 2  # how many bulleted questions make a line of them
_ASIDE = re.compile(r"\([^()]*\)")  # "(STER-ling)": a line wholly in parentheses
# The words a question opens with ("Does" / "Watchtower Grid" / "see the tunnel…?" is no heading "Does").
_ASKING_WORD = re.compile(r"(?:what|how|why|when|where|which|who|whose|can|could|do|does|did|is|are|was|were|will|"
                          r"would|should|shall|may|might|must|has|have|had|if)\b", re.IGNORECASE)
_OPENS_SENTENCE = re.compile(r"[A-Z“\"‘'(]")
# "[^1]: A judge is any staff member...": a footnote, as the readers write one.
_FOOTNOTE = re.compile(r"^\s*\[\^[^\]\s]+\]:\s*")
# "## A", "## B–C": a glossary's letter headings, which group its entries.
_LETTER_GROUP = re.compile(r"^[A-Z](?:\s*[-–—]\s*[A-Z])?$")


@dataclass
class _Heading:
    level: int
    title: str          # as the section path shows it
    number: str | None  # what plain items under it are numbered after ("4" for Article 4)
    kind: str           # "marked" (#, ***), "caps", "numbered" or "titled"
    glossary: bool = False
    entry: bool = False  # a glossary entry's heading ("### Accuracy"): its text defines the term
    part: bool = False   # a sub-heading inside an entry ("#### Steps of an Attack"): a unit of the entry
    sibling: bool = False  # did a heading of its level close when it opened (one section among others)?
    holds_run: bool | None = None  # does it hold the alphabetical run of entries that follows it?
    owner: Block | None = None  # an entry's or part's unit, which its own text goes to (started on its first line)
    rule: bool = False   # numbered like a rule ("## 4.3 Main Phase") over its rules: its own text takes its number
    # The section path shown for it when it differs from its title: with its number, under the chapter it numbers
    # in the hundreds of ("3 Card Types", "305 Lands"); the ids keep its title, so they stay as they were.
    shown: tuple[str, ...] = ()


def parse_outline(doc: MappedText, root: tuple[str, ...]) -> list[Block]:
    """Cut a line-oriented document into blocks (see the module docstring for the shapes it knows)."""
    return _Outline(doc, root).read()


class _Outline:
    """Where the segmenter is in the document: open headings, the unit lines go to, the numbering so far."""

    def __init__(self, doc: MappedText, root: tuple[str, ...]):
        self.text = doc.text
        lines = list(_lines(self.text))
        # The document's own numbering: the separators its labels join numbers with, and the lines it numbers.
        joints = labels.separators(line for _, line in lines)
        self.item = _item(joints)
        lines = labels.unglue(lines, joints[-1], self.item)
        lines, self.inline_asked = _split_asked(lines)
        if _bare_letters(lines, self.item):
            self.item = _item(joints, bare=True)
        self.code = _fenced(lines)  # line index -> the line of a code block or of the FENCE around it
        # Looking ahead or back, a code block's lines are plain text: "END LOOP" or "# comment" heads nothing.
        self.lines = [(pos, FENCE if index in self.code else line) for index, (pos, line) in enumerate(lines)]
        self.following = _next_nonblank(self.lines)
        self.preceding = _previous_nonblank(self.lines)
        self.numbers = _next_numbers(self.lines, self.item)
        self.entries = _alphabetical_headings(self.lines)
        self.sequenced = _sequenced_headings(self.lines)
        self.root = root
        self.blocks: list[Block] = []
        self.headings: list[_Heading] = []
        self.heading_line = -1
        self.section = root + ("Front Matter",)
        # Each section entered, as shown (see `_Heading.shown`), with how many blocks came before it.
        self.shown: list[tuple[int, tuple[str, ...], tuple[str, ...]]] = []
        self.in_front = True
        self.current: Block | None = None   # the unit text lines go to
        self.last: Block | None = None      # the section's latest unit, which a bullet list after a blank continues
        self.example: list[tuple[int, int]] | None = None
        # Lettered lines of an answer (or of a rule heading's text) are its list, not sub-rulings, and so are
        # its own list numbered from 1.
        self.in_answer = False
        self.answer_indent = 0
        self.answer_items = 0               # the last number of that list
        self.own_number: str | None = None  # the open rule-numbered heading's, until a unit begins under it
        self.own: Block | None = None       # its own text
        self.items: list[tuple[int, str, Block]] = []  # open numbered units: indentation, number; outermost first
        self.case: Block | None = None      # the numbered unit lettered sub-cases belong to
        self.named: Block | None = None     # a named item ("1) Stoneskin (2 points): ...") lettered items nest under
        self.rules: set[str] = set()
        self.last_rule = ""                 # the latest decimal rule's number
        self.decimal_rules: dict[str, Block] = {}
        # How long a full line of the text is (a line ending well short of it ended there on purpose).
        lengths = sorted(len(line.rstrip()) for _, line in self.lines if line.strip())
        self.width = lengths[int(0.9 * (len(lengths) - 1))] if lengths else 0
        # A document numbering its rules from the top (`103.` a rule as much as `103.2.a.1.`): plain numbers are
        # its rules and title lines, counting up through the document, never list items numbered after a heading.
        self.top_rules = _numbers_rules_from_the_top(self.lines, self.numbers)
        self.top = -1                       # the last plain number of that sequence so far
        # A document printing its labels alone on their lines ("1.4.6." over its text, as PDFs lay them out).
        self.lone = _lone_labels(self.lines, self.item)
        self.steps = _stepped(self.lines)  # words the document numbers its steps after ("STEP 7-PLACE…")
        self.listed = _contents_pairs(self.lines, self.following) if self.lone else set()
        self.term_letter = ""               # the first letter of the glossary's latest term
        self.dotted: bool | None = None     # are the glossary's terms "Term. Definition" lines (None: no term yet)?
        self.glossary: list[_Heading] | None = None  # the headings down to the document's glossary heading
        self.spaced: bool | None = None     # or "Term Definition" lines, two columns side by side?
        self.last_term = ""                 # the glossary's latest term, folded
        self.skip: set[int] = set()         # lines read already (the end of a term wrapped over two lines)
        self.asking: set[int] = set()       # the lines a question runs on over, text of it, never headings
        self.asked = -1                     # the line the open question ends on: its answer follows
        self.faq = False                    # do the open heading's questions follow right under it (an FAQ's)?
        self.spaced_out = _spaced_out(self.lines)  # a blank line between all lines (as some PDFs read)
        self.questions = 0
        self.paragraphs = 0
        self.changelog: _Heading | None = None  # the open update summary: what it reprints nests under it
        self.closing = False                 # does that summary run to the end (it starts past the middle)?
        self.heading_numbers: dict[str, _Heading] = {}  # the latest heading of each number
        self.topics: dict[str, str] = {}    # a numbered glossary topic's number ("1 ABILITIES") -> its unit's label
        self.topic_top = 0                  # the highest of those numbers

    def read(self) -> list[Block]:
        for index, (pos, line) in enumerate(self.lines):
            if index in self.code:  # a fence goes with the code, which the stored text keeps line by line
                self._code(index, pos, self.code[index])
                continue
            stripped = line.strip()
            if index in self.skip:
                continue
            if index in self.asking:
                self._text(index, pos, line)
                continue
            if not stripped or _RULE_LINE.match(line):
                if self._parts(index) and (self.in_front or self.current is not None and (
                        self.current.kind == "paragraph" or self.current is self._owner()
                        or self.preceding[index] in self.inline_asked)):  # a bullet's answer ends with it
                    self.current = self.example = None
                continue
            if _FOOTNOTE.match(line):
                self._footnote(pos, line)
                continue
            if self._cross_reference(pos, line):
                continue
            bullet = _BULLET.match(line)
            if index in self.inline_asked:  # "•   Is there a turn limit?    No, play goes on…"
                self.items, self.case, self.named = [], None, None
                self._start(self._question(index), pos + bullet.end(), pos + len(line))
                continue
            if bullet or _CAPTION.match(stripped):
                self._text(index, pos, line, bullet)
                continue
            item = self.item.match(line)
            if self.steps and self._step(pos, line):
                continue
            if (self.top_rules or self.lone) and _BARE_NUMBER.match(line):
                item = _alone(line, self.item)  # a number whose text is on the next lines
                if index in self.listed:  # an entry of a contents page ("1.2." over "The Golden Rules")
                    self._text(index, pos, line)
                    continue
                over = self._label_over_title(index, stripped) if self.lone and item else None
                if over is not None:
                    self._open(over, index)
                    continue
                if item and item.group("decimal") and not self.top_rules and (
                        not self._continues(item.group("decimal"))
                        or self._carried_on(index) and not stripped.endswith(".")):
                    # a rule number a PDF set on a line of its own mid-sentence ("section" / "4.7.8" / ", respectively")
                    self._text(index, pos, line)
                    continue
            if self.headings and self.headings[-1].glossary:
                if not item and self._term(index, pos, line):
                    continue
                if item and self._sense(item):  # "1. Text on an object…": a numbered sense of the term
                    self._text(index, pos, line)
                    continue
                if self.topics and not item and not _marked(stripped):
                    # A glossary of numbered topics holds to its end: an unnumbered line ("Gravity Rift" under a
                    # picture) is text, no heading.
                    self._text(index, pos, line)
                    continue
            heading = self._heading(index, stripped, item)
            if heading:
                if not self._heading_unit(index, pos, line, heading):
                    self._open(heading, index)
            elif not (item and self._unit(index, pos, line, item)):
                self.current = self._resumed(index, stripped) or self.current
                self._text(index, pos, line)
        self._back_matter()
        self._show_sections()
        return self.blocks

    def _back_matter(self) -> None:
        """The document's last section, when it holds no rules but the rights to the document (a licence,
        a copyright or trademark notice, with the credits beside it), is back matter: kind "title", never an
        answer."""
        depth = len(self.root) + 1
        tail = [block for block in self.blocks if block.section[:depth] == self.blocks[-1].section[:depth]] \
            if self.blocks and len(self.blocks[-1].section) >= depth else []
        if not tail or any(block.kind != "paragraph" for block in tail):
            return
        if any(_RIGHTS.search(self.text[start:end]) for block in tail for start, end in block.pieces):
            for block in tail:
                block.kind = "title"

    def _parts(self, index: int) -> bool:
        """Does the blank line at `index` part paragraphs? In text with a blank line between all lines, only
        after a paragraph's last line: a finished sentence ending short of the text's width (or an aside)."""
        previous = self.preceding[index]
        before = self.lines[previous][1].strip() if previous >= 0 else ""
        return not self.spaced_out or not before or _ASIDE.fullmatch(before) is not None or bool(
            _SENTENCE_END.search(before)) and len(self.lines[previous][1].rstrip()) < _SHORT_LINE * self.width

    def _resumed(self, index: int, stripped: str) -> Block | None:
        """The rule whose sentence a line finishes after its list of numbered subrules ("If players cannot
        agree: 1.12.1. what occurred, or 1.12.2. what would have occurred, / the disc must be returned…"):
        a lower-case line after a subrule of that rule (which ends with a colon) whose line ends short of the
        text's width with a list's comma, semicolon, "or" or "and"."""
        current = self.current
        if current is None or current.kind != "rule" or not stripped[:1].islower():
            return None
        parent = self.decimal_rules.get(current.parent or "")
        above = self.lines[index - 1][1].rstrip()
        if parent is None or len(above) >= 0.75 * self.width or not re.search(r"(?:[,;]|\b(?:or|and))$", above):
            return None
        return parent if self.text[parent.pieces[-1][0]:parent.pieces[-1][1]].rstrip().endswith(":") else None

    # Headings

    def _heading(self, index: int, stripped: str, item: re.Match | None) -> _Heading | None:
        if len(stripped) > _LONGEST_HEADING:
            return None
        following = self.following[index]
        if _COLUMNS.search(stripped) and following is not None and _table_cells(self.lines[following][1]):
            return None  # "Result      Points      Tiebreak" over its rows: a table's header
        if item and self._table_row(index, item):
            return None  # "4.5      Sweep      3": a table's last row, no heading of what follows
        marked = _SECTION.match(stripped)
        if marked:
            title = marked.group("star") or marked.group("hash")
            return _Heading(len(marked.group("hashes") or "#"), _section_title(title), _heading_number(title), "marked")
        # A line carrying on the sentence above ("...follow the rules in\nSection 6.5.") is no heading.
        carried = index and not _ENDS_CLAUSE.search(self.lines[index - 1][1].rstrip() or ".")
        keyword = _KEYWORD_HEADING.match(stripped)
        named = keyword and _names_a_topic(stripped[keyword.end("n"):].strip(" :.–—-") or "-")
        if keyword and (named or not carried) and not self._carried_on(index):
            number = keyword.group("n")
            # "Rule 7.11 Instigator & Aggressor": a rule's heading, its own text the rule
            return _Heading(_depth(number), stripped, number, "numbered",
                            rule=_rule_number(number) and not _KEYWORD_PART.match(stripped))
        if self.top_rules and (_TOP_NUMBER.match(stripped) or self.numbers[index] is not None):
            return self._top_heading(index, stripped)
        chapter = _CHAPTER.match(stripped)
        if chapter:
            return _Heading(1, _section_title(chapter.group("title")), chapter.group("n"), "numbered")
        decimal = _DECIMAL_TITLE.match(stripped)
        if decimal and decimal.group("colon") and not _title_case(decimal.group("title")):
            decimal = None
        if decimal and len(decimal.group("title").split()) <= 8 and (
                self._heads_rules(index, decimal.group("n")) or self._stands_empty(index, decimal.group("n"))):
            number = decimal.group("n")
            return _Heading(_depth(number), f"{number} {_section_title(decimal.group('title'))}", number, "numbered")
        numbered = _NUMBERED_SECTION.match(stripped)
        if numbered and "," in numbered.group("title") and not (
                _names_a_topic(numbered.group("title"))
                and labels.within(self.numbers[index] or "", numbered.group("n"))
                and self.numbers[index] != numbered.group("n")):
            numbered = None
        if numbered and self._heads_section(index, numbered.group("n")):
            number, title = numbered.group("n"), _section_title(numbered.group("title"))
            # A number in the hundreds is how the document cites the section ("rule 305"), not its place among
            # chapters: shown with it, under the chapter whose hundreds it numbers ("3 Card Types > 305 Lands").
            chapter = self.heading_numbers.get(number[:-2]) if len(number) > 2 else None
            shown = (*([f"{chapter.number} {chapter.title}"] if chapter else []), f"{number} {title}")
            return _Heading(1, title, number, "numbered", shown=shown if len(number) > 2 else ())
        if item or self._mid_sentence(index):
            return None  # a unit, or words set on a line of their own mid-sentence ("The" / "INSTALL COST" / "of a…")
        # A glossary or an update summary closes the chapters before it, even when the summary then reprints
        # rules numbered in the last one; any other capitalised line inside a chapter is a label of its text.
        if self._inside_chapter(index) and not (_CAPS_SECTION.match(stripped) and (
                _CHANGELOG.match(stripped) or _GLOSSARY.match(stripped) and self._opens_glossary(index))):
            return None
        if index in self.sequenced:
            bare = _BARE_NUMBERED.match(stripped)
            return _Heading(1, f"{bare.group('n')} {_section_title(bare.group('title'))}", bare.group("n"), "numbered")
        if _CAPS_SECTION.match(stripped):
            return _Heading(1, _section_title(stripped), _heading_number(stripped), "caps")
        if self._titled(index, stripped) or (not carried and _GLOSSARY.match(stripped)
                                             and self._opens_glossary(index)):
            return _Heading(0, _section_title(stripped), _heading_number(stripped), "titled")
        return None

    def _top_heading(self, index: int, stripped: str) -> _Heading | None:
        """In a document numbering its rules from the top, a heading is the next plain number with a title
        ("101. Deck Construction", "429. Add") over more rules; its other lines are rules or their text while
        its numbering carries on (a line among them without a number is text: "Keywords can be..." after a bare
        "727."). A round hundred ("300. Playing the Game") opens a chapter; a title right under another is a
        topic inside it; any other is a topic of the chapter."""
        top = _TOP_NUMBER.match(stripped)
        if top is None:
            return None
        number, title = top.group("n"), top.group("body")
        following = self.following[index]
        if int(number) <= self.top or following is None or not _opens_rule(self.lines[following][1]):
            return None
        if not _names_a_topic(title):
            return None
        self.top = int(number)
        previous = self.preceding[index]  # a heading line is never blank: it stops there
        if int(number) % 100 == 0:
            level = 1
        elif previous == self.heading_line and self.headings:
            level = self.headings[-1].level + 1
        else:
            level = 2
        shown = title if len(title) <= 3 else _section_title(title)  # "XP" is no all-capitals heading
        return _Heading(level, f"{number} {shown}", number, "numbered")

    def _continues(self, label: str) -> bool:
        """Does `label` carry the numbering on: a successor of the last rule (see `labels.successors`), or the
        first rule or next topic under an open numbered heading?"""
        numbers = [h.number for h in self.headings if _numeric(h.number)]
        return any(label in labels.successors(number) for number in (self.last_rule, *numbers) if number)

    def _mid_sentence(self, index: int) -> bool:
        """Is line `index` words set on a line of their own inside a sentence, as PDFs set a term in capitals
        ("A" / "ZONE" / "is a place…"): the line above it (past blank lines) ends no clause, and the line
        below carries the sentence on?"""
        previous = self.preceding[index]
        return (previous >= 0 and not _ENDS_CLAUSE.search(self.lines[previous][1].rstrip())
                and self._carried_on(index))

    def _carried_on(self, index: int) -> bool:
        """Does the next line carry the sentence of line `index` on ("Section 9.1.6" / "details the cases…",
        "FLAVOR TEXT" / ", and has no effect…")?"""
        following = self.following[index]
        opening = self.lines[following][1].lstrip()[:1] if following is not None else ""
        return bool(opening) and (opening.islower() or opening in ",;:).")

    def _label_over_title(self, index: int, stripped: str) -> _Heading | None:
        """A label alone on its line over a topic's name ("1.4." then "Deck Construction"): the heading of the
        rules numbered under it that follow (its title line is read with it); None when no rule numbered under
        it follows, or the line under the label is no title (then it is the label's own rule text: "1.10.1."
        over "A", "CREDIT", "([c]) is the basic unit…")."""
        title_at = self.following[index]
        if title_at is None:
            return None
        title = self.lines[title_at][1].strip()
        number = stripped.rstrip(".")
        if not _names_a_topic(title) or not number[:1].isdigit():
            return None
        later = self.numbers[title_at] or ""
        if not labels.within(later, number) or later == number:
            return None
        self.skip.add(title_at)
        return _Heading(_depth(number), f"{number} {_section_title(title)}", number, "numbered")

    def _opens_glossary(self, index: int) -> bool:
        """Is a "Glossary" or "Definitions" line followed by a glossary entry (a term line over its definition,
        or "term: definition"), rather than by a list of contents?"""
        term = self.following[index]
        if term is None:
            return False
        line = self.lines[term][1].strip()
        if self.item.match(line) or _marked(line):
            return False
        if _INLINE_TERM.match(line) or _DOTTED_TERM.match(line):
            return True
        definition = self.following[term]
        return _term_line(line) and definition is not None and _opens_definition(self.lines[definition][1])

    def _inside_chapter(self, index: int) -> bool:
        """Does the open numbered chapter's numbering carry on after line `index`? Then an unnumbered title
        there (a diagram's labels: "BANISHED", "READY   EXERTED") is text inside the chapter, no section."""
        chapter = next((h.number for h in self.headings if h.kind == "numbered"), None)
        following = self.numbers[index]
        return chapter is not None and following is not None and (
            following.split(".")[0] == chapter.split(".")[0])

    def _following_item(self, index: int) -> re.Match | None:
        following = self.following[index]
        return None if following is None else self.item.match(self.lines[following][1])

    def _heads_rules(self, index: int, number: str) -> bool:
        """Is the decimal line at `index` followed by rules numbered under it, or by questions?"""
        following = self._following_item(index)
        if following is not None and following.group("question"):
            return True
        deeper = self.numbers[index] or ""
        return labels.within(deeper, number) and deeper != number

    def _stands_empty(self, index: int, number: str) -> bool:
        """Is the decimal title at `index` ("5.0 General") a heading with nothing under it: followed by a heading
        or by a rule the numbering puts after it, not under it ("5.1 ...")?"""
        following = self.following[index]
        if following is None:
            return False
        line = self.lines[following][1]
        item = self.item.match(line)
        later = item and item.group("decimal")
        return bool(_marked(line.strip()) or _CHAPTER.match(line.strip())
                    or later and not labels.within(later, number) and labels.follows(later, number))

    def _heads_section(self, index: int, number: str) -> bool:
        """Is "N. Title" at `index` a heading rather than a short list item? An item follows its previous
        sibling and is followed by its next one or by a list indented under it; a heading is followed by its
        own numbering, starting again at 1."""
        indent = _indent(self.lines[index][1])
        if any(at == indent and previous == str(int(number) - 1) for at, previous, _ in self.items):
            return False
        following = self._following_item(index)
        if following is None or not following.group("number"):
            return True
        if _indent(self.lines[self.following[index]][1]) > indent:
            return False
        # "3. Card Types" over "300. General": sections numbered in the hundreds of their chapter.
        child = following.group("number")
        return child == "1" or _in_hundreds(child, number)

    def _titled(self, index: int, stripped: str) -> bool:
        """A short unpunctuated line, after a blank line over text or questions and numbered units (past
        blank lines too), or after a finished sentence directly over a question or numbered unit: a plain
        section heading."""
        if len(stripped.split()) > 8 or not _TITLE_LINE.match(stripped):
            return False
        name = _FRAMING.sub("", stripped)  # "♦Iron Ward [13]" names "Iron Ward"
        asking = _ASKING_WORD.match(name) or not _names_a_topic(name)
        if asking and self._asks_on(index) is not None:
            return False  # a line running on into a question ("What happens if the raider plays" / …?) is its text
        following = self.following[index]
        if following is None:
            return False
        item = self.item.match(self.lines[following][1])
        opens = bool(item and (item.group("question") or item.group("decimal") or item.group("number")))
        # a card or topic over the questions asked about it ("Night Raid [12]" over "Can the raider discard…?"),
        # its name's pronunciation perhaps between them
        under = self.following[following] if _ASIDE.fullmatch(self.lines[following][1].strip()) else following
        opens = opens or not asking and under is not None and self._asks_on(under) is not None \
            and _OPENS_SENTENCE.match(self.lines[under][1].strip()) is not None
        previous = self.lines[index - 1][1].strip() if index else ""
        if previous:
            return (opens and following == index + 1 and bool(_SENTENCE_END.search(previous))
                    or self._stands_apart(index, stripped, previous))
        if self.spaced_out:
            # Blank lines say nothing: a topic's name over a sentence it does not carry on, never right under a
            # question, and inside an FAQ's answers only a heading over more questions.
            above = self.preceding[index]
            answering = self.faq and self.current is not None and self.current.kind == "question"
            return opens or (not item and not answering and not asking and not re.search(r"[.!?]\s", stripped)
                             and bool(_OPENS_SENTENCE.match(self.lines[following][1].strip()))
                             and (above < 0 or not _ENDS_ASKING.search(self.lines[above][1].rstrip())))
        return opens or (following == index + 1 and not item)

    def _stands_apart(self, index: int, stripped: str, previous: str) -> bool:
        """In text without blank lines (a PDF's), a heading by the evidence around it: a topic's name in title
        case ("Setting up the Game"), unnumbered like the document's other plain headings, after a finished
        passage (a sentence, a list item) and over body text (a sentence or a list), neither carrying on a
        sentence nor one of a stack of short lines (a picture's caption: "Example 1", "1 Summary")."""
        words = stripped.split()
        if not _names_a_topic(stripped) or any(c.isdigit() for c in words[0] + words[-1]):
            return False
        if not (_ENDS_CLAUSE.search(previous) or _BULLET.match(self.lines[index - 1][1]) or _ROW.match(previous)):
            return False
        body = self.lines[index + 1][1] if index + 1 < len(self.lines) else ""
        if _BULLET.match(body) or self.item.match(body):
            return True
        body = body.strip()
        return (bool(re.match(r"[A-Z“\"(]", body)) and not _names_a_topic(body)
                and (len(body.split()) >= 8 or bool(_SENTENCE_END.search(body)) and len(body.split()) >= 4))

    def _place_entry(self, heading: _Heading, index: int) -> None:
        """Mark a marked heading as a glossary entry (under a glossary heading, or one of an alphabetical run
        of sibling headings) or as a part of the entry above it, and put a run's entries in the glossary: the
        document's glossary heading where it has one, else the headings around the section the run follows
        when that is one section among others with text of its own ("## Timing", its rules, then "###
        Abilities", "### Accuracy"…: the run is no part of Timing; "## Cards" right over its entries holds them)."""
        parents = [h for h in self.headings if not _LETTER_GROUP.match(h.title)]  # "## A" only groups entries
        if _LETTER_GROUP.match(heading.title):
            return
        glossary = bool(parents) and parents[-1].glossary
        if index in self.entries and not glossary:
            if self.glossary and self.glossary[-1].level < heading.level:
                self.headings = list(self.glossary)
            elif self.headings and self.headings[-1].sibling:
                above = self.headings[-1]
                if above.holds_run is None:  # decided at the run's first entry: did text come under `above`?
                    above.holds_run = self.last is None
                if not above.holds_run:
                    self.headings.pop()
        heading.entry = glossary or index in self.entries
        heading.part = not heading.entry and bool(parents) and (parents[-1].entry or parents[-1].part)

    def _open(self, heading: _Heading, index: int) -> None:
        self._enter_changelog(heading, index)
        if heading.kind == "titled":
            # A title line is a topic inside the marked or capitalised heading above it, never inside a numbered one.
            while self.headings and self.headings[-1].kind in ("titled", "numbered"):
                self.headings.pop()
            heading.level = self.headings[-1].level + 1 if self.headings else 1
        else:
            # The document's numbering decides what a numbered heading sits under, whatever its markup level:
            # "## 4.3.6 Challenge" is inside "### 4.3. Main Phase", "### 5.0 General" is not inside "## 4.3".
            number = heading.number if heading.kind in ("marked", "numbered") and not self.top_rules else None
            while self.headings and self.headings[-1].level >= heading.level and not (
                    _numeric(number) and labels.within(number, self.headings[-1].number)):
                closed = self.headings.pop()
                heading.sibling = heading.sibling or closed.level == heading.level
            self._leave_sections_outside(number)
            if self.headings and _numeric(number) and labels.within(number, self.headings[-1].number):
                heading.level = max(heading.level, self.headings[-1].level + 1)
        heading.glossary = bool(_GLOSSARY.match(heading.title))
        if heading.number:
            self.heading_numbers[heading.number] = heading
        if heading.kind == "marked":
            self._place_entry(heading, index)
        self.term_letter, self.dotted, self.spaced, self.last_term = "", None, None, ""
        self.headings.append(heading)
        if heading.glossary:
            self.glossary = list(self.headings)
        self.heading_line = index
        self._enter_section()
        self.in_front, self.in_answer = False, False
        self.current = self.last = self.example = self.case = self.named = None
        self.items = []
        self.own_number, self.own = (heading.number if heading.rule else None), None

    def _enter_section(self) -> None:
        self.section = self.root + tuple(h.title for h in self.headings)
        self.shown.append((len(self.blocks), self.section,
                           self.root + tuple(part for h in self.headings for part in h.shown or (h.title,))))

    def _show_sections(self) -> None:
        """Each block's section as shown (numbered sections with their numbers, see `_Heading.shown`), its id
        keeping the titles: a section's latest showing when the block was made (titles repeat: "General")."""
        showing: dict[tuple[str, ...], tuple[str, ...]] = {}
        entered = iter(self.shown)
        upcoming = next(entered, None)
        for count, block in enumerate(self.blocks):
            while upcoming is not None and upcoming[0] <= count:
                showing[upcoming[1]] = upcoming[2]
                upcoming = next(entered, None)
            inside = next((n for n in range(len(block.section), 0, -1) if block.section[:n] in showing), 0)
            if inside and showing[block.section[:inside]] != block.section[:inside]:
                block.id_section = block.section if block.id_section is None else block.id_section
                block.section = showing[block.section[:inside]] + block.section[inside:]

    def _heading_unit(self, index: int, pos: int, line: str, heading: _Heading) -> bool:
        """Read a marked heading that is a unit of its own: numbered like a rule ("6.A.1. TEST CASE, ...",
        "8.3.5 Go again") with no rules or headings under it, its text, code and lists following until the next
        heading; or asking a question ("Can a unit retreat twice?"), its whole answer following. A rule-numbered
        heading with rules under it is a section whose own text takes its number."""
        if heading.kind != "marked":
            return False
        rule = _rule_number(heading.number)
        marked = _marked(line.strip())
        raw = (marked.group("star") or marked.group("hash")).strip(" *#")
        number = heading.number if _numeric(heading.number) else None
        asked = _ASKS.match(_without_number(raw, number))
        if not (rule or asked) or self._has_parts(index, heading):
            heading.rule = rule and not self.top_rules
            return False
        self._enter_changelog(heading, index)  # a rule an update summary reprints is restated there
        self._leave_sections_outside(number)
        title = _without_number(heading.title, number)
        if asked:
            self.questions += 1
            block = Block(self.section, number or f"q{self.questions}", title, [], kind="question")
            # The question is part of its unit, as after "Q:" or "54.".
            start = pos + line.find(raw) + len(raw) - len(_without_number(raw, number))
        else:
            block = Block(self.section, number, title, [], kind="rule", parent=self._parent_of(number))
            self.rules.add(number)
            start = pos + len(line)  # the number and title are the ruling's label and title
        self.items, self.case, self.named = [], None, None
        self._start(block, start, pos + len(line))
        self.in_answer, self.answer_indent, self.answer_items = True, 0, 0
        return True

    def _has_parts(self, index: int, heading: _Heading) -> bool:
        """Do rules or questions numbered under the marked heading at `index`, or headings under it, follow
        before its next sibling heading?"""
        for later in range(index + 1, len(self.lines)):
            line = self.lines[later][1]
            marked = _marked(line.strip())
            if marked:
                number = _heading_number(marked.group("star") or marked.group("hash"))
                if _numeric(number) and _numeric(heading.number):
                    return labels.within(number, heading.number) and number != heading.number
                return len(marked.group("hashes") or "#") > heading.level
            item = self.item.match(line)
            if item and item.group("question"):
                return True
            inner = item and item.group("decimal")
            if inner and heading.number and labels.within(inner, heading.number) and inner != heading.number:
                return True
        return False

    def _leave_sections_outside(self, number: str | None) -> None:
        """Close the open numbered headings that the document's numbering puts `number` after, not under
        ("4.3.6 Challenge" for rule 4.3.7), down to the first it sits under or that is not numbered."""
        if self.top_rules or not _numeric(number):
            return
        closed = False
        while (self.headings and _numeric(self.headings[-1].number)
               and not labels.within(number, self.headings[-1].number)
               and labels.follows(number, self.headings[-1].number)):
            self.headings.pop()
            closed = True
        if closed:
            self._enter_section()
            self.own_number = self.own = None

    def _enter_changelog(self, heading: _Heading, index: int) -> None:
        """Keep an update summary's parts inside it. An update summary opens a changelog; in one that runs to the
        end of the document (it starts past its middle), the chapters and rules it reprints ("5. CONDITIONS",
        "10.2. Alert", "Alert Keyword Ability") are its sub-sections, not the document's own sections again,
        until a marked heading at its level or a heading numbered with a number the document has not used."""
        if _CHANGELOG.match(heading.title):
            if self.changelog is not None and self.changelog.kind != "marked":
                heading.level = self.changelog.level  # "Previous Update Summary" after "Update Summary"
            self.changelog, self.closing = heading, self.lines[index][0] > len(self.text) // 2
            return
        region = self.changelog
        if region is None:
            return
        new_number = heading.number is not None and heading.number not in self.heading_numbers.keys() | self.rules
        if (not self.closing or new_number or heading.kind == "marked" and heading.level <= region.level
                or region not in self.headings):
            self.changelog = None
            return
        if heading.kind == "titled":  # a topic of the summary ("Alert Keyword Ability"), whatever was open
            heading.kind, heading.level = "caps", region.level + 1
        else:
            heading.level += region.level

    # Units

    def _unit(self, index: int, pos: int, line: str, item: re.Match) -> bool:
        """Start the unit `item` opens; False when the line is only text of the current one."""
        start, end = pos + item.end(), pos + len(line)
        glyph = _BULLET.match(line[item.end():])  # "053.1. * Units and legends say…": the bullet is no text
        if glyph:
            start += glyph.end()
        if item.group("question"):
            self.questions += 1
            self.case = self.named = None
            self.items = []
            self._start(Block(self.section, f"q{self.questions}", "", [], kind="question"), start, end)
            return True
        if item.group("answer"):
            if self.current is None or (item.group("answer").endswith(".") and self.current.kind != "question"):
                return False
            self.example, self.in_answer, self.answer_indent, self.answer_items = None, True, _indent(line), 0
            self._extend(self.current.pieces, pos, end)
            return True
        if item.group("example"):
            if self.current is None:
                return False
            self.example = []
            self.current.examples.append((f"example-{len(self.current.examples) + 1}", self.example))
            self._extend(self.example, start, end)
            return True
        if item.group("decimal"):
            if self._table_row(index, item):
                return False  # "0.5    Draw    1 point": a row of a table, text of what holds the table
            return self._decimal(index, line, item, start, end)
        if item.group("number"):
            if self.top_rules:
                return self._top_rule(line, item, start, end)
            number = item.group("number")
            if self.in_answer and number == str(self.answer_items + 1) and not _ASKS.match(self.text[start:end]):
                self.answer_items += 1  # the answer's own list, counted from 1
                return False
            self._numbered(index, line, item, start, end)
            return True
        if self.in_answer:
            return False
        roman = item.group("roman") or (item.group("dotted") if item.group("dotted") in ("i", "v", "x") else None)
        if roman and (item.group("roman") or self._next_letter() != roman):
            return self._roman(roman, start, end)
        bare = item.groupdict().get("bare")
        if bare and (self.case is None or bare != self._next_letter()):
            return False  # "a Space Dock…" carrying a sentence on, not the subrule that comes next
        letter = (item.group("letter") or item.group("dotted") or bare).lower()
        if self.named is not None:
            block = Block(self.section + (self.named.title,), letter, "", [])
        elif self.case is not None:
            block = Block(self.section, self.case.label + letter, "", [], kind="rule", parent=self.case.label)
        else:
            block = Block(self.section, letter, "", [])
        self._start(block, start, end)
        return True

    def _step(self, pos: int, line: str) -> bool:
        """A step numbered after a word the document repeats ("STEP 7-PLACE GAME BOARD TOKENS: Place the…"): a
        unit numbered so, titled by what it names, its roman items under it."""
        step = _STEP.match(line)
        if not step or step.group("word").casefold() not in self.steps:
            return False
        title = _section_title(step.group("title")) if step.group("title") else ""
        block = Block(self.section, step.group("n"), title, [], kind="rule")
        self.items, self.case, self.named = [], block, None
        self._start(block, pos + step.start("body"), pos + len(line))
        return True

    def _roman(self, numeral: str, start: int, end: int) -> bool:
        """An item numbered in roman ("iv. Using a helmet…") under the numbered rule or subrule above it (label
        "7.1c.iv" under "7.1 (c)", "7.11viii" under rule 7.11's own text), else an item of its own ("ii")."""
        above = self.case.label if self.case is not None else None
        if above:
            joint = "." if above[-1].isalpha() else ""
            block = Block(self.section, f"{above}{joint}{numeral}", "", [], kind="rule", parent=above)
        else:
            block = Block(self.section, numeral, "", [])
        self._start(block, start, end)
        return True

    def _next_letter(self) -> str:
        """The letter the next subrule of the open numbered rule takes: "a" after the rule, "c" after its "b"."""
        last = self.blocks[-1].label if self.blocks else ""
        own = last[len(self.case.label):] if self.case is not None and last.startswith(self.case.label) else ""
        return chr(ord(own) + 1) if len(own) == 1 and own.isalpha() and own < "z" else "a"

    def _table_row(self, index: int, item: re.Match) -> bool:
        """Is the decimal number opening line `index` the first cell of a table's row rather than a rule's
        number: the line and a neighbour are rows laid out in columns, and the number does not carry the
        document's rule numbering on from the last rule (point values 0.5, 1.0, 4.5 in a scoring table)?"""
        if not _table_cells(self.lines[index][1]) or item.group("decimal") in labels.successors(self.last_rule or ""):
            return False
        return any(_table_cells(self.lines[near][1]) for near in (index - 1, index + 1) if 0 <= near < len(self.lines))

    def _decimal(self, index: int, line: str, item: re.Match, start: int, end: int) -> bool:
        label = item.group("decimal") + (item.group("sub") or "")  # "7.1 (a)" is subrule 7.1a
        # A number that a wrapped sentence put at the start of a line ("...the rule in section\n4.3.2 says"),
        # unless it is the number that comes next, written as the rules' numbers are ("1.3.1. know and abide…"
        # under "1.3. … Players must:").
        # So too past the blank lines a PDF sets between all its lines ("…as of version" / "2.1 we count both…").
        previous = self.preceding[index]
        wrapped = (self.current is not None and self.lines[index - 1][1].strip()
                   or previous >= 0 and not _ENDS_CLAUSE.search(self.lines[previous][1].rstrip()))
        if (wrapped and line[item.end():][:1].islower()
                and not (label in labels.successors(self.last_rule) and item.group().rstrip().endswith("."))):
            return False
        self.last_rule = label
        self._leave_sections_outside(label)
        # "6.A.1. TEST CASE, MOVING TO AN AREA..." standing apart over its text: the rule's title.
        own = line[item.end():].strip()
        following = self.following[index]
        titled = own.isupper() and following is not None and following > index + 1
        term = not titled and self._term_over_definitions(index, label, own)
        block = Block(self.section, label, own if term else _section_title(own) if titled else "", [],
                      kind="glossary" if term else "rule", parent=self._parent_of(label))
        self.rules.add(label)
        self.decimal_rules[label] = block
        self.items = [(_indent(line), label, block)]
        self.case, self.named = block, None
        self._start(block, start, end)
        return True

    def _term_over_definitions(self, index: int, label: str, own: str) -> bool:
        """Is the rule numbered `label` at `index` a glossary entry that keeps its number: a few words, no
        sentence ("4-1. Effect", "4-19. / (Forward Slash)"), over rules numbered under it (its definitions),
        numbered right under a chapter whose title names terms ("4. Essential Game Terminology")?"""
        deeper = self.numbers[index] or ""
        return (bool(own) and len(own.split()) <= _TERM_WORDS and own[-1] not in ".,;:!?"
                and labels.within(deeper, label) and deeper != label
                and any((h.glossary or _NAMES_TERMS.search(h.title)) and labels.parent(label) == (h.number or "")
                        for h in self.headings))

    def _top_rule(self, line: str, item: re.Match, start: int, end: int) -> bool:
        """A rule numbered from the top ("103."), when its number carries the document's sequence on; any
        other plain number ("2. Make relevant choices.") is a step in the text of the rule above it."""
        number = item.group("number")
        if not number.isdigit() or int(number) <= self.top:
            return False
        self.top = int(number)
        # A rule that is a numbered step ("401. 1. Activate or trigger the Ability") is titled by the step.
        step = self.item.match(self.text[start:end])
        title = first_sentence(self.text[start + step.end():end]) if step and step.group("number") else ""
        block = Block(self.section, number, title, [], kind="rule")
        self.rules.add(number)
        self.items = [(_indent(line), number, block)]
        self.case, self.named = block, None
        self._start(block, start, end)
        return True

    def _numbered(self, index: int, line: str, item: re.Match, start: int, end: int) -> None:
        number, indent = item.group("number"), _indent(line)
        siblings = False
        while self.items and self.items[-1][0] >= indent:
            siblings = siblings or self.items.pop()[0] == indent
        if self.items and number != "1" and not siblings:  # a list nests from 1; else a sibling shifted right
            self.items.pop()
        if self.items:
            label = f"{self.items[-1][2].label}.{number}"
        else:
            prefix = next((h.number for h in reversed(self.headings) if h.number), None)
            label = f"{prefix}.{number}" if prefix else number
        body = self.text[start:end]
        named = _NAMED.match(body)
        title = named.group("name").strip() if named else first_sentence(body)
        numbered = "." in label
        # "54. What may a unit do...?": a question, its answer's list its own; but a step that asks among steps
        # that do not ("1. Check the timing: may the ability be used now?" over "2. Pay its cost.").
        asks = bool(_ASKS.match(body)) and not self._among_steps(index, number, indent)
        kind = "question" if asks else "rule" if named or numbered else "clarification"
        owner = self._owner()  # a step of a glossary entry is a unit of that entry
        block = Block(self.section, label, title, [], kind=kind,
                      slug=slugify(title) if named and not numbered else None,
                      parent=self._parent_of(label) or (owner.label if owner else None))
        self.rules.add(label)
        self.items.append((indent, number, block))
        self.case = block
        self.named = block if named and not numbered else None
        self._start(block, start, end)
        if asks:
            self.in_answer, self.answer_indent, self.answer_items = True, indent, 0

    def _among_steps(self, index: int, number: str, indent: int) -> bool:
        """Is the numbered item at `index` followed, before the next heading and within a few lines, by its next
        sibling (the next number at its indentation), and does that sibling not ask?"""
        if not number.isdigit():
            return False
        for later in range(index + 1, min(index + _SIBLING_LINES, len(self.lines))):
            line = self.lines[later][1]
            if _marked(line.strip()):
                return False
            item = self.item.match(line)
            if item and item.group("number") and _indent(line) == indent:  # the list's next item decides
                return item.group("number") == str(int(number) + 1) and not _ASKS.match(line[item.end():])
        return False

    def _parent_of(self, label: str) -> str | None:
        """The rule `label` is a subrule of, when that rule is a unit (702.11 for 702.11b, 1.9.4 for 1.9.4.2), or
        the glossary topic numbered so ("1.6" under "1 ABILITIES")."""
        parent = labels.parent(label)
        return parent if parent in self.rules else self.topics.get(parent)

    def _term(self, index: int, pos: int, line: str) -> bool:
        """A glossary term opens a unit: a short line without a full stop after a finished definition, over
        its own definition; or "term: definition", "term — definition", "Term. Definition" on one line. A
        glossary is alphabetical: a term line out of that order ("Credits" after "Zone") is the heading of
        what follows the glossary."""
        stripped = line.strip()
        if _marked(stripped):
            return False  # a marked heading ("## Golden Rules") is never a term
        previous = self.preceding[index]  # a heading line is never blank: it stops there
        # A definition set beside its term may end without a full stop: there, order and shape decide.
        if self.spaced and not stripped[:1].isupper():
            return False  # its terms are capitalised: "end zone" carries the definition above on
        # A line right under unfinished text carries it on; past a blank line the entry above has ended, with
        # or without its full stop ('See rule 702.141, "Encore"' then "Encounter").
        topic = self._next_topic(index, stripped)  # "4 ACTIVE PLAYER", the topic the numbering expects next
        if (previous == index - 1 and previous != self.heading_line and topic is None
                and not _SENTENCE_END.search(self.lines[previous][1].rstrip()) and not self.spaced):
            return False
        if topic is not None:
            term, following = topic
            self.skip.update(range(index + 1, following))
            block = _term_block(self.section, term)
            if self.item.match(self.lines[following][1]):  # no definition, its rules right under it: its name
                self._extend(block.pieces, pos, self.lines[following - 1][0] + len(self.lines[following - 1][1]))
            self._number_topic(block)
            self.blocks.append(block)
            self.current, self.last, self.example = block, block, None
            return True
        inline = _INLINE_TERM.match(stripped)
        if not (inline and len(inline.group("term").split()) <= 5):
            # "Hex. One space…" only in a glossary written so from its first entry: elsewhere a line may
            # open with a short sentence ("Legendary permanents are bound. See rule 704.5j.").
            inline = _DOTTED_TERM.match(stripped) if self.dotted in (None, True) else None
            if inline and inline.group("term").split()[0].lower() in SENTENCE_STARTERS:
                inline = None
            if self.dotted is None:
                self.dotted = inline is not None
        if inline:
            if not self._in_order(inline.group("term")):
                return False
            definition = pos + _indent(line) + inline.start("definition")
            self._start(_term_block(self.section, inline.group("term")), definition, pos + len(line))
            return True
        # "Attacking end zone The end zone in which…": the glossary's columns side by side, from its first entry.
        spaced = _spaced_term(stripped) if self.spaced in (None, True) else None
        if self.spaced is None:
            self.spaced = spaced is not None
        if spaced and self._in_order(spaced[0]):
            self._start(_term_block(self.section, spaced[0]), pos + _indent(line) + spaced[1], pos + len(line))
            return True
        if self.topics:  # a glossary of numbered topics: an unnumbered short line is a picture's label, text
            return False
        following, term = self.following[index], stripped
        while following is not None and _term_fragment(self.lines[following][1]):  # "Making a play on the / disc"
            term += " " + self.lines[following][1].strip()
            following = self.following[following]
        # A term standing apart, a blank line above it and its definition right under it, may be as long as a
        # title ("Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)").
        apart = previous != index - 1 and following == index + 1
        if not _term_line(stripped, apart) or following is None or not _opens_definition(self.lines[following][1]):
            return False
        if not self._in_order(term):
            heading = self.headings[-1]
            self._open(_Heading(heading.level, _section_title(stripped), _heading_number(stripped), heading.kind),
                       index)
            return True
        self.skip.update(range(index + 1, following))
        block = _term_block(self.section, term)
        self._number_topic(block)
        self.blocks.append(block)
        self.current = self.last = block
        self.example = None
        return True

    def _next_topic(self, index: int, stripped: str) -> tuple[str, int] | None:
        """A glossary topic the document numbers, when its number is one not used yet near the one that comes
        next ("4 ACTIVE PLAYER" after topic 3, even right under a rule; "7" alone over "AGENDA CARD"; "11" before
        "10" where a PDF's columns set it so), over its definition:
        (the term, the index of the line its definition starts on), else None."""
        topic = _TOPIC.match(stripped)
        if topic is None or not self.topics or topic.group("n") in self.topics:
            return None
        if abs(int(topic.group("n")) - self.topic_top - 1) > _TOPIC_REORDER:
            return None
        term, following = stripped, self.following[index]
        if not topic.group("title"):  # the number alone, its title on the next line
            if following is None or not _CAPS_SECTION.match(self.lines[following][1].strip()):
                return None
            term = f"{stripped} {self.lines[following][1].strip()}"
            following = self.following[following]
        if following is None:
            return None
        rule = self.item.match(self.lines[following][1])
        under = bool(rule and rule.group("decimal") and labels.within(rule.group("decimal"), topic.group("n")))
        if not (under or _opens_definition(self.lines[following][1])):  # its definition, or its first rule
            return None
        return term, following

    def _in_order(self, term: str) -> bool:
        """Does `term` keep the glossary's alphabetical order so far: by first letter, and in a glossary of
        terms set beside their definitions (where order is what tells a term from a wrapped line) by the
        whole term?"""
        letter = next((c for c in term.casefold() if c.isalpha()), None)
        if letter is None or not letter.isascii():
            return True
        key = " ".join(term.casefold().split())
        if self.term_letter and letter < self.term_letter or self.spaced and key < self.last_term:
            return False
        self.term_letter, self.last_term = letter, key
        return True

    def _sense(self, item: re.Match) -> bool:
        """Is a numbered line inside a glossary entry one of the term's senses ("1. Text on an object…")?"""
        return (self.current is not None and self.current.kind == "glossary" and self.example is None
                and bool(item.group("number") or item.group("dotted")))

    # Text

    def _start(self, block: Block, start: int, end: int) -> None:
        self.own_number = None
        self._number_topic(block)
        if self.changelog is not None and block.kind == "rule":
            block.kind = "restated"  # what an update summary prints is a record of a change, not the rule
        if self.in_front:
            block.section = self.root + block.section[len(self.section):]
            self.in_front, self.section = False, self.root
        self.blocks.append(block)
        self.current = self.last = block
        self.example, self.in_answer = None, False
        self._extend(block.pieces, start, end)

    def _number_topic(self, block: Block) -> None:
        """Remember a glossary topic the document numbers ("1 ABILITIES"): its rules (1.1, 1.2…) sit under it."""
        number = re.match(r"(\d{1,3})\s+\S", block.title) if block.kind == "glossary" else None
        if number:
            self.topics[number.group(1)] = block.label
            self.topic_top = max(self.topic_top, int(number.group(1)))

    def _code(self, index: int, pos: int, line: str) -> None:
        """A line of a code block, or a FENCE around it: text of the unit or paragraph before it, which
        introduces it."""
        if self.current is None:
            self.current = self.last
        self._text(index, pos, line, code=self.code.get(index + 1, "") if line.strip() == FENCE else line)

    def _footnote(self, pos: int, line: str) -> None:
        """A footnote: a paragraph of its own where it stands, never a heading, a unit or a parent."""
        marker = _FOOTNOTE.match(line)
        self.paragraphs += 1
        block = Block(self.section, str(self.paragraphs), first_sentence(line[marker.end():]), [],
                      kind="front-matter" if self.in_front else "paragraph")
        self.blocks.append(block)
        self.current, self.last, self.example = block, None, None
        self._extend(block.pieces, pos + marker.end(), pos + len(line))

    def _text(self, index: int, pos: int, line: str, bullet: re.Match | None = None, code: str | None = None) -> None:
        end = pos + len(line)
        if self.in_answer and not self.lines[index - 1][1].strip() and _indent(line) < self.answer_indent:
            # Past a blank line and left of the answer's margin: the answer has ended.
            self.current = self.example = None
            self.in_answer = False
        if self.example is not None:
            self._extend(self.example, pos, end)
            return
        if self._leaves_steps(index, line, bullet):
            self.current, self.items, self.case, self.named = self._own_unit(), [], None, None
        if self._asks_again(index):
            self.current = self._question(index)
            self.blocks.append(self.current)
            self.last = self.current
        if self.current is None:
            self.current = self._own_unit()
        if self.current is None and bullet and self.last is not None:
            self.current = self.last  # a list after a blank line belongs to the paragraph that introduces it
        if self.current is None and self.own_number is not None:
            if self.own is None:  # "6.A. BASIC CHECKS" over its test cases: its own text is 6.A
                self.own = Block(self.section, self.own_number,
                                 _without_number(self.headings[-1].title, self.own_number), [], kind="paragraph")
                self.blocks.append(self.own)
                self.rules.add(self.own_number)
                self.case = self.own  # its lettered and roman items are its subrules
            self.current = self.last = self.own
        if self.current is None:
            stripped = line[bullet.end():].strip() if bullet else line.strip()
            self.paragraphs += 1
            kind = "front-matter" if self.in_front else "changelog" if self.changelog else "paragraph"
            if code is not None:  # a code block of its own, titled by its first line
                block = Block(self.section, str(self.paragraphs), first_sentence(code), [], kind=kind)
            elif stripped.endswith(":") and len(stripped.split()) <= 6:
                block = Block(self.section, slugify(stripped), stripped.rstrip(":"), [],
                              kind="changelog" if self.in_front else kind)
            elif kind == "paragraph" and (_ENDS_ASKING.search(stripped) or self._asks_on(index) is not None):
                # A paragraph that ends asking ("If I retreat after moving, does it…?", "I attack
                # with both knights. Can each…?"), on this line or over the next: a question, the paragraphs
                # after it its answer.
                block = self._question(index)
            else:
                block = Block(self.section, str(self.paragraphs), first_sentence(stripped), [], kind=kind)
            self.blocks.append(block)
            self.current = self.last = block
        self._extend(self.current.pieces, pos, end)

    def _asks_on(self, index: int) -> int | None:
        """The line a question opening at line `index` ends on: the text runs, over a few lines of its paragraph
        (past blank lines only where they stand between all lines), to a line ending asking, no line before it
        ending a sentence or being a heading, a numbered unit or an aside in parentheses ("What happens if the
        raider plays" / "Swap" / " to trade places with" / "Ada Sterling" / "?"); None when it
        does not."""
        at: int | None = index
        for _ in range(_QUESTION_LINES):
            if at is None:
                return None
            line = self.lines[at][1].strip()
            if at != index and (self.item.match(line) or _marked(line)) or _ASIDE.fullmatch(line):
                return None
            if _ENDS_ASKING.search(line):
                return at
            if _ENDS_CLAUSE.search(line) and not self._carried_on(at):  # "Gotcha!" / ", and the roll…" goes on
                return None
            following = self.following[at]
            if following is not None and following > at + 1 and not self.spaced_out:
                return None  # a blank line ends a paragraph
            at = following
        return None

    def _question(self, index: int) -> Block:
        """A question opening at line `index`; the lines it runs on over are its text."""
        end = self._asks_on(index)
        above = self.preceding[index]
        if above >= 0 and _ASIDE.fullmatch(self.lines[above][1].strip()):
            above = self.preceding[above]
        self.faq = above == self.heading_line or self.faq and self.current is not None \
            and self.current.kind == "question"
        self.asked = end if end is not None else index
        self.asking.update(range(index + 1, self.asked + 1))
        self.questions += 1
        return Block(self.section, f"q{self.questions}", "", [], kind="question")

    def _asks_again(self, index: int) -> bool:
        """Inside an answer, does line `index` ask the next question about the same heading: after a finished
        sentence of the answer, text running to a line that asks ("No. Resting is not healing." / "Does
        resting at camp … count" / "…?")?"""
        if self.current is None or self.current.kind != "question" or index <= self.asked:
            return False
        previous = self.preceding[index]
        if previous <= self.asked or not _SENTENCE_END.search(self.lines[previous][1].rstrip()):
            return False
        return bool(_OPENS_SENTENCE.match(self.lines[index][1].strip())) and self._asks_on(index) is not None

    # Glossary entries: one unit holds an entry's whole definition, up to the next heading; a sub-heading inside
    # it is a unit of the entry; its numbered steps are units of their own under it.

    def _owner(self) -> Block | None:
        """The unit of the open entry or part heading, if its text has begun."""
        return self.headings[-1].owner if self.headings else None

    def _own_unit(self) -> Block | None:
        """The unit the open entry's (or part's) own text goes to, started on its first line: the entry's
        term, or the part's title, over it (in the section of the heading above); None outside an entry."""
        heading = self.headings[-1] if self.headings else None
        if heading is None or not (heading.entry or heading.part):
            return None
        if heading.owner is None:
            section = self.section[:-1]
            if heading.entry:
                heading.owner = _term_block(section, heading.title)
            else:
                above = next((h.owner for h in reversed(self.headings[:-1]) if h.owner), None)
                heading.owner = Block(section, slugify(heading.title), heading.title, [], kind="paragraph",
                                      parent=above.label if above else None)
            self.blocks.append(heading.owner)
            self.last = heading.owner
        return heading.owner

    def _leaves_steps(self, index: int, line: str, bullet: re.Match | None) -> bool:
        """Inside an entry, does `line` come back from the entry's numbered steps to its own text: at the list's
        margin or left of it, after a blank line or as a list of its own? (A line indented under a step, or
        carrying on its last line, is the step's.)"""
        heading = self.headings[-1] if self.headings else None
        if not self.items or heading is None or not (heading.entry or heading.part):
            return False
        after_blank = not self.lines[index - 1][1].strip()
        return _indent(line) <= self.items[0][0] and (after_blank or bullet is not None)

    def _cross_reference(self, pos: int, line: str) -> bool:
        """A "Related Topics: A, B" or "See also: A" line attaches to its unit as links, never its text: to the
        open entry's unit (it closes the entry, whatever part it follows), else the current or last unit."""
        if not links.cross_reference_line(line.strip()):
            return False
        entry = next((h.owner for h in reversed(self.headings) if h.entry and h.owner), None)
        unit = entry or self.current or self.last
        if unit is None:
            return False
        start, end = trim(self.text, pos, pos + len(line))
        unit.related.append((start, end))
        return True

    def _extend(self, target: list[tuple[int, int]], start: int, end: int) -> None:
        start, end = trim(self.text, start, end)
        if start < end and target and self.text[target[-1][1]:start] == "\n" and self.text[start].islower():
            target[-1] = (target[-1][0], end)  # a wrapped line ("and Black)") joins its line: a list item's too
        elif start < end:
            target.append((start, end))


def _lines(text: str):
    pos = 0
    for line in text.split("\n"):
        yield pos, line
        pos += len(line) + 1


def _split_asked(lines: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], set[int]]:
    """`lines` with each line that runs questions together as bullets, each answered after it ("•   Is there a
    turn limit?    No, play goes on…  •   Can armour stop a fall?    No. …", a page flattened onto one line),
    split at its bullets; and the indexes of the bullets that ask."""
    found: list[tuple[int, str]] = []
    asked: set[int] = set()
    for start, line in lines:
        cuts = [m.start() for m in _INLINE_BULLET.finditer(line)]
        parts = [line[a:b] for a, b in zip(cuts, [*cuts[1:], len(line)])]
        asking = [bool(_INLINE_ASKS.match(_BULLET.sub("", part, count=1))) for part in parts]
        if sum(asking) < _INLINE_QUESTIONS:
            found.append((start, line))
            continue
        if cuts[0]:
            found.append((start, line[:cuts[0]].rstrip()))
        for cut, part, asks in zip(cuts, parts, asking, strict=True):
            if asks:
                asked.add(len(found))
            found.append((start + cut, part.rstrip()))
    return found, asked


def _spaced_out(lines: list[tuple[int, str]]) -> bool:
    """Does a blank line stand between nearly all lines of the text, lines that mostly wrap a sentence (a PDF
    whose reader set one after each line), so that blank lines do not part paragraphs? (Paragraphs of a line
    each end their sentences.)"""
    text = [index for index, (_, line) in enumerate(lines[:-1]) if line.strip()]
    return (len(text) >= 50 and sum(not lines[index + 1][1].strip() for index in text) >= 0.9 * len(text)
            and sum(bool(_SENTENCE_END.search(lines[index][1].rstrip())) for index in text) <= 0.6 * len(text))


def _fenced(lines: list[tuple[int, str]]) -> dict[int, str]:
    """The lines of code blocks and the FENCE lines around them, by index (a fence left open holds nothing)."""
    found: dict[int, str] = {}
    opened = None
    for index, (_, line) in enumerate(lines):
        if line.strip() == FENCE:
            if opened is None:
                opened = index
            else:
                found.update((inside, lines[inside][1]) for inside in range(opened, index + 1))
                opened = None
    return found


def _numeric(number: str | None) -> bool:
    return bool(number) and number[0].isdigit()


def _rule_number(number: str | None) -> bool:
    """Is `number` numbered like a rule, with parts ("4.3.6", "6.A.1"), not a chapter ("6") or a letter?"""
    return _numeric(number) and bool(re.search(r"[.\-]", number))


def _without_number(title: str, number: str | None) -> str:
    """A heading's title without the number it starts with ("6.A.1. Test Case, ..." -> "Test Case, ...", "Rule
    7.11 Instigator" -> "Instigator")."""
    if not number:
        return title
    return re.sub(rf"^(?:{_KEYWORD}\s+)?\(?{re.escape(number)}[.:)]?\s*", "", title) or title


def _next_nonblank(lines: list[tuple[int, str]]) -> list[int | None]:
    """For each line, the index of the next non-blank line after it (None at the end)."""
    following: list[int | None] = [None] * len(lines)
    upcoming = None
    for index in range(len(lines) - 1, -1, -1):
        following[index] = upcoming
        if lines[index][1].strip():
            upcoming = index
    return following


def _previous_nonblank(lines: list[tuple[int, str]]) -> list[int]:
    """For each line, the index of the last non-blank line before it (-1 at the start)."""
    preceding: list[int] = []
    last = -1
    for index, (_, line) in enumerate(lines):
        preceding.append(last)
        if line.strip():
            last = index
    return preceding


def _sequenced_headings(lines: list[tuple[int, str]]) -> set[int]:
    """Indices of headings numbered without a stop ("3 BASIC RULES and what you can do"), whatever their case:
    short lines set apart (after a blank line or a finished passage, over text) whose numbers count 1, 2, 3…
    through the document, three at least. A caption's count ("1 Summary", "30 Destination Tickets") keeps
    no such sequence."""
    chains: dict[int, list[int]] = {}  # number -> the longest chain of headings counting up to it
    for index, (_, line) in enumerate(lines):
        bare = _BARE_NUMBERED.match(line.strip())
        if not bare or len(bare.group("title").split()) > 10:
            continue
        above = lines[index - 1][1].strip() if index else ""
        below = lines[index + 1][1].strip() if index + 1 < len(lines) else ""
        if above and not (_ENDS_CLAUSE.search(above) or _BULLET.match(above)) or not below \
                or _BARE_NUMBERED.match(below):
            continue
        number = int(bare.group("n"))
        if number == 1 or number - 1 in chains:
            chains[number] = chains.get(number - 1, []) + [index] if number > 1 else [index]
    longest = max(chains.values(), key=len, default=[])
    return set(longest) if len(longest) >= 3 else set()


# An alphabetical run of this many sibling headings, over this many letters, is a glossary's entries.
_ALPHABETICAL_RUN = 8
_ALPHABETICAL_LETTERS = 4


def _alphabetical_headings(lines: list[tuple[int, str]]) -> set[int]:
    """Indices of marked headings ("### Accuracy") that are entries of an alphabetical glossary: a run of
    sibling headings whose first letters never go back, long enough not to be chance."""
    found: set[int] = set()
    runs: dict[int, list[tuple[int, str]]] = {}  # level -> the run of its headings open so far

    def close(level: int) -> None:
        run = runs.pop(level, [])
        if len(run) >= _ALPHABETICAL_RUN and len({letter for _, letter in run}) >= _ALPHABETICAL_LETTERS:
            found.update(index for index, _ in run)

    for index, (_, line) in enumerate(lines):
        marked = _marked(line.strip()) if line[:1] in "#*" else None
        if not marked:
            continue
        level = len(marked.group("hashes") or "#")
        for deeper in [at for at in runs if at > level]:
            close(deeper)
        title = (marked.group("star") or marked.group("hash")).casefold()
        letter = next((c for c in title if c.isalpha()), "")
        run = runs.get(level, [])
        if run and (not letter or letter < run[-1][1]):
            close(level)
        if letter:
            runs.setdefault(level, []).append((index, letter))
    for level in list(runs):
        close(level)
    return found


def _next_numbers(lines: list[tuple[int, str]], opening: re.Pattern = _ITEM) -> list[str | None]:
    """For each line, the number of the next decimal rule or numbered chapter after it (None when none follows)."""
    numbers: list[str | None] = [None] * len(lines)
    upcoming = None
    for index in range(len(lines) - 1, -1, -1):
        numbers[index] = upcoming
        line = lines[index][1]
        item = _alone(line, opening) or opening.match(line)
        chapter = _CHAPTER.match(line.strip()) if len(line) <= 2 * _LONGEST_HEADING else None
        if item and item.group("decimal"):
            upcoming = item.group("decimal")
        elif chapter:
            upcoming = chapter.group("n")
    return numbers


# How far from the next number a numbered glossary topic may stand: a PDF's columns can set "11 ASTEROID FIELD"
# and "12 ATTACH" before "10 ANTI-FIGHTER BARRAGE".
_TOPIC_REORDER = 3
# "4 ACTIVE PLAYER", "7" (its title on the next line): a glossary topic the document numbers.
_TOPIC = re.compile(r"^(?P<n>\d{1,3})(?:\s+(?P<title>[A-Z][A-Z0-9 ,'’&()/-]{1,60}))?$")
# "STEP 7-PLACE GAME BOARD TOKENS: Place the custodians…", "Phase 2: Draw": a step numbered after a word.
_STEP = re.compile(r"^\s*(?P<word>[A-Z][A-Za-z]{2,11})\s+(?P<n>\d{1,2})\s*[-–—:.]\s*"
                   r"(?:(?P<title>[A-Z][A-Z0-9 '’&/-]{2,60}[A-Z0-9])\s*:\s*)?(?P<body>\S.*)$")
# How many lines a word must number, counting up from 1, to be the word the document numbers its steps after.
_STEPS = 3


def _stepped(lines: list[tuple[int, str]]) -> set[str]:
    """The words (folded) the document numbers steps after: each opens lines numbered 1, 2, 3… and naming the
    step (`_STEPS` at least, in order, a restart at 1 allowed), as "STEP 1-DETERMINE SPEAKER: Randomly…",
    "STEP 2-CHOOSE FACTIONS: Each…" do."""
    counted: dict[str, int] = {}
    last: dict[str, int] = {}
    for _, line in lines:
        step = _STEP.match(line)
        if not step or not step.group("title"):  # a step names what it does; "Note 1: If…", "Example 2: The…" don't
            continue
        word, number = step.group("word").casefold(), int(step.group("n"))
        if number == 1 or number > last.get(word, 0):
            counted[word] = counted.get(word, 0) + 1
        last[word] = number
    # The words a heading's number follows number sections and rules, never steps.
    return {word for word, count in counted.items()
            if count >= _STEPS and not re.fullmatch(_KEYWORD, word, re.IGNORECASE)}


def _bare_letters(lines: list[tuple[int, str]], opening: re.Pattern) -> bool:
    """Does the document letter its rules' subrules without a stop ("a If two abilities…" under "1.6 …")? At
    least `labels.EVIDENCE` lines opening with a letter and a capitalised word, each the letter that comes next
    under the numbered rule just above ("a" right after it, "b" right after "a")."""
    bare = re.compile(r"^\s*([a-z])\s+[A-Z“\"(]")
    expected, found = "", 0
    for _, line in lines:
        if not line.strip():
            continue
        item = opening.match(line)
        letter = bare.match(line)
        if item and item.group("decimal"):
            expected = "a"
        elif letter and letter.group(1) == expected:
            found += 1
            expected = chr(ord(expected) + 1)
        else:
            expected = ""
    return found >= labels.EVIDENCE


def _alone(line: str, opening: re.Pattern) -> re.Match | None:
    """The item a label alone on its line opens ("1.4.6.", its text on the next lines), or None."""
    return opening.match(line.rstrip() + " ") if _BARE_NUMBER.match(line) else None


def _lone_labels(lines: list[tuple[int, str]], opening: re.Pattern) -> bool:
    """Does the document print its rule labels alone on their lines ("1.4.6." over the rule's text)? At least
    `labels.EVIDENCE` such labels, each following on from the one before (see `labels.successors`)."""
    alone = [item.group("decimal") for _, line in lines
             if (item := _alone(line, opening)) and item.group("decimal")]
    return labels.chained(alone) >= labels.EVIDENCE


# Labels over titles in a row, this many of them siblings, are a contents page; a title wraps over a few lines.
_CONTENTS_RUN = 3
_WRAPPED_TITLE = 3


def _title_words(line: str) -> bool:
    """Is `line` (a part of) a title in a contents page: a few words, no sentence, no label?"""
    stripped = line.strip()
    return (0 < len(stripped.split()) <= 7 and stripped[-1] not in ".,;:!?"
            and not _BARE_NUMBER.match(line) and not _ITEM.match(stripped))


def _contents_pairs(lines: list[tuple[int, str]], following: list[int | None]) -> set[int]:
    """Indices of the label lines of a contents page laid out as a label alone on its line over its title ("1.2."
    then "The Golden Rules"): runs of such pairs with nothing between them, numbered on from one to the next,
    that list siblings (1.1 then 1.2) `_CONTENTS_RUN` times at least, or that the document's numbering starts
    again after, from the run's first label ("1." "Basics" … "2.1." "Goods", then "1." "Basics"). A chapter,
    its first section and its first rule opening with a short phrase ("4." "Game Zones", "4.1." "Zones",
    "4.1.1." "A" / "ZONE" / "is a…") each sit under the one before: the document's own headings, no contents."""
    found: set[int] = set()
    run: list[tuple[int, str]] = []

    def close(restarted: bool = False) -> None:
        siblings = sum(not labels.within(later, earlier) for (_, earlier), (_, later) in zip(run, run[1:]))
        if siblings >= _CONTENTS_RUN or restarted and len(run) >= _CONTENTS_RUN:
            found.update(index for index, _ in run)
        run.clear()

    index = next((i for i, (_, line) in enumerate(lines) if line.strip()), None)
    while index is not None:
        title = following[index]
        if (_BARE_NUMBER.match(lines[index][1]) and title is not None and _title_words(lines[title][1])
                and _names_a_topic(lines[title][1].strip())):
            label = lines[index][1].strip().rstrip(".")
            if run and not labels.follows(label, run[-1][1]):
                # the numbering starts again: the contents ended, and the document's own chapters begin
                close(restarted=label == run[0][1])
            run.append((index, label))
            index = following[title]
            for _ in range(_WRAPPED_TITLE):  # "Steps of Triggering / and Resolving a Conditional / Ability"
                if index is None or not _title_words(lines[index][1]):
                    break
                index = following[index]
            continue
        close()
        index = following[index]
    close()
    return found


def _numbers_rules_from_the_top(lines: list[tuple[int, str]], numbers: list[str | None]) -> bool:
    """Does the document number its rules from the top level, "103." a rule as much as "103.2.a."? Then its
    plain numbers count up through the whole document, many of them are rules (a sentence, not a title) and
    many are followed by their own subrules ("103." then "103.1."): not a list restarting at 1 under each
    heading, nor a few chapters."""
    tops = [(index, match) for index, (_, line) in enumerate(lines) if (match := _TOP_NUMBER.match(line))]
    if len(tops) < 20:
        return False
    values = [int(match.group("n")) for _, match in tops]
    ascending = sum(later > earlier for earlier, later in zip(values, values[1:]))
    sentences = sum(bool(_SENTENCE_END.search(match.group("body"))) for _, match in tops)
    parents = sum((numbers[index] or "").startswith(match.group("n") + ".") for index, match in tops)
    return ascending >= 0.9 * (len(tops) - 1) and sentences >= 0.25 * len(tops) and parents >= 0.1 * len(tops)


def _opens_rule(line: str) -> bool:
    """Does `line` start a numbered rule ("103.", "103.2.a.", a bare "727.")?"""
    item = _ITEM.match(line)
    return bool(_TOP_NUMBER.match(line) or _BARE_NUMBER.match(line) or (item and item.group("decimal")))


def _names_a_topic(title: str) -> bool:
    """Is `title` the name of a topic ("Deck Construction", "Step 1: Finalize", "1v1 (Duel)") rather than a
    rule's sentence or a numbered step ("1. Activate the Ability"): a few title-case words (one lower-case word
    besides connectors), no final stop?"""
    words = title.split()
    if len(words) > 7 or title[-1] in ".,;:!?" or not re.match(r"[A-Z0-9“\"'(]", title) or _ITEM.match(title):
        return False
    lower = [w for w in words if w.strip("“”\"'()")[:1].islower() and w.lower() not in _TITLE_SMALL]
    return len(lower) <= 1


def _title_case(title: str) -> bool:
    """Is every word of `title` capitalised but the small ones ("Defensive Throwing (Marking) Fouls")?"""
    return all(word.strip("“”\"'()")[:1].isupper() or word.lower() in _TITLE_SMALL for word in title.split())


def _table_cells(line: str) -> re.Match | None:
    """`line` as a row of a table laid out in columns: a number, then cells set apart by wide gaps (a row is
    short: a long line is none, and is not matched, the pattern backtracking over long runs of spaces)."""
    return _TABLE_ROW.match(line) if len(line) <= _LONGEST_ROW else None


_COLUMNS = re.compile(r"\S(?>(?: {3,}|\t)\s*)\S.*\S(?: {3,}|\t)\s*\S")  # three cells or more, set apart
_LONGEST_ROW = 200
# "0.5      Draw        1": a number in the first column, then at least one more cell past a wide gap.
_TABLE_ROW = re.compile(r"^\s*[-+]?\d+(?:\.\d+)?\.?(?: {2,}|\t)\s*\S[^\t]*?(?: {3,}|\t)\s*\S")


def _in_hundreds(number: str, chapter: str) -> bool:
    """Is `number` a section in the hundreds of `chapter` ("305" of "3", "1204" of "12")?"""
    return number.isdigit() and chapter.isdigit() and len(number) == len(chapter) + 2 and number.startswith(chapter)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _depth(number: str) -> int:
    return len(re.findall(r"[.\-]", number)) + 1


def _heading_number(title: str) -> str | None:
    match = _HEADING_NUMBER.match(title.strip(" *#"))
    return match and (match.group("named") or match.group("bracketed") or match.group("n") or match.group("letter"))


def _marked(line: str) -> re.Match | None:
    """`line` (stripped) as a marked heading ("## Golden Rules"); a line too long for a heading is none (and
    is not matched: the heading pattern backtracks over long runs of spaces)."""
    return _SECTION.match(line) if len(line) <= _LONGEST_HEADING else None


def _term_line(line: str, apart: bool = False) -> bool:
    """Could `line` (stripped) be a glossary term on a line of its own: short (as short as a title when it
    stands `apart` over its definition), not a sentence, not a unit?"""
    short = (len(line) <= 50 and len(line.split()) <= 6
             or apart and bool(_TITLE_LINE.match(line)) and len(line.split()) <= 8)
    return short and line[-1] not in ".,;:?!" and not _ITEM.match(line) and not _marked(line)


def _opens_definition(line: str) -> bool:
    """Does `line` open a glossary term's definition: a sentence, or its first numbered sense ("1. Text…")?"""
    item = _ITEM.match(line)
    if item and item.group("number") == "1":
        return _defines(line[item.end():].strip())
    return _defines(line.strip())


def _defines(line: str) -> bool:
    """Does `line` read as a definition (a wrapped or finished sentence, or one introducing a list: "A player
    establishes possession of a pass when:"), not a heading or another term?"""
    introduces = line.rstrip().endswith(":") and len(line.split()) >= 5
    return (len(line) > 50 or bool(_SENTENCE_END.search(line)) or introduces) and not _ITEM.match(line)


def _spaced_term(line: str) -> tuple[str, int] | None:
    """(term, where its definition starts) of a "Term Definition" line ("Pivot Location The point on the
    playing field…"): the definition opens at the first capitalised word after the term's first word (past a
    parenthesis: "Out-of-bounds (OB) Everything…") or, in a run of them, at the one that opens sentences
    ("The"); the term is a short phrase not ending in a small word, the definition a few words at least."""
    words = list(re.finditer(r"\S+", line))
    if len(words) < 3 or not words[0].group()[:1].isupper():
        return None
    opening = next((i for i in range(1, len(words)) if words[i].group()[:1].isupper()), None)
    if opening is None or len(words) - opening < 2:
        return None
    run = opening
    while run + 1 < len(words) and words[run + 1].group()[:1].isupper():
        run += 1
    split = next((i for i in range(opening, run + 1) if words[i].group().lower() in SENTENCE_STARTERS), run)
    term = line[:words[split].start()].strip()
    if split > 5 or len(term) > 40 or term.split()[-1].lower() in _TITLE_SMALL or term[-1] in ".,;:!?":
        return None
    return term, words[split].start()


def _term_fragment(line: str) -> bool:
    """Is `line` the end of a term wrapped onto a line of its own ("disc" under "Making a play on the")?"""
    stripped = line.strip()
    return bool(stripped) and stripped[0].islower() and len(stripped.split()) <= 3 and stripped[-1] not in ".,;:!?"


def _term_block(section: tuple[str, ...], term: str) -> Block:
    return Block(section, slugify(term), term, [], kind="glossary")


def _section_title(raw: str) -> str:
    raw = raw.strip(" *#:")
    if not raw.isupper() or re.fullmatch(r"[A-Z]{2,3}", raw):  # "XP", "LOS": an abbreviation, not shouting
        return raw
    words = raw.split()
    return " ".join(word.lower() if index and word.lower() in HEADING_CONNECTORS else _capitalised(word)
                    for index, word in enumerate(words))


def _capitalised(word: str) -> str:
    return re.sub(r"[A-Za-z'’]+", lambda m: m.group().capitalize(), word.lower())
