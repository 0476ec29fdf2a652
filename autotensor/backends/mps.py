"""``torch.backends.mps``: not part of autotensor (it computes on NumPy)."""


def is_available():
    return False


def is_built():
    return False
