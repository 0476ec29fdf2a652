"""Stop 35 (helper err35): ops given Python numbers with integer, bool and float tensors,
on autotensor and PyTorch: the exception (type, message) and which check fires first, or
the result's dtype and bits (tests/scalar_arg_sweep.py is the sweep; OPEN_FINDINGS.md,
Stop 35, its counts)."""
import math

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

from tests.scalar_arg_sweep import OPS, run  # noqa: E402  (imports torch)

_EXPR = {name: expr for name, expr, _ in OPS}
BIG = 2 ** 63

# (op, dtype, number, second number): one case of each class that differed
_CASES = [
    ("heaviside", "float32", 1, None),  # (the argument parser's TypeError)
    ("threshold", "uint8", 300, None),  # (Scalar::to<uint8_t>: overflow)
    ("threshold", "uint8", -1, None),  # (-1 wraps to 255: every element <= it)
    ("threshold.v", "int8", 300, None),
    ("threshold_", "int16", math.nan, None),
    ("hardtanh", "int8", 0, math.inf),  # (toLong of max: int64_t's overflow)
    ("hardtanh", "uint8", 1, 300),  # (then clamp's read into uint8)
    ("hardtanh_", "uint8", 1e300, None),
    ("clamp.both", "float16", 2 ** 31, math.nan),  # (a NaN bound: NaN, no bound read)
    ("elu", "float32", -1, None),  # (a zero takes a * poscoef: +0.0)
    ("elu", "float64", math.inf, None),
    ("elu", "float32", 1e300, None),
    ("elu_", "float16", 1 + 2j, None),
    ("leaky_relu", "float16", 0j, None),
    ("leaky_relu", "float32", 1e300, None),
    ("clamp.both", "float16", BIG, 0),  # (a float input is not promoted)
    ("clamp.both", "int8", 1e300, math.nan),  # (NaN: no bound read)
    ("clamp.both", "int8", BIG, 1j),  # (the promotion error before the complex one)
    ("clamp_", "int8", 1j, None),  # (the in-place cast check first)
    ("clamp_min", "float32", 0j, None),  # (clamp_min's own complex check)
    ("addcmul", "float32", 0j, None),
    ("addcmul", "float64", 1 + 2j, None),
    ("addcdiv", "complex64", 1e300, None),
    ("addcdiv.f", "int64", 1 + 2j, None),
    ("index_fill", "float32", 0j, None),
    ("index_fill_", "int8", 1 + 2j, None),
    ("lerp", "int8", 0j, None),
    ("lerp", "float32", 0j, None),
    ("lerp_", "float64", 1 + 2j, None),
    ("lerp", "complex64", 1e300, None),
    ("floor_divide", "int8", 1j, None),
    ("floor_divide", "complex64", 2, None),
    ("remainder.s", "int8", 0j, None),
    ("remainder.s", "bool", BIG, None),
    ("__rfloordiv__", "float16", 2 ** 64, None),
    ("div", "bool", BIG, None),
    ("div_.trunc", "float32", 2 ** 64, None),
    ("div_.trunc", "bool", BIG, None),
    ("remainder_", "float32", 1j, None),
    ("fmod_", "bfloat16", 1 + 2j, None),
    ("rsub.alpha", "uint8", -1, None),  # (alpha wraps into uint8)
    ("rsub.alpha", "int32", 2 ** 31, None),
    ("rsub", "bool", 2 ** 64, None),
    ("__rsub__", "bool", -BIG - 1, None),
    ("add.alpha", "complex64", 1e300, None),
    ("sub_.alpha", "complex64", 1e300, None),
    ("rshift", "uint8", -1, None),  # (255 read as signed: out of range)
    ("rshift", "int8", 2 ** 31, None),  # (wrapped to 0: no shift)
    ("lshift", "int16", BIG, None),
    ("__rrshift__", "uint8", -1, None),
    ("maximum.s", "float32", 1, None),  # (position 2 for the function)
    ("logical_and", "bool", 1, None),
    ("isclose", "float32", 1, None),
    ("softplus", "float16", 1e300, None),
    ("softplus.t", "float32", 0j, None),
    ("hardshrink", "float16", 2 ** 31, None),
    ("softshrink", "float16", -1, None),
    ("softshrink", "int8", 1 + 2j, None),
    ("celu", "int8", 0, None),
    ("celu", "float32", 1e300, None),
    ("rrelu", "float16", math.inf, None),
    ("rrelu", "float32", 0j, None),
    ("nan_to_num", "float32", 1j, None),
    ("logit", "int8", 1, None),
    ("logit", "bool", math.nan, None),
    ("logit", "float16", 2 ** 64, None),
    ("xlogy", "complex64", 2, None),
    ("xlogy.s", "int8", 0j, None),
    ("copysign", "bool", BIG, None),
    ("copysign", "float32", 1j, None),
    ("clamp.t", "uint8", 300, None),  # (a 0-d bound in the common dtype: 44 in uint8)
    ("clamp.t", "int8", 2.5, None),  # (a float bound: a float32 result)
    ("clamp.t", "bool", 1j, None),
    ("addcmul.t", "float32", 1 + 2j, None),  # (a tensor value is read as its item)
    ("bitwise_xor.s", "uint8", BIG, None),
    ("sub.s", "bool", 2 ** 64, None),
    ("mul.s", "bool", BIG, None),
    ("where.out", "float32", 1, None),
    ("bitwise_and.out", "bool", 0.0, None),  # (out's cast check before the kernel's)
    ("floor_divide.out", "bool", 0, None),  # (before the ZeroDivisionError)
    ("remainder.out", "bool", 1j, None),
]


@pytest.mark.parametrize("op, dtype, s, s2", _CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2]!r}-{c[3]!r}" for c in _CASES])
def test_number_arguments_like_torch(op, dtype, s, s2):
    """The same exception, or the same dtype and bits (wrapped integers included)."""
    expr = _EXPR[op]
    assert run(autotensor, expr, dtype, s, s2) == run(torch, expr, dtype, s, s2)


@pytest.mark.parametrize("value", [300, -300])
def test_addcdiv_backward_fills_value_into_an_integer_divisor(value):
    """addcdiv's tensor1 gradient ``value / tensor2`` is ``empty_like(tensor2).fill_(value)
    .div_(tensor2)``: 300 into uint8 is fill_'s overflow, before div_'s cast error
    (the fuzzer's note of stop 34)."""
    def scenario(m):
        x = m.ones(3, requires_grad=True)
        t1 = m.full((3,), 2.0, requires_grad=True)
        t2 = m.full((3,), 3, dtype=m.uint8)
        try:
            m.addcdiv(x, t1, t2, value=value).sum().backward()
            return t1.grad.tolist()
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e)
    assert scenario(autotensor) == scenario(torch)


def test_shifts_of_tensors_like_torch():
    """Both operands in the result dtype, the amount read as signed: negative or too wide
    gives 0 (left) or the sign fill (right), for every pair of integer dtypes."""
    rng = np.random.default_rng(35)
    a, b = rng.integers(-300, 300, 40), rng.integers(-70, 70, 40)
    names = ["uint8", "int8", "int16", "int32", "int64"]

    def scenario(m):
        out = []
        for da in names:
            for db in names:
                x, y = m.tensor(a).to(getattr(m, da)), m.tensor(b).to(getattr(m, db))
                out.append(((x << y).tolist(), (x >> y).tolist()))
        return out
    assert scenario(autotensor) == scenario(torch)


def test_method_argument_positions_like_torch():
    """The methods count other as position 1, the functions as 2 (a number input named)."""
    def scenario(m):
        x = m.ones(2)
        out = []
        for f in (lambda: x.maximum(1), lambda: m.minimum(1, x), lambda: x.logical_xor(1),
                  lambda: m.logical_or(x, 1), lambda: x.isclose(1),
                  lambda: x.isclose(x, 0.1, 0.1, True).tolist()):
            try:
                out.append(f())
            except TypeError as e:
                out.append(str(e))
        return out
    assert scenario(autotensor) == scenario(torch)
