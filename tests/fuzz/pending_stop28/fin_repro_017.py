"""Fuzz reproducer (autotensor vs PyTorch).

final state of v7:
final v7: autotensor gave {'value': TensorSummary(dtype='float32', shape=(4,), values=array([ 0.05978391,  0.31863645,  1.6365929 , -1.904855  ], dtype=float32), requires_grad=False, grad_fn=None), 'grad': None, 'version': 0, 'is_leaf': True, 'grad_fn': None, 'next': None, 'tangent': {'value': TensorSummary(dtype='float64', shape=(4,), values=array([-11.45382404,  -0.96669292,  -1.18847668,  -2.93134499]), requires_grad=False, grad_fn=None), 'requires_grad': False}} (dict), torch gave 'undefined' (str)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333, 0.9789999723434448], [0.4000000059604645, 2.240999937057495]], dtype='float32').reshape((2, 2))).transpose(0, 1).detach()
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = torch.vmap(_seg)(v0)
    v7 = v6.view(-1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333, 0.9789999723434448], [0.4000000059604645, 2.240999937057495]], dtype='float32').reshape((2, 2))).transpose(0, 1).detach()",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], [-0.528, -1.073]], dtype='float64').reshape((2, 2)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = torch.vmap(_seg)(v0)',
    'v7 = v6.view(-1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
