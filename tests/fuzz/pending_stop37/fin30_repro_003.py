"""Fuzz reproducer (autotensor vs PyTorch).

line 6: v4 = torch.nn.functional.cross_entropy(v3, v1)
line 6['raised']: autotensor raised NotImplementedError: '"nll_loss2d_out_frame" not implemented for \\'Long\\''
                  torch raised NotImplementedError: '"nll_loss2d_forward_out_frame" not implemented for \\'Long\\''
  autotensor: {'raised': Raised(type_name='NotImplementedError', message='"nll_loss2d_out_frame" not implemented for \\'Long\\'')}
  torch:      {'raised': Raised(type_name='NotImplementedError', message='"nll_loss2d_forward_out_frame" not implemented for \\'Long\\'')}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[], []], dtype='int64').reshape((2, 0)))
    v2 = v0.floor_divide(v0)
    v3 = torch.stack([v1, v1 * 2], 0)
    v4 = torch.nn.functional.cross_entropy(v3, v1)
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[], []], dtype='int64').reshape((2, 0)))",
    'v2 = v0.floor_divide(v0)',
    'v3 = torch.stack([v1, v1 * 2], 0)',
    'v4 = torch.nn.functional.cross_entropy(v3, v1)',
]

if __name__ == "__main__":
    run_and_compare(LINES)
