"""``nn.Module`` and the layers the seeds and a small network need."""
import math
from collections import OrderedDict

from .. import _creation
from .. import _ops as fn
from .._tensor import Tensor
from . import functional as F
from .parameter import Parameter


class Module:
    """Base class of layers: registers parameters and submodules set as attributes."""

    training = True

    def __init__(self):
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            params[name] = value
            self.__dict__.pop(name, None)
            return
        if isinstance(value, Module):
            mods = self.__dict__.get("_modules")
            if mods is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            mods[name] = value
            self.__dict__.pop(name, None)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter "
                                f"'{name}' (torch.nn.Parameter or None expected)")
            params[name] = None
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for key in ("_parameters", "_buffers", "_modules"):
            store = d.get(key)
            if store is not None and name in store:
                return store[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def register_parameter(self, name, param):
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        self._buffers[name] = tensor

    def add_module(self, name, module):
        self._modules[name] = module

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  f'"forward" function')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def named_modules(self, prefix=""):
        stack = [(prefix, self)]
        seen = set()
        while stack:
            name, m = stack.pop(0)
            if id(m) in seen:
                continue
            seen.add(id(m))
            yield name, m
            for child_name, child in m._modules.items():
                if child is not None:
                    stack.append((f"{name}.{child_name}" if name else child_name, child))

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def children(self):
        for m in self._modules.values():
            if m is not None:
                yield m

    def named_parameters(self, prefix="", recurse=True):
        seen = set()
        mods = self.named_modules(prefix) if recurse else [(prefix, self)]
        for mod_name, m in mods:
            for name, p in m._parameters.items():
                if p is None or id(p) in seen:
                    continue
                seen.add(id(p))
                yield (f"{mod_name}.{name}" if mod_name else name), p

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self):
        for mod_name, m in self.named_modules():
            for name, b in m._buffers.items():
                yield (f"{mod_name}.{name}" if mod_name else name), b

    def buffers(self):
        for _, b in self.named_buffers():
            yield b

    def train(self, mode=True):
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.detach_()
                    p.grad.zero_()

    def state_dict(self):
        out = OrderedDict()
        for name, p in self.named_parameters():
            out[name] = p.detach()
        for name, b in self.named_buffers():
            out[name] = b
        return out

    def load_state_dict(self, state_dict, strict=True):
        from ..autograd import no_grad
        own = dict(self.named_parameters())
        own.update(dict(self.named_buffers()))
        with no_grad():
            for name, value in state_dict.items():
                if name in own:
                    own[name].copy_(value)
                elif strict:
                    raise RuntimeError(f"Unexpected key(s) in state_dict: \"{name}\".")
        return None

    def apply(self, fn_):
        for m in self.children():
            m.apply(fn_)
        fn_(self)
        return self

    def extra_repr(self):
        return ""

    def __repr__(self):
        lines = []
        for name, m in self._modules.items():
            mod = repr(m).replace("\n", "\n  ")
            lines.append(f"({name}): {mod}")
        main = type(self).__name__ + "(" + self.extra_repr()
        if lines:
            main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


class Linear(Module):
    """y = x W^T + b, initialised like PyTorch (Kaiming-uniform bounds)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        bound = 1 / math.sqrt(in_features) if in_features > 0 else 0
        w = _creation.empty(out_features, in_features, dtype=dtype)
        w.uniform_(-bound, bound)
        self.weight = Parameter(w)
        if bias:
            b = _creation.empty(out_features, dtype=dtype)
            b.uniform_(-bound, bound)
            self.bias = Parameter(b)
        else:
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        self.reduction = reduction


class MSELoss(_Loss):
    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    def forward(self, input, target):
        return F.cross_entropy(input, target, reduction=self.reduction)


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()

    def forward(self, input):
        return fn.relu(input)


class Tanh(Module):
    def forward(self, input):
        return fn.tanh(input)


class Sigmoid(Module):
    def forward(self, input):
        return fn.sigmoid(input)


class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, m in modules[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(modules):
                self.add_module(str(i), m)

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input

    def __getitem__(self, i):
        return list(self._modules.values())[i]

    def __len__(self):
        return len(self._modules)


_ = Tensor
