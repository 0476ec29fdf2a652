"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v2.register_hook(lambda g: g * 2)
line 5: keys ['raised'] != ['ok']
  autotensor: {'raised': Raised(type_name='RuntimeError', message='Output 0 of _View is a view and its base or another view of its base has been modified inplace. This view was created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom backward associated with the custom Function, leading to incorrect gradients. This behavior
  torch:      {'ok': None}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = v0.exp()
    v2 = _View.apply(v0)
    with torch.no_grad():
        v0.add_(v0)
    v2.register_hook(lambda g: g * 2)
    v2.register_hook(lambda g: g * 2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = v0.exp()',
    'v2 = _View.apply(v0)',
    'with torch.no_grad():\n    v0.add_(v0)',
    'v2.register_hook(lambda g: g * 2)',
    'v2.register_hook(lambda g: g * 2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
