"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v4['tangent']['value']
nan location mismatch:
 ACTUAL: array(0.)
 DESIRED: array(nan)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = _Sq.apply(v0)
    v3 = v0.median()
    v4 = v3.median()
"""
import sys

sys.path.insert(0, '/work/main')

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = _Sq.apply(v0)',
    'v3 = v0.median()',
    'v4 = v3.median()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
