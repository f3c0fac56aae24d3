"""The folded-Clos arithmetic of analysis.network against hand counts and SemiAnalysis's printed
network figures (B23, B28, B30, B31), and the network parameters against their data rows."""

import pytest

from analysis import network
from analysis.data.load import fact, row
from analysis.params import defaults as d


def test_nonblocking_capacity_reproduces_b30():
    """2 (k/2)^t: Quantum-2's 64 ports in 3 tiers stop at 65,536 GPUs (B30); 128 ports reach 524,288."""
    assert network.max_nonblocking_gpus(64, 3) == fact("B30_max_gpus_3tier") == 65_536
    assert network.max_nonblocking_gpus(128, 3) == 524_288
    assert network.max_nonblocking_gpus(64, 2) == 2_048
    assert network.tiers_needed(100_000, 64) == 4
    assert network.tiers_needed(100_000, 128) == 3
    assert network.tiers_needed(65_536, 64) == 3


def test_fat_tree_counts_by_hand():
    """3 tiers of 128-port switches for 100,000 GPUs: 100,000 links into each tier; 100,000 / 64 =
    1,563 (rounded up) switches in each of the two lower tiers, 100,000 / 128 = 782 on top."""
    f = network.clos_fabric(100_000, 128)
    assert f.tiers == 3 and f.islands == 1
    assert f.links_up == (100_000, 100_000, 100_000)
    assert f.switches == (1_563, 1_563, 782)
    assert f.links == 300_000


def test_island_fabric_counts_by_hand():
    """SemiAnalysis's pods (B22): 64-port switches, 24,576-GPU islands, 7:1 above. Island-top switches
    have 56 ports down and 8 up; 3 tiers hold 32 x 32 x 56 = 57,344 >= 24,576; the 4th tier takes
    100,000 / 7 links."""
    f = network.clos_fabric(100_000, 64, 0, 24_576, 7.0)
    assert f.tiers == 4 and f.island_tiers == 3
    assert f.switches[:2] == (3_125, 3_125)
    assert f.switches[2] == -(-100_000 // 56)  # 1,786
    assert f.links_up[3] == pytest.approx(100_000 / 7)
    assert f.switches[3] == -(-100_000 // (7 * 64))  # 224
    assert f.islands == pytest.approx(100_000 / 24_576)


def test_too_few_tiers_is_an_error():
    with pytest.raises(ValueError, match="need 4"):
        network.clos_fabric(100_000, 64, 3)
    with pytest.raises(ValueError):
        network.clos_fabric(100_000, 64, 2, 24_576, 7.0)


def test_four_tiers_need_a_third_more_optical_ports_b30():
    """All-optical fat trees: 2 x T x n optical port ends, so 4 tiers / 3 tiers = 4/3 (B30's 1.33x).
    Counted as pluggables (n node-side + n/2 leaf-side + (T - 1) n twin-port) the ratio is 4.5/3.5."""
    four = network.fabric_media(network.clos_fabric(60_000, 64, 4))
    three = network.fabric_media(network.clos_fabric(60_000, 64, 3))
    assert four.optical_port_ends / three.optical_port_ends == pytest.approx(4 / 3)
    assert four.optical_port_ends / three.optical_port_ends == pytest.approx(fact("B30_transceiver_ratio"), rel=0.01)
    assert four.transceivers / three.transceivers == pytest.approx(4.5 / 3.5)


def test_middle_of_rack_copper_share_is_one_tier_in_t_b23():
    """Copper GPU-to-leaf links are 1/T of a fat tree's links: 1/3 and 1/4 bound B23's 25-33 %."""
    for tiers, share in ((3, 1 / 3), (4, 1 / 4)):
        media = network.fabric_media(network.clos_fabric(60_000, 64, tiers), rail_optimized=False)
        assert media.copper_frac == pytest.approx(share)
        assert media.node_transceivers == 0 and media.dac_links == 60_000
    low, high = row("report_facts", "B23_copper_frac")[["value", "value_high"]]
    assert (1 / 4, 1 / 3) == pytest.approx((low, high), rel=0.011)


def test_node_transceivers_and_cedar_reproduce_b23_b28():
    """4 x 24,576 GPUs, one node-side transceiver each (98,304, B23), two links each with Cedar
    Fever's twin-port cages (49,152, B28)."""
    gpus = fact("B22_pods") * fact("B22_gpus_per_pod")
    fabric = network.clos_fabric(gpus, 64, 0, 24_576, 7.0)
    assert network.fabric_media(fabric).node_transceivers == fact("B23_transceivers")
    assert network.fabric_media(fabric, node_ports_per_transceiver=2).node_transceivers == fact("B28_transceivers")


def test_switch_side_transceivers_by_hand():
    """3-tier rail-optimized fat tree, 1,000 GPUs at 16 ports: leaf side 1,000 ends / 2 = 500 twin-port
    multimode; tier 1-2 links 1,000 multimode (2 ends / 2); the top layer 1,000 single-mode."""
    media = network.fabric_media(network.clos_fabric(1_000, 16, 3))
    assert media.node_transceivers == 1_000
    assert media.switch_multimode_transceivers == 500 + 1_000
    assert media.switch_single_mode_transceivers == 1_000
    assert media.multimode_links == 2_000 and media.single_mode_links == 1_000


def test_bill_prices_every_part():
    fabric = network.clos_fabric(1_000, 16, 3)
    media = network.fabric_media(fabric)
    p = network.Prices(10, 1, 100, 2, 300, 4, 500, 6, 0, 0.1, nic_extra_usd=300, nic_extra_w=50)
    bill = network.fabric_bill(fabric, media, p)
    assert bill["switches"]["usd"] == fabric.switch_count * 16 * 10
    assert bill["node_transceivers"]["w"] == 1_000 * 2
    assert bill["nic_extra"]["usd"] == 1_000 * 300
    assert network.bill_total(bill, "usd") == pytest.approx(
        fabric.switch_count * 160 + 1_000 * 100 + 1_500 * 300 + 1_000 * 500 + 300_000)


def test_switch_with_optics_stays_inside_b24():
    """747 W on copper (B24) plus 32 twin-port multimode optics at 15 W = 1,227 W <= 'up to 1,500 W'."""
    w = network.switch_power_with_optics_w(fact("B24_dac_w"), 64, 15.0)
    assert w == pytest.approx(747 + 32 * 15)
    assert fact("B24_dac_w") < w <= fact("B24_optics_w")


def test_sharp_gain_tends_to_two_b31():
    assert network.sharp_bandwidth_gain(2) == pytest.approx(1.0)
    assert network.sharp_bandwidth_gain(8) == pytest.approx(1.75)
    assert network.sharp_bandwidth_gain(12_500) == pytest.approx(fact("B31_sharp_gain"), rel=0.001)


@pytest.mark.parametrize(("param", "expected"), [
    (d.NODE_TRANSCEIVER_W, row("network_components", "osfp_400g_sr4")["power_w"]),
    (d.MULTIMODE_TRANSCEIVER_W, row("network_components", "osfp_800g_2xsr4")["power_w"]),
    (d.SINGLE_MODE_TRANSCEIVER_W, row("network_components", "osfp_800g_2xdr4")["power_w"]),
    (d.DAC_W, row("network_components", "dac_2x400g_osfp")["power_w"]),
    (d.SWITCH_W_PER_PORT, row("network_components", "quantum2_qm9700")["power_w"] / 64),
    (d.NODE_TRANSCEIVER_USD, (row("network_components", "qsfpdd_400g")["price_usd"]
                              + row("network_components", "qsfpdd_400g")["price_usd_high"]) / 2),
    (d.SINGLE_MODE_TRANSCEIVER_USD, (row("network_components", "osfp_800g_dr8")["price_usd"]
                                     + row("network_components", "osfp_800g_dr8")["price_usd_high"]) / 2),
    (d.MULTIMODE_TRANSCEIVER_USD, d.SINGLE_MODE_TRANSCEIVER_USD.default / fact("B17_single_mode_cost_ratio")),
    (d.IB_SWITCH_USD_PER_PORT, (row("network_components", "quantum2_64x400g_price")["price_usd"]
                                + row("network_components", "quantum2_64x400g_price")["price_usd_high"]) / 2 / 64),
    (d.ETHERNET_SWITCH_USD_PER_PORT, (row("network_components", "switch_64x800g")["price_usd"]
                                      + row("network_components", "switch_64x800g")["price_usd_high"]) / 2 / 128),
])
def test_price_and_power_defaults_are_their_data_rows(param, expected):
    assert param.default == pytest.approx(expected)


def test_bluefield_row_is_b32():
    r = row("network_components", "bluefield3_vs_connectx7")
    assert r["power_w"] == fact("B32_card_w") and r["price_usd"] == fact("B32_asp_usd")
