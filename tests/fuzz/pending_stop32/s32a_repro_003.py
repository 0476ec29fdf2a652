"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v3 = torch.autograd.grad(v2.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
line 5['ok']: signed zero differs at [2, 0, 0]: autotensor np.float32(-0.0), torch np.float32(0.0)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(3, 2, 2), values=array([[[ 0.629225  , -0.27488232],
        [-0.11231147,  0.4952936 ]],

       [[-0.23371643, -1.4704015 ],
        [ 1.5121919 ,  2.8912737 ]],

       [[-0.        ,  0.        ],
        [ 0.        ,  0.        ]]], dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(3, 2, 2), values=array([[[ 0.629225  , -0.2748823 ],
        [-0.11231147,  0.4952936 ]],

       [[-0.23371649, -1.4704016 ],
        [ 1.512192  ,  2.891274  ]],

       [[ 0.        ,  0.        ],
        [ 0.        ,  0.        ]]], dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], [[1.8680000305175781, -0.9769999980926514], [0.949999988079071, -0.1509999930858612]], [[-0.10300000011920929, 0.41100001335144043], [0.14399999380111694, 1.4539999961853027]]], dtype='float32').reshape((3, 2, 2)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624, -0.612], [-0.528, -1.073]], [[0.865, -2.302], [1.745, -0.761]], [[0.319, -0.249], [1.462, -2.06]]], dtype='float64').reshape((3, 2, 2)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.logdet()
    v3 = torch.autograd.grad(v2.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[[1.7640000581741333, 0.4000000059604645], [0.9789999723434448, 2.240999937057495]], [[1.8680000305175781, -0.9769999980926514], [0.949999988079071, -0.1509999930858612]], [[-0.10300000011920929, 0.41100001335144043], [0.14399999380111694, 1.4539999961853027]]], dtype='float32').reshape((3, 2, 2)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[[1.624, -0.612], [-0.528, -1.073]], [[0.865, -2.302], [1.745, -0.761]], [[0.319, -0.249], [1.462, -2.06]]], dtype='float64').reshape((3, 2, 2)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.logdet()',
    'v3 = torch.autograd.grad(v2.sum(), [v0], retain_graph=False, create_graph=False, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
