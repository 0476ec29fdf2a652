"""``autotensor.optim``: optimizers (update parameters in place under no_grad) and
learning-rate schedulers. Each follows PyTorch's CPU algorithm op by op
(Note [Optimizer updates] in optimizer.py)."""
from .optimizer import Optimizer
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from . import lr_scheduler
from . import swa_utils  # noqa: E402

__all__ = ["Adadelta", "Adagrad", "Adam", "Adamax", "AdamW", "ASGD", "LBFGS", "NAdam",
           "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "lr_scheduler", "swa_utils"]
