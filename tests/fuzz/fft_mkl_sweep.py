"""Measurement (not a test): torch.fft in autotensor against PyTorch's CPU build (MKL), sizes
1..64 (the 2-d ops over (2, n)). For each op and dtype: the sizes where the nan/inf pattern
differs on signals with a few infs and nans (with the fraction of rows that differ), the
largest error on finite signals relative to the row's largest |X|, and the fraction of
bit-equal outputs.

    PYTHONPATH=. python tests/fuzz/fft_mkl_sweep.py [op,op,...] [max_n] [norm]

(Note [MKL's DFT on non-finite values] in autotensor/_ops/fft_mkl.py.)
"""
import sys
import warnings

import numpy as np
import torch

import autotensor as at

warnings.filterwarnings("ignore")
B = 200
OPS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2"]
NORM = None
DTYPES = ["float32", "float64", "complex64", "complex128"]


def pattern(a):
    a = np.asarray(a)
    if a.dtype.kind == "c":
        a = np.stack([a.real, a.imag], -1)
    return np.where(np.isnan(a), 2, np.where(np.isposinf(a), 1, np.where(np.isneginf(a), -1, 0)))


def signal(rng, shape, dt, nonfinite):
    x = rng.standard_normal(shape)
    if dt.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dt)
    if nonfinite:  # 1..3 infs/nans per row, or up to half the row infs
        flat = x.view(x.real.dtype).reshape(shape[0], -1)
        for r in range(shape[0]):
            many = r % 2 and flat.shape[1] > 2
            k = rng.integers(1, (flat.shape[1] // 2 if many else 3) + 1)
            idx = rng.choice(flat.shape[1], size=min(k, flat.shape[1]), replace=False)
            vals = [np.inf, -np.inf] if many else [np.inf, -np.inf, np.inf, -np.inf, np.nan]
            flat[r, idx] = rng.choice(vals, size=len(idx))
    return x


def run(op, x, n):
    kw = {"dim": (-2, -1)} if op.endswith("2") else {"dim": -1}
    kw["norm"] = NORM
    if op in ("irfft", "hfft"):
        kw["n"] = n
    if op == "irfft2":
        kw["s"] = (2, n)
    t = getattr(torch.fft, op)(torch.from_numpy(x.copy()), **kw).resolve_conj().numpy()
    a = getattr(at.fft, op)(at.tensor(x.copy()), **kw).resolve_conj().numpy()
    return t, a


def main():
    ops = sys.argv[1].split(",") if len(sys.argv) > 1 else OPS
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    global NORM
    NORM = sys.argv[3] if len(sys.argv) > 3 else None
    rng = np.random.default_rng(0)
    print("op dtype | sizes: fraction of rows whose nan/inf pattern differs | "
          "finite: max |diff| / max|X| per row, fraction bit-equal")
    for op in ops:
        for dt in DTYPES:
            if op in ("rfft", "ihfft", "rfft2") and dt.startswith("complex"):
                continue
            bad, worst, equal, total = [], 0.0, 0, 0
            for n in range(1, top + 1):
                m = n // 2 + 1 if op in ("irfft", "hfft", "irfft2") else n
                shape = (B, 2, m) if op.endswith("2") else (B, m)
                t, a = run(op, signal(rng, shape, dt, False), n)
                scale = np.abs(t).reshape(B, -1).max(-1) + 1e-300
                worst = max(worst, (np.abs(a - t).reshape(B, -1).max(-1) / scale).max())
                equal += (a == t).sum()
                total += a.size
                t, a = run(op, signal(rng, shape, dt, True), n)
                frac = (pattern(t) != pattern(a)).reshape(B, -1).any(-1).mean()
                if frac:
                    bad.append(f"{n}:{frac:.2f}")
            print(f"{op} {dt} | {' '.join(bad) or '-'} | {worst:.1e} {equal / total:.3f}",
                  flush=True)


if __name__ == "__main__":
    main()
