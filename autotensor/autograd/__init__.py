"""``autotensor.autograd``: reverse mode (backward, grad), grad modes, the graph's nodes."""
from . import graph
from .engine import backward, grad
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled,
                        is_inference_mode_enabled, no_grad, set_grad_enabled,
                        set_multithreading_enabled)
from .function import Function, FunctionCtx, once_differentiable
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import Node
from .variable import Variable
from . import function

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_grad_enabled", "is_inference_mode_enabled", "Node", "graph", "gradcheck",
           "gradgradcheck", "GradcheckError", "Function", "FunctionCtx", "once_differentiable",
           "detect_anomaly", "set_detect_anomaly", "Variable", "set_multithreading_enabled",
           "function"]


def __getattr__(name):
    """``autograd.profiler`` (PyTorch's legacy profiler) is imported on first use."""
    if name == "profiler":
        import importlib
        return importlib.import_module(".profiler", __name__)
    raise AttributeError(f"module 'autotensor.autograd' has no attribute '{name}'")
