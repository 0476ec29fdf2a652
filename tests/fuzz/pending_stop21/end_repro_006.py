"""Fuzz reproducer (autotensor vs PyTorch).

final state of v9:
final v9: autotensor gave {'value': TensorSummary(dtype='float32', shape=(), values=array(2.718282, dtype=float32), requires_grad=False, grad_fn=None), 'grad': None, 'version': 1, 'is_leaf': True, 'grad_fn': None, 'next': None, 'tangent': {'value': TensorSummary(dtype='float64', shape=(), values=array(0.), requires_grad=False, grad_fn=None), 'requires_grad': False}} (dict), torch gave 'undefined' (str)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.sgn()
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v0.exp()
    v8 = v0.exp()
    v9 = v4.exp_()
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
    'v4 = v0.sgn()',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v0.exp()',
    'v8 = v0.exp()',
    'v9 = v4.exp_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
