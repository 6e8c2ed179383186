"""Editions: the three Lorcana comprehensive rules PDFs (2024-08-09, 2025-02-28, 2025-10-31) added to one
database become one source with three versions, in whatever order they are added; rulings keep their ids and
ids where they say what they said (wherever the document numbers them now), refs are their numbers in each
edition; the diff lists what was added, removed, moved and changed; search answers from the current one."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.build import add_document, remove_source
from kb.changes import changes_about
from kb.migrations import upgrade
from model import schema
from kb.editions import diff, history, versions
from kb.search import ask
from kb.store import connect
from service.cli import cli
from support import ROOT
from training.corpus import without_vectors

CORPORA = ROOT.parent / "shared" / "corpora"
pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone"), pytest.mark.corpus]
SOURCE = "lorcana-comprehensive-rules"
DATES = ("2024-08-09", "2025-02-28", "2025-10-31")


def pdf(date: str) -> Path:
    return CORPORA / f"lorcana-comprehensive-rules-{date}.pdf"


@pytest.fixture(scope="module")
def in_order(lorcana_editions) -> tuple[Path, list[dict]]:
    """The editions added oldest first, vectors and all (the session's database, shared: read it, never write it)."""
    return lorcana_editions


@pytest.fixture(scope="module")
def newest_first(built_db, tmp_path_factory) -> tuple[Path, list[dict]]:
    """The newest edition added first, then the oldest, then the middle one; without vectors, since what is asked
    of it is structure (versions, ids, diffs: reidentifying a rule never reads a vector)."""
    path = tmp_path_factory.mktemp("newest-first") / "rulings.db"
    shutil.copy(built_db, path)
    with without_vectors():
        return path, [add_document(path, pdf(date), "lorcana") for date in ("2025-10-31", "2024-08-09", "2025-02-28")]


def test_three_editions_are_one_source_with_three_versions_the_newest_current(in_order, newest_first):
    for path, _ in (in_order, newest_first):
        conn = connect(path)
        assert [row[0] for row in conn.execute("select id from sources where game = 'lorcana'")] == [SOURCE]
        listed = versions(conn, SOURCE)
        assert [(v["version"], v["effective"], v["current"]) for v in listed] == \
            [(date, date, date == "2025-10-31") for date in DATES]
        assert conn.execute("select count(*) from rulings where source = ?", [SOURCE]).fetchone()[0] == 508


def test_each_addition_says_what_changed_since_the_edition_before(in_order):
    _, reports = in_order
    assert reports[0]["source"] == SOURCE and "edition" not in reports[0]
    assert reports[1]["edition"] == {"source": SOURCE, "version": "2025-02-28", "effective": "2025-02-28",
                                     "current": True, "compared_with": "2024-08-09",
                                     "added": 14, "removed": 2, "moved": 3, "changed": 10}
    assert reports[2]["edition"]["compared_with"] == "2025-02-28"
    assert [reports[2]["edition"][key] for key in ("added", "removed", "moved", "changed")] == [44, 3, 63, 18]


def test_an_older_edition_added_later_is_filed_in_date_order_and_changes_nothing_current(newest_first):
    _, reports = newest_first
    assert reports[1]["edition"]["current"] is False
    assert reports[2]["edition"]["current"] is False and reports[2]["edition"]["compared_with"] == "2024-08-09"


def test_a_rule_keeps_its_id_in_every_edition_and_its_ref_is_its_number_in_each(in_order):
    conn = connect(in_order[0])
    kept = conn.execute("select ruling_id, count(distinct ref), count(distinct label) from ruling_history "
                        "where source = ? and kind = 'rule' group by ruling_id having count(*) = 3", [SOURCE]).fetchall()
    assert len(kept) > 300
    assert all(refs == labels for _, refs, labels in kept)
    assert all(ref == f"Lorcana {label}" for ref, label in conn.execute(
        "select ref, label from ruling_history where source = ? and kind = 'rule'", [SOURCE]))
    challenge = conn.execute("select ruling_id, ref from ruling_history where source = ? and label = '4.3.6.2'",
                             [SOURCE]).fetchall()
    assert len(challenge) == 3 and len({tuple(row) for row in challenge}) == 1


def test_the_bodyguard_rule_is_one_ruling_through_its_renumbering_and_its_history_is_only_bodyguard(in_order):
    conn = connect(in_order[0])
    ids = {row[0] for row in conn.execute("select ruling_id from ruling_history where source = ? and kind = 'rule' "
                                          "and text = 'The Bodyguard keyword represents two abilities.'", [SOURCE])}
    assert len(ids) == 1
    (rule,) = ids
    assert "challenger" not in rule
    found = history(conn, rule)
    assert [(h["version"], h["ref"], h["change"]) for h in found] == [
        ("2024-08-09", "Lorcana 10.2.1", "first"), ("2025-02-28", "Lorcana 10.2.1", "same"),
        ("2025-10-31", "Lorcana 10.3.1", "same")]
    assert all("Bodyguard" in h["text"] for h in found)
    assert conn.execute("select ref from rulings where id = ?", [rule]).fetchone()[0] == "Lorcana 10.3.1"


# Read in both documents (2024-08-09 and 2025-10-31): each rule's number in each (None: not in it) and what
# became of it. "moved": the same words at a new number; "moved, edited": the same rule at a new number with
# its own wording changed; "changed": edited at its number.
READ_IN_BOTH = [
    ("10.2.1", "10.3.1", "moved"),            # Bodyguard, after the new Alert keyword
    ("10.3.1", "10.5.1", "moved"),            # Challenger, after Alert and Boost
    ("10.6.3", "10.8.3", "moved"),            # Resist: damage reduced to 0 is no damage dealt
    ("4.3.6.4", "4.3.6.5", "moved"),          # "To challenge, the active player follows the steps…", after 4.3.6.4
    ("10.12.3", "10.15.3", "moved, edited"),  # Ward: "still affect this character" -> "a character with Ward"
    ("10.8.6", "10.10.8", "moved, edited"),   # Shift: a shifted character leaving play, its stack reworded
    ("4.3.6.11", "4.3.6.12", "moved, edited"),  # "Seventh, effects that would trigger…", a sentence added
    ("7.7.3", "7.7.4", "moved, edited"),      # 'Abilities that read "This character enters"…' -> 'include "enter"'
    ("2.1.1.2", "2.1.1.2", "changed"),        # "can contain cards of up to two ink types" -> "can't contain more"
    ("7.8.2", "7.8.2", "changed"),            # a negative {S} deals "0" -> "no" damage, and counts as 0
    ("1.9.1.3", "1.9.1.3", "changed"),        # banished by damage: who banished it, a sentence added
    (None, "10.2.1", "added"),                # Alert
    (None, "10.4.1", "added"),                # Boost
    (None, "4.3.6.4", "added"),               # the challenging player and the challenged player
    (None, "7.7.3", "added"),                 # 'Abilities that include the word "skip"…'
    ("5.1.1", "5.1.1", "changed"),            # "Ready – Cards enter play ready." rewritten: its section and subject
    ("7.4.7", "7.4.7", "changed"),            # "Some abilities and effects create a trigger…" rewritten in place
    ("10.8.3", None, "removed"),              # Shift: "takes on the state of the character…", now three rules
    ("7.7.5", None, "removed"),               # "Only one replacement effect can replace a specific effect."
]


def outcomes(found: dict) -> dict[tuple, str]:
    """(number before, number after) -> what became of the rule, from a diff."""
    seen = {(row["from_label"], row["label"]): "moved, edited" if row["diff"] else "moved" for row in found["moved"]}
    seen.update({(row["label"], row["label"]): "changed" for row in found["changed"]})
    seen.update({(None, row["label"]): "added" for row in found["added"]})
    seen.update({(row["label"], None): "removed" for row in found["removed"]})
    return seen


def test_rules_renumbered_edited_added_and_removed_are_told_apart_as_read_in_both_documents(in_order, newest_first):
    for path, _ in (in_order, newest_first):
        seen = outcomes(diff(connect(path), SOURCE, "2024-08-09", "2025-10-31"))
        assert {(was, now): seen.get((was, now)) for was, now, _ in READ_IN_BOTH} == \
            {(was, now): outcome for was, now, outcome in READ_IN_BOTH}


def test_no_rule_of_one_keyword_is_diffed_against_another_keyword(in_order):
    found = diff(connect(in_order[0]), SOURCE, "2024-08-09", "2025-10-31")
    keywords = ("Alert", "Bodyguard", "Boost", "Challenger", "Evasive", "Reckless", "Resist", "Rush", "Shift",
                "Singer", "Support", "Vanish", "Ward")
    for row in found["moved"] + found["changed"]:
        named = {k for k in keywords if f"{k} keyword" in (row["before"] or "")}
        assert not named or named == {k for k in keywords if f"{k} keyword" in row["after"]}, row["ref"]
    keyword_chapter = [row for row in found["moved"] if row["label"].startswith("10.") and row["label"] != "10.1"]
    assert len(keyword_chapter) > 30 and sum(row["diff"] is None for row in keyword_chapter) > 30


def test_the_diff_of_the_first_and_last_editions_lists_the_changes_read_in_both_documents(in_order, newest_first):
    # Shift's "retains whatever damage" rule, edited in 2025-02-28 and again in 2025-10-31, is one rule moved
    # in either order: the middle edition, added last, joins the two (kb.reidentify).
    for path, _ in (in_order, newest_first):
        found = diff(connect(path), SOURCE, "2024-08-09", "2025-10-31")
        assert [len(found[key]) for key in ("added", "removed", "moved", "changed")] == [58, 5, 57, 23]
        changed = {row["ref"].split()[-1]: row for row in found["changed"]}
        assert changed["2.1.1.2"]["before"] == "The deck can contain cards of up to two ink types."
        assert changed["2.1.1.2"]["after"] == "The deck can’t contain more than two ink types."
        assert {"op": "added", "text": "can’t"} in changed["2.1.1.2"]["diff"]
        added = {row["label"]: row for row in found["added"]}
        # titled by the term it defines, its sentence too long for a title
        assert added["5.1.5"]["title"] == "Under"
        assert added["5.1.5"]["text"].startswith("Under – A card that has one or more cards on top of it")
        removed = {row["label"]: row for row in found["removed"]}
        assert removed["10.8.3"]["text"].startswith("A shifted character takes on the state of the character")


def test_search_returns_each_rule_once_and_from_the_current_edition(in_order):
    conn = connect(in_order[0])
    for question in ("How many ink types can a deck contain?", "What happens when a character is challenged?",
                     "Lorcana 4.3.6.2", "What does Shift do?"):
        results = ask(conn, question, "lorcana", 10)["results"]
        ids = [r["id"] for r in results]
        assert len(ids) == len(set(ids))
        assert {(r["version"], r["effective"]) for r in results} == {("2025-10-31", "2025-10-31")}
    best = ask(conn, "How many ink types can a deck contain?", "lorcana", 5)["results"]
    assert best[0]["text"] == "The deck can’t contain more than two ink types."


def test_as_of_a_date_search_answers_from_the_edition_in_force_then(in_order):
    conn = connect(in_order[0])
    then = ask(conn, "How many ink types can a deck contain?", "lorcana", 5, as_of="2025-01-01")
    assert then["as_of"] == "2025-01-01"
    assert then["results"][0]["text"] == "The deck can contain cards of up to two ink types."
    assert {r["version"] for r in then["results"]} == {"2024-08-09"}
    removed_since = ask(conn, "Lorcana 10.6.3", as_of="2025-01-01")["results"]
    assert removed_since[0]["text"].startswith("If damage dealt to this character or location is reduced to 0")
    assert ask(conn, "Lorcana 10.6.3", "lorcana")["results"][0]["ref"] != "Lorcana 10.6.3"
    before_any = ask(conn, "How many ink types can a deck contain?", "lorcana", 5, as_of="2024-01-01")
    assert before_any["results"] == [] and not before_any["answered"]
    other_games = ask(conn, "Can a reserve army double its magic?", as_of="2024-01-01")["results"]
    assert other_games[0]["ref"] == "DD Magic M"


def test_rulings_ask_as_of_takes_a_date_and_refuses_anything_else(in_order):
    db = str(in_order[0])
    then = CliRunner().invoke(cli, ["ask", "How many ink types can a deck contain?", "--game", "lorcana",
                                    "--as-of", "2025-01-01", "--db", db])
    assert then.exit_code == 0 and "The deck can contain cards of up to two ink types." in then.output
    assert "rulebook, 2024-08-09" in then.output
    bad = CliRunner().invoke(cli, ["ask", "ink types", "--as-of", "last spring", "--db", db])
    assert bad.exit_code == 2 and "not a calendar date written YYYY-MM-DD" in bad.output


def test_a_changed_rule_has_its_text_in_every_edition(in_order):
    conn = connect(in_order[0])
    rule = conn.execute("select id from rulings where source = ? and label = '2.1.1.2'", [SOURCE]).fetchone()[0]
    assert [(h["version"], h["change"]) for h in history(conn, rule)] == \
        [("2024-08-09", "first"), ("2025-02-28", "changed"), ("2025-10-31", "same")]
    assert history(conn, rule)[0]["text"] == "The deck can contain cards of up to two ink types."


def test_re_adding_an_edition_changes_nothing_and_says_so(in_order, tmp_path):
    path = tmp_path / "rulings.db"
    shutil.copy(in_order[0], path)
    before = path.read_bytes()
    report = add_document(path, pdf("2025-02-28"), "lorcana")
    assert report["edition"] == {"source": SOURCE, "version": "2025-02-28", "unchanged": True}
    assert path.read_bytes() == before


def test_removing_the_current_edition_makes_the_one_before_current_again(in_order, tmp_path):
    path = tmp_path / "rulings.db"
    shutil.copy(in_order[0], path)
    removed = remove_source(path, SOURCE, "2025-10-31")
    assert removed["current"] == "2025-02-28"
    conn = connect(path)
    assert [v["version"] for v in versions(conn, SOURCE)] == ["2024-08-09", "2025-02-28"]
    assert conn.execute("select count(*) from rulings where source = ?", [SOURCE]).fetchone()[0] == 507
    current = conn.execute("select id, ref, text from rulings where source = ? order by position", [SOURCE]).fetchall()
    kept = conn.execute("select ruling_id, ref, text from ruling_history where source = ? and version = '2025-02-28' "
                        "order by rowid", [SOURCE]).fetchall()
    assert [tuple(row) for row in current] == [tuple(row) for row in kept]
    again = remove_source(path, SOURCE, "2024-08-09")
    assert again["current"] == "2025-02-28" and again["rulings"] == 0


def test_the_commands_list_versions_and_diff_as_text_and_json(in_order):
    db = str(in_order[0])
    listed = CliRunner().invoke(cli, ["versions", SOURCE, "--json", "--db", db])
    assert [v["version"] for v in json.loads(listed.output)] == list(DATES)
    text = CliRunner().invoke(cli, ["diff", SOURCE, "--from", "2024-08-09", "--db", db]).output
    assert text.startswith(f"{SOURCE} 2024-08-09 → 2025-10-31: 58 added, 5 removed, 57 moved, 23 changed")
    assert "[-can-] {+can’t+}" in text
    assert "> Lorcana 10.2.1 → Lorcana 10.3.1 (text unchanged)  The Bodyguard keyword represents two abilities." in text
    sections = [line for line in text.splitlines() if line.startswith("Keywords > 10.")]
    assert sections[:3] == ["Keywords > 10.2 Alert", "Keywords > 10.3 Bodyguard", "Keywords > 10.4 Boost"]
    assert len(sections) == len(set(sections)), "each section once, in rulebook order"
    found = json.loads(CliRunner().invoke(cli, ["diff", SOURCE, "--json", "--db", db]).output)
    assert (found["from"], found["to"]) == ("2025-02-28", "2025-10-31") and found["moved"]
    bad = CliRunner().invoke(cli, ["diff", SOURCE, "--from", "1999-01-01", "--db", db])
    assert bad.exit_code == 1 and "has no version '1999-01-01'" in bad.output


def test_a_document_can_be_kept_apart_or_named_as_the_edition_it_replaces(built_db, tmp_path):
    path = tmp_path / "rulings.db"
    shutil.copy(built_db, path)
    (tmp_path / "v1.txt").write_text("House rules\n\n1. Draw two cards.\n\n2. Ties go to the defender.\n")
    (tmp_path / "v2.txt").write_text("Table rules\n\n1. Draw three cards.\n\n2. Ties go to the defender.\n")
    first = add_document(path, tmp_path / "v1.txt", "castles", "House rules")
    apart = add_document(path, tmp_path / "v2.txt", "castles", "House rules", as_new=True)
    assert apart["source"] != first["source"] and "edition" not in apart
    remove_source(path, apart["source"])
    replaced = add_document(path, tmp_path / "v2.txt", "castles", "Table rules", replaces=first["source"])
    assert replaced["edition"]["source"] == first["source"] and replaced["edition"]["changed"] == 1
    conn = sqlite3.connect(path)
    assert conn.execute("select text from rulings where source = ? and label = '1'", [first["source"]]).fetchone() \
        == ("Draw three cards.",)


def test_an_undated_edition_added_after_a_dated_one_is_the_newest_and_compared_with_it(built_db, tmp_path):
    path = tmp_path / "rulings.db"
    shutil.copy(built_db, path)
    (tmp_path / "v1.txt").write_text("House rules\n\n1. Draw two cards.\n\n2. Ties go to the defender.\n")
    (tmp_path / "v2.txt").write_text("House rules\n\n1. Draw three cards.\n\n2. Ties go to the defender.\n")
    first = add_document(path, tmp_path / "v1.txt", "castles", "House rules")
    conn = sqlite3.connect(path)
    conn.execute("update source_versions set effective = '2024-01-01' where source = ?", [first["source"]])
    conn.commit()
    conn.close()
    undated = add_document(path, tmp_path / "v2.txt", "castles", "House rules")["edition"]
    assert undated["current"] and undated["compared_with"] == "1" and undated["changed"] == 1
    listed = versions(connect(path), first["source"])
    assert [(v["version"], v["current"]) for v in listed] == [("1", False), ("2", True)]
    assert "its oldest edition" not in CliRunner().invoke(cli, ["versions", first["source"], "--db", str(path)]).output


def test_an_older_database_whose_ids_followed_numbers_migrates_and_the_old_id_redirects(in_order, tmp_path):
    path = tmp_path / "rulings.db"
    shutil.copy(in_order[0], path)
    conn = sqlite3.connect(path)
    lifelong = conn.execute("select id from rulings where source = ? and label = '10.3.1'", [SOURCE]).fetchone()[0]
    numbered = "lorcana/keywords/10.3-challenger/10.3.1-old"  # as matching by number named Bodyguard's rule
    for table, column in (("rulings", "id"), ("ruling_history", "ruling_id"), ("embeddings", "ruling_id")):
        conn.execute(f"update {table} set {column} = ? where {column} = ? and "
                     + ("version = '2025-10-31'" if table == "ruling_history" else "1"), [numbered, lifelong])
    conn.execute("drop table ruling_redirects")
    schema.set_version(conn, 4)
    conn.commit()
    conn.close()
    assert upgrade(path) == [5, 6]  # 6: what each format's reader declares
    conn = connect(path)
    assert conn.execute("select id from rulings where source = ? and label = '10.3.1'", [SOURCE]).fetchone()[0] \
        == lifelong
    assert [h["ref"] for h in history(conn, lifelong)] == ["Lorcana 10.2.1", "Lorcana 10.2.1", "Lorcana 10.3.1"]
    assert conn.execute("select new_id from ruling_redirects where old_id = ?", [numbered]).fetchone()[0] == lifelong
    from service.app import create_app
    client = create_app(path).test_client()
    moved = client.get(f"/r/{numbered}")
    assert moved.status_code == 301 and moved.headers["Location"].endswith(f"/r/{lifelong}")
    assert client.get(f"/api/rulings/{numbered}").status_code == 301


def test_as_of_a_date_questions_are_compared_with_that_editions_own_passages(in_order):
    conn = connect(in_order[0])
    kept = dict(conn.execute("select version, count(*) from edition_embeddings where source = ? group by version",
                             [SOURCE]).fetchall())
    assert set(kept) == {"2024-08-09", "2025-02-28"} and min(kept.values()) > 400
    then = ask(conn, "What does Bodyguard do?", "lorcana", 5, as_of="2024-09-01")["results"]
    assert (then[0]["ref"], then[0]["version"]) == ("Lorcana 10.2.1", "2024-08-09")
    assert then[0]["text"] == "The Bodyguard keyword represents two abilities."
    # By meaning alone, the 2024 text of a rule reworded since is what is compared: another vector, another score.
    question = "Can the deck contain cards of up to two ink types?"
    scores = [{r["ref"]: r["score"] for r in ask(conn, question, "lorcana", 10, mode="dense", as_of=day)["results"]}
              for day in ("2024-09-01", None)]
    assert "Lorcana 2.1.1.2" in scores[0] and "Lorcana 2.1.1.2" in scores[1]
    assert scores[0]["Lorcana 2.1.1.2"] != scores[1]["Lorcana 2.1.1.2"]


def test_what_changed_about_a_subject_answers_from_the_history_with_both_texts(in_order):
    found = changes_about(connect(in_order[0]), "What changed about the number of ink types in a deck?", "lorcana",
                          ask)
    assert found["subject"] == "the number of ink types in a deck"
    rule = next(c for c in found["changes"] if c["ref"] == "Lorcana 2.1.1.2")
    assert (rule["change"], rule["version"], rule["earlier_version"]) == ("changed", "2025-02-28", "2024-08-09")
    assert rule["earlier"] == "The deck can contain cards of up to two ink types."
    assert rule["now"] == "The deck can’t contain more than two ink types."
    assert all("update summary" not in c["ref"] for c in found["changes"])
    text = CliRunner().invoke(cli, ["changes", "Is Alert new?", "--game", "lorcana", "--db", str(in_order[0])]).output
    assert "Lorcana 10.2.1: added in 2025-10-31" in text
