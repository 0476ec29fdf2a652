"""The array-module seam: the only module that imports NumPy.

Everything numeric in autotensor goes through ``np`` from here, so a CuPy (or other
array-API) backend can later be swapped in at one place.
"""
import numpy as np

__all__ = ["np"]
