"""BLEU: counting -> smoothing -> arithmetic -> reports, with NLTK's and sacreBLEU's APIs (standard library only)."""
