"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:

Not equal to tolerance rtol=2e-06, atol=1.87162e-06
final v3['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 1.52587891e-05
Max relative difference among violations: 8.15272084e-06
 ACTUAL: array(-1.871604)
 DESIRED: array(-1.871619)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(-3.253000020980835, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-0.205, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = _ckpt(v0, False)
    v2 = v0.exp()
    v3 = torch.func.grad(lambda t: _seg(t).sum())(v1)
    v0.backward(inputs=[v3])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(-3.253000020980835, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(-0.205, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = _ckpt(v0, False)',
    'v2 = v0.exp()',
    'v3 = torch.func.grad(lambda t: _seg(t).sum())(v1)',
    'v0.backward(inputs=[v3])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
