"""float16/bfloat16 bit sweep against PyTorch (stop 34; the lead's /tmp/sw_act.py, extended).

    python tests/half_sweep.py torch                       # -> /tmp/half_sweep_torch.pkl
    PYTHONPATH=. python tests/half_sweep.py autotensor     # -> /tmp/half_sweep_autotensor.pkl
    python tests/half_sweep.py compare [other.pkl]         # differing values per class

Classes: fwd (forward values), grad (gradients), tan (forward-AD tangents), nan (both NaN,
other bits). 64 N(0, 4) values, 4 draws, both dtypes."""

import collections
import importlib
import pickle
import sys

import numpy as np

ACTS = [
    "x.sigmoid()", "x.tanh()", "F.relu(x)", "F.elu(x)", "F.selu(x)", "F.celu(x, 0.7)",
    "F.softplus(x)", "F.hardswish(x)", "F.gelu(x)", "F.gelu(x, approximate='tanh')",
    "F.silu(x)", "F.logsigmoid(x)", "F.hardsigmoid(x)", "F.leaky_relu(x, 0.1)", "F.hardtanh(x)",
    "F.mish(x)", "x.sigmoid().logit()", "F.softsign(x)", "F.tanhshrink(x)", "F.softshrink(x)",
    "F.hardshrink(x)", "F.relu6(x)", "F.rrelu(x)", "F.glu(x, 0)", "x.exp()", "x.log1p()",
    "x.abs().sqrt()", "x.abs().rsqrt()", "x.erf()", "x.atan()", "x.sin()", "x.cos()",
    "x.reciprocal()", "x.square()", "x.pow(3)", "x.pow(2.5)", "x.abs().pow(0.5)", "x.sinh()",
    "x.cosh()", "x.asinh()", "x.expm1()", "x.exp2()", "x.abs().log()", "x.abs().log2()",
    "x.abs().log10()", "x.tan()", "x.sgn()", "x.frac()", "x.lgamma()", "x.digamma()",
    "x.sinc()", "x.deg2rad()", "x.atan2(x.flip(0))", "x.hypot(x.flip(0))", "x * x.flip(0)",
    "x / x.flip(0)", "x.xlogy(x.abs())", "x.lerp(x.flip(0), 0.3)", "F.softmax(x, 0)",
    "F.log_softmax(x, 0)", "x.logsumexp(0)", "x.cumsum(0)", "x.cumprod(0)", "x.prod()",
    "x.norm()", "x.var()", "x.std()", "x.mean()", "x.sum()", "x.reshape(8, 8).trace()",
    "F.normalize(x, dim=0)", "x.reshape(8, 8).renorm(2, 0, 1.0)",
    "x.addcmul(x, x.flip(0), value=0.5)", "x.addcdiv(x, x.flip(0).abs() + 1, value=0.5)"]


def run(name):
    m = importlib.import_module(name)
    F = m.nn.functional  # noqa: F841 (read by the expressions)
    fw = m.autograd.forward_ad
    rng = np.random.default_rng(1)
    res = []
    for dtn in ("bfloat16", "float16"):
        dt = getattr(m, dtn)
        for trial in range(4):
            p = (rng.standard_normal(64) * 2).astype(np.float32)
            t = rng.standard_normal(64).astype(np.float32)
            g = rng.standard_normal(64).astype(np.float32)
            for c in ACTS:
                row = [dtn, trial, c]
                try:
                    x = m.tensor(p, dtype=dt, requires_grad=True)
                    y = eval(c)
                    y.backward(m.tensor(g[:y.numel()].reshape(tuple(y.shape)), dtype=dt))
                    row.append((_bits(m, y), _bits(m, x.grad)))
                except Exception as e:
                    row.append(type(e).__name__)
                try:
                    with fw.dual_level():
                        x = fw.make_dual(m.tensor(p, dtype=dt), m.tensor(t, dtype=dt))
                        row.append(_bits(m, fw.unpack_dual(eval(c)).tangent))
                except Exception as e:
                    row.append(type(e).__name__)
                res.append(row)
    with open(f"/tmp/half_sweep_{name}.pkl", "wb") as f:
        pickle.dump(res, f)


def _bits(m, y):
    return y.detach().contiguous().reshape(-1).view(m.int16).numpy().astype(np.uint16)


def _nan(bits, dtype):
    if dtype == "float16":
        return np.isnan(bits.view(np.float16))
    return ((bits & 0x7F80) == 0x7F80) & ((bits & 0x007F) != 0)


def compare(other="/tmp/half_sweep_autotensor.pkl"):
    with open("/tmp/half_sweep_torch.pkl", "rb") as f:
        want = pickle.load(f)
    with open(other, "rb") as f:
        got = pickle.load(f)
    count = collections.defaultdict(lambda: [0, 0])
    for a, b in zip(want, got):
        dt, _, c = a[:3]
        pa = a[3] if isinstance(a[3], tuple) else (a[3], a[3])
        pb = b[3] if isinstance(b[3], tuple) else (b[3], b[3])
        for cls, x, y in (("fwd", pa[0], pb[0]), ("grad", pa[1], pb[1]), ("tan", a[4], b[4])):
            if isinstance(x, str) or isinstance(y, str):
                if x != y:
                    print("outcome", cls, dt, c, x if isinstance(x, str) else "value",
                          y if isinstance(y, str) else "value")
                continue
            if x.shape != y.shape:
                print("shape", cls, dt, c, x.shape, y.shape)
                continue
            nan = _nan(x, dt) & _nan(y, dt)
            for k, sel in ((cls, ~nan), ("nan", nan)):
                count[k, c, dt][0] += int((x != y)[sel].sum())
                count[k, c, dt][1] += int(sel.sum())
    total = collections.defaultdict(lambda: [0, 0])
    for (cls, c, dt), (n, of) in sorted(count.items()):
        total[cls][0] += n
        total[cls][1] += of
        if n:
            print(cls, dt, c, n, "of", of)
    for cls, (n, of) in total.items():
        print(f"{cls}: {n} of {of} differ")


if __name__ == "__main__":
    if sys.argv[1] == "compare":
        compare(*sys.argv[2:])
    else:
        run(sys.argv[1])
