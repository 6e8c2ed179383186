"""Structured data (JSON, YAML): read as question/answer records, or refused.

A FAQ kept as data is a list of records with a question and an answer (`{"question", "answer"}`,
`{"q", "a"}`, ...), possibly under section, card or category names, possibly nested under a top-level key
or grouped by section. Those become `Q:`/`A:` lines under `## section` headings, each character mapped to
the string it came from in the source. Any other data is refused: a rules document is never data, and
keys and brackets must never be ingested as rules text.
"""
from __future__ import annotations

import json
from array import array

from ingest.classify.markup import JSON_BRACKET, JSON_STRING, YAML_START
from ingest.formats.document import Outline, PastLimit, Unreadable
from ingest.limits import Limits
from ingest.text import MappedText

try:
    import yaml
except ImportError:  # YAML is then refused, with what to do instead
    yaml = None

_QUESTION = ("question", "q", "query")
_ANSWER = ("answer", "a", "ruling", "response")
_SECTION = ("section", "card", "category", "topic", "heading", "title", "name", "group")
# Keys that hold records rather than name a section of them.
_CONTAINERS = {"faq", "faqs", "questions", "items", "entries", "records", "data", "qa", "rulings",
               "clarifications", "sections", "cards", "categories", "children", "content", "contents"}
_DOCUMENT_FIELDS = ("title", "version", "date")
_ESCAPE_WIDTH = 12  # the longest source form of one character: a \uXXXX\uXXXX surrogate pair
_REFUSAL = ("this {syntax} has no question/answer fields; ingest rules documents as PDF, markdown, HTML or "
            'text, or give Q/A records as a list of {{"question", "answer"}}')


def read_json(source: str, out: Outline, limits: Limits | None = None) -> dict:
    """Write the Q/A records of JSON `source` to `out`; see `read`."""
    return read(source, out, "json", limits)


def read_yaml(source: str, out: Outline, limits: Limits | None = None) -> dict:
    """Write the Q/A records of YAML `source` to `out`; see `read`."""
    return read(source, out, "yaml", limits)


def read(source: str, out: Outline, syntax: str, limits: Limits | None = None) -> dict:
    """Write the Q/A records of JSON or YAML (`syntax`) `source` to `out`.

    Returns the metadata found (top-level "title", "version", "date"). Raises Unreadable when the data does
    not parse or has no question/answer records, PastLimit when it nests deeper than `limits.depth` or holds
    more than `limits.elements` values (YAML: with its aliases expanded, and more than `limits.aliases` of them).
    """
    if syntax == "yaml" and yaml is None:
        raise Unreadable("YAML cannot be read here (PyYAML is not installed); convert it to JSON or text")
    limits = limits or Limits()
    if syntax == "json":
        data, scalars = json_value(source, limits), _json_strings(source)
    else:
        node, data = _parse_yaml(source, limits)
        scalars = _yaml_scalars(node)
    records = list(_records(data, None, root=True))
    if not records:
        raise Unreadable(_REFUSAL.format(syntax=syntax.upper()))
    locator = _Locator(source, scalars)
    section = None
    for heading, record in records:
        start = locator.cursor
        if heading != section and heading:
            out.heading(2, locator.text(heading, start), locator.found_at)
        section = heading
        for marker, keys in (("Q:", _QUESTION), ("A:", _ANSWER)):
            run = locator.text(_field(record, keys), start)
            out.item(marker, run, run.offsets[0])
        locator.next_record()
    if not isinstance(data, dict):
        return {}
    return {key: " ".join(str(data[key]).split()) for key in _DOCUMENT_FIELDS if _name(data.get(key))}


def json_value(source: str, limits: Limits):
    """The value of JSON `source`; Unreadable when it is none, PastLimit past `limits.depth` or `limits.elements`.

    The nesting is measured first, in one pass over the brackets outside strings: the parser recurses once per
    level and would fail with a RecursionError on deep data.
    """
    bare = JSON_STRING.sub('""', source)
    values = bare.count(",") + bare.count("[") + bare.count("{") + 1
    if values > limits.elements:
        raise PastLimit("JSON of too many values", limits, "elements")
    depth = 0
    for bracket in JSON_BRACKET.finditer(bare):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > limits.depth:
            raise PastLimit("JSON nested too deep", limits, "depth", line=bare.count("\n", 0, bracket.start()) + 1)
    try:
        return json.loads(source)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"invalid JSON: {exc.msg}", line=exc.lineno) from None
    except RecursionError:  # a depth limit raised past what the parser can nest
        raise PastLimit("JSON nested deeper than this reader can read", limits, "depth") from None


def _parse_yaml(source: str, limits: Limits):
    """The node graph and the value of YAML `source`, composed within `limits` (see `_Loader`)."""
    try:
        loader = _Loader(source, limits)  # refuses a control character at once
        try:
            node = loader.get_single_node()
            return node, None if node is None else loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = (getattr(exc, "problem", None) or str(exc)).splitlines()[0]  # one line, without the excerpt
        raise Unreadable(f"invalid YAML: {problem}", line=mark.line + 1 if mark else None) from None


if yaml is not None:
    class _Loader(yaml.SafeLoader):
        """The safe loader, counting as it composes what walking the data will cost: values with every alias
        expanded (an alias costs what its value does, however small its text: "billion laughs"), aliases so
        expanded, and nesting. Raises PastLimit past `limits`, Unreadable for an alias inside its own value."""

        def __init__(self, source: str, limits: Limits):
            super().__init__(source)
            self.limits = limits
            self.open: list[list[int]] = []  # per node being composed: values and aliases under it, expanded
            self.expanded: dict[int, tuple[int, int]] = {}  # id(node) -> its values and aliases, expanded

        def compose_node(self, parent, index):
            line = self.peek_event().start_mark.line + 1
            if self.check_event(yaml.AliasEvent):
                node = super().compose_node(parent, index)
                if id(node) not in self.expanded:
                    raise Unreadable("a YAML alias stands inside its own value: data without end", line)
                values, aliases = self.expanded[id(node)]
                self._count(values, aliases + 1, line)
                return node
            if len(self.open) >= self.limits.depth:
                raise PastLimit("YAML nested too deep", self.limits, "depth", line)
            self.open.append([1, 0])
            node = super().compose_node(parent, index)
            values, aliases = self.open.pop()
            self.expanded[id(node)] = values, aliases
            if self.open:
                self._count(values, aliases, line)
            return node

        def _count(self, values: int, aliases: int, line: int) -> None:
            """Add a child's expanded values and aliases to the node being composed."""
            total = self.open[-1]
            total[0] += values
            total[1] += aliases
            if total[1] > self.limits.aliases:
                raise PastLimit("YAML whose aliases expand too many times", self.limits, "aliases", line)
            if total[0] > self.limits.elements:
                raise PastLimit("YAML of too many values once its aliases are expanded", self.limits, "elements",
                                line)


def is_yaml_data(text: str, limits: Limits | None = None) -> bool:
    """Whether `text` is YAML meant as data: marked as YAML (`---`, `%YAML`) and a mapping or list, or
    question/answer records with no repeated key (a text of `Q:`/`A:` lines repeats them). YAML past `limits`
    is data (its reader refuses it)."""
    if yaml is None or not YAML_START.match(text):
        return False
    try:
        node, data = _parse_yaml(text, limits or Limits())
    except PastLimit:
        return True
    except Unreadable:
        return False
    if not isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) or _repeats_a_key(node):
        return False
    return text.lstrip().startswith(("---", "%YAML")) or any(_records(data, None, root=True))


def _repeats_a_key(node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.MappingNode):
            keys = [key.value for key, _ in current.value if isinstance(key, yaml.ScalarNode)]
            if len(keys) != len(set(keys)):
                return True
            stack += [value for _, value in current.value]
        elif isinstance(current, yaml.SequenceNode):
            stack += current.value
    return False


def _field(record: dict, keys: tuple[str, ...]):
    lowered = {str(key).lower(): value for key, value in record.items()}
    return next((lowered[key] for key in keys if key in lowered), None)


def _is_record(value) -> bool:
    return (isinstance(value, dict) and _field(value, _QUESTION) is not None
            and _field(value, _ANSWER) is not None)


def _name(value) -> str | None:
    return str(value) if isinstance(value, (str, int, float)) and str(value).strip() else None


def _records(node, section: str | None, root: bool = False):
    """(section, record) for every Q/A record under `node`, in document order. A group's name or title
    names the section of the records under it, the document's own title excepted."""
    if _is_record(node):
        yield _name(_field(node, _SECTION)) or section, node
    elif isinstance(node, list):
        for element in node:
            yield from _records(element, section)
    elif isinstance(node, dict):
        own = section if root else _name(_field(node, _SECTION)) or section
        for key, value in node.items():
            if isinstance(value, (list, dict)):
                named = own if str(key).lower() in _CONTAINERS else str(key)
                yield from _records(value, named)


def _json_strings(source: str) -> list[tuple[str, int, int]]:
    """Every string literal of a JSON document: its value and source span."""
    return [(json.loads(m.group()), m.start(), m.end()) for m in JSON_STRING.finditer(source)]


def _yaml_scalars(root) -> list[tuple[str, int, int]]:
    """Every scalar of a YAML document's node graph: its value and source span."""
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            found.append((node.value, node.start_mark.index, node.end_mark.index))
        elif isinstance(node, yaml.MappingNode):
            stack += [part for pair in reversed(node.value) for part in reversed(pair)]
        elif isinstance(node, yaml.SequenceNode):
            stack += reversed(node.value)
    return found


class _Locator:
    """Finds record values among the document's scalars, in order, and maps their characters into the source."""

    def __init__(self, source: str, scalars: list[tuple[str, int, int]]):
        self.source = source
        self.scalars = scalars
        self.cursor = 0      # index of the first scalar of the current record
        self.furthest = 0    # index after the last scalar the current record used
        self.found_at = 0    # source offset of the last value found

    def text(self, value, start: int) -> MappedText:
        """`value` (a string, a number or a list of strings) mapped to where it is written in the source."""
        parts = value if isinstance(value, list) else [value]
        chars: list[str] = []
        offsets = array("i")
        for part in parts:
            if chars:
                chars.append(" ")
                offsets.append(offsets[-1])
            text = "" if part is None else str(part)
            chars.append(text)
            offsets.extend(self.align(text, start))
        return MappedText("".join(chars), offsets + array("i", [offsets[-1] + 1 if offsets else self.found_at]))

    def align(self, text: str, start: int) -> list[int]:
        """Offsets of `text`'s characters in the first scalar from `start` whose value it is.

        Characters are matched in order inside the scalar's span; whitespace matches a run of source
        whitespace (YAML folds lines), and a character written as an escape maps to the escape.
        """
        index = next((i for i in range(start, len(self.scalars)) if self.scalars[i][0] == text), None)
        if index is None:  # not a string in the source (a number): the record's first scalar stands for it
            at = self.scalars[start][1] if start < len(self.scalars) else 0
            self.found_at = at
            return [at] * len(text)
        self.furthest = max(self.furthest, index + 1)
        _, pos, end = self.scalars[index]
        self.found_at = pos
        offsets = []
        for char in text:
            if char.isspace():
                offsets.append(pos)
                while pos < end and self.source[pos].isspace():
                    pos += 1
                continue
            hit = self.source.find(char, pos, min(end, pos + _ESCAPE_WIDTH))
            offsets.append(hit if hit >= 0 else pos)
            pos = hit + 1 if hit >= 0 else pos + 1
        return offsets

    def next_record(self) -> None:
        self.cursor = max(self.cursor, self.furthest)
