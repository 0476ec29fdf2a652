"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v6 = v0.igamma(v2)
line 8['raised']: autotensor raised NotImplementedError: 'Trying to use forward AD with igamma that does not support it because it has not been implemented yet.\\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize its implementation or submit a PR adding the implementation to derivatives.yaml'
                  torch raised RuntimeError: 'Output 0 of Split is a view and its base or another view of its base has been modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.'
  autotensor: {'raised': Raised(type_name='NotImplementedError', message='Trying to use forward AD with igamma that does not support it because it has not been implemented yet.\\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize its implementation or submit a PR adding the implementation to derivatives.yaml')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Output 0 of Split is a view and its base or another view of its base has been modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.split(1, 0)[0]
    v3 = v0.exp()
    v4 = v0.exp()
    with torch.no_grad():
        v5 = v0.exp_()
    v6 = v0.igamma(v2)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([], dtype='float64').reshape((0,)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.split(1, 0)[0]',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'with torch.no_grad():\n    v5 = v0.exp_()',
    'v6 = v0.igamma(v2)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
