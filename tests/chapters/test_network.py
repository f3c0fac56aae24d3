"""The network chapter (``analysis.chapters.network``) at the report's inputs reproduces
SemiAnalysis's network counts (B22-B32) within the ledger's tolerances, prices the options with the
same functions, and hands its link counts to the cluster chapter."""

import pytest

from analysis.chapters import compute_section
from analysis.data.load import fact
from analysis.params import defaults as d


@pytest.fixture(scope="module")
def N():
    return compute_section("network", {})


def test_default_design_is_the_articles_4_tier_infiniband_pods(N):
    """100,000 GPUs, 64-port switches, 24,576-GPU islands, 7:1: 4 tiers; 3,125 + 3,125 + 1,786 + 224
    switches; 3 x 100,000 + 100,000 / 7 links."""
    assert N["network_tiers_count"] == 4 == N["network_fewest_tiers_count"]
    assert N["network_switches_count"] == 3_125 + 3_125 + 1_786 + 224
    assert N["network_links_count"] == pytest.approx(300_000 + 100_000 / 7)
    assert N["island_layout_islands_count"] == fact("B22_pods")
    assert N["island_layout_gpus_count"] == fact("B22_pods") * fact("B22_gpus_per_pod") == 98_304


def test_counts_reproduce_b23_b27_b28_b30(N):
    assert N["backend_nic_links_count"] == fact("B27_links")
    assert N["cedar_backend_nic_links_count"] == fact("B28_links")
    assert N["island_layout_node_transceivers_count"] == fact("B23_transceivers")
    assert N["island_layout_cedar_node_transceivers_count"] == fact("B28_transceivers")
    assert N["three_tier_max_gpus_count"] == fact("B30_max_gpus_3tier")
    assert N["four_vs_three_tier_optical_ports_ratio"] == pytest.approx(fact("B30_transceiver_ratio"), rel=0.01)
    # copper share of the pods with leaves in the rack: 100,000 / (300,000 + 100,000 / 7) = 0.318
    assert N["middle_of_rack_copper_frac"] == pytest.approx(1 / (3 + 1 / 7))
    assert 0.25 <= N["middle_of_rack_copper_frac"] <= 0.33


def test_bluefield_and_sharp_reproduce_b31_b32(N):
    assert N["bluefield3_extra_w_per_node"] == fact("B32_node_w") == 400
    assert N["bluefield3_extra_mw"] == pytest.approx(fact("B32_cluster_mw"))
    assert N["bluefield3_extra_capex_usd"] == 300 * 100_000
    assert N["sharp_bandwidth_gain_ratio"] == pytest.approx(fact("B31_sharp_gain"), rel=0.001)


def test_capex_and_power_by_hand(N):
    """Backend: 8,260 switches x 64 ports x $671.875; 100,000 node optics x $700; 250,000 multimode
    twin-port x $500; 100,000 / 7 single-mode x $1,250; plus 1/8 for front end and storage (2 x 200G
    against 8 x 400G per node)."""
    backend = 8_260 * 64 * 43_000 / 64 + 100_000 * 700 + 250_000 * 500 + 100_000 / 7 * 1_250
    assert N["network_backend_capex_usd"] == pytest.approx(backend)
    assert N["network_capex_usd"] == pytest.approx(backend * 1.125)
    watts = 8_260 * 747 + 100_000 * 8 + 250_000 * 15 + 100_000 / 7 * 16
    assert N["network_it_mw"] == pytest.approx(watts * 1.125 / 1e6)
    assert N["network_facility_mw"] == pytest.approx(N["network_it_mw"] * d.PUE.default)
    # within what SemiAnalysis's all-in server leaves for storage, network and other ($7,500 per GPU)
    assert N["network_capex_usd_per_gpu"] < N["allin_minus_server_usd_per_gpu"] == 7_500


def test_options_table(N):
    table = N.tables["options"].set_index("option")
    assert table.loc["selected", "capex_usd"] == pytest.approx(N["network_capex_usd"])
    assert table.loc["ib_fat_tree", "tiers"] == 4 and table.loc["tomahawk5", "tiers"] == 3
    # a 4-tier non-blocking fat tree has 4 x 100,000 links; 3 tiers 3 x 100,000
    assert table.loc["ib_fat_tree", "links"] == 400_000 and table.loc["tomahawk5", "links"] == 300_000
    # middle of rack: the 100,000 node optics and 50,000 leaf-side twin-port optics become copper
    assert table.loc["tomahawk5", "transceivers"] - table.loc["tomahawk5_mor", "transceivers"] == 150_000
    assert table.loc["tomahawk5_mor", "copper_frac"] == pytest.approx(1 / 3)
    # Spectrum-X differs from Tomahawk 5 only by BlueField-3: +50 W and +$300 per GPU, +1/8 front end
    assert (table.loc["spectrum_x", "it_mw"] - table.loc["tomahawk5", "it_mw"]) == pytest.approx(5.0 * 1.125)
    assert (table.loc["spectrum_x", "capex_usd"] - table.loc["tomahawk5", "capex_usd"]) == pytest.approx(30e6 * 1.125)
    assert table.loc["tomahawk5_cedar", "first_failure_minutes"] == pytest.approx(fact("B28_first_failure_min"), abs=0.005)
    assert table.loc["ib_pods", "first_failure_minutes"] == pytest.approx(fact("B27_first_failure_min"), abs=0.005)


def test_ethernet_saving_and_the_price_that_would_give_b34(N):
    """At the B34-implied Ethernet switch price the like-for-like saving is the article's $400M."""
    price = N["ethernet_switch_usd_per_port_for_b34_saving"]
    assert 0 < price < N["infiniband_switch_usd_per_port"]
    at = compute_section("network", {"ethernet_switch_usd_per_port": price})
    assert at["ethernet_vs_infiniband_capex_saving_usd"] == pytest.approx(fact("B34_capex_saving_usd"), rel=1e-9)
    # one tier fewer: ~4.2 MW less IT power, at the meter (PUE) for the average draw (load factor) at
    # $0.078/kWh; at the rated draw all year and a 1.3 overhead, SA's basis for its energy, within
    # 10 % of its '>$4M' (B34)
    table = N.tables["options"].set_index("option")
    saved_it_w = (table.loc["ib_fat_tree", "it_mw"] - table.loc["tomahawk5", "it_mw"]) * 1e6
    assert N["ethernet_vs_infiniband_electricity_saving_usd_per_year"] == pytest.approx(
        saved_it_w * d.PUE.default * d.LOAD_FACTOR.default * 8_760 / 1e3 * 0.078)
    rated = compute_section("network", {"load_factor": 1.0, "pue": 1.3})
    assert rated["ethernet_vs_infiniband_electricity_saving_usd_per_year"] == pytest.approx(
        fact("B34_power_saving_usd_per_yr"), rel=0.1)


def test_parameters_reach_the_design():
    bigger = compute_section("network", {"gpus": 32_768, "switch_radix": 128})
    assert bigger["backend_nic_links_count"] == 32_768
    assert bigger["network_tiers_count"] == 4  # islands of 24,576 plus the tier above them
    one_tree = compute_section("network", {"gpus": 32_768, "switch_radix": 128, "island_gpus": 32_768})
    assert one_tree["network_tiers_count"] == 3
    assert compute_section("network", {"fabric_tiers": 5})["network_tiers_count"] == 5
    assert compute_section("network", {"fabric_tiers": 2})["network_tiers_count"] == 4  # raised to the fewest
    mor = compute_section("network", {"rail_layout": "middle_of_rack"})
    assert mor["network_node_transceivers_count"] == 0 and mor["network_dac_links_count"] == 100_000


def test_cluster_reads_its_link_count_and_mttf_from_the_network():
    """The cluster chapter's first failure follows the topology: Cedar Fever's twin-port node optics
    halve the NIC-to-leaf links, each with the shorter twin-port MTTF (4 years, B28), so the first
    failure comes after 4 years / 50,000 links = 42.05 minutes (B28), in both chapters and in the
    reliability chapter that reads it (it was 52.56 minutes in the cluster chapter, half the links at
    the single-port 5-year MTTF, and 26.28 in the reliability chapter, before they read the network)."""
    base = compute_section("cluster", {})
    assert base["first_failure_minutes"] == pytest.approx(fact("B27_first_failure_min"), abs=0.005)
    cedar = compute_section("cluster", {"node_ports_per_transceiver": 2})
    assert cedar["links_per_gpu"] == 0.5
    assert cedar["first_failure_minutes"] == pytest.approx(fact("B28_first_failure_min"), abs=0.005)
    assert cedar["first_failure_minutes"] == cedar["first_failure_alt_design_minutes"]
    net = compute_section("network", {"node_ports_per_transceiver": 2})
    assert cedar["first_failure_minutes"] == net["selected_first_failure_minutes"]
    assert compute_section("reliability", {"node_ports_per_transceiver": 2})["first_failure_minutes"] == \
        cedar["first_failure_minutes"]
