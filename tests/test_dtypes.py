import copy
import itertools
import pickle
import random

import numpy as np
import pytest

from autotensor import _dtypes as D

NAMES = ["float16", "float32", "float64", "complex64", "complex128",
         "int8", "int16", "int32", "int64", "uint8", "bool"]
ALIASES = {"half": "float16", "float": "float32", "double": "float64", "cfloat": "complex64",
           "cdouble": "complex128", "int": "int32", "long": "int64"}


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


@pytest.fixture
def default_dtype_guard(torch):
    """Restore both libraries' default dtype after the test."""
    try:
        yield
    finally:
        torch.set_default_dtype(torch.float32)
        D.set_default_dtype(D.float32)


def tdt(torch, d):
    return getattr(torch, d.name)


def ours(torch_dtype):
    return getattr(D, str(torch_dtype).split(".")[1])


# ----------------------------------------------------------------------------- dtype objects

def test_singletons_and_aliases():
    for alias, name in ALIASES.items():
        assert getattr(D, alias) is getattr(D, name)
    assert len(set(map(id, D.all_dtypes))) == len(NAMES)
    assert {d.name for d in D.all_dtypes} == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_attributes_match_torch(torch, name):
    d, t = getattr(D, name), getattr(torch, name)
    assert repr(d) == repr(t) and str(d) == str(t)
    assert d.is_floating_point == t.is_floating_point
    assert d.is_complex == t.is_complex
    assert d.is_signed == t.is_signed
    assert d.itemsize == t.itemsize
    assert d.abbr == t.abbr
    assert d.np == np.dtype(name)
    assert d.to_real() is ours(t.to_real())
    if name in ("float32", "float64", "complex64", "complex128"):
        assert d.to_complex() is ours(t.to_complex())
    elif name == "float16":
        assert d.to_complex() is D.complex64  # torch: complex32, which NumPy lacks
    else:
        with pytest.raises(RuntimeError):
            t.to_complex()
        with pytest.raises(RuntimeError):
            d.to_complex()


def test_slots():
    with pytest.raises(AttributeError):
        D.float32.foo = 1
    assert not hasattr(D.float32, "__dict__")


@pytest.mark.parametrize("name", NAMES)
def test_pickle_copy_singleton(name):
    d = getattr(D, name)
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(d, protocol=proto)) is d
    assert copy.copy(d) is d
    assert copy.deepcopy([d])[0] is d


# ----------------------------------------------------------------------------- from_numpy

@pytest.mark.parametrize("name", NAMES)
def test_from_numpy(name):
    d = getattr(D, name)
    arr = np.zeros(3, dtype=name)
    assert D.from_numpy(arr.dtype) is d
    assert D.from_numpy(np.dtype(name)) is d
    assert D.from_numpy(np.dtype(name).type) is d
    assert D.from_numpy(arr[::2].T.dtype) is d
    assert D.from_numpy(np.dtype(name).newbyteorder(">")) is d


@pytest.mark.parametrize("bad", [np.longdouble, object, "U3",
                                 np.dtype("S2"), "datetime64[s]", "not-a-dtype"])
def test_from_numpy_unsupported(bad):
    with pytest.raises(TypeError, match="supported"):
        D.from_numpy(bad if isinstance(bad, str) else np.dtype(bad) if bad is not object
                     else object)


# ----------------------------------------------------------------------------- default dtype

@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental")
def test_default_dtype(torch, default_dtype_guard):
    assert D.get_default_dtype() is D.float32 is D.default_float
    assert D.default_complex is D.complex64
    for name, cname in [("float64", "complex128"), ("float16", "complex64"),
                        ("float32", "complex64")]:
        D.set_default_dtype(getattr(D, name))
        torch.set_default_dtype(getattr(torch, name))
        assert D.get_default_dtype() is getattr(D, name) is D.default_float
        assert D.default_complex is getattr(D, cname)
        assert ours(torch.get_default_dtype()) is D.default_float
        assert expected_dtype(torch.tensor(1j).dtype) is D.default_complex


@pytest.mark.parametrize("bad", ["int32", "int64", "bool", "uint8", "complex64", "complex128"])
def test_set_default_dtype_errors(torch, default_dtype_guard, bad):
    with pytest.raises(TypeError) as ti:
        torch.set_default_dtype(getattr(torch, bad))
    with pytest.raises(TypeError) as oi:
        D.set_default_dtype(getattr(D, bad))
    assert str(oi.value) == str(ti.value)
    assert D.default_float is D.float32


@pytest.mark.parametrize("bad", ["float32", 3, None, np.float64])
def test_set_default_dtype_non_dtype(torch, default_dtype_guard, bad):
    with pytest.raises(TypeError) as ti:
        torch.set_default_dtype(bad)
    with pytest.raises(TypeError) as oi:
        D.set_default_dtype(bad)
    assert str(oi.value) == str(ti.value)


# ----------------------------------------------------------------------------- promote_types

def test_promote_types_all_pairs(torch):
    for a, b in itertools.product(D.all_dtypes, repeat=2):
        expected = torch.promote_types(tdt(torch, a), tdt(torch, b))
        assert D.promote_types(a, b) is ours(expected), (a, b)


def test_promote_types_examples():
    assert D.promote_types(D.uint8, D.int8) is D.int16
    assert D.promote_types(D.bool, D.uint8) is D.uint8
    assert D.promote_types(D.int64, D.float16) is D.float16
    assert D.promote_types(D.float64, D.complex64) is D.complex128


# ----------------------------------------------------------------------------- result_type

class Fake:
    """A minimal tensor-like operand: only ``dtype`` and ``ndim``."""

    def __init__(self, dtype, ndim):
        self.dtype = dtype
        self.ndim = ndim


class FakeDim:
    """Tensor-like with ``dim()`` instead of ``ndim``."""

    def __init__(self, dtype, ndim):
        self.dtype = dtype
        self._n = ndim

    def dim(self):
        return self._n


SCALARS = [True, 3, 2.5, 1 + 2j]


def operand_kinds():
    kinds = []
    for d in D.all_dtypes:
        kinds.append(("dim", d))
        kinds.append(("zero", d))
    for s in SCALARS:
        kinds.append(("scalar", s))
    return kinds


def make_pair(torch, kind):
    k, v = kind
    if k == "scalar":
        return v, v
    shape = (2,) if k == "dim" else ()
    return torch.ones(shape, dtype=tdt(torch, v)), Fake(v, len(shape))


def expected_dtype(torch_dtype):
    # torch.complex32 (ComplexHalf) does not exist here: complex64 stands in for it.
    if torch_dtype == torch_mod().complex32:
        return D.complex64
    return ours(torch_dtype)


def torch_mod():
    import torch
    return torch


@pytest.mark.parametrize("default", ["float32", "float64", "float16"])
def test_result_type_all_pairs(torch, default_dtype_guard, default):
    torch.set_default_dtype(getattr(torch, default))
    D.set_default_dtype(getattr(D, default))
    kinds = operand_kinds()
    n = 0
    for ka, kb in itertools.product(kinds, repeat=2):
        if ka[0] == "scalar" and kb[0] == "scalar":
            continue
        ta, oa = make_pair(torch, ka)
        tb, ob = make_pair(torch, kb)
        exp = expected_dtype(torch.result_type(ta, tb))
        assert D.result_type(oa, ob) is exp, (ka, kb, default)
        n += 1
    assert n == len(kinds) ** 2 - len(SCALARS) ** 2


@pytest.mark.parametrize("default", ["float32", "float64"])
def test_result_type_matches_torch_add(torch, default_dtype_guard, default):
    torch.set_default_dtype(getattr(torch, default))
    D.set_default_dtype(getattr(D, default))
    kinds = [k for k in operand_kinds() if k[1] is not D.bool or k[0] == "scalar"]
    for ka, kb in itertools.product(kinds, repeat=2):
        if ka[0] == "scalar" and kb[0] == "scalar":
            continue
        ta, oa = make_pair(torch, ka)
        tb, ob = make_pair(torch, kb)
        try:
            res = torch.add(ta, tb) if not isinstance(ta, (bool, int, float, complex)) \
                else torch.add(tb, ta)
        except RuntimeError:
            continue
        assert D.result_type(oa, ob) is expected_dtype(res.dtype), (ka, kb)


def test_result_type_documented_examples():
    f32, f64, f16 = D.float32, D.float64, D.float16
    assert D.result_type(Fake(f32, 1), Fake(f64, 0)) is f32
    assert D.result_type(Fake(D.int32, 2), 2.5) is f32
    assert D.result_type(Fake(D.int64, 0), Fake(f16, 1)) is f16
    assert D.result_type(Fake(D.uint8, 1), Fake(D.int64, 0)) is D.uint8
    assert D.result_type(Fake(D.bool, 1), 1) is D.int64
    assert D.result_type(Fake(f16, 1), 1e10) is f16
    assert D.result_type(Fake(D.int32, 1), True) is D.int32
    assert D.result_type(Fake(f32, 1), 1j) is D.complex64
    assert D.result_type(Fake(f64, 1), 1j) is D.complex128
    assert D.result_type(Fake(D.int32, 1), Fake(f64, 0)) is f64
    assert D.result_type(FakeDim(D.int8, 3), FakeDim(D.uint8, 0)) is D.int8
    assert D.result_type(3, 2.5) is f32
    assert D.result_type(True, False) is D.bool


def test_result_type_errors():
    with pytest.raises(TypeError):
        D.result_type()
    with pytest.raises(TypeError):
        D.result_type(Fake(D.float32, 1), "x")


def test_result_type_triples(torch):
    """Three tensor operands, checked against addcmul (which promotes all three)."""
    rnd = random.Random(0)
    dts = [d for d in D.all_dtypes if d is not D.bool]
    checked = 0
    for _ in range(600):
        ops = [(rnd.choice(dts), rnd.choice([0, 1])) for _ in range(3)]
        tens = [torch.ones((2,) * nd, dtype=tdt(torch, d)) for d, nd in ops]
        try:
            res = torch.addcmul(*tens)
        except RuntimeError:
            continue
        assert D.result_type(*[Fake(d, nd) for d, nd in ops]) is expected_dtype(res.dtype), ops
        checked += 1
    assert checked > 300


def test_result_type_many_operands():
    ops = [Fake(D.int8, 1), Fake(D.uint8, 1), Fake(D.float64, 0), 2.0, Fake(D.int32, 0)]
    assert D.result_type(*ops) is D.float64
    ops = [Fake(D.int8, 1), Fake(D.uint8, 1), Fake(D.int64, 0), 2]
    assert D.result_type(*ops) is D.int16
    ops = [Fake(D.bool, 1), Fake(D.bool, 0), True, 1]
    assert D.result_type(*ops) is D.int64


@pytest.mark.parametrize("default", ["float32", "float64", "float16"])
def test_scalar_result_dtype(torch, default_dtype_guard, default):
    torch.set_default_dtype(getattr(torch, default))
    D.set_default_dtype(getattr(D, default))
    for d in D.all_dtypes:
        for s in SCALARS + [False, -7, 0.0, 1e300, 0j]:
            got = D.scalar_result_dtype(d, s)
            assert got is D.result_type(Fake(d, 1), s)
            assert got is D.result_type(Fake(d, 0), s)
            for shape in [(3,), ()]:
                t = torch.ones(shape, dtype=tdt(torch, d))
                assert got is expected_dtype(torch.result_type(t, s)), (d, s)


def test_scalar_result_dtype_numpy_scalars(torch):
    for d in D.all_dtypes:
        t = torch.ones(2, dtype=tdt(torch, d))
        for s in [np.float64(1.5), np.float32(1.5), np.int64(2), np.int8(2), np.bool_(True),
                  np.complex128(1j), np.float16(1)]:
            assert D.scalar_result_dtype(d, s) is expected_dtype(torch.result_type(t, s)), (d, s)
            assert D.result_type(Fake(d, 1), s) is D.scalar_result_dtype(d, s)
    with pytest.raises(TypeError):
        D.scalar_result_dtype(D.float32, "x")


def test_binary_result_dtype(torch):
    for a, b in itertools.product(D.all_dtypes, repeat=2):
        for a0, b0 in itertools.product([False, True], repeat=2):
            ta = torch.ones(() if a0 else (2,), dtype=tdt(torch, a))
            tb = torch.ones(() if b0 else (2,), dtype=tdt(torch, b))
            got = D.binary_result_dtype(a, a0, b, b0)
            assert got is expected_dtype(torch.result_type(ta, tb)), (a, a0, b, b0)
            assert got is D.result_type(Fake(a, 0 if a0 else 1), Fake(b, 0 if b0 else 1))


def test_scalar_cache_follows_default(default_dtype_guard):
    assert D.scalar_result_dtype(D.int32, 1.0) is D.float32
    assert D.scalar_result_dtype(D.int32, 1j) is D.complex64
    D.set_default_dtype(D.float64)
    assert D.scalar_result_dtype(D.int32, 1.0) is D.float64
    assert D.scalar_result_dtype(D.int32, 1j) is D.complex128
    assert D.scalar_result_dtype(D.float32, 1j) is D.complex64
    D.set_default_dtype(D.float32)
    assert D.scalar_result_dtype(D.int32, 1.0) is D.float32


# ----------------------------------------------------------------------------- categories

@pytest.mark.parametrize("name", NAMES)
def test_categories(torch, name):
    d, t = getattr(D, name), getattr(torch, name)
    assert D.is_floating(d) == t.is_floating_point
    assert D.is_complex(d) == t.is_complex
    integral = not t.is_floating_point and not t.is_complex and t is not torch.bool
    assert D.is_integral(d) == integral
    assert D.is_integral(d, include_bool=True) == (integral or t is torch.bool)


# ----------------------------------------------------------------------------- iinfo / finfo

@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8"])
def test_iinfo(torch, name):
    a, b = torch.iinfo(getattr(torch, name)), D.iinfo(getattr(D, name))
    for f in ["bits", "min", "max", "dtype"]:
        assert getattr(a, f) == getattr(b, f)
        assert type(getattr(a, f)) is type(getattr(b, f))
    assert repr(a) == repr(b)


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo(torch, name):
    a, b = torch.finfo(getattr(torch, name)), D.finfo(getattr(D, name))
    for f in ["bits", "eps", "min", "max", "tiny", "smallest_normal", "resolution", "dtype"]:
        assert getattr(a, f) == getattr(b, f), f
        assert type(getattr(a, f)) is type(getattr(b, f))
    assert repr(a) == repr(b)


def test_finfo_default(torch, default_dtype_guard):
    assert D.finfo().dtype == "float32"
    D.set_default_dtype(D.float64)
    torch.set_default_dtype(torch.float64)
    assert D.finfo().dtype == torch.finfo().dtype == "float64"


@pytest.mark.parametrize("name", ["bool", "float32", "complex64"])
def test_iinfo_errors(torch, name):
    with pytest.raises(TypeError) as ti:
        torch.iinfo(getattr(torch, name))
    with pytest.raises(TypeError) as oi:
        D.iinfo(getattr(D, name))
    assert str(oi.value) == str(ti.value)


@pytest.mark.parametrize("name", ["bool", "int32", "uint8"])
def test_finfo_errors(torch, name):
    with pytest.raises(TypeError) as ti:
        torch.finfo(getattr(torch, name))
    with pytest.raises(TypeError) as oi:
        D.finfo(getattr(D, name))
    assert str(oi.value) == str(ti.value)
