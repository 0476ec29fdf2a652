"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3 = v0.heaviside(v1)
line 5['raised']: autotensor raised RuntimeError: "A view was created in no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
                  torch raised NotImplementedError: 'Trying to use forward AD with aten::heaviside that does not support it.'
  autotensor: {'raised': Raised(type_name='RuntimeError', message="A view was created in no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) 
  torch:      {'raised': Raised(type_name='NotImplementedError', message='Trying to use forward AD with aten::heaviside that does not support it.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    with torch.no_grad():
        v1 = v0.view_as(v0); v1.retain_grad()
    with torch.no_grad():
        v2 = v0.exp_()
    v3 = v0.heaviside(v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'with torch.no_grad():\n    v1 = v0.view_as(v0); v1.retain_grad()',
    'with torch.no_grad():\n    v2 = v0.exp_()',
    'v3 = v0.heaviside(v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
