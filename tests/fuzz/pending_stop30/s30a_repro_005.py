"""Fuzz reproducer (autotensor vs PyTorch).

line 7: v4 = v3.matmul(torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1))))
line 7['raised']: autotensor raised RuntimeError: 'expected scalar type Half but found Float'
                  torch raised RuntimeError: 'expected m1 and m2 to have the same dtype, but got: c10::Half != float'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='expected scalar type Half but found Float')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='expected m1 and m2 to have the same dtype, but got: c10::Half != float')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(1.7640000581741333, dtype=torch.bfloat16, dtype=torch.bfloat16)
    v2 = torch.tensor(np.array([[[1.763671875, 0.39990234375]]], dtype='float16').reshape((1, 1, 2)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([[[1.624, -0.612]]], dtype='float64').reshape((1, 1, 2)), dtype=v2.dtype))
    v3 = torch.vmap(_seg, in_dims=-1, out_dims=0)(v2)
    v4 = v3.matmul(torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1))))
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = torch.tensor(1.7640000581741333, dtype=torch.bfloat16, dtype=torch.bfloat16)',
    "v2 = torch.tensor(np.array([[[1.763671875, 0.39990234375]]], dtype='float16').reshape((1, 1, 2)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([[[1.624, -0.612]]], dtype='float64').reshape((1, 1, 2)), dtype=v2.dtype))",
    'v3 = torch.vmap(_seg, in_dims=-1, out_dims=0)(v2)',
    "v4 = v3.matmul(torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1))))",
]

if __name__ == "__main__":
    run_and_compare(LINES)
