"""Fuzz reproducer (autotensor vs PyTorch).

line 8: with torch.no_grad():
    v0.mul_(v2)
line 8: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='Output 0 of Split is a view and its base or another view of its base has been modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.split(1, 0)[0]
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    with torch.no_grad():
        v0.mul_(v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.split(1, 0)[0]',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'with torch.no_grad():\n    v0.mul_(v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
