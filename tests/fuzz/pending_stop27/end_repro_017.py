"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v6 = v5.pinverse()
line 8['raised']: autotensor raised LinAlgError: 'SVD did not converge'
                  torch raised _LinAlgError: 'linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.'
  autotensor: {'raised': Raised(type_name='LinAlgError', message='SVD did not converge')}
  torch:      {'raised': Raised(type_name='_LinAlgError', message='linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[-0.4169999957084656, -0.0560000017285347, -2.135999917984009]], dtype='float32').reshape((1, 3)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.789, 0.437, 0.096]], dtype='float64').reshape((1, 3)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.floor_divide(v0)
    v5 = v0.log1p()
    v6 = v5.pinverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[-0.4169999957084656, -0.0560000017285347, -2.135999917984009]], dtype='float32').reshape((1, 3)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.789, 0.437, 0.096]], dtype='float64').reshape((1, 3)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.floor_divide(v0)',
    'v5 = v0.log1p()',
    'v6 = v5.pinverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
