"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v6 = v4[-1::1]
line 6['raised']: autotensor raised IndexError: 'slice() cannot be applied to a 0-dim tensor.'
                  torch raised RuntimeError: 'Output 0 of _View is a view and its base or another view of its base has been modified inplace. This view was created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom backward associated with the custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the custom Function.'
  autotensor: {'raised': Raised(type_name='IndexError', message='slice() cannot be applied to a 0-dim tensor.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Output 0 of _View is a view and its base or another view of its base has been modified inplace. This view was created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom backward associated with the custom Function, leading to incorrect gradients. This behavior

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = _View.apply(v0)
    with torch.no_grad():
        v5 = v0.exp_()
    v6 = v4[-1::1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = _View.apply(v0)',
    'with torch.no_grad():\n    v5 = v0.exp_()',
    'v6 = v4[-1::1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
