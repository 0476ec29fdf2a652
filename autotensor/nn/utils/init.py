"""``nn.utils.skip_init``: a module built without running its initialisation."""
import inspect

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """PyTorch builds the module on the meta device and allocates it empty, so nothing is
    drawn; without a meta device we build it and put the generator back where it was (the
    values are unspecified, as PyTorch's uninitialised memory)."""
    from ... import _random
    from ..modules.module import Module
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    kwargs.pop("device", None)
    state = _random.get_rng_state()
    try:
        return module_cls(*args, **kwargs)
    finally:
        _random.set_rng_state(state)
