"""The plan chapter (analysis.chapters.plan): the walk-through equals the planner, the FLOP
convention example reproduces Narayanan et al., and the backtest predicts at least 8 published runs
with an error computed for each (analysis.figures.plan renders it)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from analysis.chapters import compute_section  # noqa: E402
from analysis.data import load_table  # noqa: E402
from analysis.figures import plan as figures  # noqa: E402


@pytest.fixture(scope="module")
def E():
    return compute_section("plan", {})


def test_backtest_has_at_least_8_runs_each_with_an_error(E):
    runs = load_table("backtest_runs")
    table = E.tables["backtest"]
    assert len(runs) >= 8 and E["plan_backtest_runs_count"] == len(runs)
    assert set(table["run_id"]) == set(runs["run_id"])  # every run has at least one published outcome compared
    assert (table["error_frac"] == table["predicted"] / table["published"] - 1).all()
    for r in table.itertuples():
        slug = r.key if r.key != "days_with_failures" else "wall_days"
        assert E[f"plan_backtest_{r.run_id}_{slug}_error_frac"] == pytest.approx(r.error_frac)


def test_published_throughput_reproduces_published_days(E):
    """With the throughput and the FLOPs it counts, the planner lands within 3 % of every published
    duration (Narayanan et al.'s 34 and 84 days, the OPT logbook's 33, BLOOM's 3.5 months)."""
    table = E.tables["backtest"]
    days = table[table["outcome"].str.startswith("days") & (table["throughput"] == "published")]
    assert len(days) >= 4
    assert days["error_frac"].abs().max() < 0.03


def test_narayanan_example(E):
    # 140 hardware TFLOP/s with full recomputation: 34 days (paper), 8/6-ish more FLOPs than model FLOPs.
    assert E["plan_gpt3_hardware_full_days"] == pytest.approx(34, rel=0.03)
    assert E["plan_gpt3_as_model_flops_days"] / E["plan_gpt3_hardware_full_days"] == pytest.approx(
        1 / E["plan_gpt3_hardware_to_model_flops_ratio"])
    assert 0.24 < E["plan_gpt3_misread_shortfall_frac"] < 0.26


def test_walkthrough_is_the_planners_arithmetic(E):
    p = "plan_llama31_405b"
    # 400 TFLOP/s of model FLOPs / FLOPs per token = tokens/s/GPU; days = tokens / (GPUs x rate).
    rate = E[f"{p}_achieved_tflops"] * 1e12 / E[f"{p}_flops_per_token"]
    assert E[f"{p}_tokens_per_s_per_gpu"] == pytest.approx(rate)
    assert E[f"{p}_days"] == pytest.approx(E[f"{p}_tokens"] / (E[f"{p}_gpus"] * rate) / 86_400)
    assert E[f"{p}_gpu_hours"] == pytest.approx(E[f"{p}_gpus"] * E[f"{p}_days_with_failures"] * 24)
    assert E[f"{p}_cost_usd"] == pytest.approx(E[f"{p}_gpu_hours"] * E[f"{p}_usd_per_gpu_hour"])
    assert E[f"{p}_days_with_failures_p10"] <= E[f"{p}_days_with_failures"] * 1.05
    # within 5 % of the model card's GPU-hours, which include Meta's restarts and other stages
    assert E[f"{p}_gpu_hours"] == pytest.approx(E[f"{p}_published_gpu_hours"], rel=0.05)


def test_figures_render(E):
    fig = figures.backtest(E)
    assert len(fig.axes[0].lines) >= 1
    plt.close(fig)
    assert "Published" in figures.backtest_table(E) and "FLOPs per token" in figures.walkthrough_table(E)
