"""Fuzz reproducer (autotensor vs PyTorch).

final state of __hook_log__:
final __hook_log__[0][1][0]: dtype float64 != torch's float32

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v0.exp()
    v7 = v0.exp()
    v8 = v0.exp()
    v0.register_hook(lambda g: _log.append(('v0', _c([g]))))
    v10 = v0.floor_divide(v0)
    v11 = v0.var(0, keepdim=False)
    v11.backward()
"""
import sys

sys.path.insert(0, '/work/main')

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v0.exp()',
    'v7 = v0.exp()',
    'v8 = v0.exp()',
    "v0.register_hook(lambda g: _log.append(('v0', _c([g]))))",
    'v10 = v0.floor_divide(v0)',
    'v11 = v0.var(0, keepdim=False)',
    'v11.backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
