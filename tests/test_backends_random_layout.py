"""torch.backends (the flags scripts set), torch.cpu, torch.random (fork_rng), torch.layout
(torch.strided and the sparse names), torch.get_device and the torch.sym_* helpers: run as
one program on both modules."""
import importlib
import pickle

import pytest

import autotensor

CASES = [
    "repr(torch.strided)", "str(torch.sparse_coo)", "torch.strided == torch.strided",
    "repr(pickle.loads(pickle.dumps(torch.strided)))", "torch.layout()",
    "torch.ones(2).layout", "torch.ones(2).layout is torch.strided",
    "type(torch.strided).__name__", "[str(x) for x in (torch.sparse_csr, torch.jagged)]",
    "torch.get_device(torch.ones(1))",
    "torch.sym_int(3.7)", "torch.sym_float(2)", "torch.sym_max(2, 3)", "torch.sym_min(2, 3.5)",
    "torch.sym_max(2.0, 1)", "torch.sym_min(True, 3)", "torch.sym_max(True, False)",
    "torch.sym_not(True)", "torch.sym_ite(True, 1, 2)", "torch.sym_sqrt(4)",
    "torch.sym_sum([1, 2.0])", "torch.sym_float(True)", "torch.sym_int(True)",
    "cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.is_available(), cudnn.version()",
    "torch.backends.cuda.is_built(), torch.backends.cuda.matmul.allow_tf32",
    "torch.backends.mps.is_available(), torch.backends.mps.is_built()",
    "torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled()",
    "torch.backends.opt_einsum.is_available(), torch.backends.opt_einsum.strategy",
    "torch.cpu.is_available(), torch.cpu.device_count(), torch.cpu.current_device()",
    "torch.cpu.synchronize(), torch.cpu.is_initialized()",
    "sorted(torch.random.__all__)", "torch.random.initial_seed() == torch.initial_seed()",
]


def _run(torch):
    cudnn = importlib.import_module(torch.__name__ + ".backends.cudnn")
    ns = {"torch": torch, "pickle": pickle, "cudnn": cudnn}
    out = []
    for code in CASES:
        try:
            r = eval(code, ns)
        except Exception as e:  # noqa: BLE001 - the error is the result compared
            r = f"{type(e).__name__}: {e}"
        out.append(str(r).replace("autotensor", "torch"))
    torch.manual_seed(5)
    with torch.random.fork_rng():
        a = torch.rand(3)
    out.append(bool((a == torch.rand(3)).all()))  # (the state restored: the same draws)
    with torch.random.fork_rng(enabled=False):
        a = torch.rand(3)
    out.append(bool((a == torch.rand(3)).all()))
    with cudnn.flags(enabled=False, deterministic=True):
        out.append((cudnn.enabled, cudnn.deterministic))
    out.append((cudnn.enabled, cudnn.deterministic))
    cudnn.deterministic = True  # (what scripts write)
    out.append(cudnn.deterministic)
    cudnn.deterministic = False
    return out


def test_backends_random_layout_as_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = _run(autotensor), _run(torch)
    for code, a, b in zip(CASES + ["fork_rng", "fork_rng(enabled=False)", "flags", "after",
                                   "set"], ours, theirs):
        assert a == b, code
