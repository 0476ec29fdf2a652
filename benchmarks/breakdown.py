"""``python -m benchmarks.breakdown``: where the microseconds of one elementwise op go.

A chain of 200 ``sin`` on 16 float32, CPU time per op (medians): NumPy alone, autotensor
under no_grad, recording, and one backward node (with the NumPy arithmetic of its formula
for comparison); then the cProfile shares of a forward+backward (profiler overhead
included, so read them as proportions). RESULTS.md quotes it under "Where the time goes".
"""
import cProfile
import pstats
import time

import numpy as np

N = 200


def _median_us(f, n=20, k=15):
    runs = []
    for _ in range(k):
        c = time.process_time()
        for _ in range(n):
            f()
        runs.append((time.process_time() - c) / n / N * 1e6)
    return sorted(runs)[k // 2]


def main():
    import autotensor as T
    a = np.random.default_rng(0).standard_normal(16).astype(np.float32)
    x = T.from_numpy(a.copy()).requires_grad_()

    def np_fwd():
        y = a
        for _ in range(N):
            y = np.sin(y)

    def np_formula():  # the backward's arithmetic: g * cos(s)
        g = a
        for _ in range(N):
            g = g * np.cos(a)

    def no_grad():
        with T.no_grad():
            y = x
            for _ in range(N):
                y = y.sin()

    def fwd():
        y = x
        for _ in range(N):
            y = y.sin()
        return y

    def fwd_bwd():
        x.grad = None
        fwd().sum().backward()

    r = {name: _median_us(f) for name, f in (("numpy", np_fwd), ("formula", np_formula),
                                              ("no_grad", no_grad), ("fwd", fwd),
                                              ("fwd_bwd", fwd_bwd))}
    print(f"us per op: NumPy sin {r['numpy']:.2f} | autotensor no_grad {r['no_grad']:.2f} | "
          f"forward recording {r['fwd']:.2f} | forward+backward {r['fwd_bwd']:.2f}")
    node = r["fwd_bwd"] - r["fwd"]
    print(f"  wrap+dispatch {r['no_grad'] - r['numpy']:.2f}; recording "
          f"{r['fwd'] - r['no_grad']:.2f}; backward node {node:.2f}, of which NumPy "
          f"arithmetic {r['formula']:.2f} and engine+apply {node - r['formula']:.2f}")
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    for _ in range(30):
        fwd_bwd()
    prof.disable()
    st = pstats.Stats(prof)
    rows = sorted(((v[2], k) for k, v in st.stats.items()), reverse=True)[:12]
    print("  cProfile shares of forward+backward (tottime):")
    for t, (fn, line, name) in rows:
        print(f"    {t / st.total_tt * 100:5.1f}%  {fn.split('autotensor/')[-1]}:{line}({name})")


if __name__ == "__main__":
    main()
