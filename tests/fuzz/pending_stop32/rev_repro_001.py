"""Fuzz reproducer (autotensor vs PyTorch).

final state of __hook_log__:

Not equal to tolerance rtol=2e-06, atol=1e-06
final __hook_log__[0][1][0]
Mismatched elements: 1 / 3 (33.3%)
Mismatch at index:
 [2, 0]: 1.0 (ACTUAL), 0.0 (DESIRED)
Max absolute difference among violations: 1.
Max relative difference among violations: inf
 ACTUAL: array([[1.],
       [0.],
       [1.]], dtype=float32)
 DESIRED: array([[1.],
       [0.],
       [0.]], dtype=float32)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645], [0.9789999723434448]], dtype='float32').reshape((3, 1)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624], [-0.612], [-0.528]], dtype='float64').reshape((3, 1)), dtype=v0.dtype))
    v1 = v0.exp()
    v0.register_hook(lambda g: _log.append(('v0', _c([g]))))
    v3 = v0.trace()
    v3.backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.7640000581741333], [0.4000000059604645], [0.9789999723434448]], dtype='float32').reshape((3, 1)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624], [-0.612], [-0.528]], dtype='float64').reshape((3, 1)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    "v0.register_hook(lambda g: _log.append(('v0', _c([g]))))",
    'v3 = v0.trace()',
    'v3.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
