"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v6 = v5.remainder(1e-310)

Not equal to tolerance rtol=1e-12, atol=1e-12
line 8['ok']
nan location mismatch:
 ACTUAL: array([[4.244887e-312, 2.541150e-311, 2.077707e-311, 1.541296e-311],
       [4.244887e-312, 2.541150e-311, 2.077707e-311, 1.541296e-311]])
 DESIRED: array([[nan, nan, nan, nan],
       [nan, nan, nan, nan]])
  autotensor: {'ok': TensorSummary(dtype='float64', shape=(2, 4), values=array([[4.24488715e-312, 2.54114965e-311, 2.07770706e-311,
        1.54129560e-311],
       [4.24488715e-312, 2.54114965e-311, 2.07770706e-311,
        1.54129560e-311]]), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float64', shape=(2, 4), values=array([[nan, nan, nan, nan],
       [nan, nan, nan, nan]]), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[1.764, 0.4, 0.979, 2.241]], dtype='float64').reshape((1, 4)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528, -1.073]], dtype='float64').reshape((1, 4)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = torch.cat([v0, v0[:1] if v0.dim() else v0], 0)
    v6 = v5.remainder(1e-310)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[1.764, 0.4, 0.979, 2.241]], dtype='float64').reshape((1, 4)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612, -0.528, -1.073]], dtype='float64').reshape((1, 4)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = torch.cat([v0, v0[:1] if v0.dim() else v0], 0)',
    'v6 = v5.remainder(1e-310)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
