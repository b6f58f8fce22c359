"""The screens of the PaperScope TUI (and the main screen's parts)."""
