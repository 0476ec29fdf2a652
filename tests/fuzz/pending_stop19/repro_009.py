"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = torch.view_as_real(torch.fft.fft(v0, dim=0, norm='ortho'))
line 4['ok']: signed zero differs at [1, 1]: autotensor np.float32(0.0), torch np.float32(-0.0)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(3, 2), values=array([[0., 0.],
       [0., 0.],
       [0., 0.]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(3, 2), values=array([[ 0.,  0.],
       [ 0., -0.],
       [ 0.,  0.]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, 0.9789999723434448], dtype='float32').reshape((3,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))
    v1 = v0.zero_()
    v2 = torch.view_as_real(torch.fft.fft(v0, dim=0, norm='ortho'))
"""
import sys

sys.path.insert(0, '/work/main')

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, 0.9789999723434448], dtype='float32').reshape((3,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))",
    'v1 = v0.zero_()',
    "v2 = torch.view_as_real(torch.fft.fft(v0, dim=0, norm='ortho'))",
]

if __name__ == "__main__":
    run_and_compare(LINES)
