"""Fuzz reproducer (autotensor vs PyTorch).

line 11: v7 -= v0
line 11['raised']: autotensor raised RuntimeError: 'Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.'
                   torch raised RuntimeError: "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
  autotensor: {'raised': Raised(type_name='RuntimeError', message='Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message="A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inpl

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array(True, dtype='bool').reshape(()))
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v0.exp()
    with torch.no_grad():
        v7 = v2.view(-1)
    v7 -= v0
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/wt-fz38b'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array(True, dtype='bool').reshape(()))",
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'with torch.no_grad():\n    v7 = v2.view(-1)',
    'v7 -= v0',
]

if __name__ == "__main__":
    run_and_compare(LINES)
