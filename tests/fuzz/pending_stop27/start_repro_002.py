"""Fuzz reproducer (autotensor vs PyTorch).

final state of v8:
final v8['version']: autotensor gave 0, torch gave 1

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[[1.7640000581741333], [0.9789999723434448]], [[0.4000000059604645], [2.240999937057495]]], dtype='float32').reshape((2, 2, 1))).transpose(0, 1).detach()
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624], [-0.612]], [[-0.528], [-1.073]]], dtype='float64').reshape((2, 2, 1)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.tril()
    v0.sum().backward()
    v2.atan2_(v0)
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v0.exp()
    v8 = v2.contiguous()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[[1.7640000581741333], [0.9789999723434448]], [[0.4000000059604645], [2.240999937057495]]], dtype='float32').reshape((2, 2, 1))).transpose(0, 1).detach()",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624], [-0.612]], [[-0.528], [-1.073]]], dtype='float64').reshape((2, 2, 1)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.tril()',
    'v0.sum().backward()',
    'v2.atan2_(v0)',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v0.exp()',
    'v8 = v2.contiguous()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
