"""Fuzz reproducer (autotensor vs PyTorch).

final state of v6:
final v6['tangent']: autotensor gave {'value': TensorSummary(dtype='float64', shape=(1, 1), values=array([[0.92063487]]), requires_grad=False, grad_fn=None), 'requires_grad': False} (dict), torch gave None (NoneType)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624]], dtype='float64').reshape((1, 1)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.det()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = torch.autograd.grad(v2, [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624]], dtype='float64').reshape((1, 1)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.det()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = torch.autograd.grad(v2, [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
