"""Measure how far autotensor's elementwise kernels are from PyTorch's, in ulps.

``python -m tests.ulp [--n N]`` prints a Markdown table (README "Numerics"): for each op
and dtype, the largest difference in units in the last place over N inputs spread over the
op's domain, and the share of inputs that differ at all. Exact formulas (Note [Exact float
kernels] in ``autotensor/_ops/raw.py``) show 0; NumPy's transcendental kernels differ from
PyTorch's SLEEF/libm ones by a few ulp.
"""
from __future__ import annotations

import argparse

import numpy as np


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|a - b| in ulps, on the bit patterns (NaN pairs count 0; -0.0 and 0.0 are 0 apart)."""
    def key(x):
        v = x.view({2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]).astype(np.int64)
        mag = v & np.int64((1 << (8 * x.dtype.itemsize - 1)) - 1)
        return np.where(v < 0, -mag, mag)
    d = np.abs(key(a) - key(b))
    return np.where(np.isnan(a) & np.isnan(b), 0, d)


def inputs(domain: str, n: int, dtype) -> np.ndarray:
    rng = np.random.RandomState(0)
    if domain == "exp":
        x = rng.uniform(-87, 88, n)
    elif domain == "positive":
        x = np.exp(rng.uniform(-80, 80, n))
    elif domain == "trig":
        x = np.concatenate([rng.uniform(-10, 10, n // 2), rng.uniform(-1e4, 1e4, n - n // 2)])
    elif domain == "unit":
        x = rng.uniform(0, 1, n)
    else:  # "real": all magnitudes, both signs
        x = rng.standard_normal(n) * np.exp(rng.uniform(-10, 10, n))
    return x.astype(dtype)


OPS = [  # (name, domain, torch function, autotensor function)
    ("exp", "exp", lambda m, t: m.exp(t)),
    ("log", "positive", lambda m, t: m.log(t)),
    ("sin", "trig", lambda m, t: m.sin(t)),
    ("cos", "trig", lambda m, t: m.cos(t)),
    ("tanh", "real", lambda m, t: m.tanh(t)),
    ("sigmoid", "real", lambda m, t: m.sigmoid(t)),
    ("sqrt", "positive", lambda m, t: m.sqrt(t)),
    ("rsqrt", "positive", lambda m, t: m.rsqrt(t)),
    ("reciprocal", "real", lambda m, t: m.reciprocal(t)),
    ("pow(x, 2)", "real", lambda m, t: t ** 2),
    ("pow(x, 2.5)", "positive", lambda m, t: t ** 2.5),
    ("pow(x, -0.5)", "positive", lambda m, t: t ** -0.5),
    ("softmax (rows of 50)", "real", lambda m, t: m.softmax(t.reshape(-1, 50) / 1e3, 1)),
    ("sum (rows of 1000)", "unit", lambda m, t: t.reshape(-1, 1000).sum(1)),
    ("mean (rows of 1000)", "unit", lambda m, t: t.reshape(-1, 1000).mean(1)),
    ("tan", "trig", lambda m, t: m.tan(t)),
    ("atan", "real", lambda m, t: m.atan(t)),
    ("log1p", "positive", lambda m, t: m.log1p(t)),
    ("expm1", "exp", lambda m, t: m.expm1(t)),
    ("erf", "real", lambda m, t: m.erf(t)),
    ("logsumexp (rows of 50)", "real", lambda m, t: m.logsumexp(t.reshape(-1, 50) / 1e3, 1)),
    ("matmul (rows of 50 @ 50x10)", "unit", lambda m, t: m.matmul(
        t.reshape(-1, 50), m.from_numpy(np.linspace(0.1, 1, 500).reshape(50, 10).astype(
            t.numpy().dtype)))),
]
# elementwise ops also measured in float16 (PyTorch computes them in float32 and rounds)
HALF = ("exp", "log", "sin", "cos", "tanh", "sigmoid", "sqrt", "pow(x, 2.5)", "erf")


def measure(n: int):
    import torch

    import autotensor
    rows = []
    for name, domain, fn in OPS:
        for dtype in (np.float32, np.float64) + ((np.float16,) if name in HALF else ()):
            x = inputs(domain, n, dtype)
            x = x[np.isfinite(x)]  # (float16: the domains overflow)
            if name.startswith(("softmax", "sum", "mean", "logsumexp", "matmul")):
                x = x[: x.size - x.size % 1000]
            expected = fn(torch, torch.from_numpy(x)).numpy()
            got = fn(autotensor, autotensor.from_numpy(x)).numpy()
            d = ulp_distance(np.ascontiguousarray(got).reshape(-1),
                             np.ascontiguousarray(expected).reshape(-1))
            rows.append((name, np.dtype(dtype).name, int(d.max()), float((d > 0).mean())))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.ulp")
    parser.add_argument("--n", type=int, default=200_000)
    args = parser.parse_args(argv)
    print(f"| op | dtype | max ulp vs torch | inputs that differ ({args.n:,}) |")
    print("|---|---|---|---|")
    for name, dtype, worst, share in measure(args.n):
        print(f"| {name} | {dtype} | {worst} | {share:.2%} |")


if __name__ == "__main__":
    main()
