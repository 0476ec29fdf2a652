"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v0.det()

Not equal to tolerance rtol=1e-12, atol=0.411996
line 4['ok']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 54067200.17993164
Max relative difference among violations: 0.00013123
 ACTUAL: array(4.120505e+11)
 DESIRED: array(4.119964e+11)
  autotensor: {'ok': TensorSummary(dtype='float64', shape=(), values=array(4.12050457e+11), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float64', shape=(), values=array(4.11996389e+11), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.764, 0.4, 0.979], [2.241, 1.868, -0.977], [0.95, -0.151, -0.103]], dtype='float64').reshape((3, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302], [1.745, -0.761, 0.319]], dtype='float64').reshape((3, 3)), dtype=v0.dtype))
    v0 += 1099511627777
    v2 = v0.det()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.764, 0.4, 0.979], [2.241, 1.868, -0.977], [0.95, -0.151, -0.103]], dtype='float64').reshape((3, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528], [-1.073, 0.865, -2.302], [1.745, -0.761, 0.319]], dtype='float64').reshape((3, 3)), dtype=v0.dtype))",
    'v0 += 1099511627777',
    'v2 = v0.det()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
