"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v5 = torch.nn.functional.layer_norm(v4, v4.shape[-1:])
line 8['ok']: signed zero differs at [0, 2, 0]: autotensor np.float16(0.0), torch np.float16(-0.0)
  autotensor: {'ok': TensorSummary(dtype='float16', shape=(3, 3, 1), values=array([[[0.],
        [0.],
        [0.]],

       [[0.],
        [0.],
        [0.]],

       [[0.],
        [0.],
        [0.]]], dtype=float16), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float16', shape=(3, 3, 1), values=array([[[-2.1e-06],
        [ 8.1e-06],
        [-0.0e+00]],

       [[-1.2e-07],
        [-3.0e-06],
        [ 1.5e-06]],

       [[-3.6e-07],
        [-6.0e-07],
        [-1.2e-07]]], dtype=float16), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[[1.640625], [-2.267578125], [-0.18994140625]], [[0.89013671875], [-0.447998046875], [-0.0]], [[-0.447998046875], [0.0360107421875], [0.408935546875]]], dtype='float16').reshape((3, 3, 1)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[[-0.712], [-0.249], [-0.323]], [[0.364], [0.65], [0.092]], [[0.367], [1.896], [0.709]]], dtype='float64').reshape((3, 3, 1)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.select(0, 0)
    v4 = torch.gradient(v1, dim=0, spacing=2.0, edge_order=2)[0]
    v5 = torch.nn.functional.layer_norm(v4, v4.shape[-1:])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[[1.640625], [-2.267578125], [-0.18994140625]], [[0.89013671875], [-0.447998046875], [-0.0]], [[-0.447998046875], [0.0360107421875], [0.408935546875]]], dtype='float16').reshape((3, 3, 1)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[[-0.712], [-0.249], [-0.323]], [[0.364], [0.65], [0.092]], [[0.367], [1.896], [0.709]]], dtype='float64').reshape((3, 3, 1)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.select(0, 0)',
    'v4 = torch.gradient(v1, dim=0, spacing=2.0, edge_order=2)[0]',
    'v5 = torch.nn.functional.layer_norm(v4, v4.shape[-1:])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
