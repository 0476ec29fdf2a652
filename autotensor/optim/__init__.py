"""``autotensor.optim``: optimizers (update parameters in place under no_grad)."""
from .sgd import SGD
from .optimizer import Optimizer

__all__ = ["SGD", "Optimizer"]
