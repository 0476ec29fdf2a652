"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:

Not equal to tolerance rtol=2e-06, atol=2.86474e-06
final v1['tangent']['value']
nan location mismatch:
 ACTUAL: array(nan)
 DESIRED: array(2.864736)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([inf], dtype='float32').reshape((1,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))
    v1 = v0.matmul(torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,))))
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([inf], dtype='float32').reshape((1,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v0.dtype))",
    "v1 = v0.matmul(torch.tensor(np.array([1.7640000581741333], dtype='float32').reshape((1,))))",
]

if __name__ == "__main__":
    run_and_compare(LINES)
