"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v8 = torch.autograd.grad(v0.sum(), [v1, v6], retain_graph=False, create_graph=False, allow_unused=False)[0]
line 8['raised']: autotensor raised RuntimeError: 'One of the differentiated Tensors does not require grad'
                  torch raised RuntimeError: 'Output 0 of Split is a view and its base or another view of its base has been modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.'
  autotensor: {'raised': Raised(type_name='RuntimeError', message='One of the differentiated Tensors does not require grad')}
  torch:      {'raised': Raised(type_name='RuntimeError', message='Output 0 of Split is a view and its base or another view of its base has been modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)
    v1 = v0.split(1, 0)[0]
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = v0.exp()
    v5 = _Dirty.apply(v0)
    v6 = v0.eq(v0)
    v7 = v0.exp()
    v8 = torch.autograd.grad(v0.sum(), [v1, v6], retain_graph=False, create_graph=False, allow_unused=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    "v0 = torch.tensor(np.array([], dtype='float32').reshape((0,)), requires_grad=True)",
    'v1 = v0.split(1, 0)[0]',
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = v0.exp()',
    'v5 = _Dirty.apply(v0)',
    'v6 = v0.eq(v0)',
    'v7 = v0.exp()',
    'v8 = torch.autograd.grad(v0.sum(), [v1, v6], retain_graph=False, create_graph=False, allow_unused=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
