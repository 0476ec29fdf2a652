"""Stop 32, helper act32: activation kernels bit-identical to PyTorch 2.13's CPU kernels.

Each case runs one activation forward and backward on a sweep (x = linspace(-9, 9, 2001)
plus nan, -0.0, 0.0, inf, -inf; grad = linspace(0.1, 2, n)) on autotensor and torch, on
2,006 elements (PyTorch's SIMD loop) and on 7 (its scalar loop), and asserts the results
bit for bit: values, signs of zeros and NaN positions (Note [Half activations in float32]
in autotensor/_ops/raw.py). Only the (op, dtype, size) cases that differed on the base
commit are listed."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

_BASE = np.concatenate([np.linspace(-9, 9, 2001), [np.nan, -0.0, 0.0, np.inf, -np.inf]])
_SMALL = [0, 700, 1000, 1300, 2001, 2002, 1500]  # (a NaN and a -0.0 among them)

OPS = {
    "hardsigmoid": lambda F, x: F.hardsigmoid(x),
    "leaky_relu": lambda F, x: F.leaky_relu(x),
    "leaky_relu_0.3": lambda F, x: F.leaky_relu(x, 0.3),
    "rrelu_eval": lambda F, x: F.rrelu(x, training=False),
    "hardswish": lambda F, x: F.hardswish(x),
    "silu": lambda F, x: F.silu(x),
    "softplus": lambda F, x: F.softplus(x),
    "softplus_2_3": lambda F, x: F.softplus(x, beta=2, threshold=3),
    "logsigmoid": lambda F, x: F.logsigmoid(x),
    "mish": lambda F, x: F.mish(x),
}

CASES = (
    [("hardsigmoid", dt, n) for dt in ("float32", "float16", "bfloat16") for n in (2006, 7)]
    + [(op, dt, n) for op in ("leaky_relu", "leaky_relu_0.3", "rrelu_eval")
       for dt in ("float16", "bfloat16") for n in (2006, 7)]
    + [("hardswish", dt, 2006) for dt in ("float16", "bfloat16")]
    + [("silu", dt, n) for dt in ("float16", "bfloat16") for n in (2006, 7)]
    + [(op, dt, n) for op in ("softplus", "softplus_2_3", "logsigmoid", "mish")
       for dt in ("float16", "bfloat16") for n in (2006, 7)]
)

# float32: the backward only (their forward's log1p is not ported yet)
BACKWARD_CASES = [("softplus", "float32", 2006), ("softplus", "float32", 7),
                  ("softplus_2_3", "float32", 2006), ("softplus_2_3", "float32", 7),
                  ("logsigmoid", "float32", 2006)]


def _run(lib, op, dtype, n):
    xs = _BASE if n == 2006 else _BASE[_SMALL]
    dt = getattr(lib, dtype)
    x = lib.tensor(xs.tolist(), dtype=dt).requires_grad_()
    y = OPS[op](lib.nn.functional, x)
    y.backward(lib.tensor(np.linspace(0.1, 2, n).tolist(), dtype=dt))
    return [np.array(t.detach().float().tolist(), dtype=np.float32) for t in (y, x.grad)]


def _assert_bits(got, want, what):
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all(), f"{what}: NaN positions differ"
    bad = got.view(np.uint32)[~nan] != want.view(np.uint32)[~nan]
    assert not bad.any(), f"{what}: {bad.sum()} elements differ, first at " \
        f"x={_BASE[~nan][bad][:3] if len(want) == 2006 else '?'}"


@pytest.mark.parametrize("op,dtype,n", CASES)
def test_activation_bits(op, dtype, n):
    got = _run(autotensor, op, dtype, n)
    want = _run(torch, op, dtype, n)
    _assert_bits(got[0], want[0], "forward")
    _assert_bits(got[1], want[1], "backward")


@pytest.mark.parametrize("op,dtype,n", BACKWARD_CASES)
def test_activation_backward_bits(op, dtype, n):
    got = _run(autotensor, op, dtype, n)
    want = _run(torch, op, dtype, n)
    _assert_bits(got[1], want[1], "backward")


# A transposed gradient (40 x 37 values, x ~ 4 * N(0, 1)): the backward's loop order follows
# it (log_sigmoid's buffer does not: its forward's loop is SIMD to the end)
T_CASES = (
    [("hardsigmoid", dt) for dt in ("float32", "float16", "bfloat16")]
    + [(op, dt) for op in ("leaky_relu", "hardswish", "silu", "mish", "softplus", "logsigmoid")
       for dt in ("float16", "bfloat16")]
    + [("softplus", "float32"), ("logsigmoid", "float32")]
)


def _run_transposed(lib, op, dtype):
    dt = getattr(lib, dtype)
    xs = np.random.default_rng(0).standard_normal((40, 37)) * 4
    x = lib.tensor(xs.tolist(), dtype=dt).requires_grad_()
    g = lib.tensor(np.linspace(0.1, 2, 40 * 37).reshape(37, 40).tolist(), dtype=dt).t()
    y = OPS[op](lib.nn.functional, x)
    y.backward(g)
    return [np.array(t.detach().float().tolist(), dtype=np.float32).ravel()
            for t in (y, x.grad)]


@pytest.mark.parametrize("op,dtype", T_CASES)
def test_activation_transposed_grad_bits(op, dtype):
    got = _run_transposed(autotensor, op, dtype)
    want = _run_transposed(torch, op, dtype)
    if dtype != "float32" or op == "hardsigmoid":
        _assert_bits(got[0], want[0], "forward")
    _assert_bits(got[1], want[1], "backward")


@pytest.mark.parametrize("op", ["silu", "mish", "softplus", "logsigmoid"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_backward_above_ported_max_bits(op, dtype):
    """90,000 elements (above raw.PORTED_MAX): the half types' ported kernels at any size."""
    def run(lib):
        xs = np.random.default_rng(1).standard_normal((300, 300)) * 4
        x = lib.tensor(xs.tolist(), dtype=getattr(lib, dtype)).requires_grad_()
        y = OPS[op](lib.nn.functional, x)
        y.backward(lib.ones_like(y) * 0.7)
        return np.array(x.grad.float().tolist(), dtype=np.float32).ravel()
    _assert_bits(run(autotensor), run(torch), "backward")
