"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v1['tangent']['value']
Mismatched elements: 1 / 2 (50%)
Mismatch at index:
 [1]: -0.004332542419433594 (ACTUAL), -0.004330635070800781 (DESIRED)
Max absolute difference among violations: 1.90734863e-06
Max relative difference among violations: 0.00044043
 ACTUAL: array([ 0.004328, -0.004333])
 DESIRED: array([ 0.004327, -0.004331])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([-1.2990000247955322, -0.984000027179718], dtype='float32').reshape((2,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.16, -2.226], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = torch.nn.functional.layer_norm(v0, v0.shape[-1:])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([-1.2990000247955322, -0.984000027179718], dtype='float32').reshape((2,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.16, -2.226], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    'v1 = torch.nn.functional.layer_norm(v0, v0.shape[-1:])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
