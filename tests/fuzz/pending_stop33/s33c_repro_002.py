"""Fuzz reproducer (autotensor vs PyTorch).

line 9: v5.copy_(v0)
line 9: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message="A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inpl
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1, dtype='int64').reshape(()))
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    with torch.no_grad():
        v5 = v1.view(-1)
    v6 = v0.exp()
    v5.copy_(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1, dtype='int64').reshape(()))",
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'with torch.no_grad():\n    v5 = v1.view(-1)',
    'v6 = v0.exp()',
    'v5.copy_(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
