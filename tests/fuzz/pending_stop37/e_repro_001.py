"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:
final v1['grad']: autotensor gave TensorSummary(dtype='float32', shape=(0,), values=array([], dtype=float32), requires_grad=False, grad_fn=None), torch gave None

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.split(1, 0)[0]
    v1.sum().backward(inputs=[v1])
    v2 = _Dirty.apply(v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.split(1, 0)[0]',
    'v1.sum().backward(inputs=[v1])',
    'v2 = _Dirty.apply(v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
