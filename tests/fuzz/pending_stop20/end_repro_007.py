"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:
final v4['tangent']: autotensor raised RuntimeError: "A view was created in no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
                     torch raised RuntimeError: 'A view was created in no_grad mode and its base or another view of its base has been modified inplace with grad mode enabled. This view was created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom backward associated with the custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the custom Function.'

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.detach().to(torch.float32).requires_grad_()
    with torch.no_grad():
        v4 = _View.apply(v3)
    v5 = v0.exp_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.detach().to(torch.float32).requires_grad_()',
    'with torch.no_grad():\n    v4 = _View.apply(v3)',
    'v5 = v0.exp_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
