"""Fuzz reproducer (autotensor vs PyTorch).

final state of v3:

Not equal to tolerance rtol=2e-06, atol=1.05556e-05
final v3['tangent']['value']
Mismatched elements: 1 / 3 (33.3%)
Mismatch at index:
 [2]: -0.8991354703903198 (ACTUAL), -0.8248587250709534 (DESIRED)
Max absolute difference among violations: 0.07427675
Max relative difference among violations: 0.09004784
 ACTUAL: array([ 2.358276, 10.555556, -0.899135])
 DESIRED: array([ 2.358276, 10.555556, -0.824859])

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array([[0.8820000290870667, 1.753999948501587, 0.09399999678134918, 1.7790000438690186], [1.090999960899353, 0.035999998450279236, -0.7919999957084656, -0.3919999897480011], [-0.34700000286102295, -0.3720000088214874, -0.3540000021457672, -0.1080000028014183]], dtype='float32').reshape((3, 4)))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[2.08, -0.712, 0.892, -1.211], [0.591, 0.38, 0.517, 1.564], [0.312, 0.58, 0.292, 0.085]], dtype='float64').reshape((3, 4)), dtype=v0.dtype))
    v1 = v0.exp()
    v2 = v0.log()
    v3 = v2.nanmedian(-1, keepdim=False)[0]
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array([[0.8820000290870667, 1.753999948501587, 0.09399999678134918, 1.7790000438690186], [1.090999960899353, 0.035999998450279236, -0.7919999957084656, -0.3919999897480011], [-0.34700000286102295, -0.3720000088214874, -0.3540000021457672, -0.1080000028014183]], dtype='float32').reshape((3, 4)))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[2.08, -0.712, 0.892, -1.211], [0.591, 0.38, 0.517, 1.564], [0.312, 0.58, 0.292, 0.085]], dtype='float64').reshape((3, 4)), dtype=v0.dtype))",
    'v1 = v0.exp()',
    'v2 = v0.log()',
    'v3 = v2.nanmedian(-1, keepdim=False)[0]',
]

if __name__ == "__main__":
    run_and_compare(LINES)
