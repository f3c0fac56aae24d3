"""The atlas chapter (analysis.chapters.atlas): coverage, energy and price for each measured
accelerator, and software gains kept apart from FLOP-count changes."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from analysis import atlas  # noqa: E402
from analysis.chapters import compute_section  # noqa: E402
from analysis.data.load import load_table, row  # noqa: E402
from analysis.figures import atlas as figures  # noqa: E402
from analysis.params import defaults as d  # noqa: E402

PUE = d.PUE.default
LOAD = d.LOAD_FACTOR.default  # the average draw while training, 82 % of rated: the energy basis
# model FLOPs per token of the rows checked by hand (6N + 12Lhs, 8,192 tokens)
F70 = atlas.flops_per_token(row("models", "llama31_70b"), 8192, "6n_12lhs")
F8 = atlas.flops_per_token(row("models", "llama31_8b"), 8192, "6n_12lhs")


@pytest.fixture(scope="module")
def E():
    return compute_section("atlas")


def test_coverage(E):
    assert E["atlas_accelerators_count"] >= 10
    assert E["atlas_vendors_count"] >= 3
    # every registry part has a known vendor (H800 has no accelerators.csv row: "NVIDIA" from its name)
    assert "unknown" not in set(E.tables["registry"]["vendor"])
    assert E["atlas_measured_accelerators_count"] >= 6
    assert E["atlas_rows_label_holds_count"] == E["atlas_rows_count"]


def test_energy_for_every_measured_accelerator_with_a_power_figure(E):
    s = E.tables["summary"]
    assert s["j_per_pflop"].notna().all()
    # H100 70B FP8, the newest release (Megatron-Bridge 26.04.01): 1,389 W x the PUE x the average draw
    # (0.82 of rated) over 1,664 tokens/s x 6N + 12Lhs (about 800 model TFLOP/s)
    assert E["atlas_load_factor_frac"] == LOAD
    # each measured device at the newest release that publishes it: H100 at Megatron-Bridge 26.04.01
    assert E.tables["summary"].set_index("gpu_id").loc["h100_sxm", "release"] == "NeMo 26.04.01"
    assert E["atlas_h100_sxm_model_tflops_per_device"] == pytest.approx(1664 * F70 / 1e12)
    assert E["atlas_h100_sxm_j_per_pflop"] == pytest.approx(1389 * PUE * LOAD / (1664 * F70 / 1e15))
    # v5p Mixtral 8x7B BF16: 608 W (Ironwood's pod figure moved by Google's perf-per-watt chart)
    # x the PUE over its 2,909 tokens/s of model work
    fmix = E.tables["summary"].set_index("gpu_id").loc["tpu_v5p", "flops_per_token"]
    assert E["atlas_tpu_v5p_j_per_pflop"] == pytest.approx(608 * PUE * LOAD / (2909 * fmix / 1e15))


def eflop_per_hour(tokens_per_s: float, flops_per_token: float) -> float:
    return tokens_per_s * flops_per_token * 3600 / 1e18


def test_cost_per_eflop_by_hand(E):
    # H100 at the central list price and 1,664 tokens/s of Llama 3.1 70B (26.04.01). 2026 list-tier midpoints:
    # 2.35, 2.95, 3.495 (1.99-5.00) and Oracle's on-demand 10.00; median (2.95 + 3.495) / 2 = $3.2225/h
    assert E["atlas_h100_usd_per_device_hour_central"] == pytest.approx(3.2225)
    assert E["atlas_h100_sxm_usd_per_eflop_central"] == pytest.approx(3.2225 / eflop_per_hour(1664, F70))
    assert (E["atlas_h100_sxm_usd_per_eflop_low"] < E["atlas_h100_sxm_usd_per_eflop_central"]
            < E["atlas_h100_sxm_usd_per_eflop_high"])
    # MI355X, Llama 3.1 8B at 31,365 tokens/s: Vultr's $2.59 and Oracle's $8.60 an hour
    assert E["atlas_mi355x_usd_per_eflop_low"] == pytest.approx(2.59 / eflop_per_hour(31_365.12, F8))
    assert E["atlas_mi355x_usd_per_eflop_high"] == pytest.approx(8.60 / eflop_per_hour(31_365.12, F8))
    # GB300 matches the H100's cost per token at 3.2225 x 5,248 / 1,664 = $10.16 an hour (both 26.04.01)
    assert E["atlas_gb300_nvl72_breakeven_usd_per_device_hour"] == pytest.approx(3.2225 * 5248 / 1664)
    # Ironwood is priced now: Google's $12.00 on-demand (a dated transcription), one figure
    ironwood = E.tables["summary"].set_index("gpu_id").loc["tpu7x_ironwood"]
    assert E["atlas_tpu7x_ironwood_usd_per_eflop_central"] == pytest.approx(
        12.0 / eflop_per_hour(ironwood["tokens_per_s_per_device"], ironwood["flops_per_token"]), rel=1e-4)
    assert E["atlas_tpu7x_ironwood_usd_per_eflop_low"] == E["atlas_tpu7x_ironwood_usd_per_eflop_high"]


def test_pue_moves_joules_not_mfu():
    hi = compute_section("atlas", {"pue": 1.5})
    lo = compute_section("atlas")
    assert hi["atlas_h100_sxm_j_per_pflop"] / lo["atlas_h100_sxm_j_per_pflop"] == pytest.approx(1.5 / PUE)
    assert hi["atlas_h100_sxm_mfu_frac"] == lo["atlas_h100_sxm_mfu_frac"]


def test_gains_split_speed_from_counting(E):
    # Llama rows: printed TFLOP/s and tokens/s move together (same count) within the newest release's
    # rounding of its tokens/s (26.04.01 prints multiples of 16: up to about 2 points)
    for key in ("gb300_nvl72_llama31_70b_fp8", "h100_sxm_llama31_405b_fp8", "gb200_nvl72_llama31_405b_fp8"):
        assert E[f"atlas_{key}_printed_gain_frac"] == pytest.approx(E[f"atlas_{key}_release_gain_frac"], abs=0.025)
    # DeepSeek-V3 on GB200, 25.11 -> 26.04.01: throughput 4,018 -> 4,256 (+5.9 %), printed 1,003 -> 1,106
    # (+10.3 %): 26.02 started counting more FLOPs per DeepSeek-V3 token
    assert E["atlas_gb200_nvl72_deepseek_v3_fp8_release_gain_frac"] == pytest.approx(4256 / 4018 - 1)
    assert E["atlas_gb200_nvl72_deepseek_v3_fp8_printed_gain_frac"] == pytest.approx(1106 / 1003 - 1)
    # MaxText PR #1988 on v6e 70B: 50.33 % x 0.9331 = 46.96 %
    assert E["atlas_v6e_llama31_70b_mfu_causal_count"] == pytest.approx(0.5033 * E["atlas_llama31_70b_causal_over_full_flops_ratio"])


def test_figures_and_tables_draw(E):
    for fig in (figures.mfu_figure(E), figures.energy_figure(E)):
        assert fig.axes
        plt.close(fig)
    for table in (figures.summary_table(E), figures.rows_table(E), figures.registry_table(E), figures.gains_table(E)):
        assert table.count("\n") >= 5


# Measured accelerators allowed to lack a figure, and which (Ironwood's price gap closed with the
# price ladder's dated transcription of Google's page). Anything missing fails.
KNOWN_GAPS: dict[str, set] = {}


def test_every_measured_accelerator_has_energy_and_price_or_a_known_gap(E):
    reg = E.tables["registry"]
    measured = reg[reg["measured"]]
    assert len(measured) == E["atlas_measured_accelerators_count"] >= 6
    for r in measured.itertuples():
        gaps = ({"energy"} if pd.isna(r.j_per_pflop) else set()) | ({"price"} if pd.isna(r.usd_per_eflop_central) else set())
        assert gaps == KNOWN_GAPS.get(r.gpu_id, set()), r.gpu_id
    assert set(KNOWN_GAPS) <= set(measured["gpu_id"])  # a gap closed or dropped: update the list
    assert E["atlas_measured_with_energy_count"] == len(measured)
    assert E["atlas_measured_with_price_count"] == len(measured)


def test_measured_vs_specs_table_shows_joules_and_dollars(E):
    table = figures.registry_table(E)
    lines = {r.name: line for r in E.tables["registry"].itertuples()
             for line in table.splitlines() if line.startswith(f"| {r.name} |")}
    reg = E.tables["registry"].set_index("name")
    for name, line in lines.items():
        cells = [c.strip() for c in line.strip("|").split("|")]
        energy, cost = cells[-2], cells[-1]
        if not reg.loc[name, "measured"]:
            assert energy == cost == "", name
            continue
        assert energy == figures.NO_POWER or float(energy.replace(",", "")) > 0, name
        assert cost.startswith(figures.NO_PRICE) or cost.startswith("\\$"), name
    # Ironwood: its on-demand price, tier named, and as a second view the hourly price that matches
    # the H100 per token: 3.2225 x 4,127.56 / 1,664 = $7.99
    ironwood = lines["Google TPU7x Ironwood (per chip)"]
    assert "(on-demand)" in ironwood and "matches the H100 at \\$7.99/h" in ironwood
    assert E["atlas_tpu7x_ironwood_tier_spread_ratio"] == pytest.approx(12.0 / 1.21)


def test_gb300_is_priced_by_its_own_list_price_not_a_stand_in(E):
    assert E["atlas_measured_with_proxy_price_count"] == 0
    # Oracle's $18.00 an hour at 5,248 tokens/s of Llama 3.1 70B (26.04.01)
    assert E["atlas_gb300_nvl72_usd_per_eflop_low"] == pytest.approx(18.00 / eflop_per_hour(5248, F70))
    assert E["atlas_gb300_nvl72_usd_per_eflop_high"] == E["atlas_gb300_nvl72_usd_per_eflop_low"]
    # the B300-server stand-ins stay in view: $5.00 (Ornn's low) to $9.50 (Nebius from October)
    assert E["atlas_gb300_nvl72_stand_in_usd_per_device_hour_low"] == 5.00
    assert E["atlas_gb300_nvl72_stand_in_usd_per_device_hour_high"] == 9.50
    gb300 = next(line for line in figures.summary_table(E).splitlines() if line.startswith("| GB300 |"))
    assert "(proxy price)" not in gb300


def test_cross_accelerator_columns_compare_one_basis(E):
    """The summary's rows run several models, so no column of it that sets accelerators side by side
    may be per token (J/token, $ per 1M tokens, tokens/s): each is per unit of model work, and every
    row names its model. The registry's columns likewise, with the model in the row."""
    assert E["atlas_summary_models_count"] > 1
    for table in (figures.summary_table(E), figures.registry_table(E)):
        header = [c.strip().lower() for c in _shown(table)[0].strip("|").split("|")]
        per_token = [h for h in header if "token" in h]
        assert not per_token, per_token
        assert any("pflop" in h for h in header) and any("eflop" in h for h in header)
    rows = _shown(figures.summary_table(E))[2:]
    models = {[c.strip() for c in line.strip("|").split("|")][1] for line in rows}
    assert "" not in models and len(models) == E["atlas_summary_models_count"]
    measured = [line for line in _shown(figures.registry_table(E)) if "measured (" in line]  # the rows shown
    assert len(measured) == E["atlas_measured_accelerators_count"]


def test_a_per_token_column_across_models_would_fail(E):
    """The rule above, on a table that mixes bases: a per-token column over rows of several models."""
    s = E.tables["summary"]
    mixed = figures.markdown_table(["accelerator", "model", "J/token"],
                                   [[r.gpu_id, r.model_id, f"{r.j_per_token:.2f}"] for r in s.itertuples()])
    header = [c.strip().lower() for c in mixed.splitlines()[0].strip("|").split("|")]
    assert any("token" in h for h in header) and s["model_id"].nunique() > 1  # what the test above refuses


def _shown(table) -> list[str]:
    """The lines of the table a reader sees first (before its fold of the whole table)."""
    return [line for line in table.split("<details")[0].splitlines() if line.startswith("|")]


def test_every_mfu_names_the_peak_it_is_against(E):
    lines = _shown(figures.summary_table(E))
    column = [c.strip() for c in lines[0].strip("|").split("|")].index("MFU (book), of the peak")
    for line in lines[2:]:
        cell = [c.strip() for c in line.strip("|").split("|")][column]
        assert " of " in cell and "dense" in cell and "TFLOP/s" in cell, cell
    s = E.tables["summary"].set_index("gpu_id")
    assert s.loc["gb300_nvl72", "peak_label"] == "FP8 dense" and s.loc["gb300_nvl72", "peak_tflops"] == 5000
    assert "FP8 dense peak" in E.quantities["atlas_gb300_nvl72_mfu_frac"].label


def test_tpu_v5p_pod_and_cube_from_googles_documentation(E):
    acc = load_table("accelerators").set_index("gpu_id")
    assert E["atlas_tpu_v5p_pod_chips_count"] == acc.loc["tpu_v5p", "pod_devices"] == 8960
    assert E["atlas_tpu_v5p_cube_chips_count"] == 4 * 4 * 4
