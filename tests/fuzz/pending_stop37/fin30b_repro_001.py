"""Fuzz reproducer (autotensor vs PyTorch).

line 9: v6 = torch.nn.functional.conv_transpose1d(v1, v3)
line 9['raised']: autotensor raised RuntimeError: 'could not create a primitive descriptor for the deconvolution forward propagation primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get additional diagnostic information.'
                  torch raised RuntimeError: 'kernel size should be greater than zero, but got kernel_height: 1 kernel_width: 0'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='could not create a primitive descriptor for the deconvolution forward propagation primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get additional diagnostic information.')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='kernel size should be greater than zero, but got kernel_height: 1 kernel_width: 0')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 1)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 1)), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624]], dtype='float64').reshape((1, 1)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = torch.vmap(_seg, in_dims=-1, out_dims=0)(v0)
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = torch.nn.functional.conv_transpose1d(v1, v3)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0, 0, 1)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0, 0, 1)), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[1.7640000581741333]], dtype='float32').reshape((1, 1)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[1.624]], dtype='float64').reshape((1, 1)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = torch.vmap(_seg, in_dims=-1, out_dims=0)(v0)',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = torch.nn.functional.conv_transpose1d(v1, v3)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
