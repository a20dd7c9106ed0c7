"""Benchmark: bleu_teach.corpus_bleu against NLTK's on the same random corpus, and explain's cost.

Prints both times, the ratio and whether the scores are identical; the time
``explain`` takes for a 1,000-token hypothesis with 4 references (with and
without its HTML view); and checks that importing bleu_teach loads no heavy
package.

Targets: corpus_bleu at most 0.5x NLTK's time with the identical score;
explain (1,000 tokens, 4 references) no slower than 15.6 ms median, its
figure on this benchmark before statistics and scoring became one path each.

    python benchmarks/bench_core.py [--segments 5000] [--repeats 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
import warnings


def make_corpus(segments: int, seed: int) -> tuple[list[list[list[str]]], list[list[str]]]:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(400)]
    common = vocab[:30]

    def sentence() -> list[str]:
        return [rng.choice(common) if rng.random() < 0.5 else rng.choice(vocab) for _ in range(rng.randint(5, 40))]

    hyps, refs = [], []
    for _ in range(segments):
        base = sentence()
        hyp = [t if rng.random() < 0.7 else rng.choice(vocab) for t in base]
        hyps.append(hyp)
        refs.append([base] + [sentence() for _ in range(rng.randint(0, 3))])
    return refs, hyps


def best_time(func, repeats: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--segments", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    probe = "import sys, bleu_teach; print(sorted(m for m in ('matplotlib','ipywidgets','nltk') if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()
    print(f"heavy modules loaded by 'import bleu_teach': {loaded}")

    from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

    from bleu_teach import corpus_bleu

    refs, hyps = make_corpus(args.segments, args.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_ours, s_ours = best_time(lambda: corpus_bleu(refs, hyps), args.repeats)
        t_nltk, s_nltk = best_time(lambda: nltk_corpus_bleu(refs, hyps), args.repeats)
    print(f"corpus: {args.segments} segments of 5-40 tokens, 1-4 references (seed {args.seed}); best of {args.repeats}")
    print(f"bleu_teach.corpus_bleu: {t_ours:.3f} s  score {s_ours!r}")
    print(f"nltk corpus_bleu:       {t_nltk:.3f} s  score {s_nltk!r}")
    print(f"ratio bleu_teach/nltk:  {t_ours / t_nltk:.3f} (target <= 0.5)")
    print(f"identical scores:       {s_ours == s_nltk}")

    from bleu_teach import explain

    rng = random.Random(args.seed)
    vocab = [f"w{i}" for i in range(60)]
    bare, with_html = [], []
    for _ in range(20):
        hyp = [rng.choice(vocab) for _ in range(1000)]
        refs4 = [[rng.choice(vocab) for _ in range(1000)] for _ in range(4)]
        start = time.perf_counter()
        report = explain(refs4, hyp)
        middle = time.perf_counter()
        report._repr_html_()
        end = time.perf_counter()
        bare.append(middle - start)
        with_html.append(end - start)
    print(f"explain, 1,000 tokens, 4 references: median {statistics.median(bare) * 1000:.1f} ms "
          f"(target <= 15.6 ms), with its HTML view {statistics.median(with_html) * 1000:.1f} ms")
    long_orders(args.repeats)


def long_orders(repeats: int) -> None:
    """Orders far past the sentence length: one order costs one order, and the CLI summarises the rest."""
    import bleu_teach as bt
    from nltk.translate.bleu_score import modified_precision as nltk_modified_precision

    refs = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]]
    hyp = ["the", "cat", "sat", "on", "the", "mat"]
    t_ours, _ = best_time(lambda: bt.modified_precision(refs, hyp, 3000), repeats)
    t_nltk, _ = best_time(lambda: nltk_modified_precision(refs, hyp, 3000), repeats)
    print(f"modified_precision at n = 3,000: {t_ours * 1000:.3f} ms (NLTK {t_nltk * 1000:.3f} ms; "
          f"target: milliseconds, it took seconds when every order up to n was counted)")
    weights = (1 / 5000,) * 5000
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_bleu, _ = best_time(lambda: bt.sentence_bleu(refs, hyp, weights), repeats)
    print(f"sentence_bleu with 5,000 uniform weights: {t_bleu * 1000:.1f} ms (it took about 5 s)")
    import contextlib
    import io

    from bleu_teach.ui.cli import main as cli_main

    def in_process(max_n: int) -> int:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return cli_main(["explain", "the cat", "--ref", "the cat", "--max-n", str(max_n)])

    for max_n in (4, 1_000, 100_000):
        t_main, code = best_time(lambda: in_process(max_n), repeats)
        command = [sys.executable, "-m", "bleu_teach", "explain", "the cat", "--ref", "the cat", "--max-n", str(max_n)]
        start = time.perf_counter()
        run = subprocess.run(command, capture_output=True, text=True)
        whole = time.perf_counter() - start
        outcome = (f"{len(run.stdout):,} characters of output" if code == 0
                   else f"refused: {run.stderr.strip().splitlines()[-1]}")
        print(f"CLI explain --max-n {max_n:,}: {t_main * 1000:.1f} ms in the command, {whole:.2f} s with Python's "
              f"start-up; {outcome}")
    print("(--max-n 100,000 never answered when every order was counted; it took 1.2 s when orders past the "
          "sentence cost little, and is now refused: 1,000 orders at most)")


if __name__ == "__main__":
    main()
