"""Maintenance built from its parts (:mod:`analysis.maintenance`, wired in
:mod:`analysis.chapters.gpu_cost`): each component against the source it cites
(data/cost_anchors.csv, data/distributions.csv, data/maintenance_parts.csv, Llama 3's fault table),
the arithmetic by hand, the properties the build-up must have, and bad input (a component out of
its range, a warranty longer than the life) as a clear error."""

from __future__ import annotations

import numpy as np
import pytest

from analysis import capex, maintenance
from analysis.chapters import gpu_cost
from analysis.data.load import load_table
from analysis.params import constraints
from analysis.params import defaults as d
from analysis.params.parameters import ParameterError, Parameters

P = Parameters({p.name: p.default for p in d.TCO_INPUTS})
LLAMA3_GPUS, LLAMA3_DAYS = 16_384, 54


def anchor(anchor_id: str, column: str = "value") -> float:
    return float(load_table("cost_anchors").set_index("anchor_id").loc[anchor_id, column])


def span(param: str) -> tuple[float, float]:
    r = load_table("distributions").set_index("param").loc[param]
    return float(r["low"]), float(r["high"])


def per_gpu_year(count: float) -> float:
    return count / LLAMA3_GPUS * 365 / LLAMA3_DAYS


# --- each component against its source ---------------------------------------------------------------

def test_fault_rate_is_every_gpu_fault_in_llama3s_table():
    """Meta's Table 5: 148 faulty GPUs, 72 HBM3, 19 SRAM, 17 system processor, 6 silent data
    corruption, 6 thermal interface: 268 GPU faults in 54 days on 16,384 H100s, 11.1 % a GPU-year."""
    rates = maintenance.llama3_fault_rates()
    assert rates["gpu_faults"] == 148 + 72 + 19 + 17 + 6 + 6
    assert rates["gpu"] == pytest.approx(per_gpu_year(268))
    assert rates["gpu"] == pytest.approx(0.1106, abs=5e-4)


def test_swap_share_is_crusoes_and_its_range_runs_to_every_fault():
    """Crusoe's H200 cluster (GTC 2025, as Lockwood copies it): 41.5 % host replacements against 19.5 %
    recovered GPU faults, 68 % of GPU fault cases. The range: half (an estimate) to all (the reading
    of the earlier default)."""
    share = maintenance.swap_share(anchor("crusoe_gpu_host_replacement"), anchor("crusoe_gpu_recoverable"))
    assert share == pytest.approx(41.5 / 61)
    assert d.GPU_SWAP_SHARE.default == pytest.approx(share, abs=0.001)
    assert span("gpu_swap_share") == (0.5, 1.0)


def test_gpu_part_is_its_share_of_the_server_price():
    """Eight H100s at Raymond James's $27,500 midpoint over the ~$269,010 DGX H100 price (Epoch AI's
    copies of both): 81.8 %; the range $25,000 (74.3 %) to the DGX price less SemiAnalysis's $32,010
    of other parts at cost (88.1 %)."""
    low, high = anchor("gpu_share_raymond_james"), anchor("gpu_share_raymond_james", "value_high")
    assert (low, high) == (pytest.approx(8 * 25_000 / 269_010, abs=5e-4), pytest.approx(8 * 30_000 / 269_010, abs=5e-4))
    assert anchor("gpu_share_sa_bom") == pytest.approx(1 - 32_010 / 269_010, abs=5e-4)
    assert d.GPU_SHARE_OF_SERVER_PRICE.default == pytest.approx(8 * 27_500 / 269_010, abs=5e-4)
    assert span("gpu_share_of_server_price") == (low, anchor("gpu_share_sa_bom"))
    # The H100's part: 81.8 % of SemiAnalysis's $190,000 / 8. The GB200's, on the same share of the
    # NVL72 rack's $3.1M / 72, lands inside the $30,000-40,000 NVIDIA's CEO gave for a Blackwell GPU:
    # a check of the share on a second system, not an input.
    assert gpu_cost.gpu_part_usd(P, "h100") == pytest.approx(190_000 / 8 * d.GPU_SHARE_OF_SERVER_PRICE.default)
    assert anchor("blackwell_price_2024") <= gpu_cost.gpu_part_usd(P, "gb200") <= anchor("blackwell_price_2024", "value_high")
    for system in ("h100", "gb200"):  # a part never costs more than the server's share per GPU
        assert gpu_cost.gpu_part_usd(P, system) < gpu_cost.server_usd_per_gpu(P, system) < gpu_cost.capex_usd_per_gpu(P, system)


def test_warranty_labour_restock_and_contract_cite_their_anchors():
    assert d.WARRANTY_YEARS.default == anchor("warranty_supermicro_systems") == 3
    assert anchor("warranty_lenovo_servers") == 1 and anchor("warranty_lenovo_servers", "value_high") == 3
    assert span("warranty_years") == (0.0, 3.0)
    assert d.TECHNICIAN_USD_PER_HOUR.default == anchor("labour_qts_remote_hands") == 180
    assert span("technician_usd_per_hour") == (anchor("labour_365_remote_hands"), anchor("labour_qts_remote_hands", "value_high"))
    assert d.SWAP_PERSON_HOURS.default == anchor("swap_crew_lenovo_hgx") * 2  # two people, two hours each (assumed)
    assert span("spares_restock_days")[0] == anchor("restock_lenovo_nbd") == 1
    assert d.SUPPORT_FRAC_PER_YEAR.default == anchor("support_dgx_h100_list") == pytest.approx(39_800 / 199_000)


def test_other_parts_are_priced_where_a_price_is_public():
    """A NIC at the mid of $1,599-2,188 and a link fault at a 400G transceiver's $600-800; the host
    parts with no public price are swapped (labour) but not priced."""
    parts = maintenance.llama3_fault_rates()["parts"]
    assert parts.loc["NIC", "mid_usd"] == (1_599 + 2_188) / 2
    assert parts.loc["Network switch/cable", "mid_usd"] == 700
    assert (parts.drop(["NIC", "Network switch/cable"])["mid_usd"] == 0).all()
    swaps, usd = maintenance.other_parts_per_gpu_year()
    assert swaps == pytest.approx(per_gpu_year(7 + 35 + 3 + 3 + 2 + 2 + 2 + 2))
    assert usd == pytest.approx(per_gpu_year(7) * 1_893.5 + per_gpu_year(35) * 700)


def test_the_earlier_default_is_llama3s_gpu_and_hbm_faults_at_the_whole_capex():
    assert maintenance.earlier_default_frac_per_year() == pytest.approx(per_gpu_year(148 + 72))
    assert maintenance.earlier_default_frac_per_year() == pytest.approx(0.091, abs=0.001)


# --- the arithmetic ------------------------------------------------------------------------------------

def test_h100_build_up_by_hand():
    """Per GPU-year: GPUs swapped x part x the share of the life out of warranty; other parts likewise;
    every swap's labour; the spares pool (swaps x restock days / 365 parts) at the capital charge."""
    swaps = per_gpu_year(268) * d.GPU_SWAP_SHARE.default
    part = 190_000 / 8 * d.GPU_SHARE_OF_SERVER_PRICE.default
    out_of_warranty = (4 - 3) / 4
    other_swaps = per_gpu_year(56)
    other_usd = per_gpu_year(7) * 1_893.5 + per_gpu_year(35) * 700
    crf = 0.1 * 1.1 ** 4 / (1.1 ** 4 - 1)
    by_hand = {"GPUs replaced": swaps * part * out_of_warranty, "other parts": other_usd * out_of_warranty,
               "labour": (swaps + other_swaps) * 4 * 180, "spares pool": swaps * 30 / 365 * part * crf}
    built = gpu_cost.maintenance_build_up_usd_per_gpu_month(P, "h100")
    assert built.keys() == by_hand.keys()
    for item, usd in by_hand.items():
        assert built[item] == pytest.approx(usd / 12, rel=1e-9), item
    assert gpu_cost.maintenance_usd_per_gpu_month(P, "h100") == pytest.approx(sum(by_hand.values()) / 12)


def test_gb200_scales_with_its_fault_ratio_and_part_price():
    base = gpu_cost.maintenance_build_up_usd_per_gpu_month(P, "gb200")
    double = gpu_cost.maintenance_build_up_usd_per_gpu_month(P.replace(gb200_gpu_fault_ratio=2.0), "gb200")
    for item in base:
        assert double[item] == pytest.approx(2 * base[item]), item
    h100 = gpu_cost.maintenance_build_up_usd_per_gpu_month(P, "h100")
    ratio = gpu_cost.gpu_part_usd(P, "gb200") / gpu_cost.gpu_part_usd(P, "h100")
    assert base["GPUs replaced"] == pytest.approx(h100["GPUs replaced"] * ratio)
    assert base["labour"] == pytest.approx(h100["labour"])  # the same swaps per GPU at ratio 1


def test_support_contract_basis():
    contract = P.replace(maintenance_basis="support contract")
    assert gpu_cost.maintenance_usd_per_gpu_month(contract, "h100") == pytest.approx(190_000 / 8 * 0.20 / 12)
    assert gpu_cost.support_contract_usd_per_gpu_month(P, "gb200") == pytest.approx(3_100_000 / 72 * 0.20 / 12)


# --- properties ----------------------------------------------------------------------------------------

def test_out_of_warranty_share():
    assert maintenance.out_of_warranty_frac(4, 0) == 1 and maintenance.out_of_warranty_frac(4, 4) == 0
    assert maintenance.out_of_warranty_frac(4, 3) == 0.25
    assert maintenance.out_of_warranty_frac(3, 5) == 0  # clipped, never negative (Monte Carlo draws)
    shares = maintenance.out_of_warranty_frac(np.array([3.0, 4.0, 6.0]), 3.0)
    assert np.all(np.diff(shares) > 0)


def test_maintenance_moves_the_right_way_with_each_component():
    base = gpu_cost.maintenance_usd_per_gpu_month(P, "h100")
    for change in ({"warranty_years": 0.0}, {"gpu_swap_share": 1.0}, {"gpu_share_of_server_price": 0.881},
                   {"swap_person_hours": 8.0}, {"technician_usd_per_hour": 200.0}, {"spares_restock_days": 90.0},
                   {"useful_life_years": 6.0}):
        assert gpu_cost.maintenance_usd_per_gpu_month(P.replace(**change), "h100") > base, change
    free = P.replace(warranty_years=4.0, swap_person_hours=0.0, spares_restock_days=0.0)
    assert gpu_cost.maintenance_usd_per_gpu_month(free, "h100") == 0


def test_the_build_up_stays_below_the_bounds_it_replaced():
    """Every GPU and HBM3 fault a GPU at its whole all-in share with no warranty (the earlier 9.1 %) is
    an upper bound on parts; the build-up at the dear end of every component stays under it, and a
    support contract at list is dearer still: the ceiling."""
    dear = P.replace(gpu_swap_share=1.0, gpu_share_of_server_price=0.881, warranty_years=0.0, swap_person_hours=8.0,
                     technician_usd_per_hour=200.0, spares_restock_days=90.0)
    earlier = gpu_cost.capex_usd_per_gpu(P, "h100") * maintenance.earlier_default_frac_per_year() / 12
    assert gpu_cost.maintenance_usd_per_gpu_month(P, "h100") < gpu_cost.maintenance_usd_per_gpu_month(dear, "h100")
    assert gpu_cost.maintenance_usd_per_gpu_month(dear, "h100") < earlier * 1.25  # labour and spares on top of parts
    assert earlier < gpu_cost.support_contract_usd_per_gpu_month(P, "h100")


def test_arrays_evaluate_like_scalars():
    lives = np.array([3.0, 4.0, 6.0])
    many = gpu_cost.maintenance_usd_per_gpu_month(P.replace(useful_life_years=lives), "h100")
    one = [gpu_cost.maintenance_usd_per_gpu_month(P.replace(useful_life_years=v), "h100") for v in lives]
    assert np.allclose(many, one)
    assert capex.capital_recovery_factor(0.1, lives).shape == lives.shape


# --- bad input -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,value", [("gpu_swap_share", 1.5), ("gpu_share_of_server_price", -0.1),
                                        ("warranty_years", 11), ("technician_usd_per_hour", -5)])
def test_a_component_out_of_its_range_names_it_and_its_range(name, value):
    param = next(p for p in d.TCO_INPUTS if p.name == name)
    with pytest.raises(ParameterError, match=rf"parameter '{name}': expected a number from .* to .*out of range"):
        param.parse(value)


def test_a_warranty_longer_than_the_life_names_both():
    values = {p.name: p.default for p in d.TCO_INPUTS}
    constraints.check(Parameters(values), "tco")  # the defaults agree
    for change in ({"warranty_years": 5.0}, {"useful_life_years": 2.0}):
        with pytest.raises(ParameterError, match="'warranty_years'.*'useful_life_years'.*conflict"):
            constraints.check(Parameters({**values, **change}), "tco")
