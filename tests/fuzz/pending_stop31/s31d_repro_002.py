"""Fuzz reproducer (autotensor vs PyTorch).

line 10: v7 = v5.inverse()
line 10: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='float64', shape=(2, 2), values=array([[ 3.39433864e+15, -3.39433864e+15],
       [ 9.00719925e+15, -9.00719925e+15]]), requires_grad=False, grad_fn=None)}
  torch:      {'raised': Raised(type_name='_LinAlgError', message='linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[1.624, -0.612]], dtype='float64').reshape((1, 2)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[-0.417, -0.056]], dtype='float64').reshape((1, 2)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.floor_divide(v0)
    v5 = v1[torch.tensor([-1, 0], dtype=torch.int64)]
    v6 = v0.exp()
    v7 = v5.inverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[1.624, -0.612]], dtype='float64').reshape((1, 2)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[-0.417, -0.056]], dtype='float64').reshape((1, 2)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.floor_divide(v0)',
    'v5 = v1[torch.tensor([-1, 0], dtype=torch.int64)]',
    'v6 = v0.exp()',
    'v7 = v5.inverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
