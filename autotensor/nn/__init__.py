"""``autotensor.nn``: modules, parameters and functional layers."""
from . import functional
from .modules import (CrossEntropyLoss, Linear, Module, MSELoss, ReLU, Sequential, Sigmoid,
                      Tanh)
from .parameter import Parameter

__all__ = ["functional", "Module", "Linear", "MSELoss", "CrossEntropyLoss", "ReLU", "Tanh",
           "Sigmoid", "Sequential", "Parameter"]
