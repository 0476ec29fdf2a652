"""``autotensor.utils``: data loading (``utils.data``)."""
from . import checkpoint  # noqa: E402,F401  (torch.utils.checkpoint works after import)
