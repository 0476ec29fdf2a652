import contextlib
import math

import numpy as np
import pytest

from autotensor import _dtypes as D
from autotensor import _printing as P

torch = pytest.importorskip("torch")


@contextlib.contextmanager
def both_printoptions(**kw):
    try:
        torch.set_printoptions(**kw)
        P.set_printoptions(**kw)
        yield
    finally:
        torch.set_printoptions(profile="default")
        P.set_printoptions(profile="default")


@contextlib.contextmanager
def both_default_dtype(name):
    try:
        torch.set_default_dtype(getattr(torch, name))
        D.set_default_dtype(getattr(D, name))
        yield
    finally:
        torch.set_default_dtype(torch.float32)
        D.set_default_dtype(D.float32)


def torch_of(arr):
    return torch.from_numpy(np.array(arr, order="C", copy=True))


def check(arr, mode="plain"):
    """Compare our repr of ``arr`` with torch's, in one of three autograd states."""
    assert isinstance(arr, np.ndarray)
    original, before = arr, arr.copy()
    t = torch_of(arr)
    dt = D.from_numpy(arr.dtype)
    if mode == "plain":
        exp = repr(t)
        got = P.tensor_repr(arr, dt)
    elif mode == "requires_grad":
        exp = repr(t.requires_grad_())
        got = P.tensor_repr(arr, dt, requires_grad=True)
    else:
        t2 = t.requires_grad_() * 1
        exp = repr(t2)
        vals = t2.detach().numpy()
        if vals.tobytes() != np.array(arr, order="C").tobytes():
            arr = vals  # x * 1 can flip the sign of a complex zero
        got = P.tensor_repr(arr, dt, grad_fn_name=type(t2.grad_fn).__name__,
                            requires_grad=True, is_leaf=False)
    assert got == exp, f"\nours:\n{got}\ntorch:\n{exp}"
    assert original.tobytes() == before.tobytes()  # never modified
    return got


# ----------------------------------------------------------------------------- array zoo

def _rng(seed):
    return np.random.default_rng(seed)


SHAPES = [(), (1,), (5,), (7,), (2, 3), (3, 1, 4), (2, 3, 2, 2), (25,), (4, 30), (1, 1, 1)]
SCALES = [1.0, 1e-5, 1e-3, 0.5, 10.0, 123.0, 1e4, 1e6, 1e9]


def float_arrays():
    out = []
    for si, shape in enumerate(SHAPES):
        for ki, scale in enumerate(SCALES):
            a = np.asarray(_rng(100 * si + ki).standard_normal(shape) * scale)
            out.append((f"normal{shape}x{scale}", a.astype(np.float32)))
    out += [
        ("intvalued", np.array([1.0, 2.0, -3.0, 100.0], np.float32)),
        ("intvalued2d", np.arange(12, dtype=np.float32).reshape(3, 4) - 5),
        ("intvalued_big", np.array([1.0, 1e8, 123456789.0])),
        ("intvalued_1e8", np.array([0.0, 1e8, 2.0])),
        ("intvalued_ratio", np.array([1.0, 2000.0], np.float32)),
        ("sci_small", np.array([1e-8, 1e10], np.float32)),
        ("sci_tiny", np.array([1e-300, 1e300])),
        ("sci_exp3", np.array([1.5e-120, 2.0, -3e150])),
        ("zeros", np.zeros(4, np.float32)),
        ("negzero", np.array([-0.0, 0.0, 1.5], np.float32)),
        ("negzero_only", np.array([-0.0, 0.0], np.float32)),
        ("negzero_0d", np.array(-0.0, np.float32)),
        ("nan_inf", np.array([np.nan, np.inf, -np.inf, 1.0, -2.0], np.float32)),
        ("nan_inf_frac", np.array([np.nan, np.inf, -np.inf, 1.25, -2.5], np.float32)),
        ("nan_only", np.array([np.nan, np.nan])),
        ("inf_only", np.array([np.inf, -np.inf], np.float32)),
        ("nan_0d", np.array(np.nan, np.float32)),
        ("nan_sci", np.array([np.nan, 1e-9, 1.0])),
        ("half_values", np.array([0.5, 1.5, 2.5, -0.5], np.float32)),
        ("rounding", np.array([0.00005, 0.00015, 0.99995, 9.99995], np.float64)),
        ("mean", np.array(2.25, np.float32)),
        ("one", np.array([1.0], np.float32)),
        ("f64", _rng(1).standard_normal((3, 4))),
        ("f64_0d", np.array(3.14159265)),
        ("f16", _rng(2).standard_normal((3, 5)).astype(np.float16)),
        ("f16_big", np.array([65504.0, -1.0, 0.001], np.float16)),
        ("f16_int", np.array([1.0, 2.0, 2048.0], np.float16)),
        ("f16_0d", np.array(0.333, np.float16)),
        ("f16_sub", np.array([6e-8, 1.0], np.float16)),
        ("ratio_999", np.array([1.0, 999.0], np.float32)),
        ("ratio_1001", np.array([1.0, 1001.5], np.float32)),
        ("edge_1e-4", np.array([1e-4, 0.05])),
        ("long_row", _rng(3).standard_normal(40).astype(np.float32) * 1000),
        ("wide_sci", _rng(4).standard_normal(17) * 1e12),
        ("sci_round_up", np.array([9.99995e99, 1.0, -9.99996e-100])),
        ("fixed_round_up", np.array([9.99996, -99.99996, 0.5])),
        ("sci_neg_only", np.array([-1e-7, -3.0], np.float32)),
        ("huge_int_f64", np.array([2.0 ** 60, -3.0])),
        ("max_f32", np.array([np.finfo(np.float32).max, np.finfo(np.float32).tiny], np.float32)),
        ("denormal", np.array([5e-324, 1.0])),
    ]
    return out


def int_arrays():
    out = []
    for name in ["int8", "int16", "int32", "int64", "uint8"]:
        info = np.iinfo(name)
        rng = _rng(len(name))
        out.append((name, rng.integers(info.min, info.max, size=(3, 4), dtype=name,
                                        endpoint=True)))
        out.append((name + "_small", rng.integers(-3 if info.min else 0, 5, size=10,
                                                  dtype=name)))
        out.append((name + "_extremes", np.array([info.min, info.max, 0], dtype=name)))
        out.append((name + "_0d", np.array(7, dtype=name)))
        out.append((name + "_long", rng.integers(0, 100, size=60, dtype=name)))
    out.append(("int64_huge", np.array([-(2 ** 63), 2 ** 63 - 1, 5], np.int64)))
    return out


def bool_arrays():
    return [
        ("bool", np.array([True, False, True])),
        ("bool_true", np.array([True, True])),
        ("bool_false", np.array([False])),
        ("bool_0d", np.array(True)),
        ("bool_2d", _rng(9).random((4, 6)) > 0.5),
        ("bool_long", _rng(10).random(50) > 0.5),
    ]


def complex_arrays():
    rng = _rng(11)
    c = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4)))
    return [
        ("c64", c.astype(np.complex64)),
        ("c128", c),
        ("c64_1d", np.array([1 + 2j, -0.5 - 1j, 3j, -2], np.complex64)),
        ("c_int", np.array([1 + 1j, 2 - 3j], np.complex64)),
        ("c_negzero", np.array([complex(1.0, -0.0), complex(-0.0, 0.0)], np.complex64)),
        ("c_sci", np.array([1e-8 + 1e6j, 2 + 3j], np.complex64)),
        ("c_nan", np.array([complex(np.nan, 1), complex(1, np.inf), 1.5 + 0j], np.complex128)),
        ("c_0d", np.array(1.5 - 2.25j, np.complex64)),
        ("c_0d_128", np.array(-1j)),
        ("c_long", (rng.standard_normal(30) + 1j * rng.standard_normal(30)) * 100),
        ("c_big", (rng.standard_normal((40, 40)) + 1j * rng.standard_normal((40, 40)))
         .astype(np.complex64)),
    ]


def big_arrays():
    rng = _rng(12)
    return [
        ("big1d", rng.standard_normal(1001).astype(np.float32)),
        ("big1d_int", np.arange(5000, dtype=np.int64)),
        ("big2d", rng.standard_normal((100, 100)).astype(np.float32)),
        ("big2d_cols", rng.standard_normal((3, 2000)).astype(np.float32)),
        ("big2d_rows", rng.standard_normal((2000, 3)).astype(np.float32)),
        ("big3d", rng.standard_normal((20, 20, 20)).astype(np.float32)),
        ("big4d", rng.standard_normal((8, 9, 10, 11))),
        ("big_bool", rng.random((50, 50)) > 0.5),
        ("big_f16", rng.standard_normal((40, 40)).astype(np.float16)),
        ("big_sci", (rng.standard_normal((40, 40)) * 1e7).astype(np.float32)),
        # the summarised part is integer-valued but the hidden middle is not
        ("big_hidden_frac", np.concatenate([np.ones(3), np.full(1000, 0.5), np.ones(3)])),
        ("big_exact", np.ones(1000, np.float32)),
    ]


def empty_arrays():
    out = []
    for shape in [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0), (1, 0, 1, 1)]:
        for name in ["float32", "float64", "float16", "int64", "int32", "bool", "complex64",
                     "uint8"]:
            out.append((f"empty{shape}{name}", np.zeros(shape, dtype=name)))
    return out


def view_arrays():
    rng = _rng(13)
    base = rng.standard_normal((4, 6)).astype(np.float32)
    base3 = rng.standard_normal((3, 4, 5))
    ints = np.arange(24, dtype=np.int32).reshape(4, 6)
    big = rng.standard_normal((60, 50)).astype(np.float32)
    return [
        ("T", base.T),
        ("stride2", base[:, ::2]),
        ("reversed", base[::-1, ::-1]),
        ("col", base[:, 1]),
        ("transpose3", base3.transpose(2, 0, 1)),
        ("ints_T", ints.T),
        ("ints_rev", ints[::-1]),
        ("big_T", big.T),
        ("big_stride", big[::1, ::-1]),
        ("broadcast", np.broadcast_to(np.array([1.5, 2.0], np.float32), (3, 2))),
        ("complex_T", (base + 1j * base[::-1]).astype(np.complex64).T),
    ]


ALL = (float_arrays() + int_arrays() + bool_arrays() + complex_arrays() + big_arrays()
       + empty_arrays() + view_arrays())
IDS = [name for name, _ in ALL]
ARRS = [a for _, a in ALL]


@pytest.mark.parametrize("arr", ARRS, ids=IDS)
def test_repr_plain(arr):
    check(arr)


GRAD_ARRS = [(n, a) for n, a in ALL if a.dtype.kind in "fc"]


@pytest.mark.parametrize("arr", [a for _, a in GRAD_ARRS], ids=[n for n, _ in GRAD_ARRS])
def test_repr_requires_grad(arr):
    check(arr, "requires_grad")


@pytest.mark.parametrize("arr", [a for _, a in GRAD_ARRS], ids=[n for n, _ in GRAD_ARRS])
def test_repr_grad_fn(arr):
    check(arr, "grad_fn")


def test_grad_fn_examples():
    t = torch.tensor([1.0, 2.0, 3.5], requires_grad=True)
    m = t.mean()
    got = P.tensor_repr(np.array(m.item(), np.float32), D.float32, grad_fn_name="MeanBackward0")
    assert got == repr(m) == "tensor(2.1667, grad_fn=<MeanBackward0>)"
    assert P.tensor_repr(np.array([1.0, 2.0], np.float32), D.float32, requires_grad=True) \
        == "tensor([1., 2.], requires_grad=True)"
    # grad_fn wins over requires_grad
    assert P.tensor_repr(np.array([1.0], np.float32), D.float32, grad_fn_name="AddBackward0",
                         requires_grad=True) == "tensor([1.], grad_fn=<AddBackward0>)"


def test_documented_examples():
    f = np.float32
    assert P.tensor_repr(np.array([1, 2], np.int32), D.int32) == \
        "tensor([1, 2], dtype=torch.int32)"
    assert P.tensor_repr(np.zeros((0, 3), f), D.float32) == "tensor([], size=(0, 3))"
    assert P.tensor_repr(np.array([[-1.8170, -1.4907, 0.4560], [0.9244, 0.0798, -1.2246]], f),
                         D.float32) == ("tensor([[-1.8170, -1.4907,  0.4560],\n"
                                        "        [ 0.9244,  0.0798, -1.2246]])")
    assert P.tensor_repr(np.array([1e-8, 1e10], f), D.float32) == \
        "tensor([1.0000e-08, 1.0000e+10])"
    # torch pads bools to the widest too
    assert P.tensor_repr(np.array([True, False]), D.bool) == "tensor([ True, False])"


def test_extra_suffixes():
    a = np.array([1.0, 2.0], np.float32)
    assert P.tensor_repr(a, D.float32, extra=("device='cpu'", "foo=1")) == \
        "tensor([1., 2.], device='cpu', foo=1)"
    assert P.tensor_repr(a, D.float64, requires_grad=True, extra=("names=('N',)",)) == \
        "tensor([1., 2.], dtype=torch.float64, requires_grad=True, names=('N',))"
    # suffixes wrap at linewidth like torch's
    t = torch.arange(20, dtype=torch.float64).requires_grad_()
    assert P.tensor_repr(np.arange(20, dtype=np.float64), D.float64, requires_grad=True) \
        == repr(t)


def test_prefix():
    a = np.arange(30, dtype=np.float32).reshape(3, 10) / 7
    got = P.tensor_repr(a, D.float32, prefix="Parameter(")
    assert got.startswith("Parameter([[")
    assert "\n           [" in got  # continuation lines indented by len(prefix)


# ----------------------------------------------------------------------------- default dtype

DEFAULT_DTYPE_ARRS = [(n, a) for n, a in ALL
                      if n.startswith(("f64", "f16", "c64", "c128", "empty", "mean", "normal(2, 3)",
                                       "intvalued", "int32", "bool", "big_f16"))]


@pytest.mark.parametrize("default", ["float64", "float16"])
@pytest.mark.parametrize("arr", [a for _, a in DEFAULT_DTYPE_ARRS],
                         ids=[n for n, _ in DEFAULT_DTYPE_ARRS])
def test_repr_under_default_dtype(default, arr):
    with both_default_dtype(default):
        check(arr)
        if arr.dtype.kind in "fc":
            check(arr, "grad_fn")


# ----------------------------------------------------------------------------- print options

OPTION_SETS = [
    dict(precision=2),
    dict(precision=0),
    dict(precision=8),
    dict(threshold=5),
    dict(threshold=0),
    dict(edgeitems=1),
    dict(edgeitems=0),
    dict(edgeitems=0, threshold=5),
    dict(linewidth=40),
    dict(linewidth=10),
    dict(linewidth=200),
    dict(sci_mode=True),
    dict(sci_mode=False),
    dict(profile="short"),
    dict(profile="full"),
    dict(profile="short", precision=6),
    dict(threshold=20, edgeitems=2, linewidth=50, precision=3),
    dict(sci_mode=True, precision=1),
]

OPTION_NAMES = {
    "normal(2, 3)x1.0", "normal(7,)x1e-05", "normal(4, 30)x123.0",
    "normal(2, 3, 2, 2)x1000000000.0",
    "normal()x0.5", "intvalued", "intvalued2d", "sci_small", "nan_inf", "nan_inf_frac",
    "negzero", "int32", "int64_long", "uint8_small", "bool_2d", "bool_long", "c64", "c_long",
    "c_0d", "big1d", "big2d", "big3d", "big_bool", "big_hidden_frac", "big1d_int",
    "empty(0, 3)float32", "empty(0,)int64", "T", "reversed", "long_row", "f16", "f64_0d",
    "zeros", "big4d", "big_sci",
}
OPTION_ARRS = [(n, a) for n, a in ALL if n in OPTION_NAMES]
assert len(OPTION_ARRS) == len(OPTION_NAMES)


@pytest.mark.parametrize("opts", OPTION_SETS, ids=[str(o) for o in OPTION_SETS])
def test_repr_under_printoptions(opts):
    with both_printoptions(**opts):
        assert P.get_printoptions() == torch._tensor_str.get_printoptions()
        for _name, arr in OPTION_ARRS:
            check(arr)
            if arr.dtype.kind in "fc":
                check(arr, "grad_fn")


def test_printoptions_defaults_and_profiles():
    try:
        assert P.get_printoptions() == torch._tensor_str.get_printoptions() == {
            "precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80,
            "sci_mode": None}
        for kw in [dict(profile="full"), dict(profile="short"), dict(sci_mode=True),
                   dict(precision=7), dict(profile="default"), dict(threshold=3),
                   dict(linewidth=100), dict()]:
            torch.set_printoptions(**kw)
            P.set_printoptions(**kw)
            assert P.get_printoptions() == torch._tensor_str.get_printoptions(), kw
        P.set_printoptions(profile="full")
        assert P.get_printoptions()["threshold"] == math.inf
        # sci_mode is reset by any call that omits it
        P.set_printoptions(sci_mode=True)
        P.set_printoptions(precision=3)
        assert P.get_printoptions()["sci_mode"] is None
    finally:
        torch.set_printoptions(profile="default")
        P.set_printoptions(profile="default")
    assert P.get_printoptions()["precision"] == 4


def test_printoptions_context_manager():
    before = P.get_printoptions()
    with P.printoptions(precision=1, sci_mode=False):
        assert P.tensor_repr(np.array([1.25, 3.5], np.float32), D.float32) == \
            "tensor([1.2, 3.5])"
    assert P.get_printoptions() == before


def test_tensor_str_helper():
    a = np.array([[1.5, 2.0], [3.0, 4.0]], np.float32)
    assert P.tensor_str(a, D.float32) == "[[1.5000, 2.0000],\n        [3.0000, 4.0000]]"
    assert P.tensor_str(np.zeros(0), D.float64) == "[]"


# ----------------------------------------------------------------------------- random sweep

@pytest.mark.parametrize("seed", range(40))
def test_random_sweep(seed):
    rng = _rng(1000 + seed)
    ndim = int(rng.integers(0, 5))
    shape = tuple(int(s) for s in rng.integers(1, 6 if ndim < 3 else 4, size=ndim))
    kind = seed % 5
    scale = 10.0 ** rng.uniform(-6, 10)
    if kind == 0:
        arr = np.asarray(rng.standard_normal(shape) * scale).astype(np.float32)
    elif kind == 1:
        arr = np.asarray(np.round(rng.standard_normal(shape) * 50)).astype(np.float64)
    elif kind == 2:
        arr = np.asarray(rng.standard_normal(shape) * min(scale, 1e4)).astype(np.float16)
    elif kind == 3:
        arr = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) * scale
        arr = np.asarray(arr).astype(np.complex64)
    else:
        arr = np.asarray(rng.integers(-1000, 1000, size=shape)).astype(
            str(rng.choice(["int16", "int64"])))
    if arr.ndim >= 2 and rng.random() < 0.5:
        arr = arr.swapaxes(0, -1)
    if arr.ndim >= 1 and arr.size and rng.random() < 0.3:
        flat = arr.reshape(-1)
        flat[int(rng.integers(0, flat.size))] = rng.choice([np.nan, np.inf, -np.inf, 0.0]) \
            if arr.dtype.kind in "fc" else 0
    check(arr)
