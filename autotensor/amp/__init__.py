"""``torch.amp``: automatic mixed precision. ``autocast`` runs the ops PyTorch lists in a lower
precision (bfloat16 by default on the CPU) and the ones it lists as needing float32 in float32,
casting their floating inputs on entry (ToCopyBackward0 nodes; a leaf parameter's cast is
cached for the region, as PyTorch's weight cache); ``GradScaler`` scales losses and unscales
gradients, skipping steps whose gradients are not finite."""
from .autocast_mode import autocast, is_autocast_available
from .grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler", "is_autocast_available"]
