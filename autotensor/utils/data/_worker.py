"""Worker processes of the DataLoader (PyTorch's ``torch/utils/data/_utils/worker.py``):
each worker seeds ``random``, our default generator and (if imported) NumPy's global RNG
from ``base_seed`` and its id exactly as PyTorch's workers do."""
import random
import sys
import traceback

__all__ = ["WorkerInfo", "get_worker_info"]

_worker_info = None


class WorkerInfo:
    """What ``get_worker_info()`` returns inside a worker: id, num_workers, seed, dataset."""

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs.keys())

    def __repr__(self):
        items = [f"{k}={getattr(self, k)}" for k in self.__keys]
        return f"{self.__class__.__name__}({', '.join(items)})"


def get_worker_info():
    """Information about the current worker process, or None in the main process."""
    return _worker_info


class _IterableDatasetStopIteration:
    def __init__(self, worker_id):
        self.worker_id = worker_id


class ExceptionWrapper:
    """An exception raised in a worker, carried to the main process with its traceback."""

    def __init__(self, exc_info, where):
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = repr(msg)  # KeyError prints its argument with repr
        try:
            exception = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        raise exception


def _generate_state(base_seed, worker_id):
    """NumPy's SeedSequence-style state for the worker (PyTorch's hash of base_seed and id)."""
    INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875
    INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED
    MIX_MULT_L, MIX_MULT_R = 0xCA01F9DD, 0x4973F715
    XSHIFT = 4 * 8 // 2
    MASK32 = 0xFFFFFFFF
    entropy = [worker_id, base_seed & MASK32, base_seed >> 32, 0]
    pool = [0] * 4
    hash_const_A = INIT_A

    def hash(value):
        nonlocal hash_const_A
        value = (value ^ hash_const_A) & MASK32
        hash_const_A = (hash_const_A * MULT_A) & MASK32
        value = (value * hash_const_A) & MASK32
        return (value ^ (value >> XSHIFT)) & MASK32

    def mix(x, y):
        result = ((MIX_MULT_L * x) & MASK32) - ((MIX_MULT_R * y) & MASK32) & MASK32
        return (result ^ (result >> XSHIFT)) & MASK32

    for i in range(len(pool)):
        pool[i] = hash(entropy[i])
    for i_src in range(len(pool)):
        for i_dst in range(len(pool)):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hash(pool[i_src]))
    hash_const_B = INIT_B
    state = []
    for i_dst in range(4):
        data_val = pool[i_dst]
        data_val = (data_val ^ hash_const_B) & MASK32
        hash_const_B = (hash_const_B * MULT_B) & MASK32
        data_val = (data_val * hash_const_B) & MASK32
        data_val = (data_val ^ (data_val >> XSHIFT)) & MASK32
        state.append(data_val)
    return state


def _worker_loop(dataset_kind, dataset, index_queue, data_queue, auto_collation, collate_fn,
                 drop_last, base_seed, init_fn, worker_id, num_workers):
    global _worker_info
    from ... import _random
    from .dataloader import _create_fetcher
    try:
        seed = base_seed + worker_id
        random.seed(seed)
        _random.manual_seed(seed)
        if "numpy" in sys.modules:
            import numpy
            numpy.random.seed(_generate_state(base_seed, worker_id))
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed,
                                  dataset=dataset)
        init_exception = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = _create_fetcher(dataset_kind, dataset, auto_collation, collate_fn,
                                      drop_last)
        except Exception:
            init_exception = ExceptionWrapper(sys.exc_info(),
                                              f"in DataLoader worker process {worker_id}")
        iteration_end = False
        while True:
            r = index_queue.get()
            if r is None:
                break
            idx, index = r
            if init_exception is not None:
                data, init_exception = init_exception, None
            elif iteration_end:
                data = _IterableDatasetStopIteration(worker_id)
            else:
                try:
                    data = fetcher.fetch(index)
                except StopIteration:
                    if dataset_kind == "iterable":
                        data = _IterableDatasetStopIteration(worker_id)
                        iteration_end = True
                    else:
                        data = ExceptionWrapper(sys.exc_info(),
                                                f"in DataLoader worker process {worker_id}")
                except Exception:
                    data = ExceptionWrapper(sys.exc_info(),
                                            f"in DataLoader worker process {worker_id}")
            data_queue.put((idx, data))
    except KeyboardInterrupt:
        pass
