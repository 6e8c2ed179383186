"""Small PDF files written byte by byte, for tests of the PDF reader."""
from __future__ import annotations


def pdf_bytes(objects: list[bytes], info: int | None = None) -> bytes:
    """A PDF file of the given object bodies (object 1 is the catalog, object `info` the document
    information), with a correct cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    declared = b" /Info %d 0 R" % info if info else b""
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, declared, xref)
    return bytes(out)
