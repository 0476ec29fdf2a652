"""Fuzz reproducer (autotensor vs PyTorch).

final state of __hook_log__:
final __hook_log__[0][1][0]: autotensor gave None, torch gave TensorSummary(dtype='float32', shape=(), values=array(3.528, dtype=float32), requires_grad=False, grad_fn=None)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)
    v1 = _Sq.apply(v0)
    v1.grad_fn.register_hook(lambda gi, go: _log.append(('post v1', _c(gi), _c(go))))
    v1.backward(inputs=[v1])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()), requires_grad=True)",
    'v1 = _Sq.apply(v0)',
    "v1.grad_fn.register_hook(lambda gi, go: _log.append(('post v1', _c(gi), _c(go))))",
    'v1.backward(inputs=[v1])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
