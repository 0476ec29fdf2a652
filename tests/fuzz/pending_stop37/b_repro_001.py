"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3 = torch.nn.functional.soft_margin_loss(v0, v1)
line 5['raised']: autotensor raised RuntimeError: "A view was created in no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
                  torch raised RuntimeError: "The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. This input cannot have requires_grad True."
  autotensor: {'raised': Raised(type_name='RuntimeError', message="A view was created in no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) 
  torch:      {'raised': Raised(type_name='RuntimeError', message="The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. This input cannot have requires_grad True.")}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    with torch.no_grad():
        v1 = v0.transpose(0, 0)
    v0.add_(v0)
    v3 = torch.nn.functional.soft_margin_loss(v0, v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'with torch.no_grad():\n    v1 = v0.transpose(0, 0)',
    'v0.add_(v0)',
    'v3 = torch.nn.functional.soft_margin_loss(v0, v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
