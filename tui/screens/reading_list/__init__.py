"""The reading list screen (``B``): bookmarks, notes, exports and the session planner."""
