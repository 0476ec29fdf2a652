"""The profiler (issue 13): PyTorch's tutorial code unchanged, events named and counted as
PyTorch's, the table in PyTorch's format, nesting, schedules, traces, memory, and nothing
left on the op path once it stops."""
import glob
import json
import os

import pytest

import autotensor
from autotensor import _observe
from autotensor.profiler import (ProfilerAction, ProfilerActivity, profile, record_function,
                                 schedule, tensorboard_trace_handler)

# The profiler section of PyTorch's "The Fundamentals of Autograd" tutorial, verbatim.
TUTORIAL = """\
device = torch.device('cpu')
run_on_gpu = False
if torch.cuda.is_available():
    device = torch.device('cuda')
    run_on_gpu = True

x = torch.randn(2, 3, requires_grad=True)
y = torch.rand(2, 3, requires_grad=True)
z = torch.ones(2, 3, requires_grad=True)

with torch.autograd.profiler.profile(use_cuda=run_on_gpu) as prf:
    for _ in range(1000):
        z = (z / x) * y

print(prf.key_averages().table(sort_by='self_cpu_time_total'))
"""


def run_tutorial(module, capsys):
    ns = {"torch": module}
    exec(TUTORIAL, ns)
    return ns["prf"], capsys.readouterr().out


def test_tutorial_runs_unchanged(capsys):
    prf, out = run_tutorial(autotensor, capsys)
    lines = out.strip("\n").splitlines()
    assert lines[1].split() == ["Name", "Self", "CPU", "%", "Self", "CPU", "CPU", "total", "%",
                                "CPU", "total", "CPU", "time", "avg", "#", "of", "Calls"]
    rows = {ln.split()[0]: ln.split() for ln in lines[3:-2]}
    assert set(rows) == {"aten::div", "aten::mul"}
    assert rows["aten::div"][-1] == rows["aten::mul"][-1] == "1000"
    assert lines[-1].startswith("Self CPU time total: ")
    # sorted by self time, and the shares add up to 100%
    avgs = prf.key_averages()
    assert sum(e.count for e in avgs) == 2000
    shares = [float(r[1].rstrip("%")) for r in rows.values()]
    assert abs(sum(shares) - 100) < 0.02


def test_tutorial_table_layout_as_torch(capsys):
    torch = pytest.importorskip("torch")
    _, ours = run_tutorial(autotensor, capsys)
    _, theirs = run_tutorial(torch, capsys)
    ours, theirs = ours.strip("\n").splitlines(), theirs.strip("\n").splitlines()
    theirs = [ln for ln in theirs if not ln.startswith(("USDT", "STAGE:"))]
    assert ours[:3] == theirs[:3]       # separator, header, separator: same columns
    assert ours[-2] == theirs[-2]       # the closing separator
    assert ours[-1].split(":")[0] == theirs[-1].split(":")[0] == "Self CPU time total"
    assert sorted(ln.split()[0] for ln in ours[3:-2]) == \
        sorted(ln.split()[0] for ln in theirs[3:-2])
    assert [len(ln) for ln in ours[3:-2]] == [len(ln) for ln in theirs[3:-2]]


PROGRAM = """\
w = torch.randn(4, 3, requires_grad=True)
x = torch.randn(5, 4)
with prof_cls(**kw) as prof:
    h = (x @ w).relu()
    loss = (h * h).sum()
    loss.backward()
"""


def _names_and_counts(prof):
    return {e.key: e.count for e in prof.key_averages()}


def test_backward_nodes_named_and_counted_as_torch():
    torch = pytest.importorskip("torch")
    got = {}
    for mod in (autotensor, torch):
        ns = {"torch": mod, "prof_cls": mod.autograd.profiler.profile, "kw": {}}
        exec(PROGRAM, ns)
        got[mod.__name__] = {k: v for k, v in _names_and_counts(ns["prof"]).items()
                             if "Backward" in k and "evaluate_function" not in k
                             or k == "torch::autograd::AccumulateGrad"}
    assert got["autotensor"] == got["torch"] == {
        "SumBackward0": 1, "MulBackward0": 1, "ReluBackward0": 1, "MmBackward0": 1,
        "torch::autograd::AccumulateGrad": 1}


def test_forward_ops_named_as_torch():
    with profile() as prof:
        a = autotensor.randn(3, requires_grad=True)
        b = a * 2 + a.exp() - autotensor.sin(a)
        b = b / 3
        b = b[0] + b[1:].sum()
        b.neg_()
        c = autotensor.nn.functional.relu(a)
    names = [e.name for e in prof.events()]
    for n in ["aten::randn", "aten::mul", "aten::add", "aten::exp", "aten::sin", "aten::sub",
              "aten::div", "aten::select", "aten::slice", "aten::sum", "aten::neg_",
              "aten::relu"]:
        assert n in names, n
    assert c is not None


def test_ranges_nest_and_chrome_trace(tmp_path):
    with profile(record_shapes=True) as prof:
        with record_function("outer"):
            x = autotensor.ones(4, 4, requires_grad=True)
            with record_function("inner"):
                y = (x * x).sum()
        y.backward()
    evts = prof.events()
    outer = next(e for e in evts if e.name == "outer")
    inner = next(e for e in evts if e.name == "inner")
    mul = next(e for e in evts if e.name == "aten::mul")
    assert inner.cpu_parent is outer and mul.cpu_parent is inner
    assert outer.time_range.start <= inner.time_range.start <= mul.time_range.start
    assert mul.time_range.end <= inner.time_range.end <= outer.time_range.end
    assert outer.self_cpu_time_total <= outer.cpu_time_total
    assert mul.input_shapes == [[4, 4], [4, 4]]
    node = next(e for e in evts if e.name == "MulBackward0")
    assert node.cpu_parent is None and node.sequence_nr >= 0

    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    assert trace["displayTimeUnit"] == "ms" and isinstance(trace["traceEvents"], list)
    xs = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert len(xs) == len(evts)
    for e in xs:
        assert set(e) >= {"ph", "cat", "name", "pid", "tid", "ts", "dur", "args"}
        assert isinstance(e["ts"], (int, float)) and e["dur"] >= 0
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
    by = {e["name"]: e for e in xs}
    o, i = by["outer"], by["inner"]
    assert o["cat"] == "user_annotation" and by["aten::mul"]["cat"] == "cpu_op"
    assert o["ts"] <= i["ts"] and i["ts"] + i["dur"] <= o["ts"] + o["dur"] + 1e-3
    assert by["aten::mul"]["args"]["Input Dims"] == [[4, 4], [4, 4]]
    meta = [e for e in trace["traceEvents"] if e["ph"] == "M"]
    assert {m["name"] for m in meta} == {"process_name", "thread_name"}


def test_record_function_as_decorator_and_without_profiler():
    @record_function("my_fn")
    def f(t):
        return t * 2

    f(autotensor.ones(2))  # no profiler: nothing happens
    with profile() as prof:
        f(autotensor.ones(2))
    assert [e.name for e in prof.events()] == ["aten::ones", "my_fn", "aten::mul"]
    assert [c.name for c in prof.events()[1].cpu_children] == ["aten::mul"]


def test_key_averages_group_by_input_shape_table():
    with profile(record_shapes=True) as prof:
        for n in (2, 2, 3):
            autotensor.ones(n) * autotensor.ones(n)
    rows = prof.key_averages(group_by_input_shape=True)
    muls = {str(e.input_shapes): e.count for e in rows if e.key == "aten::mul"}
    assert muls == {"[[2], [2]]": 2, "[[3], [3]]": 1}
    table = rows.table(sort_by="count", row_limit=2)
    body = table.splitlines()[3:-2]
    assert len(body) == 2 and "Input Shapes" in table.splitlines()[1]
    assert body[0].split()[0] in ("aten::ones", "aten::mul")
    assert "# of Calls  " in prof.key_averages().table(sort_by="cpu_time_total")
    with pytest.raises(AttributeError):
        prof.key_averages().table(sort_by="no_such_column")


def test_profile_memory():
    x = autotensor.ones(4, 4)
    with profile(profile_memory=True) as prof:
        y = x * 2            # a new 64-byte buffer
        y.mul_(3)            # in place: nothing new
        v = y[0]             # a view: nothing new
        z = autotensor.nn.functional.linear(x, autotensor.ones(2, 4))  # 32 bytes
    mem = {e.key: e.cpu_memory_usage for e in prof.key_averages()}
    assert mem["aten::mul"] == 64 and mem["aten::mul_"] == 0 and mem["aten::select"] == 0
    assert mem["aten::linear"] == 32
    lin = next(e for e in prof.events() if e.name == "aten::linear")
    assert lin.self_cpu_memory_usage <= 32
    table = prof.key_averages().table(sort_by="self_cpu_memory_usage")
    assert "CPU Mem" in table and "Self CPU Mem" in table and "64 B" in table
    assert v is not None and z is not None


def test_with_stack():
    with profile(with_stack=True) as prof:
        autotensor.ones(2) + 1
    add = next(e for e in prof.events() if e.name == "aten::add")
    assert add.stack and "test_profiler.py" in add.stack[0]
    assert "Source Location" in prof.key_averages(group_by_stack_n=1).table()


def test_schedule_as_torch():
    torch = pytest.importorskip("torch")
    for kw in [dict(wait=1, warmup=1, active=2), dict(wait=1, warmup=1, active=2, repeat=2,
                                                        skip_first=1),
               dict(wait=0, warmup=0, active=1, repeat=3)]:
        ours = schedule(**kw)
        theirs = torch.profiler.schedule(**kw)
        assert [ours(i).name for i in range(14)] == [theirs(i).name for i in range(14)]
    assert schedule(wait=0, warmup=0, active=2)(1) is ProfilerAction.RECORD_AND_SAVE


def test_schedule_steps_and_tensorboard_handler(tmp_path):
    ready = []
    handler = tensorboard_trace_handler(str(tmp_path), worker_name="w")

    def on_ready(p):
        ready.append([e.name for e in p.events()])
        handler(p)

    x = autotensor.ones(3, requires_grad=True)
    with profile(activities=[ProfilerActivity.CPU],
                 schedule=schedule(wait=1, warmup=1, active=2, repeat=2),
                 on_trace_ready=on_ready) as prof:
        for _ in range(10):
            (x * 2).sum().backward()
            prof.step()
    assert len(ready) == 2
    for names in ready:
        assert names.count("aten::mul") == 2 and names.count("MulBackward0") == 2
        assert [n for n in names if n.startswith("ProfilerStep#")] in (
            ["ProfilerStep#2", "ProfilerStep#3"], ["ProfilerStep#6", "ProfilerStep#7"])
    files = sorted(glob.glob(os.path.join(tmp_path, "w.*.pt.trace.json")))
    assert 1 <= len(files) <= 2  # two saves in the same millisecond share a name
    json.loads(open(files[0]).read())


def test_legacy_profile_options():
    with autotensor.autograd.profiler.profile(enabled=False) as p:
        autotensor.ones(2) * 2
    assert len(p.function_events) == 0
    with pytest.raises(AssertionError, match="CUDA"):
        autotensor.autograd.profiler.profile(use_cuda=True)
    with autotensor.autograd.profiler.profile(record_shapes=True) as p:
        autotensor.ones(2) * 2
    assert p.total_average().count == 2 and p.self_cpu_time_total > 0
    assert "aten::mul" in str(p.table())


def test_nothing_left_on_the_op_path():
    mul, tmul, apply_ = autotensor.mul, autotensor.Tensor.__mul__, \
        autotensor.autograd.graph.OpNode.apply
    with profile():
        assert autotensor.mul is not mul and autotensor.mul is autotensor._ops.mul
        # (x * y calls mul's out-less twin, Note [out= arguments]: a wrapper of its own)
        assert autotensor.Tensor.__mul__.__wrapped__ is tmul and autotensor.mul.__wrapped__ is mul
        with profile() as inner:  # two profilers at once: both record
            autotensor.ones(2) * 2
    assert [e.name for e in inner.events()] == ["aten::ones", "aten::mul"]
    assert autotensor.mul is mul and autotensor.Tensor.__mul__ is tmul
    assert autotensor.autograd.graph.OpNode.apply is apply_
    assert _observe.active() == ()


def test_errors_inside_profiled_ops_propagate():
    with profile() as prof:
        with pytest.raises(RuntimeError):
            autotensor.ones(2) + autotensor.ones(3)
    add = next(e for e in prof.events() if e.name == "aten::add")
    assert add.time_range.end >= add.time_range.start
    assert _observe.active() == ()


def test_profile_memory_saved_tensors():
    """Each op's event says what its backward node holds until backward (the number
    autograd.graph.saved_tensors_report adds up)."""
    from autotensor.autograd.graph import saved_tensors_report
    w = autotensor.randn(4, 3, requires_grad=True)
    x = autotensor.randn(5, 4)
    with profile(profile_memory=True) as prof:
        h = (x @ w).relu()
        out = (h * h).sum()
    saved = {e.key: e.saved_tensor_bytes for e in prof.key_averages()}
    assert saved["aten::matmul"] == 5 * 4 * 4 and saved["aten::relu"] == 5 * 3 * 4
    assert saved["aten::mul"] == 2 * 5 * 3 * 4 and saved["aten::sum"] == 0
    assert sum(saved.values()) == sum(saved_tensors_report(out).by_node().values())
    trace = prof.events()
    assert any(e.saved_tensor_bytes for e in trace)


def test_custom_function_node_called_by_user_while_profiling():
    """ctx.apply(*grads) with one or two gradients runs backward as given, profiler on or off."""
    import autotensor as torch

    class Two(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y, x + y

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 + g2, g1 - g2

    class One(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = torch.ones(2, requires_grad=True)
    a, _ = Two.apply(x, x)
    c = One.apply(x)
    with torch.profiler.profile():
        r1 = a.grad_fn.apply(torch.ones(2), torch.full((2,), 3.0))
        r2 = c.grad_fn.apply(torch.ones(2))
    assert r1[0].tolist() == [4.0, 4.0] and r1[1].tolist() == [-2.0, -2.0]
    assert r2.tolist() == [2.0, 2.0]
