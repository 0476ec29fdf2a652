"""Fuzz reproducer (autotensor vs PyTorch).

final state of v6:
final v6: autotensor gave {'value': TensorSummary(dtype='float32', shape=(), values=array(2.161209, dtype=float32), requires_grad=False, grad_fn=None), 'grad': None, 'version': 1, 'is_leaf': True, 'grad_fn': None, 'next': None, 'tangent': {'value': TensorSummary(dtype='float64', shape=(), values=array(0.), requires_grad=False, grad_fn=None), 'requires_grad': False}} (dict), torch gave 'undefined' (str)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.floor_divide(v0)
    v5 = v0.sgn()
    with torch.no_grad():
        v6 = torch.func.vjp(_seg, v5)[1](torch.ones_like(v5))[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.floor_divide(v0)',
    'v5 = v0.sgn()',
    'with torch.no_grad():\n    v6 = torch.func.vjp(_seg, v5)[1](torch.ones_like(v5))[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
