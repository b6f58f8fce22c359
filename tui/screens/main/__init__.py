"""The main screen: search box, result list, paper view, facets and status line."""
