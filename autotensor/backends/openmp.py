"""``torch.backends.openmp``: not part of autotensor (it computes on NumPy)."""


def is_available():
    return False
