"""In-place random methods and sampling functions vs PyTorch: the same values and the same
generator state afterwards (default generator and explicit generators)."""
import pytest

import autotensor as at

torch = pytest.importorskip("torch")

CALLS = [
    lambda L, g: L.empty((), dtype=L.int64).random_(generator=g),
    lambda L, g: L.empty(7, dtype=L.int64).random_(generator=g),
    lambda L, g: L.empty(5, dtype=L.float32).random_(10, generator=g),
    lambda L, g: L.empty(5, dtype=L.int32).random_(-3, 10, generator=g),
    lambda L, g: L.empty(4, dtype=L.float64).random_(generator=g),
    lambda L, g: L.empty(20).bernoulli_(0.3, generator=g),
    lambda L, g: L.empty(20, dtype=L.float64).bernoulli_(L.full((20,), 0.6,
                                                                 dtype=L.float64),
                                                         generator=g),
    lambda L, g: L.zeros(3, 4).bernoulli_(L.full((3, 4), 0.5), generator=g),
    lambda L, g: L.empty(6).exponential_(2.0, generator=g),
    lambda L, g: L.empty(6, dtype=L.float64).exponential_(generator=g),
    lambda L, g: L.empty(17).normal_(1.0, 2.0, generator=g),
    lambda L, g: L.empty(5, dtype=L.float64).normal_(generator=g),
    lambda L, g: L.empty(9).uniform_(-2.0, 3.0, generator=g),
    lambda L, g: L.randint(0, 7, (11,), generator=g),
    lambda L, g: L.randint(3, (2, 3), generator=g),
    lambda L, g: L.multinomial(L.tensor([0.1, 0.2, 0.7]), 5, replacement=True, generator=g),
    lambda L, g: L.multinomial(L.tensor([0.1, 0.2, 0.3, 0.4]), 3, generator=g),
    lambda L, g: L.bernoulli(L.full((6,), 0.4), generator=g),
    lambda L, g: L.randperm(10, generator=g),
    lambda L, g: L.empty(7).cauchy_(1.0, 0.5, generator=g),
    lambda L, g: L.empty(7, dtype=L.float64).log_normal_(generator=g),
    lambda L, g: L.empty(7, dtype=L.int16).geometric_(0.2, generator=g),
    lambda L, g: L.empty(5, dtype=L.bfloat16).normal_(generator=g),
    lambda L, g: L.rand(33, dtype=L.bfloat16, generator=g),
    lambda L, g: L.randn(2, 17, dtype=L.bfloat16, generator=g),
    lambda L, g: L.randint(0, 200, (9,), dtype=L.bfloat16, generator=g),
]


@pytest.mark.parametrize("use_generator", [False, True])
@pytest.mark.parametrize("i", range(len(CALLS)))
def test_values_and_generator_state(i, use_generator):
    out = []
    for lib in (at, torch):
        lib.manual_seed(1234)
        g = None
        if use_generator:
            g = lib.Generator()
            g.manual_seed(99)
        v = CALLS[i](lib, g)
        state = (g.get_state() if g is not None else lib.get_rng_state()).numpy().tobytes()
        out.append((v.tolist(), str(v.dtype), state))
    assert out[0] == out[1]


def test_random_methods_record_in_place_version():
    x = at.zeros(3)
    x.random_(5)
    x.bernoulli_(0.5)
    x.exponential_()
    x.cauchy_()
    x.log_normal_()
    x.geometric_(0.5)
    assert x._version == 6


@pytest.mark.parametrize("name,args", [("cauchy_", ()), ("log_normal_", ()),
                                       ("geometric_", (0.5,))])
def test_new_samplers_graph_and_leaf_errors(name, args):
    """PyTorch's nodes (zero gradients) on a non-leaf, its error on a leaf requiring grad."""
    for lib in (at, torch):
        x = lib.ones(3, requires_grad=True)
        y = getattr(x * 1, name)(*args)
        node = {"cauchy_": "CauchyBackward0", "log_normal_": "LogNormalBackward0",
                "geometric_": "GeometricBackward0"}[name]
        assert type(y.grad_fn).__name__ == node
        y.sum().backward()
        assert x.grad.tolist() == [0.0, 0.0, 0.0]
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            getattr(x, name)(*args)
