"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v0.sum().backward(inputs=[v4])
line 8: keys ['ok'] != ['raised']
  autotensor: {'ok': None}
  torch:      {'raised': Raised(type_name='RuntimeError', message="A view was created in no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) 

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    with torch.no_grad():
        v4 = v0.transpose(0, 0)
    v0.atan2_(v0)
    v0.sum().backward(inputs=[v4])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'with torch.no_grad():\n    v4 = v0.transpose(0, 0)',
    'v0.atan2_(v0)',
    'v0.sum().backward(inputs=[v4])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
