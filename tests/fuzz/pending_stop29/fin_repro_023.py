"""Fuzz reproducer (autotensor vs PyTorch).

line 2: v1.atan2_(v0)
line 2: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message="A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inpl
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 1)), requires_grad=True)
    v1 = torch.autograd.grad(v0, [v0], grad_outputs=torch.ones((0, 1), dtype=v0.dtype) * 2, retain_graph=False, create_graph=False, allow_unused=False)[0]
    v1.atan2_(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 1)), requires_grad=True)",
    'v1 = torch.autograd.grad(v0, [v0], grad_outputs=torch.ones((0, 1), dtype=v0.dtype) * 2, retain_graph=False, create_graph=False, allow_unused=False)[0]',
    'v1.atan2_(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
