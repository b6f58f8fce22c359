"""The conferences' official feeds: download (:mod:`.download`), check and store
(:mod:`.update`, :mod:`.store`); the venues an ``update --host`` took, remembered beside
their feed (:mod:`.remembered`). The catalogue reads the stored files like any other
source (:mod:`index_builder.sources.feed`). No Textual here: the CLI and the TUI both
call :func:`index_builder.feeds.update.update`.
"""
