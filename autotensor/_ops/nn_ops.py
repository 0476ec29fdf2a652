"""Kernels of ``nn.functional`` that are single ops in PyTorch (losses, ...): their table
entries and formulas. The public functions live in ``nn/functional.py``.
"""
from .._backend import np
from .dispatch import defop
from .reduction import _numel


def mse_backward(F, grad, self, target, reduction):
    diff = (self - target) * 2
    if reduction == "mean":
        diff = diff / _numel(self.shape)
    return diff * grad


# Losses.
MSE_LOSS = defop("mse_loss", "MseLossBackward0", None, inputs=("self", "target"),
                 params=("reduction",),
                 grads={"self": mse_backward,
                        "target": lambda F, grad, self, target, reduction:
                        -mse_backward(F, grad, self, target, reduction)})


def nll_loss_backward(F, grad, target, weight, reduction, ignore_index, total_weight,
                      self_sizes):
    """Gradient of nll_loss: -weight[target] * grad at each target class, zero elsewhere."""
    coef = -_class_weights(target, weight, ignore_index, self_sizes)
    if reduction == "mean":
        coef = coef / total_weight if total_weight else coef * 0
    src = F.unsqueeze(grad * F.constant(coef, grad), 1)
    index = np.expand_dims(np.where(target == ignore_index, 0, target), 1)
    return F.scatter(F.zeros(self_sizes, grad), 1, index, src)


def _class_weights(target, weight, ignore_index, sizes):
    """Each sample's weight (0 where its target is ignore_index), a constant array."""
    w = np.ones(sizes[1]) if weight is None else weight
    safe = np.where(target == ignore_index, 0, target)
    return np.where(target == ignore_index, 0.0, w[safe])


NLL_LOSS = defop("nll_loss", "NllLossBackward0", None, params=(
    "target", "weight", "reduction", "ignore_index", "total_weight"),
    grads={"self": nll_loss_backward})
