"""Stop 35 (helper addmm35): addmm / addmv / baddbmm / addbmm / addr (in place and out= too)
given Python numbers as beta and alpha, on autotensor and PyTorch: the exception (type,
message) and which check fires first, or the result's dtype and bits
(tests/scalar_arg_sweep.py is the sweep; OPEN_FINDINGS.md, Stop 35 (addmm35), its counts)."""
import math

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

from tests.scalar_arg_sweep import OPS, run  # noqa: E402  (imports torch)

_EXPR = {name: expr for name, expr, _ in OPS}

# (op, dtype, beta, alpha): one case of each class that differed
_CASES = [
    ("addmm", "int8", 1e10, 0),  # (Scalar::to<int8_t>: overflow)
    ("addmm", "int32", 1e10, 0),  # ("int")
    ("addmm", "uint8", -2.5, 0),
    ("addmm", "uint8", 0.5, 0),  # (truncated to 0: self ignored)
    ("addmm", "int16", 0.5, -1),
    ("addmm", "int16", 0, 2.5),  # (alpha truncated to 2)
    ("addmm", "uint8", 0, -1),  # (-1 wraps to 255)
    ("addmm", "uint8", 300, -1),
    ("addmm", "int8", 0, 300),
    ("addmm", "int16", 0, math.inf),
    ("addmm", "int8", 0, 1j),
    ("addmm", "int32", 2 ** 31, 0),
    ("addmm", "int8", 2 ** 63, 0),
    ("addmm", "uint8", 2 ** 64, 0),  # (the parser's OverflowError)
    ("addmm", "uint8", -2 ** 63 - 1, 0),
    ("addmm", "bool", 2 ** 64, 0),  # (before "addmm_impl_cpu_" not implemented)
    ("addmm", "int16", 2 ** 64, 2.5),
    ("addmm", "float16", 1e300, 0),  # (read as float)
    ("addmm", "float16", 0, 1j),
    ("addmm", "float16", 2 ** 64, 0),
    ("addmm", "float64", 1 + 2j, 0),
    ("addmm", "float64", 0, 1j),
    ("addmm", "complex64", 1e300, 0),
    ("addmm", "float32", 1e300, 1),
    ("addmm", "float32", 0j, 1j),
    ("addmv", "float16", 0, 1j),  # (read as c10::Half)
    ("addmv", "bfloat16", 0, 1j),
    ("addmv", "float16", 1e10, 1),
    ("addmv", "float32", 1 + 2j, -1),
    ("addmv", "float64", -1, 1j),
    ("addmv", "bool", 2 ** 64, 0),
    ("addmv", "int8", 300, 1),
    ("addmv", "uint8", 1, 2.5),
    ("addmv", "uint8", 0, -1),
    ("baddbmm", "int32", 1e10, 0),
    ("baddbmm", "bool", -2 ** 63 - 1, 0),
    ("baddbmm", "uint8", 0.5, 2.5),
    ("baddbmm", "int64", math.nan, 1),
    ("addbmm", "int16", 0, 2.5),
    ("addbmm", "uint8", -1, 1),
    ("addbmm", "float16", 1e300, 1),
    ("addr", "bool", 0.0, 0),  # (check_addr_scalar: no float number for integral results)
    ("addr", "bool", 0, 2.5),
    ("addr", "int8", 1j, 1),
    ("addr", "uint8", True, 0),  # ("Boolean beta only supported for Boolean results.")
    ("addr", "uint8", 0, True),
    ("addr", "uint8", 300, 2.5),  # (the checks before the read)
    ("addr", "uint8", 0.0, 300),
    ("addr", "bool", 2 ** 63, 0),
    ("addr", "int16", 1e10, 1),
    ("addr", "float16", 1e10, 1),  # (read as c10::Half)
    ("addr", "float32", 1e300, 1),
    ("addr", "complex64", 1e300, 1),
    # float16/bfloat16 (Note [Half gemm and gemv]): alpha == 0 reads the product, no +0.0
    ("addmm", "float16", 0, 0),
    ("addmm", "bfloat16", -0.0, 0),
    ("addmm", "float16", 0, -1),
    ("addmv", "float16", 0, 0),
    ("addmv", "bfloat16", -1, 0),
    ("addbmm", "float16", 0, 0),
    ("baddbmm", "bfloat16", 3, 2.5),  # (self * beta in float, rounded once)
    ("baddbmm", "bfloat16", -300, 1),
    ("addmm_", "int8", 1e10, None),
    ("addmm_", "uint8", 0.5, None),
    ("addmm_", "int16", 2 ** 64, None),
]


@pytest.mark.parametrize("op,dtype,s,s2", _CASES)
def test_beta_alpha(op, dtype, s, s2):
    expr = _EXPR[op]
    assert run(autotensor, expr, dtype, s, s2) == run(torch, expr, dtype, s, s2)


def _outcome(fn, m):
    try:
        r = fn(m)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e).replace("autotensor", "torch").split("\n")[0]
    r = r.detach()
    return str(r.dtype).rsplit(".", 1)[-1], r.tolist()


def _mats(m, dtype):
    dt = getattr(m, dtype)
    a = m.arange(6).reshape(2, 3).to(dt)
    return a, a.t().contiguous(), m.ones(2, 2).to(dt)


# further forms: in place, out=, and the order of the shape, dtype and scalar checks
_FORMS = {
    "addmm.out": lambda m: m.addmm(*_mats(m, "int16")[2:], *_mats(m, "int16")[:2], beta=0.5,
                                   alpha=3, out=m.empty(2, 2, dtype=m.int16)),
    "addmm.out_overflow": lambda m: m.addmm(_mats(m, "int8")[2], *_mats(m, "int8")[:2],
                                            alpha=1e10, out=m.empty(2, 2, dtype=m.int8)),
    "addmm.parser_first": lambda m: m.addmm(m.ones(2, 2, dtype=m.int8),
                                            m.ones(2, 3, dtype=m.int8),
                                            m.ones(2, 2, dtype=m.int8), beta=2 ** 64),
    "addmv_.int": lambda m: m.ones(2, dtype=m.int32).addmv_(
        m.ones(2, 3, dtype=m.int32), m.arange(3, dtype=m.int32), beta=1, alpha=-2.5),
    "addmv_.overflow": lambda m: m.ones(2, dtype=m.int8).addmv_(
        m.ones(2, 3, dtype=m.int8), m.arange(3, dtype=m.int8), beta=128),
    "addr_.bool": lambda m: m.zeros(2, 2, dtype=m.bool).addr_(
        m.ones(2, dtype=m.bool), m.ones(2, dtype=m.bool), alpha=1.0),
    "addr.promoted": lambda m: m.addr(m.ones(2, 2, dtype=m.int8), m.ones(2, dtype=m.uint8),
                                      m.ones(2, dtype=m.int16), beta=2.5),
    "baddbmm_.int": lambda m: m.ones(1, 2, 2, dtype=m.int64).baddbmm_(
        m.ones(1, 2, 3, dtype=m.int64), m.ones(1, 3, 2, dtype=m.int64), beta=-0.5, alpha=7.9),
    "addbmm_.uint8": lambda m: m.ones(2, 2, dtype=m.uint8).addbmm_(
        m.ones(2, 2, 3, dtype=m.uint8), m.ones(2, 3, 2, dtype=m.uint8), beta=-1, alpha=-2),
}


@pytest.mark.parametrize("form", sorted(_FORMS))
def test_forms(form):
    fn = _FORMS[form]
    assert _outcome(fn, autotensor) == _outcome(fn, torch)


def _half_products(m, op, dtype, transposed, seed):
    """40 products of small exact values (zeros of both signs) over alpha in {0, -1, 2.5},
    beta in {0, 1, -1, 0.5}: the bits, signs of zeros included."""
    rng = np.random.default_rng(seed)
    vals = np.array([0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -3.0])
    out = []
    for i in range(40):
        r, k, c = rng.integers(1, 5, 3)
        A, B, C = rng.choice(vals, (r, k)), rng.choice(vals, (k, c)), rng.choice(vals, (r, c))
        alpha, beta = [0, -1, 2.5][i % 3], [0, 1, -1, 0.5][i // 3 % 4]
        t = lambda a: m.tensor(a).to(getattr(m, dtype))  # noqa: E731
        mat = t(A.T.copy()).t() if transposed else t(A)
        if op == "addmm":
            res = m.addmm(t(C), mat, t(B), beta=beta, alpha=alpha)
        else:
            res = m.addmv(t(C[:, 0]), mat, t(B[:, 0]), beta=beta, alpha=alpha)
        a = res.float().numpy()
        out.append((a.tolist(), np.signbit(a).tolist()))
    return out


# float16/bfloat16 (Note [Half gemm and gemv]): gemm_notrans_'s dots, gemm_transb_'s
# accumulator (a column-major mat1), gemv's 't' and 'n' branches
@pytest.mark.parametrize("op,dtype,transposed", [
    ("addmm", "float16", False), ("addmm", "bfloat16", False), ("addmm", "float16", True),
    ("addmm", "bfloat16", True), ("addmv", "float16", False), ("addmv", "bfloat16", True)])
def test_half_products(op, dtype, transposed):
    for seed in range(3):
        assert _half_products(autotensor, op, dtype, transposed, seed) == \
            _half_products(torch, op, dtype, transposed, seed)
