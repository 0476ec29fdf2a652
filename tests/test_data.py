"""utils.data vs PyTorch: batch order and generator state for the same seed (shuffled or
not, with or without a generator), random_split, samplers, default_collate, iterable
datasets, worker processes."""
import collections
import warnings

import numpy as np
import pytest

import autotensor as at

torch = pytest.importorskip("torch")


def _state(lib):
    return bytes(lib.get_rng_state().numpy())


def _norm(x):
    """Batches as plain nested Python data with dtype names, for comparison."""
    if isinstance(x, (at.Tensor, torch.Tensor)):
        return ("T", str(x.dtype).replace("torch.", ""), tuple(x.shape), x.tolist())
    if isinstance(x, dict):
        return {k: _norm(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_norm(v) for v in x])
    return x


def _both(f, seed=0):
    out = []
    for lib in (at, torch):
        lib.manual_seed(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = f(lib)
        out.append((_norm(res), _state(lib)))
    return out


def _dataset(lib, n=23):
    x = lib.arange(n * 2, dtype=lib.float32).reshape(n, 2)
    y = lib.arange(n)
    return lib.utils.data.TensorDataset(x, y)


@pytest.mark.parametrize("kwargs", [dict(batch_size=4, shuffle=True),
                                    dict(batch_size=5, shuffle=True, drop_last=True),
                                    dict(batch_size=4, shuffle=False),
                                    dict(batch_size=None, shuffle=True),
                                    dict(batch_size=3, shuffle=True, generator=True)])
def test_dataloader_order_and_generator_state(kwargs):
    def run(lib):
        kw = dict(kwargs)
        if kw.get("generator"):
            g = lib.Generator()
            g.manual_seed(123)
            kw["generator"] = g
        loader = lib.utils.data.DataLoader(_dataset(lib), **kw)
        epochs = [list(loader) for _ in range(2)]
        extra = lib.rand(3)  # what comes after sees the same generator state
        return epochs, extra, len(loader)
    a, t = _both(run)
    assert a == t


def test_dataloader_iterator_draws_before_sampler():
    """Two iterators made before either is read: both base seeds are drawn first."""
    def run(lib):
        loader = lib.utils.data.DataLoader(_dataset(lib), batch_size=6, shuffle=True)
        i1, i2 = iter(loader), iter(loader)
        return [next(i2), next(i1), lib.randint(0, 100, (3,))]
    a, t = _both(run, seed=7)
    assert a == t


@pytest.mark.parametrize("lengths", [[10, 13], [0.5, 0.3, 0.2], [0.34, 0.33, 0.33]])
@pytest.mark.parametrize("use_generator", [False, True])
def test_random_split(lengths, use_generator):
    def run(lib):
        g = lib.Generator().manual_seed(42) if use_generator else None
        kw = {"generator": g} if g is not None else {}
        parts = lib.utils.data.random_split(range(23), lengths, **kw)
        return [list(p.indices) for p in parts] + [[p[0] for p in parts if len(p)]]
    a, t = _both(run, seed=5)
    assert a == t


def test_random_split_errors():
    for lib in (at, torch):
        with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
            lib.utils.data.random_split(range(10), [3, 3])
        with pytest.raises(ValueError, match="Fraction at index 0 is not between 0 and 1"):
            lib.utils.data.random_split(range(10), [1.5, -0.5])


@pytest.mark.parametrize("make", [
    lambda D, ds: D.RandomSampler(ds),
    lambda D, ds: D.RandomSampler(ds, replacement=True, num_samples=70),
    lambda D, ds: D.RandomSampler(ds, num_samples=50),
    lambda D, ds: D.SubsetRandomSampler([3, 5, 7, 11, 13]),
    lambda D, ds: D.WeightedRandomSampler([0.1, 0.5, 2.0, 0.0, 1.0], 12),
    lambda D, ds: D.WeightedRandomSampler([0.1, 0.5, 2.0, 0.3, 1.0], 4, replacement=False),
    lambda D, ds: D.BatchSampler(D.RandomSampler(ds), 4, drop_last=True),
    lambda D, ds: D.BatchSampler(D.SequentialSampler(ds), 4, drop_last=False),
])
def test_samplers(make):
    def run(lib):
        s = make(lib.utils.data, range(23))
        return [list(s), list(s), len(s)]
    a, t = _both(run, seed=11)
    assert a == t


def test_default_collate_matches_torch():
    Point = collections.namedtuple("Point", "x y")

    def samples(lib):
        return [
            [lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])],
            [1.5, 2.5],
            [1, 2],
            [True, False],
            ["a", "b"],
            [(lib.tensor(1), 2.0), (lib.tensor(3), 4.0)],
            [{"a": np.ones(2, np.float32), "b": 1}, {"a": np.zeros(2, np.float32), "b": 2}],
            [np.float64(1.0), np.float64(2.0)],
            [np.int32(1), np.int32(2)],
            [Point(1, 2.0), Point(3, 4.0)],
            [[1, 2], [3, 4]],
        ]
    for ours, theirs in zip(samples(at), samples(torch)):
        assert _norm(at.utils.data.default_collate(ours)) == \
            _norm(torch.utils.data.default_collate(theirs))
    for lib in (at, torch):
        with pytest.raises(TypeError, match="default_collate: batch must contain tensors, numpy "
                                            "arrays, numbers, dicts or lists; found <class 'obj"):
            lib.utils.data.default_collate([object(), object()])
        with pytest.raises(RuntimeError, match="each element in list of batch should be of "
                                               "equal size"):
            lib.utils.data.default_collate([[1, 2], [3]])


def test_datasets():
    for lib in (at, torch):
        D = lib.utils.data
        c = D.ConcatDataset([range(3), range(10, 15)])
        assert len(c) == 8 and c[3] == 10 and c[-1] == 14
        s = D.Subset(range(10, 20), [9, 0, 5])
        assert [s[i] for i in range(3)] == [19, 10, 15] and len(s) == 3
        st = D.StackDataset(range(3), range(5, 8))
        assert st[1] == (1, 6)
        with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
            D.DataLoader(range(3), sampler=D.SequentialSampler(range(3)), shuffle=True)


class _Stream(at.utils.data.IterableDataset):
    def __init__(self, n, lib):
        self.n, self.lib = n, lib

    def __iter__(self):
        info = self.lib.utils.data.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


class _TorchStream(torch.utils.data.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


@pytest.mark.parametrize("workers", [0, 2])
def test_iterable_dataset(workers):
    res = []
    for lib, ds in ((at, _Stream(11, at)), (torch, _TorchStream(11))):
        lib.manual_seed(0)
        loader = lib.utils.data.DataLoader(ds, batch_size=3, num_workers=workers)
        res.append(_norm(list(loader)))
    assert res[0] == res[1]


class _Seeded(at.utils.data.Dataset):
    """Each sample: the worker's seed and a random draw from the worker's generator."""

    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = self.lib.utils.data.get_worker_info()
        return (i, -1 if info is None else info.id, self.lib.rand(2),
                float(np.random.rand()))


class _TorchSeeded(torch.utils.data.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = torch.utils.data.get_worker_info()
        return (i, -1 if info is None else info.id, torch.rand(2), float(np.random.rand()))


def _init_fn(worker_id):
    np.random.rand()  # consumes a draw: the same in both


def test_worker_processes_match_torch():
    res = []
    for lib, ds in ((at, _Seeded(at)), (torch, _TorchSeeded())):
        lib.manual_seed(3)
        loader = lib.utils.data.DataLoader(ds, batch_size=2, shuffle=True, num_workers=2,
                                           worker_init_fn=_init_fn)
        res.append((_norm(list(loader)), _state(lib)))
    assert res[0] == res[1]


class _Failing(at.utils.data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise ValueError("bad sample")
        return i


def test_worker_error_is_reraised():
    loader = at.utils.data.DataLoader(_Failing(), batch_size=1, num_workers=2)
    with pytest.raises(ValueError, match="Caught ValueError in DataLoader worker process 0"):
        list(loader)


def test_pin_memory_is_a_noop_with_torchs_warning():
    loader = at.utils.data.DataLoader(_dataset(at), batch_size=4, pin_memory=True)
    with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no "
                                         "accelerator is found"):
        batches = list(loader)
    assert len(batches) == 6
