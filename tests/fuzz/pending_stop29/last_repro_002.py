"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v2.add_(v0)
line 8['raised']: autotensor raised RuntimeError: 'a leaf Variable that requires grad is being used in an in-place operation.'
                  torch raised RuntimeError: 'a view of a leaf Variable that requires grad is being used in an in-place operation.'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='a leaf Variable that requires grad is being used in an in-place operation.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='a view of a leaf Variable that requires grad is being used in an in-place operation.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([], dtype='float32').reshape((0, 0))).transpose(0, 1).detach()
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v2.dtype))
    v3 = v2.requires_grad_()
    v2.add_(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([], dtype='float32').reshape((0, 0))).transpose(0, 1).detach()",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([], dtype='float64').reshape((0, 0)), dtype=v2.dtype))",
    'v3 = v2.requires_grad_()',
    'v2.add_(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
