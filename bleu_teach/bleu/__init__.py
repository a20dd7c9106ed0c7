"""BLEU: count_fraction -> counting -> smoothing -> arithmetic -> reports, with NLTK's and sacreBLEU's APIs.

Standard library only.
"""
