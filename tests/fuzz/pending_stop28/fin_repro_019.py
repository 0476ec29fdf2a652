"""Fuzz reproducer (autotensor vs PyTorch).

final state of v4:

Not equal to tolerance rtol=2e-06, atol=1e-06
final v4['tangent']['value']
Mismatched elements: 1 / 2 (50%)
Mismatch at index:
 [1]: -0.00837806984782219 (ACTUAL), -0.008381537161767483 (DESIRED)
Max absolute difference among violations: 3.46731395e-06
Max relative difference among violations: 0.00041368
 ACTUAL: array([      nan, -0.008378])
 DESIRED: array([      nan, -0.008382])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([-0.6990000009536743, 0.010999999940395355], dtype='float32').reshape((2,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.662, 1.403], dtype='float64').reshape((2,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.log()
    v3 = v0.exp()
    v4 = torch.nn.functional.gelu(v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([-0.6990000009536743, 0.010999999940395355], dtype='float32').reshape((2,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.662, 1.403], dtype='float64').reshape((2,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.log()',
    'v3 = v0.exp()',
    'v4 = torch.nn.functional.gelu(v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
