"""``autotensor.utils``: data loading (``utils.data``)."""
