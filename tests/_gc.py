"""The cycle collector's baseline for the no-reference-cycle checks.

# Note [One gc.collect() is not a clean baseline]
The checks (test_engine's test_no_reference_cycles, test_memory's _NoCycles, the custom
Function's in test_function_memory) collect, turn the collector off, run a program, and
require the next ``gc.collect()`` to find nothing: whatever it finds, the program made.
That holds only if the first collection left no garbage behind, and one pass need not:
an object that a freed cycle held through a reference the collector cannot see (PyTorch's
C++ autograd graph holds a custom Function's ctx that way, and the ctx its classes)
looks reachable during the pass and becomes garbage only when that pass frees the cycle.
A failed ``torch.autograd.gradcheck`` of a custom Function under ``pytest.raises`` leaves
such garbage (the traceback's frames hold the tensors): right after
test_complex.py::test_gradcheck_catches_a_missing_conjugate_with_torchs_message the next
collection finds 60 objects and the one after it 14 more (the Function's two classes),
which test_no_reference_cycles[autotensor] (and test_memory's test_no_cycles_mlp, and
test_function_memory's first test) counted as its own; later tests' automatic collections
hid it in the full suite's order.  So the baseline collects until a pass finds nothing;
the measured collection stays one pass, with the collector off, and counts everything.
"""
import gc


def collect_until_clean(max_passes: int = 10) -> int:
    """gc.collect() until a pass finds nothing (Note [One gc.collect() is not a clean
    baseline]); the number of passes that found garbage."""
    for passes in range(max_passes):
        if gc.collect() == 0:
            return passes
    raise AssertionError(f"gc.collect() still finds garbage after {max_passes} passes")
