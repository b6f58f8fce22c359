"""Palette providers and the keymap: what the user can run, by key or by name."""
