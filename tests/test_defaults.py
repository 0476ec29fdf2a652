"""Defaults, devices, threads, legacy tensor types, torch.accelerator/cuda/functional vs
PyTorch."""
import pytest

import autotensor as at

torch = pytest.importorskip("torch")


def _outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001  (the exception is the observation)
        return (type(e).__name__, str(e).split("\n")[0])
    return ("ok", repr(r) if not isinstance(r, (at.Tensor, torch.Tensor)) else
            (str(r.dtype), tuple(r.shape), str(r.device)))


DEVICE_CALLS = [
    lambda L: L.zeros(2, device="cpu"),
    lambda L: L.zeros(2, device=L.device("cpu")),
    lambda L: L.zeros(2, device="cuda"),
    lambda L: L.ones(2, 3, device="cuda:1"),
    lambda L: L.tensor([1.0], device="cuda"),
    lambda L: L.rand(2, device="cuda"),
    lambda L: L.arange(3, device="cuda"),
    lambda L: L.full((2,), 1.0, device="cuda"),
    lambda L: L.empty(2, device="mps"),
    lambda L: L.zeros(2, device="xyz"),
    lambda L: L.zeros(2, device=0),
    lambda L: L.ones(2).to("cuda"),
    lambda L: L.ones(2).to("cpu", L.float64),
    lambda L: L.ones(2).cuda(),
    lambda L: L.device("xyz"),
    lambda L: L.device("cuda:1"),
    lambda L: L.zeros_like(L.ones(2), device="cuda"),
]


@pytest.mark.parametrize("i", range(len(DEVICE_CALLS)))
def test_device_arguments_like_torch(i):
    f = DEVICE_CALLS[i]
    ours, theirs = _outcome(lambda: f(at)), _outcome(lambda: f(torch))
    if ours[0] == "NotImplementedError":  # PyTorch's goes on to list its dispatch keys
        assert ours[0] == theirs[0] and theirs[1].startswith(ours[1])
    else:
        assert ours == theirs


def test_default_device():
    for lib in (at, torch):
        assert str(lib.get_default_device()) == "cpu"
        lib.set_default_device("cpu")
        assert lib.zeros(1).device == lib.device("cpu")
        lib.set_default_device("cuda")
        try:
            with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
                lib.zeros(2)
            assert lib.zeros_like(lib.tensor([1.0], device="cpu") if lib is at else
                                  torch.empty(1, device="cpu")).device.type == "cpu"
        finally:
            lib.set_default_device(None)
        assert lib.ones(1).device.type == "cpu"


def test_default_dtype_float64_changes_factories_and_promotion():
    def probe(L):
        return [str(x) for x in (
            L.tensor([1.0]).dtype, L.tensor(1.0).dtype, L.zeros(1).dtype, L.ones(1).dtype,
            L.empty(1).dtype, L.full((1,), 2.5).dtype, L.arange(3.0).dtype,
            L.linspace(0, 1, 3).dtype, L.rand(1).dtype, L.randn(1).dtype,
            (L.tensor([1]) * 1.5).dtype, (L.tensor([1]) / 2).dtype, L.tensor([1j]).dtype,
            L.Tensor([1]).dtype, L.FloatTensor([1]).dtype, L.empty(1).type(),
            L.get_default_dtype())]
    res = []
    for lib in (at, torch):
        lib.set_default_dtype(lib.float64)
        try:
            res.append(probe(lib))
        finally:
            lib.set_default_dtype(lib.float32)
    assert res[0] == res[1]
    assert res[0][0] == "torch.float64"


def test_threads():
    n = at.get_num_threads()
    assert isinstance(n, int) and n >= 1
    at.set_num_threads(1)
    try:
        assert at.get_num_threads() == 1
        tpc = pytest.importorskip("threadpoolctl")
        blas = [p["num_threads"] for p in tpc.threadpool_info() if p["user_api"] == "blas"]
        assert not blas or max(blas) == 1
    finally:
        at.set_num_threads(n)
    with pytest.raises(RuntimeError, match="Number of threads must be positive"):
        at.set_num_threads(0)
    assert at.get_num_interop_threads() >= 1


def test_legacy_tensor_types():
    def probe(L):
        x = L.FloatTensor([1, 2])
        return [
            x.tolist(), str(x.dtype), type(x).__name__, x.type(),
            isinstance(x, L.FloatTensor), isinstance(x, L.DoubleTensor),
            isinstance(L.zeros(2, dtype=L.int64), L.LongTensor),
            tuple(L.LongTensor(2, 3).shape), str(L.LongTensor(2, 3).dtype),
            L.LongTensor([1.7, -2.2]).tolist(), L.BoolTensor([1, 0]).tolist(),
            str(L.ByteTensor([1]).dtype), str(L.IntTensor([1]).dtype),
            str(L.HalfTensor([1]).dtype), str(L.ShortTensor([1]).dtype),
            str(L.CharTensor([1]).dtype), str(L.DoubleTensor(3).dtype),
            tuple(L.FloatTensor().shape), tuple(L.FloatTensor(L.Size([2])).shape),
            repr(L.FloatTensor), str(L.FloatTensor.dtype), L.FloatTensor.is_cuda,
            issubclass(L.FloatTensor, L.Tensor), type(L.FloatTensor).__name__,
            str(L.zeros(2).type(L.DoubleTensor).dtype),
            str(L.zeros(2).type("torch.LongTensor").dtype),
            _outcome(lambda: L.FloatTensor([1], dtype=L.float64)),
            _outcome(lambda: L.FloatTensor(L.zeros(2, dtype=L.float64))),
        ]
    assert probe(at) == probe(torch)


def test_accelerator_cuda_functional():
    for lib in (at, torch):
        assert lib.accelerator.is_available() is False
        assert lib.accelerator.current_accelerator() is None
        assert lib.accelerator.device_count() == 0
        assert lib.cuda.is_available() is False and lib.cuda.device_count() == 0
        lib.cuda.manual_seed_all(0)
    for name in at.functional.__all__:
        assert hasattr(torch.functional, name)
    x = at.arange(6.0)
    assert [t.tolist() for t in at.functional.split(x, 4)] == [[0, 1, 2, 3], [4, 5]]
