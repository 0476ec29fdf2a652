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


def test_amplified_float64_differences_are_excused_only_for_a_right_op(monkeypatch):
    """The same for float64 (stop 26's end_repro_002): NumPy's float64 sinh(16.24) is an ulp
    off glibc's (README "Numerics"), and sin of its square (3e13) amplifies that to 7e-2
    relative; PyTorch computes autotensor's value from autotensor's input, so the line is
    excused. A wrong op is not."""
    from tests.fuzz.core import Mismatch, run_and_compare
    lines = ["v0 = torch.tensor(np.array([1.624], dtype='float64').reshape((1,)))",
             "v0.div_(0.1)", "v2 = v0.sinh_()", "v3 = (v0 * v0).sin() * 2"]
    ours = autotensor.tensor([16.24], dtype=autotensor.float64).sinh().item()
    if ours == torch.tensor([16.24], dtype=torch.float64).sinh().item():
        pytest.skip("this NumPy's float64 sinh(16.24) is glibc's: nothing is amplified")
    run_and_compare(lines)
    sin = autotensor.Tensor.sin
    monkeypatch.setattr(autotensor.Tensor, "sin", lambda self: sin(self) * (1 + 1e-9))
    with pytest.raises(Mismatch, match="line 3"):
        run_and_compare(lines)


_ADDMM_VAR = [  # (pending_stop22/start_repro_006, shortened)
    "torch.autograd.forward_ad.enter_dual_level()",
    "v0 = torch.tensor(np.array([[1.619, 0.669, 0.72, 0.454], [0.496, 0.18, 0.639, -0.156], "
    "[-0.977, 0.289, 1.607, 3.198]], dtype='{dt}'))",
    "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[-0.223, 0.229, "
    "0.737, -0.855], [1.129, -0.898, 0.151, 0.005], [-0.037, 0.38, -0.075, -2.379]], "
    "dtype='float64'), dtype=v0.dtype))",
    "v0 *= v0",
    "v3 = torch.addmm(torch.tensor(np.array([-1.624, -0.102], dtype='{dt}')), v0, "
    "torch.tensor(np.array([[-1.852, -1.081], [0.079, -1.354], [0.626, 0.733], "
    "[-1.471, -1.675]], dtype='{dt}')))",
    "v4 = v3.var(-1, keepdim=False)",
]


def test_amplified_float32_tangents_are_excused_only_for_a_right_rule(monkeypatch):
    """Note [Amplified float32 differences] for final states: a float32 tangent through
    addmm (BLAS rounding) then var (cancellation) differs by 1e-4 relative, and PyTorch
    computes autotensor's from autotensor's inputs and their tangents: excused. A wrong
    tangent is not, and a float64 one never is."""
    from tests.fuzz.core import Mismatch, run_and_compare
    f32 = [line.replace("{dt}", "float32") for line in _ADDMM_VAR]
    run_and_compare(f32)
    var = autotensor.Tensor.var

    def wrong_tangent(self, *args, **kwargs):  # (same value, a tangent off by 1e-3)
        return var(self, *args, **kwargs) + (self - self.detach()).sum() * 1e-3
    monkeypatch.setattr(autotensor.Tensor, "var", wrong_tangent)
    with pytest.raises(Mismatch, match="final state of v4"):
        run_and_compare(f32)
    with pytest.raises(Mismatch, match="final state of v4"):
        run_and_compare([line.replace("{dt}", "float64") for line in _ADDMM_VAR])
