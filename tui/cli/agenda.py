"""``paperscope agenda``: the bookmarked papers by conference day and session, and what's on.

paperscope agenda [--day YYYY-MM-DD] [--at HH:MM] [--site CITY] [--json] [--timezone ZONE]
paperscope agenda --format html [-o FILE]     (a printable page of your days)

Days and hours are in the chosen zone (``--timezone``, else the config's ``timezone``,
else the zone of each session's site: a conference in several cities has a day per site).
``--site Paris`` keeps the sessions held there. After the days comes the moment (now, or
``--day`` at ``--at``): the sessions running then with their bookmarked papers, and the
next session. ``--day`` alone lists that day and takes its start as the moment.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from index_builder.readinglist.agenda import (
    WhatsOn,
    agenda_lines,
    agenda_zone,
    by_day,
    check_day_and_hour,
    conference_days,
    day_heading,
    moment_from,
    of_site,
    whats_on,
)
from index_builder.readinglist.schedule import SessionGroup, group_sessions
from index_builder.readinglist.store import ReadingListError
from index_builder.times import format_span
from tui.cli.common import add_subparser, zone_setting
from tui.cli.output import dumps, echo, error, write_out
from tui.shared.context import Context


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``agenda`` to the ``paperscope`` parser."""
    p = add_subparser(sub, "agenda", "bookmarked papers by day and session; what's on", run)
    p.add_argument(
        "--day",
        metavar="DAY",
        help="list this day: YYYY-MM-DD or a weekday (wed) of the conference",
    )
    p.add_argument(
        "--at",
        metavar="HH:MM",
        help="what's on at this hour (default: now; alone: on a conference day)",
    )
    p.add_argument("--site", metavar="CITY", help="only the sessions held in this city (Paris)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--format", choices=("text", "json", "html"), default="text",
        help="html: one self-contained page to print (default: text)",
    )  # fmt: skip
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="write FILE atomically")


def run(args: argparse.Namespace, ctx: Context) -> int:
    """Print the agenda; 1 when the reading list cannot be read, 2 for a bad day, hour or site."""
    from tui.cli.reading_list import open_list, refreshed

    # Arguments wrong whatever the catalogue holds are refused before it is read (the
    # whole catalogue, at three venues some 20,000 papers).
    if args.site is not None and not _known_site(args.site):
        error(f"--site {args.site!r} is no city of a known venue ({', '.join(_sites())})")
        return 2
    try:
        check_day_and_hour(args.day, args.at)
    except ValueError as exc:
        error(str(exc))
        return 2
    setting = zone_setting(ctx)
    try:
        store = open_list(ctx)
        try:
            refreshed(ctx, store)
            bookmarks = store.all(sort="time")
        finally:
            store.close()
    except (ReadingListError, OSError) as exc:
        error(f"reading list: {exc}")
        return 1
    groups = group_sessions(bookmarks, ctx.catalogue().get, setting)
    if args.site is not None:
        groups = of_site(groups, args.site)
    zone = agenda_zone(groups, setting)
    held = conference_days(ctx.catalogue().papers, zone) if args.day or args.at else ()
    try:
        moment = moment_from(args.day, args.at, zone, datetime.now(UTC), held)
    except ValueError as exc:
        error(str(exc))
        return 2
    days = by_day(groups)
    if args.day:
        days = [(d, g) for d, g in days if d == moment.date()]
    now = whats_on(groups, moment)
    if args.format == "html":
        return write_html(args, days, agenda_zone(groups, setting), moment)
    if args.json or args.format == "json":
        print(dumps(agenda_json(setting, days, now), indent=2))
        return 0
    print_agenda(days, now, empty=not groups)
    return 0


def _sites() -> list[str]:
    from index_builder import venues

    return list(dict.fromkeys(s.name for v in venues.known() for s in v.sites))


def _known_site(site: str) -> bool:
    wanted = " ".join(site.split()).casefold()
    return any(name.casefold() == wanted for name in _sites())


def write_html(
    args: argparse.Namespace, days: list[tuple[Any, list[SessionGroup]]], zone: Any, now: datetime
) -> int:
    """The printable programme, to ``-o FILE`` (atomically) or to stdout."""
    from index_builder.readinglist.programme import programme_html
    from index_builder.times import zone_label

    name = str(getattr(zone, "key", "") or zone)
    label = zone_label(now)
    text = programme_html(days, zone_name=f"{name} ({label})" if label != name else name,
                          made_at=now)  # fmt: skip
    return write_out(args.output, text, f"wrote the programme to {args.output}")


def session_json(group: SessionGroup) -> dict[str, Any]:
    """One session: name, kind, times (ISO in the shown zone), clashes and its papers."""
    return {
        "name": group.name,
        "kind": group.kind,
        "site": group.site,
        "day": group.day.isoformat() if group.day else None,
        "starts_at": group.starts.isoformat() if group.starts else None,
        "ends_at": group.ends.isoformat() if group.ends else None,
        "when": format_span(group.starts, group.ends) if group.starts else "time unknown",
        "clashes_with": list(group.clashes_with),
        "papers": [
            {
                "id": s.bookmark.paper_id,
                "title": s.bookmark.copy.title,
                "status": s.bookmark.status,
                "event": s.event.kind,
                "board": s.event.poster_position,
                "room": s.event.room,
            }
            for s in group.slots
        ],
    }


def agenda_json(
    setting: str, days: list[tuple[Any, list[SessionGroup]]], now: WhatsOn
) -> dict[str, Any]:
    """The ``--json`` shape: the setting, the days with their sessions, and the moment."""
    return {
        "timezone": setting,
        "days": [
            {
                "day": day.isoformat() if day else None,
                "label": day_heading(day, groups),
                "sessions": [session_json(g) for g in groups],
            }
            for day, groups in days
        ],
        "moment": now.moment.isoformat(),
        "running": [session_json(g) for g in now.running],
        "next": session_json(now.next) if now.next else None,
    }


def print_agenda(days: list[tuple[Any, list[SessionGroup]]], now: WhatsOn, *, empty: bool) -> None:
    """The days, then what is on at the moment and what comes next."""
    if empty:
        echo("No bookmarks yet (paperscope reading-list add ID, or b in the browser).")
    for line in agenda_lines(days, now):
        echo(line)
