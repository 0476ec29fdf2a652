"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v5 = v4.requires_grad_()

Not equal to tolerance rtol=2e-06, atol=1.06653e-06
line 7['ok']
inf values mismatch:
 ACTUAL: array([ inf,  inf, -inf], dtype=float32)
 DESIRED: array([ inf, -inf,  inf], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(3, 2), values=array([[1.0665338,       inf],
       [1.0665338,       inf],
       [1.0665338,      -inf]], dtype=float32), requires_grad=True, grad_fn='PowBackward0')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(3, 2), values=array([[1.0665338,       inf],
       [1.0665338,      -inf],
       [1.0665338,       inf]], dtype=float32), requires_grad=True, grad_fn='PowBackward0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.6239999532699585, -0.6119999885559082, -0.527999997138977], dtype='float32').reshape((3,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417, -0.056, -2.136], dtype='float64').reshape((3,)), dtype=v0.dtype))
    v1 = v0.exp()
    with torch.no_grad():
        v2 = v0.relu_()
    v3 = torch.view_as_real(torch.fft.fft(v0, dim=0, norm='ortho'))
    v4 = v3.pow(-1)
    v5 = v4.requires_grad_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.6239999532699585, -0.6119999885559082, -0.527999997138977], dtype='float32').reshape((3,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([-0.417, -0.056, -2.136], dtype='float64').reshape((3,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'with torch.no_grad():\n    v2 = v0.relu_()',
    "v3 = torch.view_as_real(torch.fft.fft(v0, dim=0, norm='ortho'))",
    'v4 = v3.pow(-1)',
    'v5 = v4.requires_grad_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
