"""What no ruling may contain, and what every dev question's answer phrase must be."""
import json
import re
from pathlib import Path

HERE = Path(__file__).parent


def normalise(text: str) -> str:
    return " ".join(text.split()).casefold()


def ruling_texts(conn) -> dict[str, list[str]]:
    texts = {r["id"]: [r["text"]] for r in conn.execute("select id, text from rulings")}
    for r in conn.execute("select ruling_id, text from examples where kind = 'source'"):
        texts[r["ruling_id"]].append(r["text"])
    return texts


def test_every_dev_answer_phrase_is_inside_exactly_one_ruling(conn):
    texts = {rid: [normalise(t) for t in ts] for rid, ts in ruling_texts(conn).items()}
    for line in (HERE / "dev_questions.jsonl").read_text().splitlines():
        question = json.loads(line)
        for phrase in question["expect"]:
            holders = [rid for rid, ts in texts.items() if any(normalise(phrase) in t for t in ts)]
            assert len(holders) == 1, (question["id"], phrase, holders)


def all_text(conn) -> list[tuple[str, str]]:
    return [(rid, t) for rid, ts in ruling_texts(conn).items() for t in ts] + \
           [(r[0], r[1]) for r in conn.execute("select id, title from rulings")]


def test_no_ruling_contains_listing_numbers_or_nbsp(conn):
    for rid, text in all_text(conn):
        assert "\u00a0" not in text, rid
    listing = conn.execute("select id, text from rulings where source = 'dragon-dice-faq-magic'").fetchall()
    for rid, text in listing:
        assert not re.search(r"(?:^|\s)\d{1,3}\.\s", text), rid


def test_no_ruling_contains_page_footers(conn):
    for rid, text in all_text(conn):
        assert not re.search(r"Page \d+ of \d+|\.doc\b", text), rid


def test_no_ruling_contains_doubled_words(conn):
    for rid, text in all_text(conn):
        doubled = re.search(r"(?<!\S)([A-Za-z][\w'’,!)]*)\s+\1(?!\S)", text)
        assert doubled is None, (rid, doubled and doubled.group(0))


def test_no_ruling_contains_split_words(conn):
    for rid, text in all_text(conn):
        for split in ("spe ll", " a n ", "o riginal", "hea l", "ea ch", " a lso", "c asts", "s pells", "pa ir"):
            assert split not in text, (rid, split)
