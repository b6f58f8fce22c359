"""What the user can run, by key or by name in the command palette.

- ``keys``: every key as the user has it (keymap applied; the help screen lists
  :func:`~tui.commands.keys.shown_entries`) and ``ActionCommands``, the palette provider
  that offers the same actions.
- ``schedule``: ``ScheduleCommands``, the time-zone and what's-on commands.
- ``update``: ``UpdateCommands`` ("Update from the conference site") and the worker body
  it runs, :func:`~tui.commands.update.update_in_worker`.

- ``listed``: ``ListedCommands``, the one shape of the three providers: a list of named
  commands, all shown before anything is typed, matched by name after.

Each provider runs one of the app's ``action_*`` methods, so a key and its palette
command do the same thing. Commands never import the screens
or the app: what they act on is passed in.
"""
