"""The widgets of the PaperScope TUI, one per module.

``search_box``, ``did_you_mean``, ``result_list``, ``paper_view`` (with ``paper_text``,
the Rich text of a paper's parts), ``facet_panel``, ``status_bar``. Widgets never import
the screens, the app, the services, the command line, the commands, the lifecycle or the
search history: what they need is passed in or posted as a message.
"""
