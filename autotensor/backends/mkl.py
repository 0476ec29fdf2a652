"""``torch.backends.mkl``: not part of autotensor (it computes on NumPy)."""


def is_available():
    return False
