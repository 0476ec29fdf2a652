"""Fuzz reproducer (autotensor vs PyTorch).

line 8: with torch.no_grad():
    v6 = torch.nn.functional.margin_ranking_loss(v5, v0, v5)
line 8['raised']: autotensor raised RuntimeError: 'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.'
                  torch raised RuntimeError: 'Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.eq(v0)
    with torch.no_grad():
        v6 = torch.nn.functional.margin_ranking_loss(v5, v0, v5)
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
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.eq(v0)',
    'with torch.no_grad():\n    v6 = torch.nn.functional.margin_ranking_loss(v5, v0, v5)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
