"""Fuzz reproducer (autotensor vs PyTorch).

final state of v1:

Not equal to tolerance rtol=0.002, atol=0.001
final v1['grad']
Mismatched elements: 1 / 2 (50%)
Mismatch at index:
 [1]: 0.00044918060302734375 (ACTUAL), 0.002864837646484375 (DESIRED)
Max absolute difference among violations: 0.002415
Max relative difference among violations: 0.843
 ACTUAL: array([0.000785, 0.000449], dtype=float16)
 DESIRED: array([0.      , 0.002865], dtype=float16)

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array([1.763671875, 0.39990234375], dtype='float16').reshape((2,)), requires_grad=True)
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v1.dtype))
    v2 = v0.exp()
    v3 = torch.nn.functional.layer_norm(v1, v1.shape[-1:])
    v4 = v0.exp()
    v5 = v0.exp()
    v6 = v3.exp()
    v6.sum().backward(inputs=[v1])
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array([1.763671875, 0.39990234375], dtype='float16').reshape((2,)), requires_grad=True)",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624, -0.612], dtype='float64').reshape((2,)), dtype=v1.dtype))",
    'v2 = v0.exp()',
    'v3 = torch.nn.functional.layer_norm(v1, v1.shape[-1:])',
    'v4 = v0.exp()',
    'v5 = v0.exp()',
    'v6 = v3.exp()',
    'v6.sum().backward(inputs=[v1])',
]

if __name__ == "__main__":
    run_and_compare(LINES)
