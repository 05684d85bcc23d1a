"""Ledger exports for people: CSV with spreadsheet formulas neutralised.

The JSONL export is the stored canonical records themselves (`chained.LedgerBase.export`).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.text import reversible_text

CSV_COLUMNS = (
    "seq", "decided_at", "decision", "reason", "note", "reviewer", "app_version", "kind",
    "submission", "evidence_digest", "chain_head", "verdict", "errors", "warnings",
    "sync_offset_s", "retime_start_s", "retime_end_s", "checklist", "override_note",
    "files", "file_sha256", "prev_hash", "hash",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralise_cell(value: Any) -> str:
    """A CSV cell a spreadsheet will not run and a terminal will not obey: control, bidi and
    line-separator characters (a note's ESC, U+202E, newlines) are written as `\\uXXXX`
    (`text.reversible_text`: `unescape_reversible` gives the text back), then text starting
    with = + - @ (also after leading spaces) gets a leading apostrophe (OWASP CSV injection
    advice)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int | float):
        text = canonical_json(value).decode("ascii")
    else:
        text = reversible_text(str(value))
    if text.lstrip(" ").startswith(_FORMULA_START) or text.startswith(_FORMULA_START):
        return "'" + text
    return text


def export_row(d: dict[str, Any]) -> list[str]:
    """One decision's CSV cells. TypeError (never AttributeError from deep inside) when the
    record's `summary`, `files` or `checklist` is of another type than this app writes."""
    s = d.get("summary")
    files = d.get("files")
    checklist = d.get("checklist")
    if not isinstance(s, dict) or not isinstance(files, list) or \
            not all(isinstance(f, dict) for f in files) or \
            not isinstance(checklist, list | type(None)):
        raise TypeError("summary, files or checklist is not of the type this app writes")
    row = {
        **{k: d.get(k) for k in CSV_COLUMNS},
        "verdict": s.get("verdict"), "errors": s.get("errors"),
        "warnings": s.get("warnings"),
        "checklist": "; ".join(str(c) for c in checklist or []),
        "files": "; ".join(f"{f.get('name')} ({f.get('size')} bytes) {f.get('sha256')}"
                           for f in files),
        "file_sha256": "; ".join(str(f.get("sha256")) for f in files),
    }
    return [neutralise_cell(row[c]) for c in CSV_COLUMNS]


def records_to_csv(records: list[dict[str, Any]]) -> str:
    """One row per decision. `files` lists `name (size bytes) sha256` per file; `file_sha256`
    only the digests, both separated by `; `."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for d in records:
        w.writerow(export_row(d))
    return buf.getvalue()
