"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:
final v1['tangent']['value']: signed zero differs at [1, 1]: autotensor np.float64(0.0), torch np.float64(-0.0)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333], [0.0]], dtype='float32').reshape((2, 1)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624], [-0.612]], dtype='float64').reshape((2, 1)), dtype=v0.dtype))
    v1 = v0.inner(v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333], [0.0]], dtype='float32').reshape((2, 1)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624], [-0.612]], dtype='float64').reshape((2, 1)), dtype=v0.dtype))",
    'v1 = v0.inner(v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
