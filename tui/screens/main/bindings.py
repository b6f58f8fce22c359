"""The main screen's keys (letters act only when the search box does not have focus).

| key     | id              | action                                         |
|---------|-----------------|------------------------------------------------|
| /       | search          | focus the search box                           |
| escape  | back            | back to the list (leave like:/reading view)    |
| ⌫       | leave_like      | back to the query before a listing             |
| tab     | did_you_mean    | search for the "did you mean" suggestion       |
| m       | more_like_this  | list the papers similar to the current one     |
| s       | sort            | cycle relevance → title → time                 |
| f       | facets          | show or hide the facet counts                  |
| o / O   | open_page/code  | open the paper's page / its code in a browser  |
| P       | open_pdf        | open the paper's PDF on OpenReview             |
| a       | more_by_author  | search for the first author's papers           |
| e / p   | export / planner | the reading list's export / its sessions view |
| b / B   | bookmark / reading_list | toggle bookmark / open the reading list |
| y / Y   | cite / cite_format | copy the default citation / pick a format   |
| R       | for_you         | For you: papers ranked by the reading list     |
| x / u   | dismiss / undo_dismiss | not interested (hidden from For you) / undo |
| J       | join            | join by hand: pick the paper or the abstract / undo / take apart |
| W       | watches         | the watches pane: saved queries, what is new (Enter lists it) |
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

MAIN_BINDINGS: list[BindingType] = [
    Binding("slash", "focus_search", "Search", tooltip="Type a query", id="search"),
    Binding("escape", "back", "Back", tooltip="Back to the result list", id="back"),
    Binding(
        "backspace",
        "leave_like",
        "Leave listing",
        show=False,
        tooltip="Back to the query before like:, author: or is:bookmarked",
        id="leave_like",
    ),
    Binding(
        "tab",
        "accept_suggestion",
        "Did you mean",
        tooltip="Search for the suggestion",
        id="did_you_mean",
    ),
    Binding(
        "tab",
        "app.focus_next",
        "Next pane",
        show=False,
        tooltip="Move to the next pane",
        id="focus_next",
    ),
    Binding(
        "m",
        "more_like_this",
        "More like this",
        tooltip="Papers similar to this one",
        id="more_like_this",
    ),
    Binding("s", "cycle_sort", "Sort", tooltip="Relevance, title or session time", id="sort"),
    Binding("f", "toggle_facets", "Facets", tooltip="Counts by topic, kind, session", id="facets"),
    Binding(
        "o",
        "open('page')",
        "Open page",
        show=False,
        tooltip="Open the paper's page",
        id="open_page",
    ),
    Binding(
        "O",
        "open('code')",
        "Open code",
        show=False,
        tooltip="Open the paper's code",
        id="open_code",
    ),
    Binding(
        "P",
        "open('pdf')",
        "Open PDF",
        show=False,
        tooltip="Open the paper's PDF on OpenReview",
        id="open_pdf",
    ),
    Binding(
        "a",
        "more_by_author",
        "More by author",
        show=False,
        tooltip="Papers by the first author",
        id="more_by_author",
    ),
    Binding(
        "R",
        "for_you",
        "For you",
        show=False,
        tooltip="Papers ranked by your reading list",
        id="for_you",
    ),
    Binding(
        "x",
        "not_interested",
        "Not interested",
        show=False,
        tooltip="Hide the paper from For you",
        id="dismiss",
    ),
    Binding(
        "u",
        "undo_dismiss",
        "Undo not interested",
        show=False,
        tooltip="Take back this paper (if dismissed) or the last one hidden from For you",
        id="undo_dismiss",
    ),
    Binding(
        "W",
        "watches",
        "Watches",
        show=False,
        tooltip="Your saved queries and their new papers since the last update",
        id="watches",
    ),
    Binding(
        "J",
        "app.join_by_hand",
        "Join by hand",
        show=False,
        tooltip="Join an abstract and a paper by hand, undo, or take a wrong join apart",
        id="join",
    ),
    Binding(
        "b",
        "toggle_bookmark",
        "Bookmark",
        tooltip="Add to or remove from the reading list",
        id="bookmark",
    ),
    Binding(
        "B", "reading_list('')", "Reading list", tooltip="Open the reading list", id="reading_list"
    ),
    Binding("y", "cite('')", "Cite", tooltip="Copy the default citation", id="cite"),
    Binding(
        "Y",
        "cite('pick')",
        "Cite as…",
        show=False,
        tooltip="Pick a citation format",
        id="cite_format",
    ),
    Binding(
        "e",
        "reading_list('export')",
        "Export reading list",
        show=False,
        tooltip="BibTeX, Markdown, CSV, JSON or .ics",
        id="export",
    ),
    Binding(
        "p",
        "reading_list('sessions')",
        "Planner",
        show=False,
        tooltip="Your bookmarks by day and session, clashes marked",
        id="planner",
    ),
]
"""Every key of the main screen, in the order the footer and the help show them."""
