# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# (chapter-network)=
# # The network of a 100,000-H100 cluster

# %% tags=["parameters", "remove-cell"]
# Generated from analysis/params/defaults.py by `python -m analysis notebooks --sync`; edit the
# definitions there. papermill IN OUT -p NAME VALUE overrides any of these; start() checks each
# value against its range and refuses a name this chapter does not take.
gpus: int = 100000  # GPUs; an integer from 1 to 2,000,000. GPUs in the cluster
h100_gpus_per_server: int = 8  # GPUs; an integer from 1 to 64. GPUs in one H100 (HGX) server
switch_radix: int = 64  # 400G ports; an integer from 4 to 1,024. Ports per backend switch, counted at 400G
fabric_tiers: int = 0  # tiers; an integer from 0 to 8. Switch tiers of the backend fabric, the tier above the islands included (at least the fewest that fit)
island_gpus: int = 24576  # GPUs; an integer from 8 to 10,000,000. GPUs in each non-blocking island (pod) of the backend fabric
island_oversubscription: float = 7.0  # ratio; a number from 1 to 64. Oversubscription of the tier above the islands (down:up bandwidth)
rail_layout: str = 'rail_optimized'  # layout; one of: rail_optimized, middle_of_rack. Where the leaf switches sit: rail-optimized (optics to the leaf) or middle of rack (copper)
node_ports_per_transceiver: int = 1  # 400G ports; an integer from 1 to 2. 400G backend links per node-side transceiver
backend_nic: str = 'connectx7'  # NIC; one of: connectx7, bluefield3. Backend NIC: ConnectX-7, or BlueField-3 as first-generation Spectrum-X requires
frontend_storage_frac: float = 0.125  # fraction; a number from 0 to 2. Front-end and storage network, as a fraction of the backend fabric's cost and power
switch_family: str = 'infiniband'  # family; one of: infiniband, ethernet. Backend switch family, for its price per port
ib_switch_usd_per_port: float = 671.875  # USD per 400G port; a number from 0 to 100,000. InfiniBand switch price per 400G port, optics excluded
ethernet_switch_usd_per_port: float = 1562.5  # USD per 400G port; a number from 0 to 100,000. Ethernet (51.2 Tb/s) switch price per 400G port, optics excluded
switch_w_per_port: float = 11.671875  # W per 400G port; a number from 0 to 1,000. Switch power per 400G port, optics excluded
node_transceiver_usd: float = 700.0  # USD; a number from 1 to 100,000. Price of one 400G node-side transceiver
node_transceiver_w: float = 8.0  # W; a number from 0 to 100. Power of one 400G node-side multimode transceiver
multimode_transceiver_usd: float = 500.0  # USD; a number from 1 to 100,000. Price of one 800G twin-port multimode (2xSR4) switch transceiver
multimode_transceiver_w: float = 15.0  # W; a number from 0 to 100. Power of one 800G twin-port multimode switch transceiver
single_mode_transceiver_usd: float = 1250.0  # USD; a number from 1 to 100,000. Price of one 800G twin-port single-mode (DR8) switch transceiver
single_mode_transceiver_w: float = 16.0  # W; a number from 0 to 100. Power of one 800G twin-port single-mode switch transceiver
dac_usd: float = 0.0  # USD; a number from 0 to 100,000. Price of one twin-port 2x400G passive DAC splitter
dac_w: float = 0.1  # W; a number from 0 to 100. Power of one passive DAC cable
link_mttf_years: float = 5.0  # years; a number from 0.01 to 100. Mean time to failure of one NIC-to-leaf link (transceiver, cable, NIC)
alt_link_mttf_years: float = 4.0  # years; a number from 0.01 to 100. Link MTTF in the 4-link-per-node (Cedar Fever-7) design
capex_usd_per_gpu: float = 31250.0  # USD per GPU; a number from 1,000 to 500,000. All-in capital cost per GPU (server, networking, storage)
h100_it_w_per_gpu: float = 1389.0  # W per GPU; a number from 100 to 10,000. All-in critical IT power per H100: chip, server share, network, storage
pue: float = 1.25  # ratio; a number from 1 to 3. Power usage effectiveness: facility power / critical IT power
load_factor: float = 0.82  # fraction; a number from 0.05 to 1. Average draw as a fraction of rated facility power while training
tariff_usd_per_kwh: float = 0.078  # USD/kWh; a number from 0 to 1. Electricity tariff

# %% tags=["remove-input"]
from IPython.display import Markdown, display

from analysis.chapters import network as chapter
from analysis.figures import network as figures
from analysis.page.notebook import comparison_table, glue_facts, glue_figure, glue_money, publish, show_table, start
from analysis.page.tables import answer_from_results

P, upstream = start("network", globals(), show_parameters=False)
R = chapter.compute(P, upstream)
publish(R, P)
display(Markdown(answer_from_results(R, figures.ANSWER, figures.verdict(R), more=figures.ANSWER_MORE)))
glue_facts("B23_copper_frac", "B34_capex_saving_usd", "B34_power_saving_usd_per_yr", "B24_optics_w",
           "B17_single_mode_cost_ratio", "B14_network_storage_frac")

# %% tags=["remove-input"]

glue_money(R, "allin_minus_server_usd_per_gpu", "ethernet_switch_usd_for_b34_saving", "network_capex_usd",
           "network_switches_usd", "bluefield3_extra_capex_usd", "ethernet_vs_infiniband_capex_saving_usd")

# %% tags=["remove-input"]
glue_figure("fig_network_options_capex", figures.options_capex(R, P))

# %% [markdown]
# {numref}`fig-network-options-capex` prices each of the article's network designs for this
# chapter's cluster.
#
# ```{glue:figure} fig_network_options_capex
# :name: fig-network-options-capex
# :alt: Stacked horizontal bars of network capex in million USD for eight designs, split into switches, optics and the rest, each labelled with its total, IT megawatts and number of tiers.
#
# Network capex of each design at this cluster size, split into switches, optics and the rest, with
# its IT power and tiers. Ethernet's larger switches need one tier fewer than Quantum-2's but cost
# more per port at the one public price; copper in the rack removes the GPU-side optics;
# BlueField-3 adds {glue:text}`bluefield3_extra_mw:.1f` MW. Islands as small as Meta's need the same
# tiers as the article's pods, so in this per-link model they cost the same.
# ```
#
# At these prices the switches are the largest part of every bar, and the Ethernet switches' price
# rests on one public quote: a buyer's own quote for switches is the number most likely to reorder
# the designs.

# %% [markdown]
# Most of SemiAnalysis's "100,000 H100 Clusters" is about the network
# ({ref}`SemiAnalysis, 2024 <src-sa_100k_2024>`): a fat tree against islands with an oversubscribed
# top, three tiers of switches against four, rail-optimized optics against copper in the middle of
# the rack, InfiniBand against Ethernet. Its bill of materials is behind the paywall. This chapter
# derives one from the cluster's size and the design choices, which are parameters (table below):
# how many switches, links, transceivers and copper cables each design needs, what they cost and
# draw, and how many links can fail. The cluster chapter reads its link count from here. The
# arithmetic is `analysis.network` (pure functions) and `analysis.chapters.network.compute`.

# %% tags=["remove-input"]
from analysis.page.notebook import show_parameters

show_parameters(P, R)

# %% [markdown]
# ## The fabric: tiers, switches and links
#
# The model is a folded Clos counted per link: a switch below the top tier sends half its ports
# down and half up, the top tier sends all of them down, so *t* tiers of *k*-port switches connect
# at most 2(*k*/2)^*t* GPUs without blocking. With {glue:text}`switch_radix_count:.0f`-port
# switches three tiers stop at {glue:text}`three_tier_max_gpus_count:,.0f` GPUs, the article's
# limit for Quantum-2. An island design builds non-blocking islands of
# {glue:text}`island_gpus_count:,.0f` GPUs and one more tier above them with
# {glue:text}`island_oversubscription_ratio:.0f` times fewer links.
#
# For {glue:text}`network_gpus_count:,.0f` GPUs this chapter's design has
# {glue:text}`network_tiers_count:.0f` tiers, {glue:text}`network_switches_count:,.0f` switches,
# {glue:text}`network_links_count:,.0f` 400G links and {glue:text}`network_transceivers_count:,.0f`
# transceivers. Whole islands nearest that size are {glue:text}`island_layout_islands_count:.0f` of
# them, {glue:text}`island_layout_gpus_count:,.0f` GPUs: the article's "100k" layout. Four tiers
# of a full fat tree need {glue:text}`four_vs_three_tier_optical_ports_ratio:.2f` times the optical
# ports of three ({glue:text}`four_vs_three_tier_transceivers_ratio:.2f` times the pluggables,
# since a switch-side transceiver serves two ports).

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("three_tier_max_gpus_count", "B30_max_gpus_3tier"), ("four_vs_three_tier_optical_ports_ratio", "B30_transceiver_ratio"),
    ("island_layout_islands_count", "B22_pods"), ("island_layout_node_transceivers_count", "B23_transceivers"),
    ("island_layout_cedar_node_transceivers_count", "B28_transceivers"), ("backend_nic_links_count", "B27_links")])))

# %% [markdown]
# ## Optics or copper
#
# In a rail-optimized design each of a server's NICs goes to a different leaf switch rows
# away, so every GPU link is optical. Moving the leaf into the middle of the rack turns those
# links into passive copper: {glue:text}`middle_of_rack_dac_links_count:,.0f` links, a share
# {glue:text}`middle_of_rack_copper_frac:.2f` of the fabric (the article:
# {glue:text}`fact_B23_copper_frac:.2f`-{glue:text}`fact_B23_copper_frac_high:.2f`). Copper also
# saves power: one {glue:text}`switch_radix_count:.0f`-port switch draws
# {glue:text}`switch_without_optics_w:,.0f` W on copper and {glue:text}`switch_with_multimode_optics_w:,.0f` W
# with every port on multimode optics (the article: up to {glue:text}`fact_B24_optics_w:,.0f` W).
#
# The prices and powers come from the table below. NVIDIA's datasheets give the transceivers'
# watts; the only absolute prices in a public text are one optics vendor's ranges, and the
# multimode price is the single-mode price over the article's {glue:text}`fact_B17_single_mode_cost_ratio:.1f`x.
# Copper is left unpriced (no public price), so copper's saving is an upper bound.

# %% tags=["remove-input"]
display(Markdown(figures.components_table()))

# %% [markdown]
# ## What the network costs and draws
#
# This chapter's design costs {glue:text}`network_capex_usd_money` with its front-end and
# storage network, priced at {glue:text}`network_frontend_storage_pct:.1f` % of the backend (the
# share of a node's bandwidth NVIDIA's HGX reference design gives it), \${glue:text}`network_capex_usd_per_gpu:,.0f` per GPU:
# {glue:text}`network_capex_share_of_cluster_frac:.0%` of the cluster's all-in capital, of which
# switches are {glue:text}`network_switches_usd_money`. SemiAnalysis's all-in and bare server prices
# leave {glue:text}`allin_minus_server_usd_per_gpu_money` per GPU for storage, network and everything
# else, so the order of magnitude holds. The network draws {glue:text}`network_it_mw:.1f` MW of IT
# power, {glue:text}`network_it_share_frac:.1%` of the cluster's critical IT (the article:
# {glue:text}`fact_B14_network_storage_frac:.0%` for storage, switches, CPU nodes and optics
# together), {glue:text}`network_facility_mw:.1f` MW at the meter.
#
# The table sets the article's designs side by side at the same prices, and what each changes
# against this chapter's design in the cluster's capital and in facility power.

# %% tags=["remove-input"]
show_table(R, figures.options_table(R))
from analysis.page.notebook import offer_table

offer_table(R, "options", R.tables["options"], "counts, capex, power and first failure of each design")

# %% [markdown]
# ## InfiniBand against Ethernet
#
# Spectrum-X and Tomahawk 5 switches have twice Quantum-2's ports, so a fully connected 100k
# cluster needs three tiers, not four. First-generation Spectrum-X needs BlueField-3 cards, which
# draw {glue:text}`bluefield3_extra_w_per_node:,.0f` W more per node and
# {glue:text}`bluefield3_extra_mw:.1f` MW more for the cluster, {glue:text}`bluefield3_extra_capex_usd_money`
# more in cards and \${glue:text}`bluefield3_extra_electricity_musd_per_year:.1f`M a year of
# electricity. Ethernet lacks SHARP, whose in-network reduction halves what each rank sends: a gain
# of {glue:text}`sharp_bandwidth_gain_ratio:.3f`x here.
#
# Like for like, a fully interconnected Tomahawk 5 fabric against a fully interconnected
# InfiniBand one saves {glue:text}`ethernet_vs_infiniband_capex_saving_usd_money` of capex at
# the public prices used here (negative: it costs more) and
# \${glue:text}`ethernet_vs_infiniband_electricity_saving_musd_per_year:.1f`M of electricity a year.
# A Chinese translation of the paywalled part quotes savings of about
# \${glue:text}`fact_B34_capex_saving_usd:,.0f` and more than
# \${glue:text}`fact_B34_power_saving_usd_per_yr:,.0f` a year. The power saving follows from one tier
# fewer; the capex saving does not, because the only public price of such an Ethernet switch is
# a vendor blog's range. Tomahawk 5 saves the article's amount if a
# {glue:text}`sn5600_ports_count:.0f`-port switch costs
# {glue:text}`ethernet_switch_usd_for_b34_saving_money`, or \${glue:text}`ethernet_switch_usd_per_port_for_b34_saving:,.0f`
# per 400G port against InfiniBand's \${glue:text}`infiniband_switch_usd_per_port:,.0f`: a price to check
# against a quote.

# %% tags=["remove-input"]
display(Markdown(comparison_table(R, [
    ("bluefield3_extra_w_per_node", "B32_node_w"), ("bluefield3_extra_mw", "B32_cluster_mw"),
    ("sharp_bandwidth_gain_ratio", "B31_sharp_gain"),
    ("ethernet_vs_infiniband_capex_saving_usd", "B34_capex_saving_usd"),
    ("ethernet_vs_infiniband_electricity_saving_usd_per_year", "B34_power_saving_usd_per_yr")])))

# %% [markdown]
# ## How many links can fail
#
# SemiAnalysis counts the NIC-to-leaf links: {glue:text}`backend_nic_links_count:,.0f` in this
# design, {glue:text}`cedar_backend_nic_links_count:,.0f` with Cedar Fever's twin-port node optics.
# The cluster chapter reads these counts for its time to the first failure. The switch-to-switch
# links fail too: at the same MTTF every backend link together fails first after
# {glue:text}`network_all_links_first_failure_minutes:.1f` minutes on average.
# {numref}`fig-network-options-failures` compares the two counts for each design.

# %% tags=["remove-input"]
glue_figure("fig_network_options_failures", figures.options_failures(R, P))

# %% [markdown]
# ```{glue:figure} fig_network_options_failures
# :name: fig-network-options-failures
# :alt: Paired horizontal bars per design: minutes to the first NIC-to-leaf link failure and to the first failure of any backend link.
#
# Mean time to the first link failure. Twin-port node optics halve the NIC-side links; every
# design's switch-to-switch links add about twice as many more.
# ```
#
# Counted over every backend link, the designs hardly differ: the twin-port optics lengthen only the
# NIC-side bar, so no design spares a large job frequent restarts.

# %% tags=["remove-input"]
from analysis.page.notebook import save

save(R)
