"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v5 = v4.matmul(torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1))))
line 7['raised']: autotensor raised RuntimeError: 'expected m1 and m2 to have the same dtype, but got: bool != float'
                  torch raised NotImplementedError: '"bmm" not implemented for \\'Bool\\''
  autotensor: {'raised': Raised(type_name='RuntimeError', message='expected m1 and m2 to have the same dtype, but got: bool != float')}
  torch:      {'raised': Raised(type_name='NotImplementedError', message='"bmm" not implemented for \\'Bool\\'')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[[1.7640000581741333]], [[0.4000000059604645]]], dtype='float32').reshape((2, 1, 1))).transpose(0, 1).detach()
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624], [-0.612]]], dtype='float64').reshape((1, 2, 1)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.eq(1)
    v5 = v4.matmul(torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1))))
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[[1.7640000581741333]], [[0.4000000059604645]]], dtype='float32').reshape((2, 1, 1))).transpose(0, 1).detach()",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624], [-0.612]]], dtype='float64').reshape((1, 2, 1)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.eq(1)',
    "v5 = v4.matmul(torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1))))",
]

if __name__ == "__main__":
    run_and_compare(LINES)
