"""The touchscreen: a Kivy app over the open game (see docs/touchscreen.md).

Importing this package loads no Kivy: the view-models (``*_view``, ``flows``, ``keypad``, ``games``,
``desk``) are plain Python and tested without a window. ``companion.ui.app.run_app`` starts the app.
"""
