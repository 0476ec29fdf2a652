"""Smoke run of the benchmarks (issues 4, 14): tiny sizes, checks they still run, not timed."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_benchmarks_quick_run():
    # (not timed: 11 workloads' worker processes took 158 s on the 2-core machine shared
    # with other suites at load 13, so the limit leaves room)
    p = subprocess.run([sys.executable, "-m", "benchmarks", "--quick"], cwd=ROOT,
                       capture_output=True, text=True, timeout=480)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-4000:]
    assert re.search(r"ratio autotensor/(torch|numpy) \d+\.\d\d", out), out[-4000:]
    assert "gradients DIFFER" not in out, out[-4000:]
    # every engine ran in its own process, which reported its BLAS and thread count
    assert re.search(r"autotensor process: blas: .*\(\d+ threads\)", out), out[-4000:]
    assert re.search(r"numpy process: blas: .*\(\d+ threads\)", out), out[-4000:]


def test_worker_imports_only_its_engine():
    """The autotensor worker must not load torch (torch's thread pool would share the
    process with NumPy's BLAS: the unfair measurement of issue 14)."""
    code = ("import sys, json; from benchmarks import harness, workloads\n"
            "harness.apply_threads(1); harness.import_engine('autotensor', 1)\n"
            "print(json.dumps('torch' in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip().splitlines()[-1] == "false"


def test_forward_mode_benchmark_quick_run():
    """benchmarks/forward_mode.py (issue 9) at tiny sizes: both tables, every row, and the
    H v of every method and engine agreeing with torch's functional.hvp (no timings)."""
    import pytest
    pytest.importorskip("torch")
    p = subprocess.run([sys.executable, "-m", "benchmarks.forward_mode", "--quick",
                        "--chain-ops", "8", "--sizes", "30", "--repeat", "1"], cwd=ROOT,
                       capture_output=True, text=True, timeout=240)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-4000:]
    for engine in ("autotensor", "torch"):
        assert re.search(rf"^\| {engine} \| \d+\.\d\d \| \d+\.\d\d \| \d+\.\d\d \|$", out,
                         re.M), out
        for method in ("fwd-over-rev", "functional.hvp", "hessian"):
            m = re.search(rf"^\| 25 \| {engine} \| {method} \| [\d.e+-]+ \| .* \| "
                          rf"([\d.e+-]+) \|$", out, re.M)
            assert m, out
            assert float(m.group(1)) < 1e-10, out
    assert re.search(r"autotensor dual / torch dual: \d+\.\d\d .*tangents agree to "
                     r"\d\.\de[+-]\d+", out), out


def test_training_benchmark_quick_run():
    """benchmarks/training.py (issue 12) at tiny sizes: every workload on both engines."""
    import pytest
    pytest.importorskip("torch")
    p = subprocess.run([sys.executable, "-m", "benchmarks.training", "--quick"], cwd=ROOT,
                       capture_output=True, text=True, timeout=240)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-4000:]
    for workload in ("digits-epoch", "lstm-step", "adam-1m"):
        assert re.search(rf"^\| {workload} \| \d+\.\d\d \| \d+\.\d\d \| \d+\.\d\d \|$", out,
                         re.M), out


def test_catalogue_workloads_quick_run():
    """Issue 11's rows (convolutions, transformer block, einsum): tiny sizes, gradients of
    every engine agree."""
    p = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--only", "9,10,11"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-4000:]
    for case in ("LeNet convolutions", "ResNet basic block", "transformer block",
                 "einsum bilinear form"):
        assert case in out, case
    assert out.count("gradients agree") == 4, out[-4000:]
    assert "ERROR" not in out, out[-4000:]
