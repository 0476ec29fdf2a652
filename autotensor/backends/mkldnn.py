"""``torch.backends.mkldnn``: not part of autotensor; ``enabled`` is kept."""
enabled = True


def is_available():
    return False
