"""Fuzz reproducer (autotensor vs PyTorch).

final state of v5:

Arrays are not equal
final v5['value']
Mismatched elements: 1 / 1 (100%)
Max absolute difference among violations: 1
Max relative difference among violations: 1.
 ACTUAL: array(2)
 DESIRED: array(1)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([[1.789, 0.437], [0.096, -1.863], [-0.277, -0.355]], dtype='float64').reshape((3, 2)))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[0.051, 0.5], [-0.996, 0.694], [-0.418, -1.585]], dtype='float64').reshape((3, 2)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = v0.exp()
    v4 = torch.nn.functional.cosine_similarity(v1, v1)
    v5 = v4.median(0, keepdim=False)[1]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([[1.789, 0.437], [0.096, -1.863], [-0.277, -0.355]], dtype='float64').reshape((3, 2)))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([[0.051, 0.5], [-0.996, 0.694], [-0.418, -1.585]], dtype='float64').reshape((3, 2)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = v0.exp()',
    'v4 = torch.nn.functional.cosine_similarity(v1, v1)',
    'v5 = v4.median(0, keepdim=False)[1]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
