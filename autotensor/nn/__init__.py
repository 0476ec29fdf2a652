"""``autotensor.nn``: modules, parameters, initialisers and functional layers."""
from . import functional, init, utils  # noqa: F401
from .modules import *  # noqa: F401,F403
from .modules import Module  # noqa: F401
from .modules.module import (register_module_forward_hook,  # noqa: F401
                             register_module_forward_pre_hook,
                             register_module_full_backward_hook,
                             register_module_full_backward_pre_hook)
from .parameter import Buffer, Parameter  # noqa: F401
from . import modules as _modules

__all__ = ["functional", "init", "Parameter", "Buffer"] + [
    n for n in dir(_modules) if not n.startswith("_") and isinstance(getattr(_modules, n), type)]
