"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3 = torch.view_as_real(torch.fft.fft(v2, dim=0, norm='ortho'))

Not equal to tolerance rtol=2e-06, atol=1e-06
line 5['ok']
nan location mismatch:
 ACTUAL: array([[-inf,   0.],
       [ nan,  nan],
       [ nan, -inf],...
 DESIRED: array([[-inf,   0.],
       [ nan,  nan],
       [ inf, -inf],...
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(6, 2), values=array([[-inf,   0.],
       [ nan,  nan],
       [ nan, -inf],
       [ nan,   0.],
       [ nan,  inf],
       [ nan,  nan]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(6, 2), values=array([[-inf,   0.],
       [ nan,  nan],
       [ inf, -inf],
       [ nan,   0.],
       [ inf,  inf],
       [ nan,  nan]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, -inf], dtype='float32').reshape((3,)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = torch.cat([v0, v0], dim=-1)
    v3 = torch.view_as_real(torch.fft.fft(v2, dim=0, norm='ortho'))
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, -inf], dtype='float32').reshape((3,)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = torch.cat([v0, v0], dim=-1)',
    "v3 = torch.view_as_real(torch.fft.fft(v2, dim=0, norm='ortho'))",
]

if __name__ == "__main__":
    run_and_compare(LINES)
