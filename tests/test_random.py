"""autotensor._random reproduces PyTorch's CPU random streams bit for bit.

Tests taking the ``reference_torch`` fixture (skipped without PyTorch) seed both libraries
alike, draw, and compare the NumPy arrays bitwise (dtype and shape included), and compare
the generator states (our state is PyTorch's own ``CPUGeneratorImplState`` layout, so the
bytes must be identical after every call).  The other tests need no PyTorch.
"""
from __future__ import annotations

import math
import time
import warnings
from fractions import Fraction

import numpy as np
import pytest

from autotensor import _random as R

SIZES = [0, 1, 2, 3, 15, 16, 17, 100, 1000]
SHAPES = [(2, 3), (4, 5, 6), (3, 0), (7, 9), (2, 2, 2, 2)]
try:
    from ml_dtypes import bfloat16 as _BF16  # the `bf16` extra
    FLOATS = [np.float32, np.float64, np.float16, np.dtype(_BF16)]
except ImportError:
    FLOATS = [np.float32, np.float64, np.float16]
SEEDS = [0, 1, 12345, 2**40 + 7]


def tdt(torch, dt):
    """The torch dtype for a NumPy dtype."""
    name = np.dtype(dt).name
    return torch.bool if name == "bool" else getattr(torch, name)


def same(ours, theirs):
    """Bitwise equality of our array with a torch tensor (or an array)."""
    if hasattr(theirs, "numpy"):
        if str(theirs.dtype) == "torch.bfloat16":  # NumPy cannot hold it: compare the bits
            theirs = theirs.view(dtype=__import__("torch").int16).numpy().view(ours.dtype)
        else:
            theirs = theirs.numpy()
    assert isinstance(ours, np.ndarray)
    assert ours.dtype == theirs.dtype, (ours.dtype, theirs.dtype)
    assert ours.shape == theirs.shape, (ours.shape, theirs.shape)
    np.testing.assert_array_equal(ours, theirs)
    if ours.dtype.kind in "fcV":  # bitwise, signed zeros included
        np.testing.assert_array_equal(ours.view(np.uint8), theirs.view(np.uint8))


def from_np(torch, a):
    """torch.from_numpy, bfloat16 (ml_dtypes) arrays included."""
    if a.dtype.name == "bfloat16":
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def same_state(torch, gen=None, tgen=None):
    ours = R.get_rng_state() if gen is None else gen.get_state()
    theirs = torch.get_rng_state() if tgen is None else tgen.get_state()
    np.testing.assert_array_equal(ours, theirs.numpy())


def seed_both(torch, s):
    torch.manual_seed(s)
    R.manual_seed(s)


def shape_of(size):
    return (size,) if isinstance(size, int) else size


ALL_SIZES = SIZES + SHAPES


# ======================================================================================
# against PyTorch
# ======================================================================================

@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("size", ALL_SIZES)
def test_rand(reference_torch, dt, size):
    torch = reference_torch
    for s in SEEDS[:2]:
        seed_both(torch, s)
        same(R.rand(shape_of(size), dt), torch.rand(shape_of(size), dtype=tdt(torch, dt)))
        same_state(torch)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("size", ALL_SIZES + [31, 32, 33, 4096 * 16 + 5])
def test_randn(reference_torch, dt, size):
    torch = reference_torch
    for s in SEEDS:
        seed_both(torch, s)
        same(R.randn(shape_of(size), dt), torch.randn(shape_of(size), dtype=tdt(torch, dt)))
        same_state(torch)
        # a second call: the small-size path caches the second Box-Muller value
        same(R.randn(shape_of(size), dt), torch.randn(shape_of(size), dtype=tdt(torch, dt)))
        same_state(torch)


def test_randn_large_float32(reference_torch):
    torch = reference_torch
    for s in (0, 3):
        seed_both(torch, s)
        same(R.randn((784, 512), np.float32), torch.randn(784, 512))
        same(R.randn((1000, 1003), np.float32), torch.randn(1000, 1003))
        same_state(torch)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("size", SIZES + [(3, 7)])
@pytest.mark.parametrize("mean,std", [(0.5, 2.0), (-3.0, 0.1), (1e3, 1e-3), (2.0, 0.0),
                                      (0.0, 3.5), (-7.25, 1.0)])
def test_normal_scalar(reference_torch, dt, size, mean, std):
    torch = reference_torch
    seed_both(torch, 7)
    for _ in range(2):
        same(R.normal(mean, std, shape_of(size), dt),
             torch.normal(mean, std, shape_of(size), dtype=tdt(torch, dt)))
    same_state(torch)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 5, 16, 37, 200])
def test_normal_arrays(reference_torch, dt, n):
    torch = reference_torch
    rng = np.random.default_rng(n)
    mean = rng.standard_normal(n).astype(dt)
    std = (rng.random(n) * 3).astype(dt)
    mean2 = rng.standard_normal((3, 1)).astype(dt)
    tm, ts, tm2 = (torch.from_numpy(a) for a in (mean, std, mean2))
    seed_both(torch, 11)
    same(R.normal(mean, std), torch.normal(tm, ts))
    same(R.normal(mean, 2.5), torch.normal(tm, 2.5))
    same(R.normal(-1.5, std), torch.normal(-1.5, ts))
    same(R.normal(mean2, std), torch.normal(tm2, ts))
    same_state(torch)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("size", SIZES + [(5, 4)])
@pytest.mark.parametrize("low,high", [(0.0, 1.0), (-1.0, 1.0), (0.3, 7.9), (-5.5, -2.25),
                                      (1e-3, 1e3), (-0.0625, 0.0625), (2.0, 2.0)])
def test_uniform(reference_torch, dt, size, low, high):
    torch = reference_torch
    seed_both(torch, 5)
    shape = shape_of(size)
    same(R.uniform(low, high, shape, dt),
         torch.empty(shape, dtype=tdt(torch, dt)).uniform_(low, high))
    same_state(torch)


INT_DTYPES = [np.int64, np.int32, np.int16, np.int8, np.uint8, np.bool_]


@pytest.mark.parametrize("dt", INT_DTYPES + FLOATS)
@pytest.mark.parametrize("low,high", [(0, 10), (-5, 5), (0, 1), (0, 2), (0, 2**28 - 1),
                                      (0, 2**28), (0, 2**28 + 1), (-2**40, 2**40),
                                      (-2**63, 2**63 - 1), (3, 2**60), (-100, 100),
                                      (0, 65504), (2**53 - 3, 2**53 + 7)])
def test_randint(reference_torch, dt, low, high):
    torch = reference_torch
    warnings.simplefilter("ignore")  # torch warns about float ranges beyond 2**digits
    for size in (0, 1, 17, 1000, (4, 6)):
        seed_both(torch, 2)
        try:
            theirs = torch.randint(low, high, shape_of(size), dtype=tdt(torch, dt))
        except RuntimeError as e:
            with pytest.raises(RuntimeError) as info:
                R.randint(low, high, shape_of(size), dt)
            assert str(info.value) == str(e).split("\n")[0]
            continue
        same(R.randint(low, high, shape_of(size), dt), theirs)
        same_state(torch)


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.int16, np.uint8, np.float32,
                                np.float64, np.float16])
@pytest.mark.parametrize("n", SIZES + [256, 2049, 5000])
def test_randperm(reference_torch, dt, n):
    torch = reference_torch
    seed_both(torch, 6)
    try:
        theirs = torch.randperm(n, dtype=tdt(torch, dt))
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as info:
            R.randperm(n, dt)
        assert str(info.value) == str(e).split("\n")[0]
        return
    same(R.randperm(n, dt), theirs)
    same_state(torch)


def test_randperm_large(reference_torch):
    torch = reference_torch
    seed_both(torch, 0)
    same(R.randperm(60000), torch.randperm(60000))
    same_state(torch)


@pytest.mark.parametrize("dt", FLOATS + [np.bool_, np.int64])
@pytest.mark.parametrize("size", SIZES + [(5, 40)])
def test_bernoulli_scalar(reference_torch, dt, size):
    torch = reference_torch
    for p in (0.0, 0.37, 1.0):
        seed_both(torch, 3)
        shape = shape_of(size)
        same(R.bernoulli(p, shape, dt), torch.empty(shape, dtype=tdt(torch, dt)).bernoulli_(p))
        same_state(torch)


@pytest.mark.parametrize("pdt", FLOATS)
@pytest.mark.parametrize("shape", [(1,), (3,), (17,), (30, 7), (0,)])
def test_bernoulli_array(reference_torch, pdt, shape):
    torch = reference_torch
    p = np.random.default_rng(0).random(shape).astype(pdt)
    seed_both(torch, 3)
    same(R.bernoulli(p), torch.bernoulli(from_np(torch, p)))
    same_state(torch)
    # broadcast p into a bigger output, and an explicit output dtype
    q = np.array([0.1, 0.9], dtype=pdt)
    same(R.bernoulli(q, (3, 2)), torch.empty(3, 2, dtype=tdt(torch, pdt)).bernoulli_(
        from_np(torch, q)))
    same(R.bernoulli(q, None, np.float64), torch.bernoulli(from_np(torch, q)).double())
    same_state(torch)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("lambd", [1.0, 2.5, 0.1])
def test_exponential(reference_torch, dt, lambd):
    torch = reference_torch
    for size in (1, 16, 100, (3, 5)):
        seed_both(torch, 4)
        same(R.exponential(lambd, shape_of(size), dt),
             torch.empty(shape_of(size), dtype=tdt(torch, dt)).exponential_(lambd))
        same_state(torch)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("size", [0, 1, 5, 16, 17, 100, (3, 5)])
def test_cauchy_log_normal_geometric(reference_torch, dt, size):
    """Serial samplers: one double draw per value (log_normal_ shares normal_'s cached second
    Box-Muller value), cast to the dtype through float for the half types."""
    torch = reference_torch
    shape, tdtype = shape_of(size), tdt(torch, dt)
    for s in SEEDS[:2]:
        seed_both(torch, s)
        same(R.cauchy(0.5, 2.0, shape, dt), torch.empty(shape, dtype=tdtype).cauchy_(0.5, 2.0))
        same(R.randn((3,), np.float64), torch.randn(3, dtype=torch.float64))  # caches a value
        same(R.log_normal(0.3, 1.5, shape, dt),
             torch.empty(shape, dtype=tdtype).log_normal_(0.3, 1.5))
        same(R.geometric(0.3, shape, dt), torch.empty(shape, dtype=tdtype).geometric_(0.3))
        same_state(torch)


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.int16, np.int8, np.uint8])
def test_geometric_integers_wrap_as_on_x86(reference_torch, dt):
    torch = reference_torch
    seed_both(torch, 0)
    same(R.geometric(0.001, (64,), dt), torch.empty(64, dtype=tdt(torch, dt)).geometric_(0.001))
    same_state(torch)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(10,), (3, 7), (1000,), (4, 100)])
@pytest.mark.parametrize("replacement", [True, False])
def test_multinomial(reference_torch, dt, shape, replacement):
    torch = reference_torch
    p = (np.random.default_rng(1).random(shape) ** 3).astype(dt)
    for ns in (1, 2, 5, 50):
        if not replacement and ns > shape[-1]:
            continue
        seed_both(torch, 5)
        same(R.multinomial(p, ns, replacement),
             torch.multinomial(torch.from_numpy(p), ns, replacement=replacement))
        same_state(torch)


def test_multinomial_float32_accumulation(reference_torch):
    """The cumulative distribution is summed in float32 for float32 input."""
    torch = reference_torch
    p = (np.random.default_rng(1).random(200000) ** 4).astype(np.float32)
    seed_both(torch, 5)
    same(R.multinomial(p, 20000, True), torch.multinomial(torch.from_numpy(p), 20000, True))


RANDOM_DTYPES = [np.float32, np.float64, np.float16, np.int64, np.int32, np.int16, np.int8,
                 np.uint8, np.bool_, np.uint16, np.uint32, np.uint64]
RANDOM_BOUNDS = [(None, None), (None, 7), (3, None), (-5, None), (-2**63, None), (2**40, None),
                 (-3, 1000)]


@pytest.mark.parametrize("dt", RANDOM_DTYPES)
@pytest.mark.parametrize("low,high", RANDOM_BOUNDS)
def test_random_(reference_torch, dt, low, high):
    torch = reference_torch
    warnings.simplefilter("ignore")
    for size in (0, 1, 100, (3, 4)):
        seed_both(torch, 8)
        empty = torch.empty(shape_of(size), dtype=tdt(torch, dt))
        if low is None and high is None:
            t = _catch_value(lambda: empty.random_())  # noqa: B023
        elif low is None:
            t = _catch_value(lambda: empty.random_(high))  # noqa: B023
        else:
            t = _catch_value(lambda: empty.random_(low, high))  # noqa: B023
        o = _catch_value(lambda: R.random_(shape_of(size), dt, low, high))  # noqa: B023
        if isinstance(t, tuple) or isinstance(o, tuple):
            assert o == t
            continue
        same(o, t)
        same_state(torch)


def _catch_value(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e).split("\n")[0]


def test_libm_fallback_is_exact(reference_torch, monkeypatch):
    """The element-by-element C-library path (used where NumPy's float64 ufuncs are not the
    C library's) gives the same numbers."""
    torch = reference_torch
    monkeypatch.setattr(R, "_use_math", dict.fromkeys(R._MATH, True))
    seed_both(torch, 12)
    same(R.randn((5,), np.float64), torch.randn(5, dtype=torch.float64))
    same(R.randn((1000,), np.float64), torch.randn(1000, dtype=torch.float64))
    same(R.randn((7,), np.float32), torch.randn(7))
    same(R.exponential(1.5, (40,), np.float64),
         torch.empty(40, dtype=torch.float64).exponential_(1.5))
    same(R.cauchy(0.5, 2.0, (40,), np.float64),
         torch.empty(40, dtype=torch.float64).cauchy_(0.5, 2.0))
    same(R.log_normal(0.5, 2.0, (41,), np.float64),
         torch.empty(41, dtype=torch.float64).log_normal_(0.5, 2.0))
    same(R.geometric(0.2, (40,), np.float64), torch.empty(40, dtype=torch.float64).geometric_(0.2))
    same_state(torch)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
@pytest.mark.parametrize("size", [1, 3, 7, 8, 9, 100, (3, 4)])
def test_complex(reference_torch, dt, size):
    torch = reference_torch
    seed_both(torch, 1)
    same(R.randn(shape_of(size), dt), torch.randn(shape_of(size), dtype=tdt(torch, dt)))
    same(R.rand(shape_of(size), dt), torch.rand(shape_of(size), dtype=tdt(torch, dt)))
    same_state(torch)


def _sequence(lib, mod, np_mode):
    """A mixed sequence of calls; ``mod`` is torch or R."""
    out = []
    if np_mode:
        out.append(R.randn((3,), np.float32))
        out.append(R.rand((2,), np.float32))
        out.append(R.randn((20,), np.float32))
        out.append(R.randn((1,), np.float64))
        out.append(R.randint(0, 10, (5,), np.int64))
        out.append(R.randn((5,), np.float32))
        out.append(R.randperm(10, np.int64))
        out.append(R.normal(2.0, 3.0, (3,), np.float32))
        out.append(R.uniform(-1.0, 1.0, (17,), np.float64))
        out.append(R.bernoulli(0.3, (7,), np.float32))
        out.append(R.randn((2, 8), np.float64))
        out.append(R.randn((1,), np.float16))
        out.append(R.randint(-2**40, 2**40, (3,), np.int64))
        out.append(R.randn((15,), np.float32))
        out.append(R.randn((1,), np.float32))
    else:
        t = mod
        out.append(t.randn(3))
        out.append(t.rand(2))
        out.append(t.randn(20))
        out.append(t.randn(1, dtype=t.float64))
        out.append(t.randint(0, 10, (5,)))
        out.append(t.randn(5))
        out.append(t.randperm(10))
        out.append(t.normal(2.0, 3.0, (3,)))
        out.append(t.empty(17, dtype=t.float64).uniform_(-1.0, 1.0))
        out.append(t.empty(7).bernoulli_(0.3))
        out.append(t.randn(2, 8, dtype=t.float64))
        out.append(t.randn(1, dtype=t.float16))
        out.append(t.randint(-2**40, 2**40, (3,)))
        out.append(t.randn(15))
        out.append(t.randn(1))
    return out


@pytest.mark.parametrize("s", SEEDS)
def test_mixed_sequence(reference_torch, s):
    torch = reference_torch
    torch.manual_seed(s)
    theirs = _sequence(None, torch, False)
    tstate = torch.get_rng_state()
    R.manual_seed(s)
    ours = _sequence(None, R, True)
    for a, b in zip(ours, theirs, strict=True):
        same(a, b)
    np.testing.assert_array_equal(R.get_rng_state(), tstate.numpy())


def test_explicit_generators(reference_torch):
    torch = reference_torch
    g = R.Generator().manual_seed(42)
    tg = torch.Generator().manual_seed(42)
    seed_both(torch, 0)
    same(R.randn((5,), np.float32, generator=g), torch.randn(5, generator=tg))
    same(R.rand((40,), np.float64, generator=g), torch.rand(40, dtype=torch.float64, generator=tg))
    same(R.randint(0, 7, (9,), np.int64, generator=g), torch.randint(0, 7, (9,), generator=tg))
    same(R.randperm(33, np.int64, generator=g), torch.randperm(33, generator=tg))
    same(R.normal(1.0, 2.0, (20,), np.float32, generator=g),
         torch.normal(1.0, 2.0, (20,), generator=tg))
    same(R.uniform(-2.0, 3.0, (4,), np.float32, generator=g),
         torch.empty(4).uniform_(-2.0, 3.0, generator=tg))
    same(R.bernoulli(0.5, (6,), np.float32, generator=g),
         torch.empty(6).bernoulli_(0.5, generator=tg))
    same(R.multinomial(np.array([0.2, 0.3, 0.5]), 4, True, generator=g),
         torch.multinomial(torch.tensor([0.2, 0.3, 0.5], dtype=torch.float64), 4, True,
                           generator=tg))
    same_state(torch, g, tg)
    # the default generators were not touched
    same_state(torch)
    same(R.randn((3,), np.float32), torch.randn(3))


def test_default_seed_of_new_generator(reference_torch):
    torch = reference_torch
    g, tg = R.Generator(), torch.Generator()
    assert g.initial_seed() == tg.initial_seed() == R.DEFAULT_SEED
    same_state(torch, g, tg)
    same(R.randn((20,), np.float32, generator=g), torch.randn(20, generator=tg))


@pytest.mark.parametrize("s", [0, 5, -1, -2**63, 2**64 - 1, 2**32 + 3, 2**40 + 3])
def test_seeds_and_initial_seed(reference_torch, s):
    torch = reference_torch
    g = R.Generator().manual_seed(s)
    tg = torch.Generator().manual_seed(s)
    assert g.initial_seed() == tg.initial_seed()
    same_state(torch, g, tg)
    same(R.rand((3,), np.float32, generator=g), torch.rand(3, generator=tg))
    torch.manual_seed(s)
    assert R.manual_seed(s) is R.default_generator
    assert R.initial_seed() == torch.initial_seed()


def test_state_exchange_with_torch(reference_torch):
    torch = reference_torch
    torch.manual_seed(9)
    torch.randn(5)  # leaves a cached normal in the state
    torch.rand(700)  # crosses a twist
    R.set_rng_state(torch.get_rng_state().numpy())
    same(R.randn((7,), np.float32), torch.randn(7))
    same(R.rand((1000,), np.float32), torch.rand(1000))
    # and the other way round
    R.manual_seed(3)
    R.randn((3,), np.float64)
    torch.set_rng_state(torch.from_numpy(R.get_rng_state()))
    same(R.randn((3,), np.float64), torch.randn(3, dtype=torch.float64))


def _catch(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e).split("\n")[0]
    return None


ERROR_CASES = [
    ("randint high<=low", lambda t: t.randint(5, 5, (3,)), lambda: R.randint(5, 5, (3,))),
    ("randint high<low", lambda t: t.randint(5, 3, (3,)), lambda: R.randint(5, 3, (3,))),
    ("randint int8 bounds", lambda t: t.randint(-200, 5, (3,), dtype=t.int8),
     lambda: R.randint(-200, 5, (3,), np.int8)),
    ("randint uint8 bounds", lambda t: t.randint(0, 300, (3,), dtype=t.uint8),
     lambda: R.randint(0, 300, (3,), np.uint8)),
    ("randint bool", lambda t: t.randint(0, 3, (3,), dtype=t.bool),
     lambda: R.randint(0, 3, (3,), np.bool_)),
    ("randint half", lambda t: t.randint(0, 2**40, (3,), dtype=t.float16),
     lambda: R.randint(0, 2**40, (3,), np.float16)),
    ("randperm negative", lambda t: t.randperm(-1), lambda: R.randperm(-1)),
    ("randperm half", lambda t: t.randperm(3000, dtype=t.float16),
     lambda: R.randperm(3000, np.float16)),
    ("randperm uint8", lambda t: t.randperm(257, dtype=t.uint8),
     lambda: R.randperm(257, np.uint8)),
    ("randperm bool", lambda t: t.randperm(5, dtype=t.bool), lambda: R.randperm(5, np.bool_)),
    ("randn negative", lambda t: t.randn(2, -3), lambda: R.randn((2, -3))),
    ("randn long", lambda t: t.randn(3, dtype=t.int64), lambda: R.randn((3,), np.int64)),
    ("rand long", lambda t: t.rand(3, dtype=t.int64), lambda: R.rand((3,), np.int64)),
    ("normal std<0", lambda t: t.normal(0.0, -1.0, (3,)), lambda: R.normal(0.0, -1.0, (3,))),
    ("normal std<0 2", lambda t: t.normal(0.0, -0.5, (3,)), lambda: R.normal(0.0, -0.5, (3,))),
    ("normal std array<0", lambda t: t.normal(0.0, t.tensor([1.0, -1.0])),
     lambda: R.normal(0.0, np.array([1.0, -1.0], np.float32))),
    ("uniform from>to", lambda t: t.empty(3).uniform_(2, 1), lambda: R.uniform(2, 1, (3,))),
    ("uniform to bounds", lambda t: t.empty(3).uniform_(0, 1e39),
     lambda: R.uniform(0, 1e39, (3,))),
    ("uniform range", lambda t: t.empty(3).uniform_(-3e38, 3e38),
     lambda: R.uniform(-3e38, 3e38, (3,))),
    ("bernoulli p", lambda t: t.empty(3).bernoulli_(1.5), lambda: R.bernoulli(1.5, (3,))),
    ("bernoulli p array", lambda t: t.bernoulli(t.tensor([1.5])),
     lambda: R.bernoulli(np.array([1.5], np.float32))),
    ("exponential lambda", lambda t: t.empty(3).exponential_(0),
     lambda: R.exponential(0, (3,))),
    ("cauchy sigma", lambda t: t.empty(3).cauchy_(0, 0), lambda: R.cauchy(0, 0, (3,))),
    ("cauchy sigma nan", lambda t: t.empty(3).cauchy_(0, float("nan")),
     lambda: R.cauchy(0, float("nan"), (3,))),
    ("cauchy long", lambda t: t.empty(3, dtype=t.long).cauchy_(),
     lambda: R.cauchy(0, 1, (3,), np.int64)),
    ("cauchy complex", lambda t: t.empty(3, dtype=t.complex64).cauchy_(),
     lambda: R.cauchy(0, 1, (3,), np.complex64)),
    ("cauchy uint16", lambda t: t.empty(3, dtype=t.uint16).cauchy_(),
     lambda: R.cauchy(0, 1, (3,), np.uint16)),
    ("log_normal std", lambda t: t.empty(3).log_normal_(0, -1.5),
     lambda: R.log_normal(0, -1.5, (3,))),
    ("log_normal int", lambda t: t.empty(3, dtype=t.int32).log_normal_(),
     lambda: R.log_normal(1, 2, (3,), np.int32)),
    ("log_normal std before dtype", lambda t: t.empty(3, dtype=t.int32).log_normal_(0, 0),
     lambda: R.log_normal(0, 0, (3,), np.int32)),
    ("geometric p=1", lambda t: t.empty(3).geometric_(1), lambda: R.geometric(1, (3,))),
    ("geometric p=0", lambda t: t.empty(3).geometric_(0), lambda: R.geometric(0, (3,))),
    ("geometric bool", lambda t: t.empty(3, dtype=t.bool).geometric_(0.5),
     lambda: R.geometric(0.5, (3,), np.bool_)),
    ("geometric uint32", lambda t: t.empty(3, dtype=t.uint32).geometric_(0.5),
     lambda: R.geometric(0.5, (3,), np.uint32)),
    ("multinomial long", lambda t: t.multinomial(t.tensor([1, 2]), 1),
     lambda: R.multinomial(np.array([1, 2]), 1)),
    ("multinomial 3d", lambda t: t.multinomial(t.ones(2, 2, 2), 1),
     lambda: R.multinomial(np.ones((2, 2, 2), np.float32), 1)),
    ("multinomial n<=0", lambda t: t.multinomial(t.ones(3), 0),
     lambda: R.multinomial(np.ones(3, np.float32), 0)),
    ("multinomial n>cat", lambda t: t.multinomial(t.ones(3), 4),
     lambda: R.multinomial(np.ones(3, np.float32), 4)),
    ("multinomial negative", lambda t: t.multinomial(t.tensor([1.0, -1, 2]), 2),
     lambda: R.multinomial(np.array([1.0, -1, 2], np.float32), 2)),
    ("multinomial negative rep", lambda t: t.multinomial(t.tensor([1.0, -1, 2]), 2, True),
     lambda: R.multinomial(np.array([1.0, -1, 2], np.float32), 2, True)),
    ("multinomial inf rep",
     lambda t: t.multinomial(t.tensor([1.0, float("inf"), 2]), 2, True),
     lambda: R.multinomial(np.array([1.0, np.inf, 2], np.float32), 2, True)),
    ("multinomial zero rep", lambda t: t.multinomial(t.zeros(3), 2, True),
     lambda: R.multinomial(np.zeros(3, np.float32), 2, True)),
    ("multinomial zero", lambda t: t.multinomial(t.zeros(3), 2),
     lambda: R.multinomial(np.zeros(3, np.float32), 2)),
    ("manual_seed float", lambda t: t.Generator().manual_seed(1.5),
     lambda: R.Generator().manual_seed(1.5)),
    ("set_state size", lambda t: t.Generator().set_state(t.zeros(10, dtype=t.uint8)),
     lambda: R.Generator().set_state(np.zeros(10, np.uint8))),
    ("set_state invalid", lambda t: t.Generator().set_state(t.zeros(5056, dtype=t.uint8)),
     lambda: R.Generator().set_state(np.zeros(5056, np.uint8))),
]


@pytest.mark.parametrize("name,theirs,ours", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_errors_match_torch(reference_torch, name, theirs, ours):
    t = _catch(lambda: theirs(reference_torch))
    o = _catch(ours)
    assert t is not None
    assert o == t


# ======================================================================================
# without PyTorch
# ======================================================================================

def test_determinism_and_shapes():
    for dt in FLOATS:
        R.manual_seed(123)
        a = R.randn((4, 5), dt)
        b = R.rand((3,), dt)
        R.manual_seed(123)
        np.testing.assert_array_equal(a, R.randn((4, 5), dt))
        np.testing.assert_array_equal(b, R.rand((3,), dt))
        assert a.shape == (4, 5) and a.dtype == dt
        assert b.shape == (3,) and b.dtype == dt
    assert R.rand((2, 0, 3)).shape == (2, 0, 3)
    assert R.randn(()).shape == ()
    assert R.rand(5).shape == (5,)
    assert R.randn((2, 3)).dtype == np.float32
    assert R.randint(0, 5, (2, 2)).dtype == np.int64
    assert R.randperm(4).dtype == np.int64
    assert R.bernoulli(0.5, (3,)).dtype == np.float32
    assert R.normal(np.zeros(3), 1.0).dtype == np.float64


def test_value_ranges():
    R.manual_seed(0)
    for dt in FLOATS:
        x = R.rand((10000,), dt)
        assert x.min() >= 0 and x.max() < 1
        u = R.uniform(-2.0, 3.0, (10000,), dt)
        assert u.min() >= -2 and u.max() < 3
    r = R.randint(-3, 4, (10000,))
    assert r.min() == -3 and r.max() == 3
    r = R.randint(0, 2**50, (1000,))
    assert r.min() >= 0 and r.max() < 2**50
    p = R.randperm(1000)
    np.testing.assert_array_equal(np.sort(p), np.arange(1000))
    b = R.bernoulli(0.25, (100000,))
    assert set(np.unique(b)) <= {0.0, 1.0}
    assert abs(b.mean() - 0.25) < 0.01
    m = R.multinomial(np.array([0.0, 1.0, 3.0]), 4000, True)
    assert m.min() >= 1 and abs((m == 2).mean() - 0.75) < 0.03
    m = R.multinomial(np.array([1.0, 2.0, 3.0, 4.0]), 4, False)
    np.testing.assert_array_equal(np.sort(m), np.arange(4))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("n", [7, 100003])
def test_normal_statistics(dt, n):
    R.manual_seed(1)
    reps = 20000 // n + 1
    x = np.concatenate([R.normal(1.5, 2.0, (n,), dt).astype(np.float64) for _ in range(reps)])
    assert np.isfinite(x).all()
    assert abs(x.mean() - 1.5) < 0.05
    assert abs(x.std() - 2.0) < 0.05
    e = R.exponential(2.0, (50000,), np.float64)
    assert e.min() >= 0 and abs(e.mean() - 0.5) < 0.02


def test_generator_api_and_state_round_trip():
    g = R.Generator()
    assert g.device == "cpu"
    assert g.initial_seed() == R.DEFAULT_SEED
    assert g.manual_seed(7) is g
    assert g.initial_seed() == 7
    R.randn((3,), np.float32, generator=g)  # leaves a cached normal value
    st = g.get_state()
    assert st.dtype == np.uint8 and st.shape == (5056,)
    a = [R.randn((5,), np.float32, generator=g), R.rand((700,), np.float64, generator=g),
         R.randint(0, 9, (4,), generator=g), R.randn((33,), np.float32, generator=g)]
    g.set_state(st)
    b = [R.randn((5,), np.float32, generator=g), R.rand((700,), np.float64, generator=g),
         R.randint(0, 9, (4,), generator=g), R.randn((33,), np.float32, generator=g)]
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    # a state transplanted into another generator continues the same stream
    h = R.Generator().set_state(st)
    np.testing.assert_array_equal(R.randn((5,), np.float32, generator=h), a[0])
    np.testing.assert_array_equal(g.get_state(), R.Generator().set_state(g.get_state())
                                  .get_state())
    # bytes work too
    h.set_state(bytes(st))
    np.testing.assert_array_equal(h.get_state(), st)


def test_module_level_seeding():
    s = R.seed()
    assert isinstance(s, int) and 0 <= s < 2**64
    assert R.initial_seed() == s
    state = R.get_rng_state()
    x = R.randn((20,))
    R.set_rng_state(state)
    np.testing.assert_array_equal(R.randn((20,)), x)
    assert R.manual_seed(5) is R.default_generator
    assert R.initial_seed() == 5
    g = R.Generator()
    assert g.seed() == g.initial_seed()


def test_generators_are_independent():
    g1, g2 = R.Generator().manual_seed(1), R.Generator().manual_seed(1)
    R.manual_seed(1)
    a = R.rand((10,), generator=g1)
    R.rand((1000,))  # the default generator does not disturb g2
    np.testing.assert_array_equal(R.rand((10,), generator=g2), a)
    with pytest.raises(TypeError):
        R.rand((3,), generator=object())


def test_fma_helpers_are_exact():
    rng = np.random.default_rng(0)
    # double-rounding traps: odd products in [2**24, 2**25) are float32 midpoints
    a = (rng.integers(2049, 4096, 2000) * 2 + 1).astype(np.float32)
    b = (rng.integers(2049, 4096, 2000) * 2 + 1).astype(np.float32)
    c = (rng.choice([-1, 1], 2000) * 2.0 ** rng.integers(-60, -5, 2000)).astype(np.float32)

    def rn32(fr):
        v = np.float32(float(fr))
        cands = [v, np.nextafter(v, np.float32(np.inf)), np.nextafter(v, np.float32(-np.inf))]
        return min(cands, key=lambda w: (abs(Fraction(float(w)) - fr),
                                         int(np.array(w).view(np.int32)) & 1))

    ref = np.array([rn32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                    for x, y, z in zip(a, b, c, strict=True)], dtype=np.float32)
    np.testing.assert_array_equal(R._fma32(a, b, c), ref)
    x = rng.standard_normal(3000) * 10.0 ** rng.integers(-5, 5, 3000)
    y = rng.standard_normal(3000) * 10.0 ** rng.integers(-5, 5, 3000)
    z = rng.standard_normal(3000) * 10.0 ** rng.integers(-10, 10, 3000)
    z[:1000] = -(x[:1000] * y[:1000])
    ref = np.array([float(Fraction(p) * Fraction(q) + Fraction(r))
                    for p, q, r in zip(x, y, z, strict=True)])
    np.testing.assert_array_equal(R._fma64(x, y, z), ref)


def test_randn_is_fast():
    R.manual_seed(0)
    t = time.perf_counter()
    x = R.randn((784, 512), np.float32)
    elapsed = time.perf_counter() - t
    assert x.shape == (784, 512)
    assert elapsed < 2.0, elapsed  # typically ~30 ms


def test_errors_without_torch():
    with pytest.raises(RuntimeError, match="from=5 >= to=5"):
        R.randint(5, 5, (3,))
    with pytest.raises(RuntimeError, match="normal expects std >= 0.0"):
        R.normal(0.0, -1.0, (3,))
    with pytest.raises(RuntimeError, match="negative dimension"):
        R.rand((-1,))
    with pytest.raises(NotImplementedError):
        R.randn((2,), np.int32)
    with pytest.raises(RuntimeError, match="manual_seed expected a long"):
        R.Generator().manual_seed(1.5)
    with pytest.raises(TypeError):
        R.normal(0.0, 1.0)  # scalar mean and std need a shape
    assert math.isfinite(float(R.randn(())))
