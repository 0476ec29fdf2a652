"""``DistributedSampler``: each of ``num_replicas`` processes reads its own 1/num_replicas of
the dataset (PyTorch's ``torch/utils/data/distributed.py``: the same shuffle for a seed and
epoch, the same padding). autotensor has no ``torch.distributed``: pass ``num_replicas`` and
``rank`` yourself (from your launcher's environment), as PyTorch requires without it."""
import math

from .sampler import Sampler, _generator

__all__ = ["DistributedSampler"]


class DistributedSampler(Sampler):
    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
                 drop_last=False):
        if num_replicas is None or rank is None:
            raise RuntimeError("Requires distributed package to be available")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, "
                             f"{num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        if self.drop_last and len(self.dataset) % self.num_replicas != 0:
            # drop the tail so that every replica gets the same number of samples
            self.num_samples = math.ceil((len(self.dataset) - self.num_replicas) /
                                         self.num_replicas)
        else:
            self.num_samples = math.ceil(len(self.dataset) / self.num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        if self.shuffle:  # (deterministic for seed + epoch: the same order on every replica)
            from ..._creation import randperm
            indices = randperm(len(self.dataset),
                               generator=_generator(self.seed + self.epoch)).tolist()
        else:
            indices = list(range(len(self.dataset)))
        if not self.drop_last:  # pad with the first indices to a multiple of num_replicas
            padding_size = self.total_size - len(indices)
            if padding_size <= len(indices):
                indices += indices[:padding_size]
            else:
                indices += (indices * math.ceil(padding_size / len(indices)))[:padding_size]
        else:
            indices = indices[:self.total_size]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """Reshuffle differently next epoch (call before each epoch's DataLoader iterator)."""
        self.epoch = epoch
