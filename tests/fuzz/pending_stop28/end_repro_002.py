"""Fuzz reproducer (autotensor vs PyTorch).

final state of v7:

Not equal to tolerance rtol=2e-06, atol=0.000530933
final v7['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Mismatch at index:
 [0, 0]: -530.9498291015625 (ACTUAL), -530.933349609375 (DESIRED)
Max absolute difference among violations: 0.01647949
Max relative difference among violations: 3.10387211e-05
 ACTUAL: array([[-530.949829]])
 DESIRED: array([[-530.93335]])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[-1.1770000457763672]], dtype='float32').reshape((1, 1)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[-1.062]], dtype='float64').reshape((1, 1)), dtype=v1.dtype))
    v2 = v1.digamma()
    v3 = v0.floor_divide(v0)
    v4 = torch.vmap(_seg)(v2)
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v4.matrix_exp()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[-1.1770000457763672]], dtype='float32').reshape((1, 1)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[-1.062]], dtype='float64').reshape((1, 1)), dtype=v1.dtype))",
    'v2 = v1.digamma()',
    'v3 = v0.floor_divide(v0)',
    'v4 = torch.vmap(_seg)(v2)',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v4.matrix_exp()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
