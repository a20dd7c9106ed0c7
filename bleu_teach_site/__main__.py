"""``python -m bleu_teach_site``: build the website (bleu_teach_site.build)."""

from bleu_teach_site.build import main

main()
