"""Fuzz reproducer (autotensor vs PyTorch).

line 4: v2 = v0.pinverse()
line 4['raised']: autotensor raised LinAlgError: 'SVD did not converge'
                  torch raised _LinAlgError: 'linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.'
  autotensor: {'raised': Raised(type_name='LinAlgError', message='SVD did not converge')}
  torch:      {'raised': Raised(type_name='_LinAlgError', message='linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[-0.4169999957084656]], dtype='float32').reshape((1, 1)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.789]], dtype='float64').reshape((1, 1)), dtype=v0.dtype))
    v1 = v0.sqrt_()
    v2 = v0.pinverse()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/wt-fz'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[-0.4169999957084656]], dtype='float32').reshape((1, 1)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.789]], dtype='float64').reshape((1, 1)), dtype=v0.dtype))",
    'v1 = v0.sqrt_()',
    'v2 = v0.pinverse()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
