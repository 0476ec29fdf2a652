"""``autotensor.autograd``: reverse mode (backward, grad), grad modes, the graph's nodes."""
from . import graph
from .engine import backward, grad
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled,
                        is_inference_mode_enabled, no_grad, set_grad_enabled)
from .function import Function, FunctionCtx, once_differentiable
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import Node

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_grad_enabled", "is_inference_mode_enabled", "Node", "graph", "gradcheck",
           "gradgradcheck", "GradcheckError", "Function", "FunctionCtx", "once_differentiable"]
