"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v3 = v1.unbind(0)[0]
line 3['raised']: autotensor raised IndexError: 'Dimension specified as 0 but tensor has no dimensions'
                  torch raised RuntimeError: 'Output 0 of _View is a view and its base or another view of its base has been modified inplace. This view was created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom backward associated with the custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the custom Function.'
  autotensor: {'raised': Raised(type_name='IndexError', message='Dimension specified as 0 but tensor has no dimensions')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Output 0 of _View is a view and its base or another view of its base has been modified inplace. This view was created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom backward associated with the custom Function, leading to incorrect gradients. This behavior

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = _View.apply(v0)
    v2 = _Dirty.apply(v0)
    v3 = v1.unbind(0)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = _View.apply(v0)',
    'v2 = _Dirty.apply(v0)',
    'v3 = v1.unbind(0)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
