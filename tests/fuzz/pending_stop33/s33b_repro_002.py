"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:

Not equal to tolerance rtol=0.002, atol=0.001
final v5['tangent']['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 0.00292969
Max relative difference among violations: 0.00338983
 ACTUAL: array(-0.861328)
 DESIRED: array(-0.864258)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array(1.318359375, dtype='float16').reshape(()))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(-1.243, dtype='float64').reshape(()), dtype=v2.dtype))
    v3 = v0.exp()
    v4 = torch.func.grad(lambda t: _seg(t).sum())(v2)
    v5 = torch.nn.functional.gelu(v4, approximate='tanh')
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array(1.318359375, dtype='float16').reshape(()))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array(-1.243, dtype='float64').reshape(()), dtype=v2.dtype))",
    'v3 = v0.exp()',
    'v4 = torch.func.grad(lambda t: _seg(t).sum())(v2)',
    "v5 = torch.nn.functional.gelu(v4, approximate='tanh')",
]

if __name__ == "__main__":
    run_and_compare(LINES)
