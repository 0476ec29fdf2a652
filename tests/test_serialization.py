"""save/load in PyTorch's zip format (both directions, views and shared storages, the
weights_only allowlist), safetensors, NumPy and DLPack interchange."""
import collections
import io
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import autotensor as at

torch = pytest.importorskip("torch")


def _sample(lib):
    a = lib.arange(12, dtype=lib.float32).reshape(3, 4)
    sd = collections.OrderedDict()
    sd["w"] = a
    sd["row"] = a[1]                 # a view: shares a's storage
    sd["t"] = a.t()                  # non-contiguous view
    sd["col"] = a[:, 2]              # strided view with an offset
    sd["p"] = lib.nn.Parameter(lib.ones(2, dtype=lib.float64))
    sd["frozen"] = lib.nn.Parameter(lib.zeros(2), requires_grad=False)
    sd["i"] = lib.tensor([1, -2], dtype=lib.int64)
    sd["i32"] = lib.tensor([3], dtype=lib.int32)
    sd["u8"] = lib.tensor([255], dtype=lib.uint8)
    sd["h"] = lib.tensor([0.5, -2.0], dtype=lib.float16)
    sd["b"] = lib.tensor([True, False])
    sd["c"] = lib.tensor([1 + 2j], dtype=lib.complex64)
    sd["scalar"] = lib.tensor(3.5)
    sd["empty"] = lib.zeros(0, 3)
    sd["nested"] = {"list": [lib.ones(1), 2, "s"], "tuple": (1.5, None, True),
                    "size": lib.Size([2, 3]), "dtype": lib.float64}
    sd._metadata = {"": {"version": 1}}
    return sd


def _norm(x):
    if isinstance(x, (at.Tensor, torch.Tensor)):
        return (type(x).__name__, str(x.dtype).replace("torch.", ""), tuple(x.shape),
                tuple(x.stride()) if x.numel() else None, x.storage_offset(), x.requires_grad,
                x.detach().numpy().tolist())
    if isinstance(x, dict):
        return (type(x).__name__, {k: _norm(v) for k, v in x.items()})
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_norm(v) for v in x])
    if isinstance(x, (at.dtype, torch.dtype)):
        return ("dtype", str(x))
    return x


def _check_sharing(sd):
    sd["w"][1, 2] = 100.0
    assert sd["row"][2].item() == 100.0 and sd["t"][2, 1].item() == 100.0
    assert sd["col"][1].item() == 100.0


@pytest.mark.parametrize("to_file", [False, True])
def test_torch_file_loads_here(tmp_path, to_file):
    f = tmp_path / "model.pt" if to_file else io.BytesIO()
    torch.save(_sample(torch), f)
    if not to_file:
        f.seek(0)
    ours = at.load(f)
    assert _norm(ours) == _norm(_sample(torch))
    assert type(ours) is collections.OrderedDict and ours._metadata == {"": {"version": 1}}
    assert type(ours["p"]) is at.nn.Parameter and ours["p"].requires_grad
    assert type(ours["frozen"]) is at.nn.Parameter and not ours["frozen"].requires_grad
    assert isinstance(ours["nested"]["size"], at.Size)
    assert ours["nested"]["dtype"] is at.float64
    _check_sharing(ours)


@pytest.mark.parametrize("to_file", [False, True])
def test_our_file_loads_in_torch_with_weights_only(tmp_path, to_file):
    f = tmp_path / "ours.pth" if to_file else io.BytesIO()
    at.save(_sample(at), f)
    if not to_file:
        f.seek(0)
    theirs = torch.load(f, weights_only=True)
    assert _norm(theirs) == _norm(_sample(torch))
    assert theirs._metadata == {"": {"version": 1}}
    assert type(theirs["p"]) is torch.nn.Parameter
    _check_sharing(theirs)


def test_round_trip_keeps_views_and_layout():
    buf = io.BytesIO()
    at.save(_sample(at), buf)
    buf.seek(0)
    back = at.load(buf)
    assert _norm(back) == _norm(_sample(at))
    _check_sharing(back)


def test_archive_layout_matches_torch(tmp_path):
    import zipfile
    at.save({"x": at.ones(2)}, tmp_path / "ckpt.pt")
    torch.save({"x": torch.ones(2)}, tmp_path / "ref.pt")
    ours = [n.split("/", 1)[1] for n in zipfile.ZipFile(tmp_path / "ckpt.pt").namelist()]
    ref = [n.split("/", 1)[1] for n in zipfile.ZipFile(tmp_path / "ref.pt").namelist()]
    assert ours == ref
    assert zipfile.ZipFile(tmp_path / "ckpt.pt").namelist()[0] == "ckpt/data.pkl"


def test_loads_without_torch(tmp_path):
    path = tmp_path / "m.pt"
    torch.save({"w": torch.arange(4.0), "n": 3}, path)
    code = ("import sys; sys.modules['torch'] = None\n"
            "import autotensor as at\n"
            f"sd = at.load({str(path)!r})\n"
            "assert sd['w'].tolist() == [0.0, 1.0, 2.0, 3.0] and sd['n'] == 3\n"
            f"at.save(sd, {str(path) + '.2'!r})\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.dirname(__file__)))
    assert out.stdout.strip() == "ok", out.stderr
    assert torch.load(str(path) + ".2")["w"].tolist() == [0.0, 1.0, 2.0, 3.0]


class _Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


class _Custom:
    def __init__(self, v):
        self.v = v


def test_malicious_pickle_is_refused(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.pt"
    torch.save({"w": torch.ones(1), "x": _Evil(marker)}, path)
    for lib in (at, torch):
        with pytest.raises(pickle.UnpicklingError) as e:
            lib.load(path)
        assert "Weights only load failed" in str(e.value)
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global: GLOBAL "
                                                     "(posix|os).system"):
        at.load(path, weights_only=True)
    assert not marker.exists()


def test_weights_only_false_and_safe_globals(tmp_path):
    path = tmp_path / "custom.pt"
    at.save({"c": _Custom(5), "t": at.ones(1)}, path)
    with pytest.raises(pickle.UnpicklingError, match="_Custom was not an allowed global"):
        at.load(path)
    assert at.load(path, weights_only=False)["c"].v == 5
    at.serialization.add_safe_globals([_Custom])
    try:
        assert at.load(path)["c"].v == 5
    finally:
        at.serialization._user_safe_globals.clear()


def test_map_location(tmp_path):
    path = tmp_path / "m.pt"
    at.save({"x": at.ones(2)}, path)
    for ml in ("cpu", at.device("cpu"), {"cpu": "cpu"}, lambda s, loc: s):
        assert at.load(path, map_location=ml)["x"].tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError):
        at.load(path, map_location="cuda")


def test_optimizer_state_dict_through_a_file():
    p = at.ones(3, requires_grad=True)
    opt = at.optim.Adam([p], lr=0.1)
    p.grad = at.ones(3)
    opt.step()
    buf = io.BytesIO()
    at.save(opt.state_dict(), buf)
    buf.seek(0)
    sd_t = torch.load(buf)
    pt = torch.ones(3, requires_grad=True)
    opt_t = torch.optim.Adam([pt], lr=0.5)
    opt_t.load_state_dict(sd_t)
    assert opt_t.param_groups[0]["lr"] == 0.1 and opt_t.state[pt]["step"].item() == 1.0
    buf.seek(0)
    sd = at.load(buf)
    assert sd["param_groups"][0]["betas"] == (0.9, 0.999)


def test_safetensors_round_trip_and_cross(tmp_path):
    st_torch = pytest.importorskip("safetensors.torch")
    sd = {"w": at.arange(6.0).reshape(2, 3), "b": at.tensor([1, 2], dtype=at.int32)}
    path = tmp_path / "m.safetensors"
    at.safetensors.save_file(sd, path, metadata={"format": "pt"})
    back = at.safetensors.load_file(path)
    assert {k: v.tolist() for k, v in back.items()} == {k: v.tolist() for k, v in sd.items()}
    assert back["b"].dtype is at.int32
    theirs = st_torch.load_file(path)
    assert theirs["w"].tolist() == sd["w"].tolist()
    st_torch.save_file({"x": torch.ones(2, dtype=torch.float64)}, tmp_path / "t.safetensors")
    x = at.safetensors.load_file(tmp_path / "t.safetensors")["x"]
    assert x.dtype is at.float64 and x.tolist() == [1.0, 1.0]
    x += 1  # writable
    blob = at.safetensors.save(sd)
    assert at.safetensors.load(blob)["w"].tolist() == sd["w"].tolist()


def test_numpy_shares_memory():
    a = np.zeros(3, np.float32)
    t = at.from_numpy(a)
    a[0] = 5
    assert t[0].item() == 5
    t.add_(1)
    assert a.tolist() == [6.0, 1.0, 1.0]
    n = t.numpy()
    n[2] = 9
    assert t[2].item() == 9


def test_dlpack_zero_copy_both_ways():
    a = at.arange(4.0)
    t = torch.from_dlpack(a)
    t[0] = 7
    assert a[0].item() == 7
    tt = torch.zeros(3)
    b = at.from_dlpack(tt)
    b[1] = 5
    assert tt[1].item() == 5
    n = np.from_dlpack(a)
    n[3] = -1
    assert a[3].item() == -1
    assert a.__dlpack_device__() == (1, 0)
    with pytest.raises(BufferError, match="Can't export tensors that require gradient"):
        at.ones(2, requires_grad=True).__dlpack__()
