"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:
final v3['grad']: autotensor gave TensorSummary(dtype='float32', shape=(), values=array(1., dtype=float32), requires_grad=False, grad_fn=None), torch gave None

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v3.backward(inputs=[v3])
    v5 = v0.exp()
    v6 = _Dirty.apply(v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v3.backward(inputs=[v3])',
    'v5 = v0.exp()',
    'v6 = _Dirty.apply(v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
