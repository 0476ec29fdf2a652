"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v1.sqrt_()

Not equal to tolerance rtol=2e-06, atol=1.32816e-06
line 4['ok']
Mismatched elements: 1 / 3 (33.3%)
Mismatch at index:
 [2]: 0.0001409546530339867 (ACTUAL), 0.000244140625 (DESIRED)
Max absolute difference among violations: 0.00010319
Max relative difference among violations: 0.42264974
 ACTUAL: array([1.328157e+00, 6.324556e-01, 1.409547e-04], dtype=float32)
 DESIRED: array([1.328157e+00, 6.324556e-01, 2.441406e-04], dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(3,), values=array([1.3281566e+00, 6.3245559e-01, 1.4095465e-04], dtype=float32), requires_grad=True, grad_fn='SqrtBackward0')}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(3,), values=array([1.3281566e+00, 6.3245559e-01, 2.4414062e-04], dtype=float32), requires_grad=True, grad_fn='SqrtBackward0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, -0.0], dtype='float32').reshape((3,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))
    v1 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=3, dim=0)
    v2 = v1.sqrt_()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([1.7640000581741333, 0.4000000059604645, -0.0], dtype='float32').reshape((3,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([1.624, -0.612, -0.528], dtype='float64').reshape((3,)), dtype=v0.dtype))",
    'v1 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=3, dim=0)',
    'v2 = v1.sqrt_()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
