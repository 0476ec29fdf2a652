"""Differential fuzzing in CI: random programs on autotensor and PyTorch must agree.

A fixed, derandomized budget (CI is deterministic); the long run is
``python -m tests.fuzz --minutes 30 --out DIR`` (see ``tests/fuzz``).
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from tests.fuzz import check_program, programs  # noqa: E402

import autotensor  # noqa: E402

torch = pytest.importorskip("torch")


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
@given(programs())
def test_random_programs_match_torch(program):
    check_program(program, torch, autotensor)


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
@given(programs())
def test_random_programs_under_forward_ad_match_torch(program):
    """The same random programs inside a dual level, floating leaves made dual with random
    tangents: every variable's tangent (and everything else) must match PyTorch's."""
    check_program(program, torch, autotensor, dual=True)


def test_zero_tensor_tangents_compare_as_zeros():
    """PyTorch answers some tangents with an efficient zero tensor (sgn of a real tensor),
    whose values cannot be read (a 0-d one here): the harness compares it as zeros of its
    shape and dtype."""
    from tests.fuzz.core import run_and_compare
    run_and_compare([
        "torch.autograd.forward_ad.enter_dual_level()",
        "v0 = torch.tensor(np.array(1.764, dtype='float64').reshape(()))",
        "v0 = torch.autograd.forward_ad.make_dual(v0, torch.ones((), dtype=torch.float64))",
        "v1 = v0.sgn()",
    ])


def test_sign_of_a_nan_is_not_compared():
    """Note [The sign of a NaN] (fuzz stop 20: signbit of log2 of a negative number, +NaN
    in PyTorch, -NaN in NumPy): signbit and copysign are rendered to read no NaN's sign."""
    from tests.fuzz.core import Renderer, new_namespace, run_and_compare
    ns = new_namespace(torch)
    setup = ["v0 = torch.tensor([-0.417, 1.0, -0.0]).log2()", "v1 = torch.tensor([2.0, -1.0, 3.0])"]
    for line in setup:
        exec(line, ns)  # noqa: S102 -- our own lines
    r = Renderer(ns)
    r.names, r.counter = ["v0", "v1"], 2
    lines = [r.render(("unary", 0, "signbit", False))[0],
             r.render(("binary", 1, 0, "copysign", 0, False, False))[0],
             r.render(("unary", 1, "signbit", False))[0]]
    assert lines[0] == "v2 = v0.signbit() & ~v0.isnan()"
    assert lines[1] == "v3 = v1.copysign(v0.nan_to_num(1.0))"
    assert lines[2] == "v4 = v1.signbit()"  # (no NaN: as drawn)
    run_and_compare(setup + lines)


def test_amplified_float32_differences_are_excused_only_for_a_right_op(monkeypatch):
    """Note [Amplified float32 differences]: sin(exp(exp(x))) differs by 3e-4 relative
    because exp differs by an ulp; the line passes since PyTorch computes autotensor's sin
    from autotensor's input. A wrong op is not excused: its line fails."""
    from tests.fuzz.core import Mismatch, run_and_compare
    lines = ["v0 = torch.tensor(np.array(1.764, dtype='float32'))", "v1 = v0.exp()",
             "v4 = v1.exp()", "v5 = v4.sin()", "v6 = v5 * 2"]
    run_and_compare(lines)
    sin = autotensor.Tensor.sin
    monkeypatch.setattr(autotensor.Tensor, "sin", lambda self: sin(self) * 1.0001)
    with pytest.raises(Mismatch, match="line 3"):
        run_and_compare(lines)
