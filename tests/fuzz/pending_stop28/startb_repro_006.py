"""Fuzz reproducer (autotensor vs PyTorch).

line 5: v2 = torch.nn.functional.softshrink(v1)
line 5['ok']: signed zero differs at [1, 3]: autotensor np.float32(-0.0), torch np.float32(0.0)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(4, 4), values=array([[ 1.264     ,  0.        ,  0.47899997,  1.7409999 ],
       [ 1.368     , -0.477     ,  0.45      , -0.        ],
       [-0.        ,  0.        ,  0.        ,  0.954     ],
       [ 0.26099998,  0.        ,  0.        ,  0.        ]],
      dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(4, 4), values=array([[ 1.264     ,  0.        ,  0.47899997,  1.7409999 ],
       [ 1.368     , -0.477     ,  0.45      ,  0.        ],
       [ 0.        ,  0.        ,  0.        ,  0.954     ],
       [ 0.26099998,  0.        ,  0.        ,  0.        ]],
      dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645, 0.9789999723434448, 2.240999937057495], [1.8680000305175781, -0.9769999980926514, 0.949999988079071, -0.1509999930858612], [-0.10300000011920929, 0.41100001335144043, 0.14399999380111694, 1.4539999961853027], [0.7609999775886536, 0.12200000137090683, 0.4440000057220459, 0.33399999141693115]], dtype='float32').reshape((4, 4)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624, -0.612, -0.528, -1.073], [0.865, -2.302, 1.745, -0.761], [0.319, -0.249, 1.462, -2.06], [-0.322, -0.384, 1.134, -1.1]], dtype='float64').reshape((4, 4)), dtype=v1.dtype))
    v2 = torch.nn.functional.softshrink(v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/wt-fz'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[1.7640000581741333, 0.4000000059604645, 0.9789999723434448, 2.240999937057495], [1.8680000305175781, -0.9769999980926514, 0.949999988079071, -0.1509999930858612], [-0.10300000011920929, 0.41100001335144043, 0.14399999380111694, 1.4539999961853027], [0.7609999775886536, 0.12200000137090683, 0.4440000057220459, 0.33399999141693115]], dtype='float32').reshape((4, 4)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624, -0.612, -0.528, -1.073], [0.865, -2.302, 1.745, -0.761], [0.319, -0.249, 1.462, -2.06], [-0.322, -0.384, 1.134, -1.1]], dtype='float64').reshape((4, 4)), dtype=v1.dtype))",
    'v2 = torch.nn.functional.softshrink(v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
