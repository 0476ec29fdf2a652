"""``torch._dynamo.exc``: the errors ``compile(fullgraph=True)`` raises."""


class TorchDynamoException(RuntimeError):
    pass


class Unsupported(TorchDynamoException):
    """What the tracer cannot capture (data-dependent control flow, hooks, in-place on
    traced inputs, random ops...): with ``fullgraph=True`` raised, else eager for that
    call."""
