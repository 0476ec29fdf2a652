"""The DataLoader (PyTorch's ``torch/utils/data/dataloader.py``).

Note [DataLoader randomness]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~
PyTorch draws, for every iterator (every ``iter(loader)``, shuffled or not), one int64
"base seed" from ``loader.generator`` (the default generator when None) — the seed of the
worker processes. Then, on the first batch, a ``RandomSampler`` without a generator draws one
more int64 from the default generator and seeds a fresh generator with it for its
``randperm``. Drawing in the same order, with the same algorithms (``_random.py``
reproduces PyTorch's mt19937 streams), gives the same batches and leaves the default
generator in the same state, so what comes after (dropout masks, initialisations) matches
too. Workers seed ``random``, our generator and NumPy's global RNG from
``base_seed + worker_id`` as PyTorch's do.
"""
import multiprocessing
import os
import queue
import warnings

from . import _collate, _worker
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info"]

get_worker_info = _worker.get_worker_info


class _InfiniteConstantSampler(Sampler):
    def __iter__(self):
        while True:
            yield None


class _MapDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset, self.auto_collation = dataset, auto_collation
        self.collate_fn, self.drop_last = collate_fn, drop_last

    def fetch(self, possibly_batched_index):
        if self.auto_collation:
            if getattr(self.dataset, "__getitems__", None):
                data = self.dataset.__getitems__(possibly_batched_index)
            else:
                data = [self.dataset[idx] for idx in possibly_batched_index]
        else:
            data = self.dataset[possibly_batched_index]
        return self.collate_fn(data)


class _IterableDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset, self.auto_collation = dataset, auto_collation
        self.collate_fn, self.drop_last = collate_fn, drop_last
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, possibly_batched_index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in possibly_batched_index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(possibly_batched_index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


def _create_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
    cls = _MapDatasetFetcher if kind == "map" else _IterableDatasetFetcher
    return cls(dataset, auto_collation, collate_fn, drop_last)


class DataLoader:
    """Batches of a dataset: sampler -> batch sampler -> fetch -> collate (in worker
    processes when ``num_workers > 0``). ``pin_memory`` is accepted and does nothing (there is
    no accelerator), after PyTorch's warning."""

    __initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in "
                             "multiprocessing.let num_workers > 0 to enable multiprocessing, "
                             "otherwise set prefetch_factor to None.")
        elif num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        if isinstance(dataset, IterableDataset):
            self._dataset_kind = "iterable"
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                                 f"option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = "map"
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None:
            if drop_last:
                raise ValueError("batch_size=None option disables auto-batching and is mutually "
                                 "exclusive with drop_last")
        if sampler is None:
            if self._dataset_kind == "iterable":
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = (_collate.default_collate if self._auto_collation
                          else _collate.default_convert)
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ("batch_size", "batch_sampler", "sampler",
                                           "drop_last", "dataset", "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after "
                             f"{self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        if self.persistent_workers:
            if self._iterator is None:
                self._iterator = _MultiProcessingDataLoaderIter(self)
            else:
                self._iterator._reset(self)
            return self._iterator
        return _MultiProcessingDataLoaderIter(self)

    def __len__(self):
        if self._dataset_kind == "iterable":
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                if self.drop_last:
                    length = length // self.batch_size
                else:
                    length = -(-length // self.batch_size)
            return length
        return len(self._index_sampler)


class _BaseDataLoaderIter:
    def __init__(self, loader):
        from ... import _random
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        if loader.pin_memory:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=3)
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        # Note [DataLoader randomness]: one int64 draw per iterator, shuffled or not
        self._base_seed = int(_random.random_((), "int64", generator=loader.generator))
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        if self._dataset_kind == "iterable" and self._IterableDataset_len_called is not None \
                and self._num_yielded > self._IterableDataset_len_called:
            warn_msg = (f"Length of IterableDataset {self._dataset} was reported to be "
                        f"{self._IterableDataset_len_called}(when accessing len(dataloader)), "
                        f"but {self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                warn_msg += ("For multiprocessing data-loading, this could be caused by not "
                             "properly configuring the IterableDataset replica at each worker. "
                             "Please see https://pytorch.org/docs/stable/data.html#torch.utils."
                             "data.IterableDataset for examples.")
            warnings.warn(warn_msg, stacklevel=2)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        self._dataset_fetcher = _create_fetcher(self._dataset_kind, self._dataset,
                                                self._auto_collation, self._collate_fn,
                                                self._drop_last)

    def _next_data(self):
        index = self._next_index()
        return self._dataset_fetcher.fetch(index)


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Worker processes fetch batches; results come back in order (``in_order=True``) or as
    they arrive. Indices are sent round-robin, ``prefetch_factor`` per worker in flight."""

    def __init__(self, loader):
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        ctx = loader.multiprocessing_context
        if ctx is None:
            ctx = multiprocessing
        elif isinstance(ctx, str):
            ctx = multiprocessing.get_context(ctx)
        self._worker_init_fn = loader.worker_init_fn
        self._worker_result_queue = ctx.Queue()
        self._index_queues, self._workers = [], []
        for i in range(self._num_workers):
            index_queue = ctx.Queue()
            w = ctx.Process(target=_worker._worker_loop, args=(
                self._dataset_kind, self._dataset, index_queue, self._worker_result_queue,
                self._auto_collation, self._collate_fn, self._drop_last, self._base_seed,
                self._worker_init_fn, i, self._num_workers))
            w.daemon = True
            w.start()
            self._index_queues.append(index_queue)
            self._workers.append(w)
        self._shutdown = False
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._send_idx = 0
        self._rcvd_idx = 0
        self._task_info = {}
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        self._worker_queue_idx = 0
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_put_index(self):
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_queue_idx = self._worker_queue_idx
            self._worker_queue_idx = (self._worker_queue_idx + 1) % self._num_workers
            if self._workers_status[worker_queue_idx]:
                break
        else:
            return
        self._index_queues[worker_queue_idx].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_queue_idx,)
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _get_data(self):
        timeout = self._timeout if self._timeout > 0 else None
        while True:
            try:
                return self._worker_result_queue.get(timeout=timeout or 5.0)
            except queue.Empty:
                if timeout is not None:
                    raise RuntimeError(f"DataLoader timed out after {self._timeout} "
                                       "seconds") from None
                dead = [w.pid for w in self._workers if not w.is_alive()]
                if dead:
                    self._shutdown_workers()
                    raise RuntimeError(f"DataLoader worker (pid(s) "
                                       f"{', '.join(map(str, dead))}) exited unexpectedly"
                                       ) from None

    def _next_data(self):
        while True:
            while self._rcvd_idx < self._send_idx:
                info = self._task_info.get(self._rcvd_idx)
                if info is None:
                    self._rcvd_idx += 1
                    continue
                worker_id = info[0]
                if len(info) == 2 or self._workers_status[worker_id]:
                    break
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            if len(self._task_info[self._rcvd_idx]) == 2:
                data = self._task_info.pop(self._rcvd_idx)[1]
                self._rcvd_idx += 1
                return self._process_data(data)
            idx, data = self._get_data()
            self._tasks_outstanding -= 1
            if isinstance(data, _worker._IterableDatasetStopIteration):
                self._workers_status[data.worker_id] = False
                self._try_put_index()
                continue
            if idx != self._rcvd_idx and self._in_order:
                self._task_info[idx] += (data,)
            else:
                del self._task_info[idx]
                if idx == self._rcvd_idx:
                    self._rcvd_idx += 1
                return self._process_data(data)

    def _process_data(self, data):
        self._try_put_index()
        if isinstance(data, _worker.ExceptionWrapper):
            self._shutdown_workers()
            data.reraise()
        return data

    def _shutdown_workers(self):
        if self._shutdown:
            return
        self._shutdown = True
        for q in self._index_queues:
            try:
                q.put(None)
            except (OSError, ValueError):
                pass
        for w in self._workers:
            w.join(timeout=5.0)
            if w.is_alive():
                w.terminate()
        for q in self._index_queues:
            q.cancel_join_thread()
            q.close()
        self._worker_result_queue.cancel_join_thread()
        self._worker_result_queue.close()

    def __del__(self):
        try:
            self._shutdown_workers()
        except Exception:
            pass


_ = os
