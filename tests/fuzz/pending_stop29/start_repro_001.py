"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:

Not equal to tolerance rtol=2e-06, atol=1.624e-06
final v1['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Mismatch at index:
 [0]: -1.6239999532699585 (ACTUAL), 1.6239999532699585 (DESIRED)
Max absolute difference among violations: 3.24799991
Max relative difference among violations: 2.
 ACTUAL: array([-1.624])
 DESIRED: array([1.624])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[inf]], dtype='float32').reshape((1, 1)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624]], dtype='float64').reshape((1, 1)), dtype=v0.dtype))
    v1 = v0.svd()[1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[inf]], dtype='float32').reshape((1, 1)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624]], dtype='float64').reshape((1, 1)), dtype=v0.dtype))",
    'v1 = v0.svd()[1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
