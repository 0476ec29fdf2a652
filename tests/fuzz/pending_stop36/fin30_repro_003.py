"""Fuzz reproducer (autotensor vs PyTorch).

line 3: with torch.no_grad():
    v1 = torch.nn.functional.conv1d(v0, v0)
line 3: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='ValueError', message='cannot reshape array of size 0 into shape (1,newaxis,0)')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(1, 0, 1), values=array([], shape=(1, 0, 1), dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0, 0)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0, 0)), dtype=v0.dtype))
    with torch.no_grad():
        v1 = torch.nn.functional.conv1d(v0, v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[]], dtype='float32').reshape((1, 0, 0)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[]], dtype='float64').reshape((1, 0, 0)), dtype=v0.dtype))",
    'with torch.no_grad():\n    v1 = torch.nn.functional.conv1d(v0, v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
