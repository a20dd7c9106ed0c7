"""What the website runs in the learner's browser, on Pyodide: :mod:`bleu_teach.web.page`, the one bridge
between a page's forms (every explorer and every exercise) and the package.  Standard library only."""
