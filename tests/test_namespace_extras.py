"""Names of the torch namespace PyTorch scripts use that were missing: constants (pi, e, inf,
nan, newaxis), the process-wide switches (float32 matmul precision, deterministic
algorithms, warn_always, set_default_tensor_type, set_flush_denormal), can_cast,
unravel_index, scalar_tensor, empty_strided, the in-place functions (torch.exp_...)."""
import warnings

import pytest

import autotensor

CASES = [  # (in order: the switches' cases read what earlier ones set)
    'torch.zeros(2, 3)[torch.newaxis].shape',
    'torch.unravel_index(torch.tensor([4, 7]), (2, 4))',
    'torch.unravel_index(torch.tensor(5), 6)',
    'torch.unravel_index(torch.tensor([[1, -1]]), (2, 3))',
    'torch.unravel_index(torch.tensor([6]), (2, 3))',
    'torch.unravel_index(torch.tensor([1.]), (2, 3))',
    'torch.unravel_index(torch.tensor([0]), (2, -3))',
    'torch.unravel_index(torch.tensor([], dtype=torch.int64), (2, 3))',
    'torch.scalar_tensor(3)',
    'torch.scalar_tensor(3, dtype=torch.int64)',
    'torch.scalar_tensor(True)',
    'torch.empty_strided((2, 3), (1, 2)).stride()',
    'torch.empty_strided((2, 3), (1, 2), dtype=torch.float64).dtype',
    'torch.exp_(torch.ones(1))',
    'torch.relu_(torch.tensor([-1.]))',
    'torch.sqrt_(torch.tensor([4.]))',
    'torch.fill(torch.ones(2), 3)',
    'torch.fill_(torch.ones(2), 3)',
    'torch.zero_(torch.ones(2))',
    'torch.ravel(torch.zeros(2, 3).t()).shape',
    'torch.is_nonzero(torch.tensor([1.]))',
    'torch.is_same_size(torch.zeros(2), torch.zeros(3))',
    'torch.is_signed(torch.zeros(2, dtype=torch.uint8))',
    '[torch.can_cast(a, b) for a in (torch.bool, torch.uint8, torch.int32, torch.float16,'
    ' torch.float64, torch.complex64) for b in (torch.bool, torch.int8, torch.int64,'
    ' torch.float32, torch.bfloat16, torch.complex128)]',
    'torch.get_float32_matmul_precision()',
    "torch.set_float32_matmul_precision('high')",
    'torch.get_float32_matmul_precision()',
    "torch.set_float32_matmul_precision('bad')",
    'torch.set_float32_matmul_precision(3)',
    'torch.use_deterministic_algorithms(True, warn_only=True)',
    'torch.are_deterministic_algorithms_enabled()',
    'torch.is_deterministic_algorithms_warn_only_enabled()',
    'torch.get_deterministic_debug_mode()',
    "torch.set_deterministic_debug_mode('error')",
    'torch.get_deterministic_debug_mode()',
    "torch.set_deterministic_debug_mode('x')",
    'torch.set_deterministic_debug_mode(5)',
    'torch.set_deterministic_debug_mode(1.5)',
    'torch.set_deterministic_debug_mode(0)',
    'torch.are_deterministic_algorithms_enabled()',
    'torch.use_deterministic_algorithms(1)',
    'torch.set_warn_always(1)',
    'torch.set_warn_always(True)',
    'torch.is_warn_always_enabled()',
    'torch.set_warn_always(False)',
    'torch.set_default_tensor_type(torch.DoubleTensor)',
    'torch.get_default_dtype()',
    'torch.tensor([1.]).dtype',
    "torch.set_default_tensor_type('torch.FloatTensor')",
    'torch.get_default_dtype()',
    'torch.set_default_tensor_type(torch.LongTensor)',
    'torch.set_default_tensor_type(torch.float64)',
]


def _run(torch):
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for code in CASES:
                try:
                    out.append((code, eval(code, None, {"torch": torch})))
                except Exception as e:  # (the error is part of the behaviour compared)
                    out.append((code, type(e).__name__, str(e).replace("autotensor", "torch")))
        finally:
            torch.set_default_dtype(torch.float32)
            torch.use_deterministic_algorithms(False)
            torch.set_float32_matmul_precision("highest")
            torch.set_warn_always(False)
    return [tuple(str(v) for v in line) for line in out]


def test_namespace_names_match_torch():
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_run(autotensor), _run(torch)):
        assert ours == theirs


def test_flags_without_torch():
    t = autotensor
    try:
        t.set_deterministic_debug_mode("warn")
        assert t.are_deterministic_algorithms_enabled()
        assert t.is_deterministic_algorithms_warn_only_enabled()
        assert t.get_deterministic_debug_mode() == 1
        with pytest.warns(UserWarning, match="deprecated"):
            t.set_default_tensor_type("torch.DoubleTensor")
        assert t.tensor([0.1]).dtype is t.float64 and t.tensor([0.1]).item() == 0.1
        assert t.set_flush_denormal(True) is False  # (NumPy has no flush-to-zero mode)
    finally:
        t.set_default_dtype(t.float32)
        t.use_deterministic_algorithms(False)
