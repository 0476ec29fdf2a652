"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = torch.nn.functional.mse_loss(v0, v1)
line 4['raised']: autotensor raised RuntimeError: 'Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.'
                  torch raised RuntimeError: "result type Float can't be cast to the desired output type Bool"
  autotensor: {'raised': Raised(type_name='RuntimeError', message='Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message="result type Float can't be cast to the desired output type Bool")}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.all(0, keepdim=False)
    v2 = torch.nn.functional.mse_loss(v0, v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.all(0, keepdim=False)',
    'v2 = torch.nn.functional.mse_loss(v0, v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
