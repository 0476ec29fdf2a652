"""``torch._dynamo``'s few public names that code around ``torch.compile`` uses: its
exceptions (``exc``), ``reset()`` and the recompile limit (``config``)."""
from types import SimpleNamespace

from . import exc  # noqa: F401

# torch._dynamo.config.recompile_limit: compiled versions per function before eager
config = SimpleNamespace(recompile_limit=8, cache_size_limit=8)


def reset():
    """Forget every compiled version (torch._dynamo.reset())."""
    from .._compile import _reset
    _reset()
