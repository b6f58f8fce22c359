"""A printable programme: the user's days at the conference as one self-contained HTML page.

    html = programme_html(days, zone_name="Asia/Seoul (KST)", made_at=now)

``days`` is :func:`~index_builder.readinglist.agenda.by_day` of the grouped sessions, so
times are in the zone they were grouped in (the venue's by default) and each session's
papers come in walking order (by board). Each session shows its time, its clashes, and a
row per paper: board, room, title, authors, status, tags and the note. The page loads
nothing (no script, font, image or link to fetch), escapes every text from the data, and
its print stylesheet sets A4 pages with no session split across two.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from html import escape

from index_builder.readinglist.schedule import SessionGroup, Slot
from index_builder.text.safe import safe
from index_builder.times import format_span, long_day

STATUS_WORDS = {"to-read": "to read", "reading": "reading", "read": "read"}
STYLE = """
@page { size: A4; margin: 14mm 12mm; }
body { font: 10.5pt/1.35 "DejaVu Sans", Arial, sans-serif; color: #111; margin: 0 auto;
       max-width: 190mm; }
h1 { font-size: 16pt; margin: 0 0 2mm; }
.meta { color: #555; margin: 0 0 5mm; }
h2 { font-size: 13pt; border-bottom: 1.5pt solid #333; margin: 6mm 0 2mm; }
section.session { break-inside: avoid; page-break-inside: avoid; margin: 0 0 4mm; }
h3 { font-size: 11pt; margin: 2mm 0 1mm; }
.clash { color: #a00; font-weight: bold; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; }
th, td { text-align: left; vertical-align: top; padding: 1mm 1.5mm;
         border-bottom: 0.5pt solid #bbb; overflow-wrap: anywhere; }
th { font-size: 8.5pt; color: #444; }
col.board { width: 14%; } col.room { width: 14%; } col.status { width: 10%; }
.authors, .tags { color: #444; font-size: 9pt; }
.note { font-style: italic; white-space: pre-wrap; font-size: 9pt; }
h2 { break-after: avoid; page-break-after: avoid; }
"""


def _text(value: str) -> str:
    """Data text as HTML: escape sequences dropped, markup characters escaped."""
    return escape(safe(value), quote=True)


def _paper_row(slot: Slot) -> str:
    """One table row: board, room, the paper (title, authors, tags, note), status."""
    bm, event = slot.bookmark, slot.event
    title = " ".join((bm.copy.title or bm.paper_id).split())
    talk = " (talk)" if event.kind == "oral" else ""
    cells = [f"<strong>{_text(title)}</strong>{talk}"]
    if bm.copy.authors:
        cells.append(f'<div class="authors">{_text(", ".join(bm.copy.authors))}</div>')
    if bm.tags:
        cells.append(f'<div class="tags">tags: {_text(", ".join(bm.tags))}</div>')
    if bm.note.strip():
        cells.append(f'<div class="note">{_text(bm.note.strip())}</div>')
    return (
        f"<tr><td>{_text(event.poster_position) or '–'}</td><td>{_text(event.room) or '–'}</td>"
        f"<td>{''.join(cells)}</td><td>{STATUS_WORDS.get(bm.status, bm.status)}</td></tr>"
    )


def _session(group: SessionGroup) -> str:
    """A session: its name and time, its clashes, and a table of its papers."""
    when = format_span(group.starts, group.ends) if group.starts else "time unknown"
    head = f"<h3>{_text(group.name or 'Session')} · {_text(when)}</h3>"
    if group.clashes_with:
        head += f'<p class="clash">Clashes with {_text("; ".join(group.clashes_with))}</p>'
    rows = "\n".join(_paper_row(slot) for slot in group.slots)
    table = (
        '<table><colgroup><col class="board"><col class="room"><col><col class="status">'
        "</colgroup><thead><tr><th>Board</th><th>Room</th><th>Paper</th><th>Status</th>"
        f"</tr></thead><tbody>\n{rows}\n</tbody></table>"
    )
    return f'<section class="session">{head}\n{table}</section>'


def programme_html(
    days: Sequence[tuple[date | None, Sequence[SessionGroup]]],
    *,
    zone_name: str,
    made_at: datetime,
    title: str = "My conference programme",
) -> str:
    """The whole page (see the module docstring); ``zone_name`` says which zone times are in."""
    body = []
    for day, groups in days:
        body.append(f"<h2>{_text(long_day(day)) if day else 'Without a session time'}</h2>")
        body += [_session(g) for g in groups]
    if not body:
        body.append("<p>No bookmarks yet: add papers to the reading list first.</p>")
    count = sum(len(g.slots) for _day, groups in days for g in groups)
    meta = (
        f"{count} presentation{'s' if count != 1 else ''} of your reading list · times in "
        f"{_text(zone_name)} · made {made_at:%Y-%m-%d %H:%M} by PaperScope"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_text(title)}</title><style>{STYLE}</style></head>\n<body>"
        f'<h1>{_text(title)}</h1><p class="meta">{meta}</p>\n'
        + "\n".join(body)
        + "\n</body></html>\n"
    )
