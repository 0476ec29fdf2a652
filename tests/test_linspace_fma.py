"""torch.arange, linspace and logspace for float32/float64 bit for bit: linspace takes the
step in the dtype and computes each element as one fused multiply-add from the nearer end."""
import numpy as np
import pytest

import autotensor

_ENDS = [(0, 1), (-3.7, 11.3), (1e-3, 7), (5, -5), (1e30, 1e31), (-1e-300, 1e-300), (0.1, 0.7),
         (2, 2), (0, float("inf")), (float("nan"), 1)]
_ENDS += [tuple(float(v) for v in np.random.default_rng(i).normal(size=2) * 10.0 ** (i % 11 - 5))
          for i in range(30)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("steps", [2, 3, 5, 10, 17, 64, 100, 1001])
def test_linspace_bit_for_bit(dtype, steps):
    torch = pytest.importorskip("torch")
    for a, b in _ENDS:
        ours = autotensor.linspace(a, b, steps, dtype=getattr(autotensor, dtype)).numpy()
        theirs = torch.linspace(a, b, steps, dtype=getattr(torch, dtype)).numpy()
        np.testing.assert_array_equal(ours, theirs, err_msg=f"{a}, {b}")


_LOG_CASES = [(0, 1, 10.0), (-3, 2, 2.0), (0.5, 3.3, 10.0), (10, -10, 3.0), (-300, 300, 10.0),
              (0, 1, -2.0), (1, 2, 0.5)]
_LOG_CASES += [tuple(float(v) for v in (r.normal() * 5, r.normal() * 5, r.uniform(0.1, 20)))
               for r in (np.random.default_rng(i) for i in range(20))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("steps", [2, 5, 17, 100])
def test_logspace_bit_for_bit(dtype, steps):
    """aten's logspace: a double step, the exponents in double (the count from the end in the
    dtype), C's pow."""
    torch = pytest.importorskip("torch")
    for a, b, base in _LOG_CASES:
        ours = autotensor.logspace(a, b, steps, base=base,
                                   dtype=getattr(autotensor, dtype)).numpy()
        theirs = torch.logspace(a, b, steps, base=base, dtype=getattr(torch, dtype)).numpy()
        np.testing.assert_array_equal(ours, theirs, err_msg=f"{a}, {b}, {base}")


_ARANGE_CASES = [(0, 1, 0.1), (-3.7, 11.3, 0.37), (0, 100, 0.3), (1e-3, 7, 0.013), (0, 10, 1),
                 (5, -5, -0.7), (0.1, 0.9, 0.05), (0, 1000, 0.7), (0, 30000, 1.3)]
_ARANGE_CASES += [(float(a), float(a + abs(b) * 50), float(abs(b))) for a, b in
                  zip(np.random.default_rng(3).normal(size=20) * 10,
                      np.random.default_rng(4).normal(size=20))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_arange_bit_for_bit(dtype):
    """aten's arange: double arithmetic, FMAs, the vectorized loop's per-vector bases."""
    torch = pytest.importorskip("torch")
    for a, b, s in _ARANGE_CASES:
        ours = autotensor.arange(a, b, s, dtype=getattr(autotensor, dtype)).numpy()
        theirs = torch.arange(a, b, s, dtype=getattr(torch, dtype)).numpy()
        np.testing.assert_array_equal(ours, theirs, err_msg=f"{a}, {b}, {s}")
