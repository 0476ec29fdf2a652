"""Fuzz reproducer (autotensor vs PyTorch).

final state of __hook_log__:
final __hook_log__: list of length 1, torch's has 0

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v0.register_hook(lambda g: _log.append(('v0', _c([g]))))
    with torch.no_grad():
        v2 = _Dirty.apply(v0)
    v0.register_hook(lambda g: _log.append(('v0', _c([g]))))
    v0.sum().backward()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True) * 1",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    "v0.register_hook(lambda g: _log.append(('v0', _c([g]))))",
    'with torch.no_grad():\n    v2 = _Dirty.apply(v0)',
    "v0.register_hook(lambda g: _log.append(('v0', _c([g]))))",
    'v0.sum().backward()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
