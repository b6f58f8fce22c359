"""The widgets of the PaperScope TUI, one per module."""
