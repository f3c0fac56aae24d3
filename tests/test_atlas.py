"""The atlas domain module (analysis.atlas) and its tables: every row's MFU follows from its
throughput, every printed figure follows from its throughput under the convention the row records,
and no registry peak is a sparse figure."""

import math

import pandas as pd
import pytest

from analysis import atlas
from analysis.data.load import load_table, row

TOL = 0.01


@pytest.fixture(scope="module")
def rows():
    return atlas.load_atlas(TOL)


def test_book_mfu_follows_from_throughput_by_hand(rows):
    # GB300, Llama 3.1 70B FP8, NeMo 26.02: 5,003 tokens/s/GPU. 6N + 12Lhs at 8,192 tokens:
    # N = 70,553,706,496 - 128,256 x 8,192 = 69,503,049,728; 6N = 4.1702e11; 12 x 80 x 8,192 x 8,192 = 6.4425e10.
    flops = 6 * (70_553_706_496 - 128_256 * 8_192) + 12 * 80 * 8_192 * 8_192
    r = rows.set_index("row_id").loc["mb2602_gb300_70b_fp8"]
    assert r["flops_per_token"] == pytest.approx(flops)
    assert r["mfu"] == pytest.approx(5_003 * flops / 5_000e12)  # GB300 FP8 dense peak 5,000 TFLOP/s


def test_every_row_mfu_follows_from_its_throughput(rows):
    for r in rows.itertuples():
        assert r.mfu == pytest.approx(r.tokens_per_s_per_device * r.flops_per_token / (r.peak_tflops * 1e12), rel=1e-12)
        assert 0.05 < r.mfu < 0.75, r.row_id


def test_throughput_from_step_time_and_from_samples():
    # Ironwood 70B BF16: GBS 256 x 8,192 tokens / 12.20 s / 64 chips = 2,686.0; the table prints 2,686.98.
    irw = row("atlas_benchmarks", "irw_70b_bf16").copy()
    irw["tokens_per_s_per_device_reported"] = float("nan")
    assert atlas.tokens_per_s_per_device(irw) == pytest.approx(2_686.98, rel=0.001)
    # MI355X MLPerf: 30.63 samples/s x 8,192 / 8 GPUs = 31,365 tokens/s/GPU.
    assert atlas.tokens_per_s_per_device(row("atlas_benchmarks", "mlperf51_mi355x_8b_fp8")) == pytest.approx(31_365.12)


def test_every_printed_figure_follows_under_its_recorded_convention(rows):
    # a 6n_12lhs or 6n_6lhs row reproduces within 1 % under that count only; a publisher_moe or
    # unreproduced row under neither; a 'none' row prints nothing.
    bad = rows[~rows["label_holds"]]
    assert bad.empty, bad[["row_id", "flop_convention", "reproduced_by", "printed_vs_book_ratio"]].to_string()
    assert set(rows["flop_convention"]) == {"6n_12lhs", "6n_6lhs", "publisher_moe", "unreproduced", "throughput_only"}


def test_causal_half_is_what_nvidia_and_ironwood_print():
    # Megatron-Bridge 26.02, GB300 70B: 2,248 TFLOP/s at 5,003 tokens/s = 4.493e11 FLOP/token; 6N + 6Lhs = 4.492e11.
    model = row("models", "llama31_70b")
    assert 2_248e12 / 5_003 == pytest.approx(atlas.flops_per_token(model, 8192, "6n_6lhs"), rel=0.001)
    # tpu-recipes Ironwood 70B: 1,207.05 TFLOP/s at 2,686.98 tokens/s, the same count.
    assert 1_207.05e12 / 2_686.98 == pytest.approx(atlas.flops_per_token(model, 8192, "6n_6lhs"), rel=0.001)
    # MaxText's tiering page (pre-#1988): 50.33 % of 918 at 960 tokens/s = the full count.
    assert 0.5033 * 918e12 / 960 == pytest.approx(atlas.flops_per_token(model, 8192, "6n_12lhs"), rel=0.001)


def test_unknown_convention_is_an_error():
    with pytest.raises(ValueError, match="convention"):
        atlas.flops_per_token(row("models", "llama31_70b"), 8192, "6n")


def test_no_peak_is_a_sparse_figure():
    gpus = load_table("gpus").set_index("gpu_id")
    acc = load_table("accelerators").set_index("gpu_id")
    for gpu_id, a in acc.iterrows():
        for dtype in ("bf16", "fp8"):
            dense, sparse = gpus.loc[gpu_id, f"{dtype}_dense_tflops"], a[f"{dtype}_sparse_tflops"]
            if math.isnan(dense) or math.isnan(sparse):
                continue
            assert dense < sparse, f"{gpu_id} {dtype}: dense {dense} is not below the sparse {sparse}"
            if a["vendor"] in ("NVIDIA", "AMD"):  # 2:4 structured sparsity doubles the dense rate
                assert sparse / dense == pytest.approx(2.0, rel=0.02), f"{gpu_id} {dtype}"


def test_registry_covers_ten_parts_from_three_vendors_with_sources():
    acc = load_table("accelerators")
    gpus = load_table("gpus")
    assert len(acc) >= 10 and acc["vendor"].nunique() >= 3
    assert gpus["source_id"].notna().all()
    measured = set(load_table("atlas_benchmarks")["gpu_id"])
    assert len(measured) >= 6 and measured <= set(acc["gpu_id"])


def test_power_build_up_by_hand():
    acc = load_table("accelerators").set_index("gpu_id")
    gpus = load_table("gpus").set_index("gpu_id")
    # B200 in an 8-GPU server: 1,000 W chip + (1,389 - 700) W of the H100 build-up = 1,689 W.
    assert atlas.it_w_per_device("b200_hgx", acc, gpus, 1389, 1833) == 1689
    # GB300 in an NVL72 rack: 1,400 W + (1,833 - 1,200) W = 2,033 W.
    assert atlas.it_w_per_device("gb300_nvl72", acc, gpus, 1389, 1833) == 2033
    # Ironwood: 10 MW / 9,216 chips = 1,085 W, from data.
    assert atlas.it_w_per_device("tpu7x_ironwood", acc, gpus, 1389, 1833) == 1085
    # v5p and v6e: Ironwood's 1,085 W moved by peak (459 or 918 over Ironwood's 4,614 FP8) and by the
    # chart's perf-per-watt ratio (29.3 / 5.2 or 29.3 / 14.6, Epoch AI's reading): 608 W and 433 W.
    assert atlas.it_w_per_device("tpu_v5p", acc, gpus, 1389, 1833) == round(1085 * 459 / 4614 * 29.3 / 5.2)
    assert atlas.it_w_per_device("tpu_v6e", acc, gpus, 1389, 1833) == round(1085 * 918 / 4614 * 29.3 / 14.6)
    # Trainium2: no power figure published, no TDP: NaN, not a guess.
    assert math.isnan(atlas.it_w_per_device("trainium2", acc, gpus, 1389, 1833))


def test_derived_tpu_power_is_marked_and_cites_its_reading():
    acc = load_table("accelerators").set_index("gpu_id")
    sources = load_table("sources").set_index("source_id")
    for gpu_id in ("tpu_v5p", "tpu_v6e"):
        assert "derived" in acc.loc[gpu_id, "note"], gpu_id
        assert sources.loc[acc.loc[gpu_id, "it_w_source_id"], "note"].startswith("secondary"), gpu_id


def test_price_range_uses_the_latest_year():
    prices = load_table("cloud_prices")
    low, central, high = atlas.price_range(prices, "h100_sxm")
    # 2026 list-tier rows (on-demand, neocloud list, market range; no commitment or owning tier):
    # 2.35, 2.95, 1.99-5.00 and Oracle's 10.00: lowest 1.99, median midpoint 3.2225, highest 10.00.
    assert (low, central, high) == (1.99, 3.2225, 10.00)
    assert atlas.price_tiers(prices, "h100_sxm") == "on-demand, market range"
    # MI355X: Vultr's $15,126 a month for 8 GPUs (/ 730 h / 8 = $2.59) and Oracle's $8.60:
    # lowest 2.59, median midpoint (2.59 + 8.60) / 2 = 5.595, highest 8.60.
    assert 15_126 / 730 / 8 == pytest.approx(2.59, abs=0.005)
    assert atlas.price_range(prices, "mi355x") == pytest.approx((2.59, 5.595, 8.60))
    assert atlas.price_range(prices, "tpu7x_ironwood") == (12.0, 12.0, 12.0)  # on demand; 1-3 year and owning not used


def test_breakeven_price():
    # twice the H100's throughput matches its cost per token at twice its price
    assert atlas.breakeven_usd_per_device_hour(3242, 1621, 2.95) == pytest.approx(5.90)


def test_amd_peaks_follow_amds_per_clock_rates():
    gpus = load_table("gpus").set_index("gpu_id")
    # ROCm docs (rocm_mi300_arch): Matrix BF16 2,048 and FP8 4,096 FLOPs/clock/CU; 304 CUs
    # (rocm_gpu_specs) at 2.1 GHz: 2,048 x 304 x 2.1e9 = 1,307.4 TFLOP/s, 4,096 x 304 x 2.1e9 = 2,614.9.
    for gpu_id in ("mi300x", "mi325x"):
        assert gpus.loc[gpu_id, "bf16_dense_tflops"] == pytest.approx(2_048 * 304 * 2.1e9 / 1e12, abs=0.05)
        assert gpus.loc[gpu_id, "fp8_dense_tflops"] == pytest.approx(4_096 * 304 * 2.1e9 / 1e12, abs=0.05)
    # MI355X: AMD's "up to 10 petaFLOPS (MXFP4)" per GPU, FP8 half of it, BF16 half of FP8 ...
    mi355x = gpus.loc["mi355x"]
    assert mi355x["fp4_dense_tflops"] == 10_000
    assert mi355x["fp8_dense_tflops"] == mi355x["fp4_dense_tflops"] / 2
    assert mi355x["bf16_dense_tflops"] == mi355x["fp8_dense_tflops"] / 2
    # ... and a dense rate: 8,192 FP8 FLOPs/clock/CU (ISSCC) x 256 CUs needs ~2.4 GHz to reach it, a
    # real clock; the 10 PF "sparse" reading would need ~4.8 GHz.
    assert 2.2e9 < mi355x["fp8_dense_tflops"] * 1e12 / (8_192 * 256) < 2.6e9


def test_amd_peaks_cite_amds_own_documents():
    gpus = load_table("gpus").set_index("gpu_id")
    kind = load_table("sources").set_index("source_id")["kind"]
    for gpu_id in ("mi300x", "mi325x", "mi355x"):
        assert kind[gpus.loc[gpu_id, "source_id"]] == "vendor-doc", gpu_id


def test_every_price_row_cites_a_source_and_marks_a_stand_in():
    prices = load_table("cloud_prices")
    sources = load_table("sources").set_index("source_id")
    assert prices["source_id"].isin(sources.index).all()
    assert sources.loc[prices["source_id"], "url"].notna().all()
    proxy = prices[prices["what"].str.startswith("proxy:")]
    assert set(proxy["gpu_id"]) == {"gb300_nvl72"}
    assert proxy["note"].str.contains("proxy").all()


def test_own_price_beats_stand_ins():
    prices = load_table("cloud_prices")
    # GB300: Oracle's list price for the part itself, $18.00, is used; the B300-server stand-ins
    # ($5.00-9.50) stay in the table but no longer price it.
    assert atlas.price_range(prices, "gb300_nvl72") == pytest.approx((18.00, 18.00, 18.00))
    assert not atlas.price_is_proxy(prices, "gb300_nvl72")
    assert len(atlas.priced_rows(prices, "gb300_nvl72")) == 1
    # without the device's own row, the stand-ins price it and say so: Ornn's $5.00-7.25 (midpoint
    # 6.125), Verda's $6.99, Hyperstack's $7.40, Nebius's $7.85-9.50 (midpoint 8.675): lowest 5.00,
    # median midpoint (6.99 + 7.40) / 2, highest 9.50
    stand_ins = prices[prices["snapshot_id"] != "gb300_oci_2026"]
    assert atlas.price_range(stand_ins, "gb300_nvl72") == pytest.approx((5.00, 7.195, 9.50))
    assert atlas.price_is_proxy(stand_ins, "gb300_nvl72")
    # v5p, 2026: the quoted $4.20 and Google's $4.20-4.78 by region (midpoint 4.49): median 4.345
    assert atlas.price_range(prices, "tpu_v5p") == pytest.approx((4.20, 4.345, 4.78))
    assert not atlas.price_is_proxy(prices, "h100_sxm")
    assert not atlas.price_is_proxy(prices, "mi355x")
    assert not atlas.price_is_proxy(prices, "tpu7x_ironwood")  # unpriced is not a stand-in


def _set_throughput(data_copy, row_id: str, tokens_per_s: float) -> None:
    path = data_copy / "atlas_benchmarks.csv"
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    table.loc[table["row_id"] == row_id, "tokens_per_s_per_device_reported"] = repr(tokens_per_s)
    table.to_csv(path, index=False)


def test_an_mfu_above_the_dense_peak_is_refused(data_copy):
    """Ironwood's 70B BF16 row at three times its throughput would run above its BF16 dense peak:
    the atlas refuses it, naming the file, the row and the peak."""
    from analysis.data.load import DataError

    _set_throughput(data_copy, "irw_70b_bf16", 3 * 2_686.98)
    with pytest.raises(DataError, match=r"atlas_benchmarks.csv: row irw_70b_bf16: MFU .* of the BF16 dense peak"):
        atlas.load_atlas(TOL)


def test_a_printed_mfu_above_its_peak_is_refused(data_copy):
    """A printed MFU above 100 % of the publisher's peak is refused when the table loads, naming the
    file, the line and the column."""
    from analysis.data.load import DataError

    path = data_copy / "atlas_benchmarks.csv"
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    i = table.index[table["mfu_reported"] != ""][0]
    table.loc[i, "mfu_reported"] = "1.02"
    table.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"atlas_benchmarks.csv:\d+: row \d+, column 'mfu_reported': value 1.02"):
        atlas.load_atlas(TOL)
