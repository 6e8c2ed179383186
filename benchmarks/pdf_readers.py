"""PDF text extraction libraries compared on real rulebooks: speed, memory and the quality of the text.

    python benchmarks/pdf_readers.py [PDF ...] [--libraries pypdf,pypdfium2,...] [--merged] [--json]

Without PDF arguments it reads the PDFs in ../shared/corpora. Each library reads each PDF in a child
process of its own (so imports and memory do not leak between runs) and hands back the text page by page;
this process then measures the text. Libraries that are not installed are listed as such. Figures only,
never assertions.

Columns:
- seconds: wall time of opening the PDF and extracting every page (imports excluded);
- peak MB: the child's peak resident memory (VmHWM, interpreter and imports included), and in brackets
  how much of it the extraction added over the resident size after imports;
- rule starts: lines that begin with a decimal rule number (`1.9.4.2. Text`); `distinct` of them, and
  `gaps`: numbers whose predecessor is missing from the text (1.2.4 without 1.2.3, 1.3.1 without 1.3);
  `inversions`: rule starts numbered below the one before them on the same page (columns read out of
  order or interleaved);
- bare numbers: lines holding only a rule number, its text elsewhere (the number cut from its rule);
- long tokens: runs of more than 20 letters; `odd`: occurrences of words that fewer than half of the other
  libraries (counted by distribution) produce anywhere in the same PDF: glued words (`bedamaged`,
  `LorcanaResources`) and split ones (`spe ll`) show up there; `no-space`: a word glued to the punctuation
  before it (`Example:The`, `10.8.Resist`); `hyphen`: lines ending in a letter and a hyphen;
- two-col lines: lines holding two numbered headings (two columns interleaved line by line);
- footer: pages whose first or last three lines hold the page's label (the PDF's /PageLabels) on its own,
  and pages holding the commonest edge line (the running footer);
- glyphs: private-use characters, U+FFFD, `(cid:N)` and control characters; `{X}` icon tokens.

PyMuPDF is not measured: it is AGPL-licensed, which the project does not take on.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"

RULE_START = re.compile(r"^[ \t]*(\d+(?:\.\d+)+|\d+(?=\.))[a-z]?\.?[ \t]+\S", re.MULTILINE)
NUMBERED_HEADING = re.compile(r"(?:^|(?<=[^a-z,;:] ))\d+\.(?:\d+\.)*[ \t]+[A-Z]")
WORD = re.compile(r"[A-Za-z]+")
PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
CID = re.compile(r"\(cid:\d+\)")
ICON = re.compile(r"\{[A-Z]\}")
NO_SPACE = re.compile(r"(?<=[A-Za-z0-9])[.:;,](?=[A-Z][a-z])")
BARE_NUMBER = re.compile(r"^[ \t]*(?:\d+\.)+(?:\d+)?[ \t]*$", re.MULTILINE)


# ---------------------------------------------------------------- the readers (run in the child process)

def _pypdf(path: str) -> list[str]:
    import pypdf
    return [page.extract_text() for page in pypdf.PdfReader(path).pages]


def _pypdf_layout(path: str) -> list[str]:
    import pypdf
    return [page.extract_text(extraction_mode="layout") for page in pypdf.PdfReader(path).pages]


def _pdfplumber(path: str) -> list[str]:
    import pdfplumber
    with pdfplumber.open(path) as pdf:
        pages = []
        for page in pdf.pages:
            pages.append(page.extract_text() or "")
            page.close()
        return pages


def _pdfminer(path: str) -> list[str]:
    from pdfminer.high_level import extract_text
    return extract_text(path).split("\f")[:-1]


def _pdfium(path: str) -> list[str]:
    import pypdfium2
    pdf = pypdfium2.PdfDocument(path)
    try:
        pages = []
        for page in pdf:
            textpage = page.get_textpage()
            pages.append(textpage.get_text_bounded().replace("\r\n", "\n"))
            textpage.close()
            page.close()
        return pages
    finally:
        pdf.close()


def _rulings(path: str) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from ingest.formats.pdf import read_pdf
    return [page.text for page in read_pdf(Path(path)).pages]


# name: (distribution to report the version of, import to warm up before timing, reader)
READERS = {
    "pypdf": ("pypdf", "pypdf", _pypdf),
    "pypdf-layout": ("pypdf", "pypdf", _pypdf_layout),
    "pdfplumber": ("pdfplumber", "pdfplumber", _pdfplumber),
    "pdfminer.six": ("pdfminer.six", "pdfminer.high_level", _pdfminer),
    "pypdfium2": ("pypdfium2", "pypdfium2", _pdfium),
    "ingest.formats.pdf": ("pypdf", "pypdf", _rulings),
}


def _rss_mb(field: str) -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    if field == "VmHWM":
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return None


def child(name: str, pdf: str, out: str) -> None:
    """Extract `pdf` with reader `name`; write pages, seconds and memory as JSON to `out`."""
    import importlib
    from importlib.metadata import version
    distribution, module, reader = READERS[name]
    importlib.import_module(module)
    before = _rss_mb("VmRSS")
    start = time.perf_counter()
    pages = reader(pdf)
    seconds = time.perf_counter() - start
    peak = _rss_mb("VmHWM")
    Path(out).write_text(json.dumps({
        "version": version(distribution), "seconds": seconds, "peak_mb": peak,
        "added_mb": None if before is None or peak is None else peak - before, "pages": pages,
    }), encoding="utf-8")


def run(name: str, pdf: Path) -> dict:
    """Run reader `name` on `pdf` in a child process; its result, or {"error": ...}."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        done = subprocess.run([sys.executable, __file__, "--child", name, str(pdf), str(out)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0 or not out.exists():
            last = (done.stderr.strip().splitlines() or ["failed"])[-1]
            return {"error": last[:100]}
        return json.loads(out.read_text(encoding="utf-8"))


# ---------------------------------------------------------------- measuring the text

def _number(label: str) -> tuple[int, ...]:
    return tuple(int(part) for part in label.split("."))


def _predecessor(number: tuple[int, ...]) -> tuple[int, ...] | None:
    if number[-1] > 1:
        return number[:-1] + (number[-1] - 1,)
    return number[:-1] or None


def page_labels(pdf: Path) -> list[str] | None:
    """The PDF's own page labels (/PageLabels), when pypdf is installed and the PDF declares them."""
    try:
        import pypdf
        reader = pypdf.PdfReader(pdf)
        if "/PageLabels" not in reader.trailer["/Root"]:
            return None
        return list(reader.page_labels)
    except Exception:  # noqa: BLE001 - a PDF pypdf cannot open has no labels to compare with
        return None


def measure(pages: list[str], labels: list[str] | None) -> dict:
    """Quality figures of a text given page by page."""
    text = "\n".join(pages)
    starts = [_number(m.group(1)) for m in RULE_START.finditer(text)]
    found = set(starts)
    gaps = sorted(n for n in found if _predecessor(n) and _predecessor(n) not in found)
    inversions = 0
    for page in pages:
        previous = None
        for m in RULE_START.finditer(page):
            number = _number(m.group(1))
            if previous is not None and number < previous:
                inversions += 1
            previous = number
    lines = text.splitlines()
    edges = []
    for page in pages:
        kept = [line.strip() for line in page.splitlines() if line.strip()]
        edges.append(kept[:3] + kept[-3:])
    shapes = collections.Counter(re.sub(r"\d+", "#", line) for edge in edges for line in set(edge))
    furniture, on_pages = shapes.most_common(1)[0] if shapes else ("", 0)
    labelled = None
    if labels and len(labels) == len(pages):
        labelled = sum(any(re.search(rf"(?:^|\s){re.escape(label)}(?:\s|$)", line) for line in edge)
                       for edge, label in zip(edges, labels))
    return {
        "pages": len(pages),
        "rule_starts": len(starts), "distinct": len(found), "gaps": len(gaps), "gap_examples": gaps[:3],
        "inversions": inversions,
        "long_tokens": sum(1 for w in WORD.findall(text) if len(w) > 20),
        "bare_numbers": len(BARE_NUMBER.findall(text)),
        "no_space": len(NO_SPACE.findall(text)),
        "hyphen_ends": sum(1 for line in lines if re.search(r"[A-Za-z]-$", line.rstrip())),
        "two_column_lines": sum(1 for line in lines if len(NUMBERED_HEADING.findall(line)) >= 2),
        "label_pages": labelled, "footer_line": furniture, "footer_pages": on_pages,
        "private_use": len(PRIVATE_USE.findall(text)), "replacement": text.count("\ufffd"),
        "cid": len(CID.findall(text)), "control": len(CONTROL.findall(text)), "icons": len(ICON.findall(text)),
        "nbsp": text.count("\xa0"), "crlf": text.count("\r"),
        "blank_lines": sum(1 for line in lines if not line.strip()),
    }


def odd_words(name: str, words: dict[str, collections.Counter]) -> dict:
    """Words of reader `name` that fewer than half of the other distributions' readers produce at all."""
    distribution = READERS[name][0]
    others: dict[str, set[str]] = {}
    for other, counter in words.items():
        if READERS[other][0] != distribution:
            others.setdefault(READERS[other][0], set()).update(counter)
    if not others:
        return {"odd": "-", "odd_examples": []}
    odd = {w: n for w, n in words[name].items() if sum(w in seen for seen in others.values()) < len(others) / 2}
    return {"odd": sum(odd.values()), "odd_examples": sorted(odd, key=lambda w: (-odd[w], w))}


def notes(m: dict) -> str:
    parts = []
    if m["gaps"]:
        parts.append("gaps " + ",".join(".".join(map(str, g)) for g in m["gap_examples"]))
    if m.get("odd_examples"):
        parts.append("odd " + ",".join(m["odd_examples"][:4]))
    for key, label in (("private_use", "PUA"), ("replacement", "U+FFFD"), ("cid", "cid"), ("control", "ctrl"),
                       ("nbsp", "nbsp"), ("crlf", "CR")):
        if m[key]:
            parts.append(f"{label} {m[key]}")
    parts.append(f"icons {m['icons']}")
    parts.append(f"blank {m['blank_lines']}")
    return "; ".join(parts)


def merge(pdfs: list[Path], target: Path) -> Path:
    """One PDF holding every page of `pdfs`, in order (made with pypdf)."""
    import pypdf
    writer = pypdf.PdfWriter()
    for pdf in pdfs:
        writer.append(str(pdf))
    writer.write(target)
    return target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--libraries", default=",".join(READERS))
    parser.add_argument("--json", action="store_true", help="also print one JSON line per run")
    parser.add_argument("--merged", action="store_true",
                        help="also read one PDF made of all the given ones (a larger document, for memory)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return
    pdfs = args.pdfs or sorted(CORPORA.glob("*.pdf"))
    if not pdfs:
        sys.exit(f"no PDFs given and none in {CORPORA}")
    scratch = tempfile.TemporaryDirectory()
    if args.merged and len(pdfs) > 1:
        pdfs = pdfs + [merge(pdfs, Path(scratch.name) / "merged.pdf")]
    print(f"machine load average {os.getloadavg()[0]:.2f}; PyMuPDF not measured (AGPL)")
    head = ("library", "version", "pdf", "pages", "seconds", "peak MB (+extract)", "rule starts/distinct/gaps",
            "inversions", "bare numbers", "long/odd/no-space/hyphen", "two-col lines", "label/footer pages", "notes")
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for pdf in pdfs:
        labels = page_labels(pdf)
        results = {name: run(name, pdf) for name in args.libraries.split(",")}
        words = {name: collections.Counter(w.lower() for page in r["pages"] for w in WORD.findall(page))
                 for name, r in results.items() if "error" not in r}
        for name, result in results.items():
            if "error" in result:
                print(f"{name} | - | {pdf.stem} | - | - | - | - | - | - | - | - | {result['error']}")
                continue
            m = measure(result["pages"], labels)
            m.update(odd_words(name, words))
            added = f" (+{result['added_mb']:.0f})" if result["added_mb"] is not None else ""
            label = "-" if m["label_pages"] is None else m["label_pages"]
            short = f"{pdf.stem.removeprefix('lorcana-comprehensive-rules-')} ({pdf.stat().st_size / 2**20:.1f} MB)"
            print(" | ".join(str(cell) for cell in (
                name, result["version"], short, m["pages"],
                f"{result['seconds']:.2f}", f"{result['peak_mb']:.0f}{added}",
                f"{m['rule_starts']}/{m['distinct']}/{m['gaps']}", m["inversions"], m["bare_numbers"],
                f"{m['long_tokens']}/{m['odd']}/{m['no_space']}/{m['hyphen_ends']}", m["two_column_lines"],
                f"{label}/{m['footer_pages']}", notes(m))), flush=True)
            if args.json:
                print(json.dumps({"library": name, "version": result["version"], "pdf": pdf.name,
                                  "seconds": result["seconds"], "peak_mb": result["peak_mb"],
                                  "added_mb": result["added_mb"], **m}))
    print(f"machine load average {os.getloadavg()[0]:.2f}")
    scratch.cleanup()


if __name__ == "__main__":
    main()
