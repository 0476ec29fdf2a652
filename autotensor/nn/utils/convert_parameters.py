"""parameters_to_vector / vector_to_parameters."""
from ... import _ops as fn
from ..._tensor import Tensor


def parameters_to_vector(parameters):
    return fn.cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for param in parameters:
        num = param.numel()
        param.data = vec[pointer:pointer + num].view_as(param).data
        pointer += num
