"""The lessons' explorers, each declared once: controls and a view, from which every front end is made.

* :mod:`~bleu_teach.explorers.declaration`: :class:`Control` and :class:`Explorer`.
* :mod:`~bleu_teach.explorers.definitions`: the five lesson explorers (``EXPLORERS``).
* :mod:`~bleu_teach.explorers.views`: what each explorer shows (a ``WidgetView``).
* :mod:`~bleu_teach.explorers.typed_input`: the full explorer's typed text and settings, scored.
* :mod:`~bleu_teach.explorers.saved`: an explorer's values read back from a notebook's saved widget state.
* :mod:`~bleu_teach.explorers.arguments`: values set from Python, checked with the widget's name.

Standard library only (the website runs it on Pyodide); the notebook widgets
(:mod:`bleu_teach.ui.widgets`) are built from these declarations.
"""
