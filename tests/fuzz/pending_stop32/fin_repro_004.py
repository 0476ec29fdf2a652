"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v3 = torch.nn.functional.layer_norm(v2, v2.shape[-1:])
line 6['ok']: signed zero differs at [0]: autotensor np.float16(-0.0), torch np.float16(0.0)
  autotensor: {'ok': TensorSummary(dtype='float16', shape=(1,), values=array([-0.], dtype=float16), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float16', shape=(1,), values=array([0.], dtype=float16), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1, dtype='int64').reshape(()), requires_grad=True)
    v2 = torch.tensor(np.array([-0.0], dtype='float16').reshape((1,)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v2.dtype))
    v3 = torch.nn.functional.layer_norm(v2, v2.shape[-1:])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1, dtype='int64').reshape(()), requires_grad=True)",
    "v2 = torch.tensor(np.array([-0.0], dtype='float16').reshape((1,)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([1.624], dtype='float64').reshape((1,)), dtype=v2.dtype))",
    'v3 = torch.nn.functional.layer_norm(v2, v2.shape[-1:])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
