"""torch.linspace for float32/float64 bit for bit: aten's kernel takes the step in the dtype
and computes each element as one fused multiply-add from the nearer end."""
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
