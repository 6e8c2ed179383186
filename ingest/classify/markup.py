"""What the format readers recognise in a file: HTML's tags, notes and hidden parts, markdown's marks and front
matter, a PDF's line breaks and titles, a docx's levels, JSON's and YAML's openings, a web listing's line numbers
and the debris a conversion leaves (`ingest.formats`, `clean`, `text` read files by these)."""
from __future__ import annotations

import re

# Web-listing chrome: "  12. text" line prefixes of a numbered file viewer.
LISTING_LINE = re.compile(r"^ {0,4}(\d{1,5})\.(?: |$)", re.M)

# A bullet alone on its line, its item's text on the next one past blank lines (pdftotext sets a PDF's "•" apart).
LONE_BULLET = re.compile(r"^(?P<bullet>[ \t]*+[•●▪◦■►➢➤◆❖])[ \t]*+\n(?:[ \t]*+\n)*+[ \t]*+(?=\S)", re.M)

# A letter a symbol font's bullet glyph came out as ("u" for Wingdings' diamond), opening a list item's line.
GLYPH_BULLET = re.compile(r"^(?P<marker>[b-hj-z])(?= +[A-Z0-9“\"(])", re.M)
LINE_LETTER = re.compile(r"^(?P<letter>[a-z])(?=[ \t]+[A-Z0-9“\"(])", re.M)

# A letter set apart as a drop cap, the rest of its word opening the next line ("O" over "n a blustery…").
DROP_CAP = re.compile(r"(?:^|(?<=\n\n)|(?<=[.!?”\"]\n))(?P<cap>[A-Z])\n(?=(?P<rest>[a-z]+)\b)")


def glyphs_in_sentences(glyphs: set[str]) -> re.Pattern:
    """Any of `glyphs` (a symbol font's characters) standing alone in a sentence, after a space and before a
    space, a punctuation mark or the end ("Start ∂ on the track", "each player ∑.")."""
    return re.compile(r" [" + re.escape("".join(sorted(glyphs))) + r"](?=[\s.,;:!?)]|$)")

# The character set a page or an XML file declares in its head ("<meta charset=macintosh>", "encoding='utf-16'").
DECLARED_CHARSET = re.compile(rb"""(?:charset|encoding)[ \t]*+=[ \t]*+["']?+([A-Za-z][\w.:-]{1,39})""", re.IGNORECASE)
# Where a PDF's TeX font has no map to Unicode, pdftotext writes its glyphs' codes in TeX's T1 encoding, which
# are control characters: quotes, dashes and the ligatures ("O\x1bside" is "Offside", "\x1celd" is "field").
# Only where they stand inside words, often: a lone control character is a damaged or binary file's.
TEX_GLYPH_IN_WORD = re.compile(r"(?<=[^\W\d_])[\x1b-\x1f]|[\x1b-\x1f](?=[^\W\d_])")

# No rules document has a paragraph this long (a book flattened onto one line has tens of thousands of
# characters): a longer line is a file that lost its line breaks, refused rather than made one ruling of
# megabytes that every later step copies and scans.
LONGEST_LINE = 1_000_000
LONG_LINE = re.compile(rf"^[^\n]{{{LONGEST_LINE + 1}}}", re.MULTILINE)  # tried from each line's start only
# Any markdown construct: a heading, list item, quote, fence or table line, emphasis, a link, a footnote, inline
# code or an HTML tag.
MARKDOWN = re.compile(r"^[ \t]{0,3}+(?:#{1,6}[ \t]|[-*+][ \t]|\d{1,9}[.)][ \t]|>|```|~~~|\|)|\*\*|__|\]\(|\[\^|`|<[a-zA-Z]|^[ \t]*+[-=]{3,}+[ \t]*+$",
                      re.MULTILINE)

# Content sniffing, for files whose extension says nothing (.txt, none, unknown).
# A comment ends at its first `-->` (atomic: else each could end at any later one, exponential time).
HTML_START = re.compile(r"\A\s*(?:<\?xml[^>]*>\s*)?(?:(?><!--.*?-->)\s*)*<(?:!doctype\s+html|html[\s>])",
                        re.IGNORECASE | re.DOTALL)
HTML_BLOCK_TAG = re.compile(r"<(?:p|div|br|li|ul|ol|h[1-6]|table|tr|td|body|section|article)\b[^>]*>", re.IGNORECASE)

MD_HEADING = re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE)
# The patterns are counted over the whole text, so none may try a long stretch from each character in it: a
# link's text stops at a `[` (a later link starts there), a table rule's parts are possessive, a bold span's
# text is bounded (a line of unclosed `**` would otherwise be read to its end from each of them).
MD_LINK = re.compile(r"!?\[[^\[\]\n]+\]\([^)\s]+(?:\s+\"[^\"\n]*\")?\)")
MD_TABLE_RULE = re.compile(r"^[ \t]*+\|?[ \t]*+:?-{3,}+:?[ \t]*+(?:\|[ \t]*+:?-{3,}+:?[ \t]*+)++\|?[ \t]*+$",
                           re.MULTILINE)
MD_STRONG = re.compile(r"(\*\*|__)(?=[^\s*_])[^\n]{1,400}?(?<=[^\s*_])\1")  # a run of stars is no bold span
MD_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.MULTILINE)

# A block tag whose content kramdown and Python-Markdown read as markdown ("<div class="faq" markdown="1">").
MARKDOWN_BLOCK = re.compile(r"<(?:div|section|aside|details)\b[^<>\n]*?\bmarkdown=[\"']?(?:1|block)[\"']?[^<>\n]*+>")
# A template engine's tags left in a page saved from its source ("{% endblock %}", "{{ title }}"): markup, no text.
TEMPLATE_TAGS = re.compile(r"\s*+(?:(?:\{%(?:[^%]|%(?!\}))*+%\}|\{\{(?:[^}]|\}(?!\}))*+\}\}|\{#(?:[^#]|#(?!\}))*+#\})\s*+)++")
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
# An inline style setting text in bold, as Word, Google Docs and help authoring tools write it ("<span
# style="font-weight: bold;">").
BOLD_STYLE = re.compile(r"font-weight\s*:\s*(?:bold|bolder|[6-9]00)\b", re.IGNORECASE)
# An anchor naming a rule number ("6.A.1", "8.3.5"): a number with at least one dotted part.
NUMBER_ANCHOR = re.compile(r"\d{1,3}(?:\.(?:\d{1,3}|[A-Za-z]))+\.?")
# What a footnote's reference mark or label shows ("1", "*", "†", "[2]"), and a link back to the reference.
NOTE_MARK = re.compile(r"\s*[\[(]?(?:\d{1,3}|[*†‡§¶]{1,3})[\])]?\s*")
# Small print opening with a note's mark: a footnote.
SMALL_NOTE = re.compile(r"^\s*(?P<mark>\d{1,3}|[*†‡§]{1,3})[.)]?\s+(?=\S)")

# A link that is only a mark: a footnote's way back ("↩"), a heading's permalink ("¶" in Sphinx and MkDocs, "#").
BACK_LINK = re.compile(r"\s*(?:[↩↑⤴︎️¶#🔗⚓🔝▲]+|(?i:(?:back\s+to\s+)?top))\s*")
# An element holding a page's footnotes, or one footnote: class, id or role "footnotes", "endnotes", "fn1".
NOTES_MARK = re.compile(r"(?:^|[\s_-])(?:foot|end)notes?(?:$|[\s_-])|^doc-(?:foot|end)notes?$", re.IGNORECASE)
NOTE_ID = re.compile(r"^(?:fn|footnote|endnote|note)[:_-]?(?P<n>\d{1,3})$", re.IGNORECASE)


def attribute(name: str, value: str) -> re.Pattern:
    """An HTML tag's attribute `name` set to `value`, quoted or not (`id="6.A.1"`), up to the value's end."""
    return re.compile(rf"""\b{name}\s*=\s*["']?\s*{re.escape(value)}""", re.IGNORECASE)


# A line break of another kind (a carriage return, CRLF, Unicode's line and paragraph separators, NEL): a newline.
LINE_BREAKS = re.compile("\r\n?|[\u2028\u2029\x85]")
# A soft hyphen ending a line, where a word broke: a hyphen.
BROKEN_AT_SOFT_HYPHEN = re.compile("\u00ad[ \t]*\n")
# Spaces ending a line, the line break after them (tried once per run of spaces, not from each).
SPACES_BEFORE_BREAK = re.compile(r"(?<![ \t])[ \t]+\n")

# A title as people write one: words and their punctuation, opening with a letter or digit; a print job's or a
# file's name ("[T2R] rules EN reprint 2015_TTR2 rules US", "Microsoft Word - rules.docx") is none.
WRITTEN_TITLE = re.compile(r"[^\W_][\w'’&:,.!?()/+–— -]*")
# A site's name a download stamped on a PDF's title field ("Hadrian's Wall Rulebook - 1jour-1jeu.com").
SITE_SUFFIX = re.compile(r"[ \t]++[-–—|][ \t]++[\w-]{1,63}(?:\.[\w-]{1,63}){0,3}\.(?:com|org|net|info|io|fr|de|it|es|uk)"
                         r"[ \t]*+$", re.IGNORECASE)
# A file's or a print job's name in a PDF's title field.
PRINT_JOB_NAME = re.compile(r"\.(?:docx?|pdf|indd|qxp|rtf|odt|pages|txt|html?|md)\b|^microsoft \w+ -", re.IGNORECASE)

# MDX's (Docusaurus's) lines of code among the markdown: a module's import or export, never shown.
MDX_MODULE = re.compile(r"(?:import\s[^'\"\n]*?\bfrom\s+|import\s+)['\"][^'\"\n]++['\"];?|export\s+(?:default|const|let|function)\b.*+")
# A markdown file's front matter between "---" lines (YAML) or "+++" lines (TOML, a Hugo site's), and each
# "key: value" or "key = value" field of it.
FRONT_MATTER = re.compile(r"\A(?P<fence>---|\+\+\+)[ \t]*\n(?P<body>.*?\n)(?:(?P=fence)|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
FRONT_FIELD = re.compile(r"^(\w[\w -]*?)[ \t]*[:=][ \t]*(.*?)[ \t]*$")

# An HTML line break ("<br>", "<br/>") inside markdown.
BREAK_TAG = re.compile(r"<br\b", re.IGNORECASE)
# An image tag's alternative text ("<img alt=\"+1 Icon\" src=…>"): what an icon inside a sentence says.
IMAGE_ALT = re.compile(r"<img\b[^>]{0,2000}?\balt\s*=\s*(?:\"(?P<double>[^\"]*)\"|'(?P<single>[^']*)')", re.IGNORECASE)


def image_alt(tag: str) -> tuple[str, int] | None:
    """An image tag's alternative text as the tag writes it, and where in the tag it starts; None when it has none."""
    found = IMAGE_ALT.match(tag)
    if found is None:
        return None
    quoted = "double" if found.group("double") is not None else "single"
    return found.group(quoted), found.start(quoted)
# Bold or italic markers around nothing but spaces, which a conversion leaves ("4. ** **Essential Game
# Terminology"): markdown reads them as text; they are a space.
EMPTY_EMPHASIS = re.compile(r"(\*{1,3}|_{1,3})[ \t]+\1(?![*_])")
# An admonition's opening line: MkDocs' and Python-Markdown's ('!!! warning "Ban Penalty"', "??? note", "???+ tip",
# its text indented under it) and Docusaurus' and VuePress' (":::tip Title", its text up to a ":::" line).
ADMONITION = re.compile(r"(?:(?P<indented>!!!|\?\?\?\+?)[ \t]++(?P<kind>[\w-]{1,30}+)(?:[ \t]++\"(?P<title>[^\"\n]{0,120}+)\")?"
                        r"|:::[ \t]*+(?P<fenced>[\w-]{1,30}+)(?:[ \t]++(?P<name>[^\n]{0,120}?))?)[ \t]*+")

# Kramdown's and Python-Markdown's attribute lists ("{: .entry-title}" under a paragraph, "{:#id}" after a
# heading) style the text; they are none of it. Blanked, not cut, so every offset still maps to the file.
ATTRIBUTES = re.compile(r"\{:[^{}\n]{0,200}+\}")

# Left in the text by chat assistants that converted a document ("[cite_start]", "[cite: 12, 14]"), and
# markdown footnote references ("a judge.[^1]"), which point at a note kept where it stands ("[^1]: ...").
# The whitespace before a `[cite: ...]` goes with it; `(?<!\s)` tries each run of it once, not from each of its
# characters (quadratic in a long run).
CITE_DEBRIS = re.compile(r"\[cite_start\]|(?<!\s)\s*\[cite:[\d,\s]*+\]|\[\^[^\]\s]+\](?!:)")
NOT_ONE_SPACE = re.compile(r"\s{2,}|[^\S ]")  # what is not already a single space

# How a list item, a Q/A, an example or a footnote opens, or a clause closes: a paragraph in bold so written is
# no heading. A name closed by a stop ("Dwarf cards.") or by a colon ("Terrain Rules:", "Setting up the board:")
# still names what follows; longer runs so closed are sentences in bold ("Rulings are final."), and one word and
# a colon leads its text in ("Errata:", "Note:").
NOT_A_HEADING = re.compile(r"^(?:\d+[.)]\s|\(?[A-Za-z]\)\s|[a-z]\.\s|Q(?:uestion)?\s*\d*\s*[:.)]|"
                           # "A. Mandated Offensive Phase", a lettered part's title, is no answer's mark, nor is
                           # "A.5 & A7.52", the rules a question is about
                           r"A(?:nswer)?\s*\d*\s*[:.](?!\d)(?![ \t]++[A-Z][\w'’-]*+(?:[ \t]++(?:[A-Z][\w'’-]*+|of|the|and|or|to|in|on|for|an?)){1,5}+$)"
                           r"|Examples?\b|\[\^)|[,;!]$|^(?:\S++\s++){2,}.*\.$"
                           r"|^(?:\S++\s++){4,}.*:$|^[^\s:]++:$")

# No string opens after a backslash: else an unclosed one (`"\"\"\"...`) would be tried again from each of
# the quotes it escapes, to the end of its line.
JSON_STRING = re.compile(r'(?<!\\)"(?:[^"\\\n]|\\.)*+"')
# A bracket or brace of JSON's structure (outside its strings).
JSON_BRACKET = re.compile(r"[][{}]")

# YAML data opens with a document marker, a `key:` or a `- ` item; checked first because parsing a long
# prose text as YAML (pure Python) takes seconds.
YAML_START = re.compile(r"\A(?:\s*#[^\n]*\n)*\s*(?:---|%YAML|-\s|[\w\"'][^:\n]{0,80}:(?:\s|$))")

# A style named for its level: a heading's ("Heading 2"), or a list's nesting ("List Number 2", "List Bullet 3").
LEVELLED_STYLE = re.compile(r"heading (?P<heading>[1-9])$|list\b.*?\s(?P<list>[2-9])$", re.IGNORECASE)

# A numbering format's field for a level's number ("%1.%2.").
LEVEL_FIELD = re.compile(r"%([1-9])")

# AsciiDoc's markup read as plain text (`formats.underlines`): a header attribute (":toc: left"), a cross-reference
# ("<<104-prestige,Section 10.4>>", shown as its text, else its target) and constrained bold ("*Total Warfare*").
ASCIIDOC_ATTRIBUTE = re.compile(r"^:!?[\w-]{1,60}+!?:(?:[ \t][^\n]*+)?$")
ASCIIDOC_XREF = re.compile(r"<<([^<>,\n]{1,100}+)(?:,[ \t]*+([^<>\n]{1,200}+))?>>")
ASCIIDOC_BOLD = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]{1,200}?)(?<=[^\s*])\*(?![\w*])")
# An ordered list's item, its depth in stops (". Have I had any water?", ".. its sub-item").
ASCIIDOC_ORDERED = re.compile(r"^(\.{1,5})[ \t]++(?=\S)")
# A block macro on a line of its own ("image::images/Slay.png[align="center"]", "toc::[]"): a picture or a directive.
ASCIIDOC_MACRO = re.compile(r"^[a-z]{2,20}+::[^\s\[]{0,300}+\[[^\n]{0,300}\][ \t]*+$")

# reStructuredText's explicit markup read as plain text (`formats.underlines`): a directive (".. note:: Words…",
# ".. contents:: Contents") and a comment or link target (".. -*- coding: utf-8 -*-", ".. _laws:", an anonymous
# one: "__ http://www.fsf.org/…"), not a footnote.
RST_DIRECTIVE = re.compile(r"^(?P<indent>[ \t]{0,40}+)\.\.[ \t]++(?P<name>[\w-]{1,40}+)::(?P<args>[^\n]*+)$")
RST_COMMENT = re.compile(r"^[ \t]{0,40}+(?:\.\.(?:[ \t]++(?!\[)[^\n]*+)?|__[ \t]++[^\n]++)$")
# reStructuredText's inline markup: a role (":hoverxref:`Amazonia <homeland-amazonia>`", ":ref:`combat`") or a link
# ("`open source license <https://opensource.org/licenses>`_", its text wrapped over lines; "Gravatar_", "Richard__"),
# shown as its text; an inline literal ("``Craft``") or strong text, shown as what it holds; an auto-numbered item
# ("#. Amazonia - …").
RST_REFERENCE = re.compile(r"(?::[\w.+-]{1,40}+:)?(?<![`\w])`([^`<]{0,200}?)\s*+(?:<[^>`\s]{0,200}+>)?`(?:__?)?(?![`\w])"
                           r"|\b([A-Za-z][A-Za-z0-9-]{0,60}+)__?(?=[\s.,;:!?)\]]|$)")
RST_LITERAL = re.compile(r"``([^`\n]{1,200}?)``|\*\*([^*\n]{1,200}?)\*\*")  # and strong text ("**must**")
RST_AUTO_ITEM = re.compile(r"^([ \t]*+)#\.[ \t]++(?=\S)")
RST_OPTION = re.compile(r"^[ \t]{1,40}+:[\w -]{1,40}+:(?:[ \t][^\n]*+)?$")  # a directive's option (":widths: auto")

# OpenDocument: a DTD's declarations (entities: "billion laughs"), never in an OpenDocument part; XML white space,
# a run of which shows as one space (ODF 1.2, 6.1.2).
XML_DECLARATION = re.compile(rb"<!(?:DOCTYPE|ENTITY)")
XML_SPACES = re.compile(r"[ \t\r\n]+")

# RTF: a control word and its number (its one delimiting space taken), a hex byte, a control symbol, a group's brace,
# line ends (no text in RTF), or a run of text.
RTF_TOKEN = re.compile(rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z'])|([{}])|[\r\n]+"
                       rb"|([^\\{}\r\n]+)", re.S)
# A list item's number or bullet as a hanging paragraph shows it, before its tab: "1.", "a)", "(iv)", "•".
RTF_LIST_MARKER = re.compile(r"(?:\(?(?:\d{1,3}(?:\.\d{1,3})*|[A-Za-z]|[ivxlcdmIVXLCDM]{1,6})[.)]|\(\d{1,3}\)|[•·▪◦o\-–*])")
# A paragraph style naming a heading's level ("heading 2").
RTF_HEADING_STYLE = re.compile(r"heading\s*([1-9])$", re.IGNORECASE)
