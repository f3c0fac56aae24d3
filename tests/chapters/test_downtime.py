"""The downtime chapter module (analysis.chapters.downtime): its inputs come from the TCO and
benchmarks chapters, its break-even with downtime equals the uncertainty analysis's point value
and the hand arithmetic, and its figure and table render (analysis.figures.downtime)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from analysis import reliability as rel  # noqa: E402
from analysis.chapters import compute_section  # noqa: E402
from analysis.chapters import downtime as chapter  # noqa: E402
from analysis.chapters.bands import book_parameters, evaluate  # noqa: E402
from analysis.data.load import fact  # noqa: E402
from analysis.figures import downtime as figures  # noqa: E402
from analysis.params.parameters import Parameters  # noqa: E402


@pytest.fixture(scope="module")
def chapters():
    done: dict = {}
    compute_section("downtime", {"mc_draws": 2_000}, done)
    return done


@pytest.fixture(scope="module")
def E(chapters):
    return chapters["downtime"]


def test_tco_and_speedups_come_from_their_chapters(E, chapters):
    tco, bench = chapters["tco"], chapters["benchmarks"]
    for key in ("h100_tco_usd_per_gpu_hour", "gb200_tco_usd_per_gpu_hour", "gb200_breakeven_speedup"):
        assert E[key] == tco[key] and E.unit(key) == tco.unit(key)
    for key in ("gb200_vs_h100_llama31_405b_bf16_throughput_ratio", "gb200_vs_h100_deepseek_v3_bf16_throughput_ratio"):
        assert E[key] == bench[key]
    assert E["gb200_breakeven_speedup"] == pytest.approx(fact("A12_tco_ratio"), rel=0.05)  # report: ~1.6x
    assert E["gb200_vs_h100_deepseek_v3_bf16_throughput_ratio"] == pytest.approx(fact("A49_deepseek_ratio"), rel=0.01)
    # Llama 3.1 405B BF16: 438.2 tokens/s/GPU on 128 GB200 (v25.05) over 207.1 on 512 H100 (v25.04)
    assert E["gb200_vs_h100_llama31_405b_bf16_throughput_ratio"] == pytest.approx(438.2 / 207.1, rel=1e-3)


def test_breakeven_with_downtime_agrees_with_the_uncertainty_point_value(E):
    point = evaluate(book_parameters())
    assert E["gb200_breakeven_speedup_with_downtime"] == pytest.approx(
        float(point["gb200_breakeven_speedup_with_downtime"]), rel=1e-12)
    assert E.tables["bands"].loc["gb200_breakeven_speedup_with_downtime", "point"] == pytest.approx(
        E["gb200_breakeven_speedup_with_downtime"], rel=1e-12)


def test_breakeven_with_downtime_is_the_tco_ratio_over_the_useful_ratio(E):
    """Break-even = (GB200 TCO / H100 TCO) x (H100 useful share / GB200 useful share), and each
    useful share is goodput x (1 - share under repair)."""
    for s in ("h100", "gb200"):
        assert E[f"{s}_useful_frac"] == pytest.approx(E[f"{s}_goodput_frac"] * (1 - E[f"{s}_unavailable_frac"]))
        assert E[f"{s}_usd_per_useful_gpu_hour"] == pytest.approx(E[f"{s}_tco_usd_per_gpu_hour"] / E[f"{s}_useful_frac"])
    expected = E["gb200_breakeven_speedup"] * E["h100_useful_frac"] / E["gb200_useful_frac"]
    assert E["gb200_breakeven_speedup_with_downtime"] == pytest.approx(expected)
    assert E["gb200_breakeven_speedup_with_downtime"] == pytest.approx(
        E["gb200_breakeven_speedup"] / (1 - E["gb200_extra_loss_frac"]))


def test_h100_downtime_by_hand(E):
    """An H100 server (8 GPUs) fails for a repair at the GPU, host and maintenance rate, and is
    down 24 h: x = 8 lambda 24, unavailable x / (1 + x)."""
    repair_rate = rel.llama3_rates()["repair"]
    x = 8 * repair_rate * 24
    assert E["h100_unavailable_frac"] == pytest.approx(x / (1 + x))
    # the H100 job's goodput is the reliability chapter's Llama 3 expectation (same job, same rates)
    assert E["h100_goodput_frac"] == pytest.approx(compute_section("reliability", {"goodput_trials": 10})[
        "llama3_expected_goodput_frac"])


def test_the_penalty_grows_with_size_and_shrinks_without_nvlink_faults(E):
    ratio = E["gb200_breakeven_speedup"]
    assert ratio < E["gb200_breakeven_speedup_with_downtime_without_nvlink_faults"] \
        < E["gb200_breakeven_speedup_with_downtime"] < E["gb200_breakeven_speedup_with_downtime_at_cluster_size"]
    # Llama 3.1 405B's measured speed-up pays while GB200 loses less than 1 - ratio / speed-up extra
    assert E["gb200_max_extra_loss_llama31_405b_frac"] == pytest.approx(
        1 - ratio / E["gb200_vs_h100_llama31_405b_bf16_throughput_ratio"])
    curve = E.tables["breakeven_by_extra_loss"]
    assert curve["breakeven_speedup"].iloc[0] == pytest.approx(ratio)
    assert curve["breakeven_speedup"].iloc[-1] == pytest.approx(2 * ratio)  # half the hours lost


def test_token_costs(E):
    # $/1M tokens = $/GPU-hour / (tokens/s/GPU x 3,600) x 1e6, at 207.1 (H100) and 438.2 (GB200) tokens/s/GPU
    assert E["h100_llama31_405b_bf16_usd_per_million_tokens"] == pytest.approx(
        E["h100_tco_usd_per_gpu_hour"] / (207.1 * 3_600) * 1e6)
    assert E["gb200_llama31_405b_bf16_useful_usd_per_million_tokens"] == pytest.approx(
        E["gb200_usd_per_useful_gpu_hour"] / (438.2 * 3_600) * 1e6)


def test_gb200_assumptions_reach_the_breakeven():
    fixed = compute_section("downtime", {"gb200_nvlink_faults_per_rack_month": 0.0, "gb200_blast_radius_gpus": 8,
                                         "gb200_repair_hours": 24.0, "mc_draws": 1_000})
    assert fixed["gb200_breakeven_speedup_with_downtime"] == pytest.approx(fixed["gb200_breakeven_speedup"])


def test_figure_and_tables_render(E):
    fig = figures.breakeven(E)
    assert len(fig.axes[0].lines) >= 6
    plt.close(fig)
    table = figures.token_costs_table(E)
    assert "reliability-adjusted" in table and f"{E['h100_llama31_405b_bf16_usd_per_million_tokens']:.3f}" in table
    assert figures.clears_or_falls_short(E, "gb200_vs_h100_llama31_405b_bf16_throughput_ratio",
                                         "gb200_breakeven_speedup_with_downtime") == "clears"
    assert figures.clears_or_falls_short(E, "gb200_vs_h100_deepseek_v3_bf16_throughput_ratio",
                                         "gb200_breakeven_speedup") == "falls short of"


def test_the_band_point_follows_the_tco_chapters_inputs():
    """With a TCO input changed (it reaches the TCO chapter, not this one's parameters), the band's
    point estimate is still this chapter's break-even. Needs ChapterResults.parameters."""
    from analysis.chapters import ChapterResults

    if "parameters" not in ChapterResults.__dataclass_fields__:
        pytest.skip("ChapterResults does not carry its parameters in this tree")
    E = compute_section("downtime", {"pue": 1.15, "mc_draws": 1_000})
    assert E.tables["bands"].loc["gb200_breakeven_speedup_with_downtime", "point"] == pytest.approx(
        E["gb200_breakeven_speedup_with_downtime"], rel=1e-12)


def _downtime_params(**over) -> Parameters:
    p = {"checkpoint_write_seconds": 10.0, "failure_detection_minutes": 2.0, "restart_minutes": 5.0,
         "h100_gpus_per_server": 8, "h100_repair_hours": 24.0, "gb200_gpus_per_rack": 72,
         "gb200_blast_radius_gpus": 72, "gb200_repair_hours": 48.0, "gb200_nvlink_faults_per_rack_month": 1.0,
         "gb200_gpu_fault_ratio": 1.0}
    p.update(over)
    return Parameters(p)


def test_useful_shares_are_useful_share_per_system():
    rates = rel.llama3_rates()
    shares = chapter.useful_shares(_downtime_params(), 16_384, rates)
    recovery = (10 / 3_600, 2 / 60, 5 / 60, rates["planned_per_hour"])
    assert shares["h100"] == pytest.approx(rel.useful_share(16_384, rates["job"], rates["repair"], 8, 24.0, *recovery))
    nvlink = 1.0 / (72 * 730)
    assert shares["gb200"] == pytest.approx(rel.useful_share(16_384, rates["job"] + nvlink, rates["repair"] + nvlink,
                                                             72, 48.0, *recovery))


def test_breakeven_with_downtime_is_the_tco_ratio_over_the_useful_shares():
    rates = rel.llama3_rates()
    p = _downtime_params()
    shares = chapter.useful_shares(p, 16_384, rates)
    expected = (2.36 / 1.42) * shares["h100"][2] / shares["gb200"][2]
    assert chapter.breakeven_with_downtime(p, 1.42, 2.36, 16_384, rates) == pytest.approx(expected)
    # GB200 with H100's blast radius, repair time and no NVLink faults loses what H100 loses
    same = _downtime_params(gb200_blast_radius_gpus=8, gb200_repair_hours=24.0, gb200_nvlink_faults_per_rack_month=0.0)
    assert chapter.breakeven_with_downtime(same, 1.42, 2.36, 16_384, rates) == pytest.approx(2.36 / 1.42)
