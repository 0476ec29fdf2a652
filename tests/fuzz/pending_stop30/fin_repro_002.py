"""Fuzz reproducer (autotensor vs PyTorch).

line 8: v4 = v3.amax()
line 8['ok']: signed zero differs at []: autotensor np.float32(-0.0), torch np.float32(0.0)
  autotensor: {'ok': TensorSummary(dtype='float32', shape=(), values=array(-0., dtype=float32), requires_grad=False, grad_fn=None)}
  torch:      {'ok': TensorSummary(dtype='float32', shape=(), values=array(0., dtype=float32), requires_grad=False, grad_fn=None)}

Straight-line program (``import autotensor as torch`` vs ``import torch``)::

    torch.autograd.forward_ad.enter_dual_level()
    v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))
    v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))
    v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))
    v2 = torch.tensor(np.array([[[-0.1420000046491623, -0.20200000703334808, 0.8349999785423279, -0.718999981880188], [-1.0709999799728394, 0.44699999690055847, 1.128000020980835, -0.2919999957084656], [2.947000026702881, -1.5800000429153442, -0.9240000247955322, -0.7720000147819519], [0.3869999945163727, 0.9190000295639038, -0.7900000214576721, -0.07500000298023224]], [[0.5669999718666077, 1.0460000038146973, -0.9800000190734863, -0.5350000262260437], [-0.017999999225139618, 0.0020000000949949026, -1.9609999656677246, 0.26899999380111694], [0.08399999886751175, 0.8069999814033508, 0.15600000321865082, -0.11800000071525574], [-0.06400000303983688, 0.006000000052154064, 2.75, 0.024000000208616257]]], dtype='float32').reshape((2, 4, 4)))
    v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([[[-0.067, 1.422, 0.385, 1.157], [0.173, -0.355, 1.717, -1.411], [-0.703, -0.183, -0.014, -1.558], [-1.031, 1.189, 0.508, 1.013]], [[-0.924, -0.37, 1.001, 1.888], [-1.68, 1.468, -0.981, -0.918], [1.132, -1.339, 1.033, -0.196], [-0.881, 1.051, 2.177, -1.041]]], dtype='float64').reshape((2, 4, 4)), dtype=v2.dtype))
    v3 = 0 * v2
    v4 = v3.amax()
"""
import sys

sys.path.insert(0, __import__('os').environ.get('AT_ROOT', '/work/main'))

from tests.fuzz.core import run_and_compare  # noqa: E402

LINES = [
    'torch.autograd.forward_ad.enter_dual_level()',
    "v0 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v0.dtype))",
    "v1 = torch.tensor(np.array(1.7640000581741333, dtype='float32').reshape(()))",
    "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, dtype='float64').reshape(()), dtype=v1.dtype))",
    "v2 = torch.tensor(np.array([[[-0.1420000046491623, -0.20200000703334808, 0.8349999785423279, -0.718999981880188], [-1.0709999799728394, 0.44699999690055847, 1.128000020980835, -0.2919999957084656], [2.947000026702881, -1.5800000429153442, -0.9240000247955322, -0.7720000147819519], [0.3869999945163727, 0.9190000295639038, -0.7900000214576721, -0.07500000298023224]], [[0.5669999718666077, 1.0460000038146973, -0.9800000190734863, -0.5350000262260437], [-0.017999999225139618, 0.0020000000949949026, -1.9609999656677246, 0.26899999380111694], [0.08399999886751175, 0.8069999814033508, 0.15600000321865082, -0.11800000071525574], [-0.06400000303983688, 0.006000000052154064, 2.75, 0.024000000208616257]]], dtype='float32').reshape((2, 4, 4)))",
    "v2 = torch.autograd.forward_ad.make_dual(v2, torch.tensor(np.array([[[-0.067, 1.422, 0.385, 1.157], [0.173, -0.355, 1.717, -1.411], [-0.703, -0.183, -0.014, -1.558], [-1.031, 1.189, 0.508, 1.013]], [[-0.924, -0.37, 1.001, 1.888], [-1.68, 1.468, -0.981, -0.918], [1.132, -1.339, 1.033, -0.196], [-0.881, 1.051, 2.177, -1.041]]], dtype='float64').reshape((2, 4, 4)), dtype=v2.dtype))",
    'v3 = 0 * v2',
    'v4 = v3.amax()',
]

if __name__ == "__main__":
    run_and_compare(LINES)
