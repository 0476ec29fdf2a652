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
    elif domain.endswith("N(0, 16)") or domain == "normal":  # activations, logits
        x = rng.standard_normal(n) * 4
    elif domain == "open unit":  # (-1, 1), dense near the ends too
        x = np.tanh(rng.standard_normal(n) * 2)
    elif domain == "above one":
        x = 1 + np.exp(rng.uniform(-20, 20, n))
    else:  # "real": all magnitudes, both signs
        x = rng.standard_normal(n) * np.exp(rng.uniform(-10, 10, n))
    return x.astype(dtype)


def _unary(name):
    return lambda m, t: getattr(m, name)(t)


# (name, domain, function of (module, tensor)): the elementwise transcendental ops first
# (Note [Float32 transcendentals] in autotensor/_ops/raw.py), then the exact formulas and
# the reductions
UNARY = [("exp", "exp"), ("exp", "normal"), ("exp2", "normal"), ("expm1", "exp"),
         ("expm1", "normal"), ("log", "positive"), ("log2", "positive"),
         ("log10", "positive"), ("log1p", "positive"), ("sin", "trig"), ("cos", "trig"),
         ("tan", "trig"), ("tanh", "real"), ("tanh", "normal"), ("sinh", "normal"),
         ("cosh", "normal"), ("asin", "open unit"), ("acos", "open unit"), ("atan", "real"),
         ("asinh", "real"), ("acosh", "above one"), ("atanh", "open unit"),
         ("sigmoid", "real"), ("sigmoid", "normal"), ("sigmoid", "one tensor of N(0, 16)"),
         ("erf", "real"), ("erfc", "normal"),
         ("erfinv", "open unit"), ("lgamma", "normal"), ("digamma", "normal"),
         ("sinc", "normal"), ("logit", "unit")]
OPS = [(f"{name} ({domain})" if sum(n == name for n, _ in UNARY) > 1 else name, domain,
        _unary(name)) for name, domain in UNARY] + [
    ("atan2", "normal", lambda m, t: m.atan2(t, m.flip(t, [0]))),
    ("xlogy", "normal", lambda m, t: m.xlogy(t, m.flip(t, [0]).abs())),
    ("erfcx", "normal", lambda m, t: m.special.erfcx(t)),
    ("log_ndtr", "normal", lambda m, t: m.special.log_ndtr(t)),
    ("sqrt", "positive", lambda m, t: m.sqrt(t)),
    ("rsqrt", "positive", lambda m, t: m.rsqrt(t)),
    ("reciprocal", "real", lambda m, t: m.reciprocal(t)),
    ("pow(x, 2)", "real", lambda m, t: t ** 2),
    ("pow(x, 2.5)", "positive", lambda m, t: t ** 2.5),
    ("pow(x, -0.5)", "positive", lambda m, t: t ** -0.5),
    # (up to 65,536 elements PyTorch's float32 kernel is ported; past it the fast path)
    ("softmax (1,000 rows of 50)", "real", lambda m, t: m.softmax(
        t[:50_000].reshape(-1, 50) / 1e3, 1)),
    ("softmax (all rows of 50)", "real", lambda m, t: m.softmax(t.reshape(-1, 50) / 1e3, 1)),
    ("log_softmax (1,000 rows of 50)", "real", lambda m, t: m.log_softmax(
        t[:50_000].reshape(-1, 50) / 1e3, 1)),
    ("log_softmax (all rows of 50)", "real",
     lambda m, t: m.log_softmax(t.reshape(-1, 50) / 1e3, 1)),
    ("logsumexp (rows of 50)", "real", lambda m, t: m.logsumexp(t.reshape(-1, 50) / 1e3, 1)),
    ("sum (rows of 1000)", "unit", lambda m, t: t.reshape(-1, 1000).sum(1)),
    ("mean (rows of 1000)", "unit", lambda m, t: t.reshape(-1, 1000).mean(1)),
    ("matmul (rows of 50 @ 50x10)", "unit", lambda m, t: m.matmul(
        t.reshape(-1, 50), m.from_numpy(np.linspace(0.1, 1, 500).reshape(50, 10).astype(
            t.numpy().dtype)))),
]
# ops also measured in float16 (PyTorch computes them in float32 and rounds)
HALF = ("exp", "log", "sin", "cos", "tanh", "sigmoid", "sqrt", "pow(x, 2.5)", "erf", "atan",
        "expm1")
DTYPES = ("float32", "float64", "float16")


# elementwise ops are measured on tensors of this size: PyTorch's own float32 kernels are
# ported up to autotensor._ops.raw.PORTED_MAX elements (Note [Size of the ported kernels])
CHUNK = 50_000


def measure_one(name, domain, fn, dtype, n, torch, autotensor):
    """(largest ulp distance, share of inputs that differ) of one op in one dtype."""
    x = inputs(domain, n, dtype)
    x = x[np.isfinite(x)]  # (float16: the domains overflow)
    if name.startswith(("softmax", "log_softmax", "sum", "mean", "logsumexp", "matmul")):
        x = x[: x.size - x.size % 1000]
        pieces = [x]
    elif "(one tensor" in name:
        pieces = [x]
    else:  # elementwise: tensors of CHUNK elements, as the ported kernels take them
        pieces = [x[i:i + CHUNK] for i in range(0, x.size, CHUNK)]
    d = []
    for p in pieces:
        expected = fn(torch, torch.from_numpy(p)).numpy()
        got = fn(autotensor, autotensor.from_numpy(p)).numpy()
        d.append(ulp_distance(np.ascontiguousarray(got).reshape(-1),
                              np.ascontiguousarray(expected).reshape(-1)))
    d = np.concatenate(d)
    return int(d.max()), float((d > 0).mean())


def measure(n: int):
    import torch

    import autotensor
    torch.set_num_threads(1)  # (one thread: PyTorch's SIMD loop covers whole vectors)
    rows = []
    for name, domain, fn in OPS:
        base = name.split(" (")[0]
        for dtype in DTYPES:
            if dtype == "float16" and base not in HALF:
                continue
            worst, share = measure_one(name, domain, fn, np.dtype(dtype), n, torch, autotensor)
            rows.append((name, dtype, worst, share))
    return rows


def _cell(worst, share):
    if not worst:
        return "0"
    pct = f"{share:.2%}" if share >= 0.0001 else "< 0.01%"
    return f"{worst} ({pct})"


def table(rows):
    """The README table: one line per op, "max ulp (share of inputs differing)" per dtype."""
    cells = {}
    for name, dtype, worst, share in rows:
        cells.setdefault(name, {})[dtype] = _cell(worst, share)
    lines = ["| op | float32: max ulp (inputs differing) | float64 | float16 (computed in "
             "float32) |", "|---|---|---|---|"]
    for name, by in cells.items():
        lines.append(f"| {name} | " + " | ".join(by.get(d, "—") for d in DTYPES) + " |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.ulp")
    parser.add_argument("--n", type=int, default=200_000)
    args = parser.parse_args(argv)
    print(table(measure(args.n)))


if __name__ == "__main__":
    main()
