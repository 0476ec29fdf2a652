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


@pytest.mark.parametrize("beta,alpha", [(1, 1), (-4.775, 2.0315), (0.5, 1), (1, -0.3),
                                        (0, 2.5), (3, 0)])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_reduced_float_addmm_rounds_once(dtype, beta, alpha):
    """bfloat16/float16 addmm: beta * self + alpha * (mat1 @ mat2) in float32, rounded once
    (beta * self was rounded to bfloat16 first; Muon's Newton-Schulz steps are these)."""
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype("float32") for s in [(5, 6), (5, 7), (7, 6)]]

    def case(mod):
        c, a, b = (mod.tensor(x).to(getattr(mod, dtype)) for x in arrays)
        out = [mod.addmm(c, a, b, beta=beta, alpha=alpha),
               mod.addmm(c[0], a, b, beta=beta, alpha=alpha)]
        c2 = c.clone()
        out.append(c2.addmm_(a, b, beta=beta, alpha=alpha))
        return [t.float().numpy() for t in out]
    for x, y in zip(case(autotensor), case(torch)):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("name", ["uniform", "normal", "constant", "xavier_uniform",
                                  "xavier_normal", "kaiming_uniform", "kaiming_normal",
                                  "orthogonal", "sparse", "eye", "dirac"])
def test_deprecated_init_aliases_warn_and_initialize_as_torch(name):
    import warnings
    args = {"constant": (0.3,), "sparse": (0.5,)}.get(name, ())
    shape = (2, 2, 3) if name == "dirac" else (4, 3)

    def run(mod):
        mod.manual_seed(0)
        w = mod.zeros(shape)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            getattr(mod.nn.init, name)(w, *args)
        return [str(c.message) for c in caught], w.numpy()
    (wa, va), (wt, vt) = run(autotensor), run(torch)
    assert wa == wt
    np.testing.assert_allclose(va, vt, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("n,replicas", [(10, 3), (7, 2), (4, 4), (2, 5)])
@pytest.mark.parametrize("shuffle,drop_last", [(True, False), (False, False), (True, True),
                                               (False, True)])
def test_distributed_sampler_splits_as_torch(n, replicas, shuffle, drop_last):
    def run(mod):
        data = list(range(n))
        out = []
        for rank in range(replicas):
            s = mod.utils.data.DistributedSampler(data, num_replicas=replicas, rank=rank,
                                                  shuffle=shuffle, seed=3, drop_last=drop_last)
            for epoch in range(2):
                s.set_epoch(epoch)
                out.append((len(s), list(s)))
        return out
    assert run(autotensor) == run(torch)


def test_distributed_sampler_errors():
    with pytest.raises(ValueError, match=r"Invalid rank 3, rank should be in the interval "
                                         r"\[0, 2\]"):
        autotensor.utils.data.DistributedSampler(range(4), num_replicas=3, rank=3)
    with pytest.raises(RuntimeError, match="Requires distributed package to be available"):
        autotensor.utils.data.DistributedSampler(range(4))
