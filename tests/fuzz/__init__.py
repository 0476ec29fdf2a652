"""Differential fuzzing of autotensor against PyTorch (``python -m tests.fuzz --help``)."""
from .core import Mismatch, check_program, run_and_compare, straight_line
from .strategies import programs

__all__ = ["Mismatch", "check_program", "programs", "run_and_compare", "straight_line"]
