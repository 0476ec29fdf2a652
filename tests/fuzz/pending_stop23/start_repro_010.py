"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v1.backward(torch.ones((0,), dtype=v1.dtype) * 0.5)
line 4: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='ValueError', message='cannot reshape array of size 0 into shape (0)')}
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.softmax(0)
    v1.backward(torch.ones((0,), dtype=v1.dtype) * 0.5)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.softmax(0)',
    'v1.backward(torch.ones((0,), dtype=v1.dtype) * 0.5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
