"""``autotensor.signal``: PyTorch's ``torch.signal`` (window functions)."""
from . import windows

__all__ = ["windows"]
