"""Stop 25, lead: differential sweeps for the fuzzer's small classes fixed by the lead."""
import itertools

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_INT_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64"]
_SHAPES = [((2,), ()), ((), (2,)), ((), ()), ((2,), (2,))]


def _bitwise_case(mod, op, da, db, sa, sb):
    a = mod.ones(sa, dtype=getattr(mod, da))
    b = mod.ones(sb, dtype=getattr(mod, db))
    r = getattr(a, op)(b)
    return str(r.dtype).split(".")[-1], r.tolist()


@pytest.mark.parametrize("op", ["bitwise_and", "bitwise_or", "bitwise_xor", "__and__",
                                "__or__", "__xor__", "__rand__"])
def test_bitwise_tensor_promotion_follows_dimension_categories(op):
    """end_repro_012 (stop 24): a 0-d int64 operand does not promote an int32 tensor,
    as in every other binary op (bitwise ops used NumPy's promotion)."""
    for da, db in itertools.product(_INT_DTYPES, _INT_DTYPES):
        for sa, sb in _SHAPES:
            assert (_bitwise_case(autotensor, op, da, db, sa, sb)
                    == _bitwise_case(torch, op, da, db, sa, sb)), (da, db, sa, sb)


@pytest.mark.parametrize("value", [True, 3, -2, 2**40 + 1, 255])
@pytest.mark.parametrize("dtype", _INT_DTYPES)
def test_bitwise_python_scalar_operands(dtype, value):
    def case(mod):
        a = mod.tensor(np.array([7, 1]).astype(dtype))
        r = a.bitwise_and(value), a | value, a ^ value
        return [(str(t.dtype).split(".")[-1], t.tolist()) for t in r]
    assert case(autotensor) == case(torch)
