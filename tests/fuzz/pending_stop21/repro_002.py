"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = _ckpt(v1, False)

Not equal to tolerance rtol=2e-06, atol=1.13928e-06
line 4['ok']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 6.3180923e-06
Max relative difference among violations: 5.5456994e-06
 ACTUAL: array(1.139284, dtype=float32)
 DESIRED: array(1.139278, dtype=float32)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(1.1392841, dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(1.1392778, dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.6239999532699585, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-0.417, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = _ckpt(v1, False)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.6239999532699585, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-0.417, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = _ckpt(v1, False)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
