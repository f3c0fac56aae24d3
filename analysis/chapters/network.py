"""Network chapter: the backend fabric of the 100,000-H100 cluster, derived from its size and the
design choices (switch radix, tiers, islands and their oversubscription, rail-optimized or middle of
rack, node-side transceivers, NIC): switches, links, transceivers and copper, their capex and power,
and the link count behind the time to the first failure (SemiAnalysis, 2024, facts B17-B34).

The design set by the parameters is *the* fabric of the book's cluster: the cluster chapter reads
``backend_nic_links_count`` and ``cedar_backend_nic_links_count`` from here for its first-failure
arithmetic (B27, B28). The article's other options are computed with the same functions and prices,
changing only what each option changes (:func:`options`).
"""

from __future__ import annotations

import math

import pandas as pd

from analysis import cluster, network
from analysis.chapters import ChapterResults
from analysis.data.load import fact, framing, row
from analysis.params.constraints import shown, where
from analysis.params.parameters import ParameterError


def options() -> tuple[tuple[str, str, dict], ...]:
    """The article's designs, as changes to the chapter's parameters: ``(id, label, changes)``.
    "Fat tree" sets the island to the whole cluster. Radixes come from
    ``data/network_components.csv`` (Quantum-2: 64; SN5600 and Tomahawk 5: 128, B29), island
    sizes from the report (B22; Meta's 32,000 GPUs in 8 islands, B20)."""
    ib = {"switch_family": "infiniband", "switch_radix": int(row("network_components", "quantum2_qm9700")["ports_400g"]),
          "fabric_tiers": 0, "rail_layout": "rail_optimized", "node_ports_per_transceiver": 1,
          "backend_nic": "connectx7", "island_oversubscription": fact("B22_oversubscription")}
    eth = {**ib, "switch_family": "ethernet", "island_gpus": None,
           "switch_radix": int(row("network_components", "tomahawk5_switch")["ports_400g"])}
    return (
        ("selected", "This chapter's parameters", {}),
        ("ib_pods", f"InfiniBand, {fact('B22_gpus_per_pod'):,.0f}-GPU pods, {fact('B22_oversubscription'):.0f}:1 above (B22)",
         {**ib, "island_gpus": int(fact("B22_gpus_per_pod"))}),
        ("ib_fat_tree", "InfiniBand, one non-blocking fat tree", {**ib, "island_gpus": None}),
        ("meta_islands", f"InfiniBand switches, islands of {framing('B20_gpus') / framing('B20_islands'):,.0f} GPUs, "
                         f"{fact('B20_oversubscription'):.0f}:1 above (Meta's layout, B20)",
         {**ib, "island_gpus": int(framing("B20_gpus") / framing("B20_islands")),
          "island_oversubscription": fact("B20_oversubscription")}),
        ("spectrum_x", "Spectrum-X, fat tree, BlueField-3 (B32)", {**eth, "backend_nic": "bluefield3"}),
        ("tomahawk5", "Tomahawk 5, fat tree", eth),
        ("tomahawk5_mor", "Tomahawk 5, middle of rack: copper to the leaf (B23)", {**eth, "rail_layout": "middle_of_rack"}),
        ("tomahawk5_cedar", "Tomahawk 5, Cedar Fever 2x400G node optics (B28)", {**eth, "node_ports_per_transceiver": 2}),
    )


def prices(P) -> network.Prices:
    """Unit prices and powers from the parameters; a BlueField-3 NIC adds B32's difference."""
    bluefield = P.backend_nic == "bluefield3"
    return network.Prices(
        switch_usd_per_port=(P.ib_switch_usd_per_port if P.switch_family == "infiniband"
                             else P.ethernet_switch_usd_per_port),
        switch_w_per_port=P.switch_w_per_port,
        node_transceiver_usd=P.node_transceiver_usd if P.node_ports_per_transceiver == 1 else P.multimode_transceiver_usd,
        node_transceiver_w=P.node_transceiver_w if P.node_ports_per_transceiver == 1 else P.multimode_transceiver_w,
        multimode_transceiver_usd=P.multimode_transceiver_usd, multimode_transceiver_w=P.multimode_transceiver_w,
        single_mode_transceiver_usd=P.single_mode_transceiver_usd, single_mode_transceiver_w=P.single_mode_transceiver_w,
        dac_usd=P.dac_usd, dac_w=P.dac_w,
        nic_extra_usd=fact("B32_asp_usd") if bluefield else 0.0, nic_extra_w=fact("B32_card_w") if bluefield else 0.0)


def design(P) -> dict:
    """Everything about one fabric at parameters ``P``: the fabric, its media, its bill and totals.
    Twin-port node optics (Cedar Fever) use the multimode twin-port transceiver's price and power."""
    fabric = network.design_fabric(P.gpus, P.switch_radix, P.fabric_tiers, P.island_gpus, P.island_oversubscription)
    media = network.fabric_media(fabric, P.rail_layout == "rail_optimized", P.node_ports_per_transceiver)
    bill = network.fabric_bill(fabric, media, prices(P))
    backend_usd, backend_w = network.bill_total(bill, "usd"), network.bill_total(bill, "w")
    total_usd, total_w = backend_usd * (1 + P.frontend_storage_frac), backend_w * (1 + P.frontend_storage_frac)
    nic_links = P.gpus / P.node_ports_per_transceiver  # as SemiAnalysis counts them (B27, B28)
    mttf = P.alt_link_mttf_years if P.node_ports_per_transceiver == 2 else P.link_mttf_years
    return {"fabric": fabric, "media": media, "bill": bill, "backend_usd": backend_usd, "backend_w": backend_w,
            "usd": total_usd, "w": total_w, "nic_links": nic_links, "mttf_years": mttf,
            "first_failure_minutes": cluster.first_failure_minutes(mttf, nic_links),
            "all_links_first_failure_minutes": cluster.first_failure_minutes(
                mttf, nic_links + fabric.links - fabric.links_up[0])}


def _facility_usd_per_year(P, watts: float) -> float:
    """Yearly electricity bill of ``watts`` of IT load, at the meter (the cluster chapter's functions)."""
    mwh = cluster.annual_energy_mwh(cluster.facility_w(watts, P.pue), P.load_factor)
    return cluster.annual_electricity_usd(mwh, P.tariff_usd_per_kwh)


def options_table(P) -> pd.DataFrame:
    """One row per design option: counts, capex, power and the first-failure arithmetic, and what
    each changes against the chapter's design in cluster capex and facility power."""
    rows, base = [], design(P)
    for option_id, label, changes in options():
        d = design(P.replace(**changes))
        f, m = d["fabric"], d["media"]
        rows.append({
            "option": option_id, "label": label, "switch_radix": f.radix, "tiers": f.tiers,
            "islands": f.islands, "switches": f.switch_count, "links": f.links, "optical_links": m.optical_links,
            "dac_links": m.dac_links, "copper_frac": m.copper_frac, "transceivers": m.transceivers,
            "node_transceivers": m.node_transceivers, "capex_usd": d["usd"], "capex_usd_per_gpu": d["usd"] / P.gpus,
            "switches_usd": d["bill"]["switches"]["usd"],
            "optics_usd": sum(d["bill"][k]["usd"] for k in d["bill"] if k.endswith("transceivers")),
            "it_mw": d["w"] / 1e6, "facility_mw": d["w"] * P.pue / 1e6,
            "electricity_usd_per_year": _facility_usd_per_year(P, d["w"]),
            "cluster_capex_change_usd": d["usd"] - base["usd"], "facility_mw_change": (d["w"] - base["w"]) * P.pue / 1e6,
            "nic_links": d["nic_links"], "link_mttf_years": d["mttf_years"],
            "first_failure_minutes": d["first_failure_minutes"],
            "all_links_first_failure_minutes": d["all_links_first_failure_minutes"],
        })
    return pd.DataFrame(rows)


def _compute_design(P, res: ChapterResults) -> dict:
    d = design(P)
    f, m = d["fabric"], d["media"]
    res.add("network_gpus_count", P.gpus, "GPUs", "GPUs on the backend fabric")
    res.add("network_tiers_count", f.tiers, "count", "Switch tiers of the backend fabric")
    res.add("network_fewest_tiers_count", design(P.replace(fabric_tiers=0))["fabric"].tiers, "count",
            "Fewest switch tiers that connect the cluster with these switches and islands")
    res.add("network_islands_count", f.islands, "count", "Non-blocking islands (pods), fractional if the last is partial")
    res.add("network_switches_count", f.switch_count, "count", "Backend switches")
    res.add("network_links_count", f.links, "count", "Backend 400G links, GPU-to-leaf and switch-to-switch")
    res.add("network_optical_links_count", m.optical_links, "count", "Backend links over optics")
    res.add("network_dac_links_count", m.dac_links, "count", "Backend links over copper (DAC)")
    res.add("network_copper_frac", m.copper_frac, "fraction", "Share of backend links on copper")
    res.add("network_transceivers_count", m.transceivers, "count", "Optical transceivers, node and switch side")
    res.add("network_node_transceivers_count", m.node_transceivers, "count", "Node-side (GPU-to-leaf) transceivers")
    res.add("backend_nic_links_count", d["nic_links"], "count",
            "NIC-to-leaf links, as SemiAnalysis counts them for failures (B27)")
    res.add("cedar_backend_nic_links_count", math.ceil(P.gpus / 2), "count",
            "NIC-to-leaf links with Cedar Fever's twin-port node optics (B28)")
    res.add("backend_link_mttf_years", d["mttf_years"], "years",
            "MTTF of one NIC-to-leaf link of this fabric (twin-port node optics: the Cedar Fever-7 MTTF)")
    usd = res.add("network_capex_usd", d["usd"], "USD", "Network capex: backend fabric plus front-end and storage share")
    res.add("network_backend_capex_usd", d["backend_usd"], "USD", "Backend fabric capex")
    res.add("network_frontend_storage_pct", P.frontend_storage_frac * 100, "percent",
            "Front-end and storage network, as a share of the backend's cost and power (parameter)")
    res.add("network_capex_usd_per_gpu", usd / P.gpus, "USD per GPU", "Network capex per GPU")
    cluster_capex = P.capex_usd_per_gpu * P.gpus
    res.add("network_capex_share_of_cluster_frac", usd / cluster_capex, "fraction",
            "Network capex / the cluster's all-in capex (capex_usd_per_gpu)")
    # SemiAnalysis's all-in server ($250k, A04) less the bare server ($190k, A03): storage, network, other
    res.add("allin_minus_server_usd_per_gpu", (fact("A04_h100_server_allin_usd") - fact("A03_h100_server_usd"))
            / P.h100_gpus_per_server, "USD per GPU", "All-in minus bare server per GPU: storage, network and other (A03, A04)")
    w = d["w"]
    res.add("network_it_mw", w / 1e6, "MW", "Network IT power: switches, optics, NIC difference, front end and storage")
    res.add("network_it_w_per_gpu", w / P.gpus, "W per GPU", "Network IT power per GPU")
    res.add("network_it_share_frac", w / (P.h100_it_w_per_gpu * P.gpus), "fraction",
            "Network power / the cluster's critical IT power (h100_it_w_per_gpu)")
    res.add("network_facility_mw", w * P.pue / 1e6, "MW", "Network power at the meter (times PUE)")
    res.add("network_annual_electricity_usd", _facility_usd_per_year(P, w), "USD per year",
            "Electricity for the network per year")
    res.add("network_all_links_first_failure_minutes", d["all_links_first_failure_minutes"], "minutes",
            "Mean time to the first failure if every backend link failed as often as a NIC-to-leaf link")
    for part, values in d["bill"].items():
        res.add(f"network_{part}_usd", values["usd"], "USD", f"Backend capex: {part.replace('_', ' ')}")
    return d


def _compute_collectives(P, res: ChapterResults) -> None:
    """What needs only the cluster's size and its servers, computed before anything else reads a
    report number: SHARP's bandwidth gain (B31) and the NVLink domain."""
    ranks = max(P.gpus / P.h100_gpus_per_server, 1.0)  # a cluster smaller than a node is one rank
    res.add("sharp_bandwidth_gain_ratio", network.sharp_bandwidth_gain(ranks), "ratio",
            "All-reduce data sent per rank, ring / in-network (SHARP), one rank per node per rail (B31)")
    res.add("nvlink_tp_degree_count", P.h100_gpus_per_server, "count",
            "Tensor-parallel ranks inside one NVLink server (B19)")


def _compute_article_checks(P, res: ChapterResults) -> None:
    """The article's own network figures, recomputed from the same functions."""
    res.add("infiniband_switch_usd_per_port", P.ib_switch_usd_per_port, "USD per 400G port",
            "InfiniBand switch price per 400G port (parameter)")
    res.add("switch_radix_count", P.switch_radix, "ports", "400G ports per backend switch (parameter)")
    res.add("sn5600_ports_count", row("network_components", "spectrum4_sn5600")["ports_400g"], "ports",
            "400G ports of a Spectrum-X SN5600 (data/network_components.csv)")
    res.add("island_gpus_count", P.island_gpus, "GPUs", "GPUs per non-blocking island (parameter)")
    res.add("island_oversubscription_ratio", P.island_oversubscription, "ratio", "Oversubscription above the islands")
    three = res.add("three_tier_max_gpus_count", network.max_nonblocking_gpus(P.switch_radix, 3), "GPUs",
                    f"Most GPUs a non-blocking 3-tier fabric of {P.switch_radix}-port switches connects (B30)")
    n = min(P.gpus, three)
    four_t = network.fabric_media(network.clos_fabric(n, P.switch_radix, 4), True, 1)
    three_t = network.fabric_media(network.clos_fabric(n, P.switch_radix, 3), True, 1)
    res.add("four_vs_three_tier_optical_ports_ratio", four_t.optical_port_ends / three_t.optical_port_ends, "ratio",
            "Optical 400G port ends of a 4-tier fat tree / a 3-tier one (B30)")
    res.add("four_vs_three_tier_transceivers_ratio", four_t.transceivers / three_t.transceivers, "ratio",
            "Transceivers of a 4-tier fat tree / a 3-tier one, twin-port switch optics")
    islands = round(P.gpus / P.island_gpus) if P.island_gpus < P.gpus else 1
    layout = res.add("island_layout_gpus_count", islands * min(P.island_gpus, P.gpus), "GPUs",
                     "GPUs in whole islands nearest the cluster size (4 x 24,576, B22)")
    res.add("island_layout_islands_count", islands, "count", "Whole islands nearest the cluster size (B22)")
    res.add("island_layout_node_transceivers_count", layout, "count",
            "GPU-to-leaf node transceivers of the island layout, one per GPU (B23)")
    res.add("island_layout_cedar_node_transceivers_count", layout / 2, "count",
            "Node transceivers of the island layout with Cedar Fever, two links each (B28)")
    mor = design(P.replace(rail_layout="middle_of_rack"))
    res.add("middle_of_rack_copper_frac", mor["media"].copper_frac, "fraction",
            "Share of the fabric on copper when the leaves move into the rack (B23)")
    res.add("middle_of_rack_dac_links_count", mor["media"].dac_links, "count",
            "GPU-to-leaf links that become DAC in a middle-of-rack layout")
    switch_w = res.add("switch_without_optics_w", P.switch_radix * P.switch_w_per_port, "W",
                       "One switch with passive copper (B24)")
    res.add("switch_with_multimode_optics_w",
            network.switch_power_with_optics_w(switch_w, P.switch_radix, P.multimode_transceiver_w), "W",
            "One switch with every port on twin-port multimode optics (B24: up to 1,500 W)")
    res.add("single_to_multimode_price_ratio", P.single_mode_transceiver_usd / P.multimode_transceiver_usd, "ratio",
            "Single-mode / multimode transceiver price (B17: up to 2.5x)")
    card_w, card_usd = fact("B32_card_w"), fact("B32_asp_usd")
    res.add("bluefield3_extra_w_per_node", card_w * P.h100_gpus_per_server, "W per node",
            "BlueField-3 over ConnectX-7: extra power per 8-GPU node (B32)")
    res.add("bluefield3_extra_mw", card_w * P.gpus / 1e6, "MW", "BlueField-3 over ConnectX-7: extra IT power (B32)")
    res.add("bluefield3_extra_capex_usd", card_usd * P.gpus, "USD", "BlueField-3 over ConnectX-7: extra capex")
    power = res.add("bluefield3_extra_electricity_usd_per_year", _facility_usd_per_year(P, card_w * P.gpus),
                    "USD per year", "BlueField-3 over ConnectX-7: extra electricity per year at the meter")
    res.add("bluefield3_extra_electricity_musd_per_year", power / 1e6, "million USD per year",
            "BlueField-3 over ConnectX-7: extra electricity per year at the meter")


def _compute_options(P, res: ChapterResults) -> pd.DataFrame:
    table = res.add_table("options", options_table(P))
    for r in table.itertuples():
        res.add(f"{r.option}_network_capex_usd", r.capex_usd, "USD", f"Network capex: {r.label}")
        res.add(f"{r.option}_network_it_mw", r.it_mw, "MW", f"Network IT power: {r.label}")
        res.add(f"{r.option}_tiers_count", r.tiers, "count", f"Switch tiers: {r.label}")
        res.add(f"{r.option}_transceivers_count", r.transceivers, "count", f"Transceivers: {r.label}")
        res.add(f"{r.option}_first_failure_minutes", r.first_failure_minutes, "minutes",
                f"Mean time to the first NIC-to-leaf link failure: {r.label}")
    by = table.set_index("option")
    # like for like: both fully interconnected (non-blocking), 4 InfiniBand tiers against 3 Ethernet ones
    res.add("ethernet_vs_infiniband_capex_saving_usd",
            by.loc["ib_fat_tree", "capex_usd"] - by.loc["tomahawk5", "capex_usd"], "USD",
            "Network capex saved by a Tomahawk 5 fat tree over an InfiniBand one (B34: ~$400M)")
    res.add("ethernet_vs_ib_pods_capex_saving_usd", by.loc["ib_pods", "capex_usd"] - by.loc["tomahawk5", "capex_usd"],
            "USD", "Network capex saved by a Tomahawk 5 fat tree over the oversubscribed InfiniBand pods")
    power = res.add("ethernet_vs_infiniband_electricity_saving_usd_per_year",
                    by.loc["ib_fat_tree", "electricity_usd_per_year"] - by.loc["tomahawk5", "electricity_usd_per_year"],
                    "USD per year", "Electricity saved per year by Ethernet over InfiniBand (B34: >$4M)")
    res.add("ethernet_vs_infiniband_electricity_saving_musd_per_year", power / 1e6, "million USD per year",
            "Electricity saved per year by Ethernet over InfiniBand")
    # the Ethernet switch price per port at which Tomahawk 5 saves what SemiAnalysis says (B34)
    changes = {option_id: change for option_id, _, change in options()}
    free = design(P.replace(**{**changes["tomahawk5"], "ethernet_switch_usd_per_port": 0.0}))
    per_port = (by.loc["ib_fat_tree", "capex_usd"] - fact("B34_capex_saving_usd") - free["usd"]) / (
        free["fabric"].switch_count * free["fabric"].radix * (1 + P.frontend_storage_frac))
    res.add("ethernet_switch_usd_per_port_for_b34_saving", per_port, "USD per 400G port",
            "Ethernet switch price per 400G port at which Tomahawk 5 saves SemiAnalysis's ~$400M")
    res.add("ethernet_switch_usd_for_b34_saving", per_port * free["fabric"].radix, "USD",
            "Price of a 128-port Ethernet switch at which Tomahawk 5 saves ~$400M")
    res.add("middle_of_rack_capex_saving_usd", by.loc["tomahawk5", "capex_usd"] - by.loc["tomahawk5_mor", "capex_usd"],
            "USD", "Network capex saved by moving Tomahawk 5 leaves into the rack (copper unpriced: upper bound)")
    return table


def compute(P, upstream) -> ChapterResults:
    """Every quantity and table of the network chapter at parameters ``P``."""
    res = ChapterResults("network")
    _compute_collectives(P, res)
    d = _compute_design(P, res)
    _compute_article_checks(P, res)
    _compute_options(P, res)
    res.add_table("bill", pd.DataFrame([{"part": k, **v} for k, v in d["bill"].items()]))
    f = d["fabric"]
    res.add_table("tiers", pd.DataFrame({"tier": range(1, f.tiers + 1), "switches": f.switches,
                                         "links_from_below": f.links_up}))
    return res


# --- inputs this chapter can use (analysis.chapters.check_inputs) ------------------------------------

FABRIC_PARAMS = ("gpus", "switch_radix", "fabric_tiers", "island_gpus", "island_oversubscription")


def check_inputs(P, origin: dict) -> None:
    """The fabric must exist: a folded Clos of at most 16 tiers of ``switch_radix``-port switches
    for ``gpus`` GPUs (in islands of ``island_gpus``), built by the function the chapter builds it
    with; else exit 2 naming the parameters."""
    try:
        network.design_fabric(P.gpus, P.switch_radix, P.fabric_tiers, P.island_gpus, P.island_oversubscription)
    except ValueError as exc:
        named = ", ".join(f"'{n}' ({shown(getattr(P, n))})" for n in FABRIC_PARAMS)
        raise ParameterError(f"{where(origin, *FABRIC_PARAMS)}parameters {named} conflict: {exc}") from None
