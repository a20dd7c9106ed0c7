"""``python -m bleu_teach``: see :mod:`bleu_teach.ui.cli`."""

import sys

from bleu_teach.ui.cli import main

if __name__ == "__main__":
    sys.exit(main())
