"""``torch.functional``: the functions PyTorch defines in that module, re-exported from the
main namespace (those autotensor has)."""
import autotensor as _at

_NAMES = ("atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_shapes",
          "broadcast_tensors", "cartesian_prod", "cdist", "chain_matmul", "einsum", "lu",
          "meshgrid", "norm", "pca_lowrank", "split", "stft", "istft", "svd_lowrank",
          "tensordot", "unique", "unique_consecutive", "unravel_index")

__all__ = [n for n in _NAMES if hasattr(_at, n)]
globals().update({n: getattr(_at, n) for n in __all__})
