"""``python -m bleu_teach``: see :mod:`bleu_teach.cli`."""

import sys

from bleu_teach.cli import main

sys.exit(main())
