"""Fuzz reproducer (autotensor vs PyTorch).

line 3: v1 = torch.nn.functional.soft_margin_loss(v0, v0)
line 3: keys ['ok'] != ['raised']
  autotensor: {'ok': TensorSummary(dtype='float64', shape=(), values=array(0.0435626), requires_grad=False, grad_fn=None)}
  torch:      {'raised': Raised(type_name='NotImplementedError', message='Trying to use forward AD with soft_margin_loss_backward that does not support it because it has not been implemented yet.\\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize its implementation or submit a PR adding the implementation to derivatives.yaml')

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.764, dtype='float64').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.nn.functional.soft_margin_loss(v0, v0)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.764, dtype='float64').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    'v1 = torch.nn.functional.soft_margin_loss(v0, v0)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
