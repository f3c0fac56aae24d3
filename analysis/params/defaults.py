"""Every parameter of the book, defined once: default, unit, valid range, justification, source.

``python -m analysis params SECTION``, the notebooks (through :mod:`analysis.page.notebook`) and the
generated "Assumptions" appendix all read these objects. A parameter shared by several chapters
(PUE, tariff, ...) is one object listed in each chapter's section.
"""

from analysis.params.parameters import Param

# --- the cluster -------------------------------------------------------------------------------------
GPUS = Param(
    "gpus", 100_000, "GPUs", "GPUs in the cluster",
    "The cluster size SemiAnalysis analyses (B02-B06).", "sa_100k_2024", low=1, high=2_000_000)
GPU = Param(
    "gpu", "h100_sxm", "GPU id", "GPU type, from data/gpus.csv",
    "The report's cluster is built from H100 SXM.", "sa_100k_2024", choices_from="gpus_with_fp8")
DTYPE = Param(
    "dtype", "fp8", "data type", "Tensor data type used for sustained throughput and retraining time",
    "The report's ~4-day GPT-4 retraining figure is for FP8 (B12).", "sa_100k_2024", choices=("fp8", "bf16"))
MFU_FP8 = Param(
    "mfu_fp8", 0.35, "fraction", "Model FLOPs utilization of a frontier run in FP8",
    "SemiAnalysis: labs reach up to ~35 % FP8 MFU on trillion-parameter H100 runs (B11).",
    "sa_100k_2024", fact="B11_fp8_mfu", low=0.01, high=1.0)
MFU_BF16 = Param(
    "mfu_bf16", 0.40, "fraction", "Model FLOPs utilization of a frontier run in BF16/FP16",
    "SemiAnalysis: ~40 % FP16 MFU on the same runs (B11).", "sa_100k_2024", fact="B11_fp16_mfu",
    low=0.01, high=1.0)
RUN_DAYS = Param(
    "run_days", 100, "days", "Length of a training run on the cluster",
    "The report's 100-day run (B13).", "sa_100k_2024", low=1, high=3_650)

# --- power and energy --------------------------------------------------------------------------------
PUE = Param(
    "pue", 1.25, "ratio", "Power usage effectiveness: facility power / critical IT power",
    "IDC's public-cloud industry average, 1.25 (as AWS quotes it, January 2025): a 100,000-GPU cluster "
    "is built or leased in a large, recent facility of that class. Hyperscalers' own fleets run lower "
    "(Google 1.10 in 2023, AWS 1.15 in 2024, Meta's 2021 buildings 1.09), colocation higher (Equinix "
    "1.42 in 2023) and the Uptime survey's average, legacy rooms included, at 1.58; the sourced range is "
    "Google's 1.10 to Equinix's 1.42 (data/cost_anchors.csv). Neither report states the PUE behind its "
    "figures; the overheads they imply (B04, A31) are results, shown beside this one.",
    "aws_dc_sustainability", basis="cited", low=1.0, high=3.0)
LOAD_FACTOR = Param(
    "load_factor", 0.82, "fraction", "Average draw as a fraction of rated facility power while training",
    "Measured: an 8-H100 HGX node training Llama 2 13B drew at most 8.4 kW of its rated 10.2 kW, 82 % "
    "(Latif et al. 2024), and compute-intensive training averaged 76 % (Newkirk et al. 2025). The book "
    "takes the measured peak as a frontier run's average draw; the range runs from the 76 % average to "
    "1.0, the rated draw all year that the report's 1.59 TWh implies (B04). It is the book's one energy "
    "basis: every energy and electricity figure (joules per token, household-years, carbon, the "
    "cluster's energy and bill, the electricity in opex and TCO, the planner's facility energy) is at "
    "this average draw, while capacity (megawatts at the meter, colocation per kW) stays at the rating.",
    "latif_2024_h100_power", basis="cited", low=0.05, high=1.0)
TARIFF = Param(
    "tariff_usd_per_kwh", 0.078, "USD/kWh", "Electricity tariff",
    "The report's 'standard rate' (B05: $123.9M per year at $0.078/kWh).", "sa_100k_2024",
    fact="B05_tariff", low=0.0, high=1.0)

# --- capital -----------------------------------------------------------------------------------------
CAPEX_USD_PER_GPU = Param(
    "capex_usd_per_gpu", 31_250.0, "USD per GPU", "All-in capital cost per GPU (server, networking, storage)",
    "SemiAnalysis's typical-hyperscaler H100 server at ~$250k all-in (A04), divided by 8 GPUs (A05). "
    "It is the only per-server price the reports print; their 2024 '>$4B for 100k GPUs' implies more.",
    "sa_gb200_2025", basis="derived", fact="A05_h100_capex_per_gpu_allin", low=1_000, high=500_000)

# --- failures and recovery -----------------------------------------------------------------------------
LINK_MTTF_YEARS = Param(
    "link_mttf_years", 5.0, "years", "Mean time to failure of one NIC-to-leaf link (transceiver, cable, NIC)",
    "The report's assumption for a rail-optimized design (B27).", "sa_100k_2024", fact="B27_mttf_years",
    low=0.01, high=100)
ALT_LINK_MTTF_YEARS = Param(
    "alt_link_mttf_years", 4.0, "years", "Link MTTF in the 4-link-per-node (Cedar Fever-7) design",
    "2x400G links are assumed to fail more often: 4-year MTTF (B28).", "sa_100k_2024", fact="B28_mttf_years",
    low=0.01, high=100)
CHECKPOINT_INTERVAL_STEPS = Param(
    "checkpoint_interval_steps", 100, "steps", "Training steps between persistent checkpoints",
    "The report's example: a checkpoint every 100 iterations (B25).", "sa_100k_2024", fact="B25_interval_iters",
    low=1, high=1_000_000)
STEP_TIME_SECONDS = Param(
    "step_time_seconds", 2.0, "s", "Wall-clock time of one training step",
    "The report's example: 2 s per iteration at 100k GPUs (B25).", "sa_100k_2024", fact="B25_iter_s",
    low=0.01, high=3_600)
BACKEND_GBPS = Param(
    "backend_gbps", 400.0, "Gbit/s per GPU", "Backend network bandwidth per GPU for in-memory recovery",
    "The report's ~400 Gbit/s backend link per GPU (B26).", "sa_100k_2024", fact="B26_backend_gbps",
    low=1, high=100_000)

# --- the backend network (network chapter; the cluster chapter reads its link counts) ---------------
# One design is computed from these parameters (default: SemiAnalysis's 4-tier InfiniBand pods, B22);
# the chapter also sets the article's other options beside it. Prices and powers are the rows of
# data/network_components.csv named in each `why` (a test keeps them equal).
SWITCH_RADIX = Param(
    "switch_radix", 64, "400G ports", "Ports per backend switch, counted at 400G",
    "NVIDIA Quantum-2 (QM9700): 64 x 400G (B29). Spectrum-X SN5600 and Broadcom Tomahawk 5 have 128; "
    "Quantum-X800 has 144 x 800G.", "sa_100k_2024", fact="B29_quantum2_ports", low=4, high=1_024)
FABRIC_TIERS = Param(
    "fabric_tiers", 0, "tiers", "Switch tiers of the backend fabric, the tier above the islands included (at least the fewest that fit)",
    "A design choice: by default (0) the fewest tiers that connect the GPUs (and islands) non-blocking. "
    "A larger number adds tiers, e.g. to see what a fourth tier costs (B30); a smaller one cannot "
    "connect the cluster and is raised to the fewest (the chapter reports both).", None,
    basis="assumption", low=0, high=8)
ISLAND_GPUS = Param(
    "island_gpus", 24_576, "GPUs", "GPUs in each non-blocking island (pod) of the backend fabric",
    "SemiAnalysis's 4-tier InfiniBand alternative: pods of 24,576 H100s, each a non-blocking 3-tier "
    "fabric (B22). Set it to the cluster size or more for one non-blocking fat tree.",
    "sa_100k_2024", fact="B22_gpus_per_pod", low=8, high=10_000_000)
ISLAND_OVERSUBSCRIPTION = Param(
    "island_oversubscription", 7.0, "ratio", "Oversubscription of the tier above the islands (down:up bandwidth)",
    "7:1 above the pods in SemiAnalysis's 4-tier InfiniBand design (B22), as in Meta's 32k-GPU islands (B20).",
    "sa_100k_2024", fact="B22_oversubscription", low=1.0, high=64.0)
RAIL_LAYOUT = Param(
    "rail_layout", "rail_optimized", "layout", "Where the leaf switches sit: rail-optimized (optics to the leaf) or middle of rack (copper)",
    "NVIDIA's recommended rail-optimized design connects each server's 8 NICs to 8 leaf switches rows "
    "away, over optics; a middle-of-rack design puts the leaf in the rack and uses DAC (B23).",
    "sa_100k_2024", choices=("rail_optimized", "middle_of_rack"))
NODE_PORTS_PER_TRANSCEIVER = Param(
    "node_ports_per_transceiver", 1, "400G ports", "400G backend links per node-side transceiver",
    "1 with eight single-port ConnectX-7 cards; 2 with the Cedar Fever module's twin-port 2x400G "
    "cages (B28: 98,304 -> 49,152 node-side transceivers).", "sa_100k_2024", low=1, high=2)
BACKEND_NIC = Param(
    "backend_nic", "connectx7", "NIC", "Backend NIC: ConnectX-7, or BlueField-3 as first-generation Spectrum-X requires",
    "BlueField-3 adds ~$300 and 50 W per card over ConnectX-7 (B32; row bluefield3_vs_connectx7).",
    "sa_100k_2024", choices=("connectx7", "bluefield3"))
FRONTEND_STORAGE_FRAC = Param(
    "frontend_storage_frac", 0.125, "fraction", "Front-end and storage network, as a fraction of the backend fabric's cost and power",
    "Derived from bandwidth: NVIDIA's HGX reference architecture gives each 8-GPU node two 200 GbE "
    "ports on its converged front-end network (storage, management, users) against 8 x 400G of "
    "backend: 400 / 3,200 = 1/8. Pricing it at the backend's cost per unit of bandwidth is an "
    "assumption; SemiAnalysis only says the front end is much cheaper.",
    "nvidia_hgx_enterprise_ra", basis="derived", low=0.0, high=2.0)
SWITCH_FAMILY = Param(
    "switch_family", "infiniband", "family", "Backend switch family, for its price per port",
    "SemiAnalysis's 4-tier design is InfiniBand (Quantum-2); its 3-tier alternatives are Ethernet "
    "(Spectrum-X SN5600, Broadcom Tomahawk 5), priced per port from a different source.",
    "sa_100k_2024", choices=("infiniband", "ethernet"))
IB_SWITCH_USD_PER_PORT = Param(
    "ib_switch_usd_per_port", 43_000 / 64, "USD per 400G port", "InfiniBand switch price per 400G port, optics excluded",
    "Midpoint of $36,000 (FS.com's 64-port 400G InfiniBand switch) and about $50,000 (NVIDIA's own), Aug "
    "2024 retail, as a public cost sheet quotes them (row quantum2_64x400g_price), over 64 ports.",
    "h100_ib_cluster_sheet_2024", basis="derived", low=0.0, high=100_000)
ETHERNET_SWITCH_USD_PER_PORT = Param(
    "ethernet_switch_usd_per_port", 200_000 / 128, "USD per 400G port", "Ethernet (51.2 Tb/s) switch price per 400G port, optics excluded",
    "Midpoint of an optics vendor's blog range, $150,000-250,000 for a 64 x 800G switch 'depending on "
    "features and vendor' (row switch_64x800g), over 128 x 400G ports. Weakly sourced: the chapter shows "
    "the price at which Ethernet would save what SemiAnalysis says it saves.",
    "luxoptx_800g_cost", basis="derived", low=0.0, high=100_000)
SWITCH_W_PER_PORT = Param(
    "switch_w_per_port", 747 / 64, "W per 400G port", "Switch power per 400G port, optics excluded",
    "A Quantum-2 spine draws 747 W with passive copper (B24; row quantum2_qm9700) for 64 ports. No "
    "public figure for a 128-port Ethernet switch was found; it is assumed to draw the same per port.",
    "sa_100k_2024", basis="derived", low=0.0, high=1_000)
NODE_TRANSCEIVER_USD = Param(
    "node_transceiver_usd", 700.0, "USD", "Price of one 400G node-side transceiver",
    "Midpoint of a vendor blog's $600-800 for a 400G QSFP-DD (row qsfpdd_400g).", "luxoptx_800g_cost",
    basis="derived", low=1.0, high=100_000)
NODE_TRANSCEIVER_W = Param(
    "node_transceiver_w", 8.0, "W", "Power of one 400G node-side multimode transceiver",
    "NVIDIA MMA4Z00-NS400 SR4: 8 W typical, 9 W maximum (row osfp_400g_sr4).", "nvidia_mma4z00_ns400",
    low=0.0, high=100)
MULTIMODE_TRANSCEIVER_USD = Param(
    "multimode_transceiver_usd", 500.0, "USD", "Price of one 800G twin-port multimode (2xSR4) switch transceiver",
    "No public price found. Derived: the single-mode price below over SemiAnalysis's 'up to 2.5x' "
    "single-mode to multimode ratio (B17), $1,250 / 2.5.", "sa_100k_2024", basis="derived", low=1.0, high=100_000)
MULTIMODE_TRANSCEIVER_W = Param(
    "multimode_transceiver_w", 15.0, "W", "Power of one 800G twin-port multimode switch transceiver",
    "NVIDIA MMA4Z00-NS: 15 W in every configuration (row osfp_800g_2xsr4).", "nvidia_mma4z00_ns", low=0.0, high=100)
SINGLE_MODE_TRANSCEIVER_USD = Param(
    "single_mode_transceiver_usd", 1_250.0, "USD", "Price of one 800G twin-port single-mode (DR8) switch transceiver",
    "Midpoint of a vendor blog's $1,100-1,400 for an 800G OSFP DR8 at volume (row osfp_800g_dr8).",
    "luxoptx_800g_cost", basis="derived", low=1.0, high=100_000)
SINGLE_MODE_TRANSCEIVER_W = Param(
    "single_mode_transceiver_w", 16.0, "W", "Power of one 800G twin-port single-mode switch transceiver",
    "NVIDIA MMS4X00-NS DR8: 16 W typical, 17 W maximum (row osfp_800g_2xdr4).", "nvidia_mms4x00_ns", low=0.0, high=100)
DAC_USD = Param(
    "dac_usd", 0.0, "USD", "Price of one twin-port 2x400G passive DAC splitter",
    "No public price found, so copper is left unpriced (0): the middle-of-rack saving shown is an "
    "upper bound. SemiAnalysis only calls DAC 'much cheaper' than optics. Set a quote.", None,
    basis="assumption", low=0.0, high=100_000)
DAC_W = Param(
    "dac_w", 0.1, "W", "Power of one passive DAC cable",
    "NVIDIA MCP4Y10 passive DAC: 0.1 W maximum, for its identification EEPROM (row dac_2x400g_osfp).",
    "nvidia_mcp4y10_dac", low=0.0, high=100)
NETWORK_PRICES = (SWITCH_FAMILY, IB_SWITCH_USD_PER_PORT, ETHERNET_SWITCH_USD_PER_PORT, SWITCH_W_PER_PORT, NODE_TRANSCEIVER_USD, NODE_TRANSCEIVER_W,
                  MULTIMODE_TRANSCEIVER_USD, MULTIMODE_TRANSCEIVER_W, SINGLE_MODE_TRANSCEIVER_USD,
                  SINGLE_MODE_TRANSCEIVER_W, DAC_USD, DAC_W)

# --- capex (capex, opex and tco chapters) ------------------------------------------------------------
H100_SERVER_USD = Param(
    "h100_server_usd", 190_000.0, "USD per server", "Price of one 8-GPU H100 server, typical hyperscaler",
    "SemiAnalysis 2025 (A03); the seed's '$10,000' is not in the report.", "sa_gb200_2025",
    fact="A03_h100_server_usd", low=1_000, high=2_000_000)
H100_ALLIN_USD = Param(
    "h100_allin_usd", 250_000.0, "USD per server", "H100 server all-in: with storage, networking and other items",
    "SemiAnalysis 2025 (A04).", "sa_gb200_2025", fact="A04_h100_server_allin_usd", low=1_000, high=3_000_000)
H100_GPUS_PER_SERVER = Param(
    "h100_gpus_per_server", 8, "GPUs", "GPUs in one H100 (HGX) server",
    "SemiAnalysis divides server prices by 8 (A05).", "sa_gb200_2025", basis="derived", low=1, high=64)
GB200_RACK_USD = Param(
    "gb200_rack_usd", 3_100_000.0, "USD per rack", "Price of one GB200 NVL72 rack, typical hyperscaler",
    "SemiAnalysis 2025 (A06); the seed's '$1.1M' is not in the report.", "sa_gb200_2025",
    fact="A06_gb200_rack_usd", low=100_000, high=20_000_000)
GB200_ALLIN_USD = Param(
    "gb200_allin_usd", 3_900_000.0, "USD per rack", "GB200 NVL72 rack all-in: with networking, storage and other items",
    "SemiAnalysis 2025 (A07); the seed's '$1.5M' is not in the report.", "sa_gb200_2025",
    fact="A07_gb200_rack_allin_usd", low=100_000, high=30_000_000)
GB200_GPUS_PER_RACK = Param(
    "gb200_gpus_per_rack", 72, "GPUs", "GPUs in one GB200 NVL72 rack",
    "NVL72 = 72 Blackwell GPUs in one NVLink domain; SemiAnalysis divides by 72 (A08).", "sa_gb200_2025",
    basis="derived", low=1, high=576)
USEFUL_LIFE_YEARS = Param(
    "useful_life_years", 4.0, "years", "Years over which capex is recovered",
    "Not stated by SemiAnalysis. Four years is an assumption: accounting lives are 5-6 years, but a "
    "training GPU is a generation behind within about two.", None, basis="assumption", low=1, high=10)
COST_OF_CAPITAL = Param(
    "cost_of_capital", 0.10, "per year", "Annual cost of capital (discount rate) for amortizing capex",
    "No hyperscaler or neocloud publishes its WACC; the public anchors are debt yields "
    "(data/cost_anchors.csv). Hyperscaler senior debt yields 4.3-5.4 % (Meta, 2024), a floor, since "
    "equity costs more and hyperscalers are mostly equity-financed; Meta's Hyperion data-center bonds "
    "6.58 % (2025); CoreWeave's debt 7-15 %, its unsecured 2030 notes 10 % (June 2025). The book takes "
    "10 %, the rate at which the market lends unsecured to a business whose assets are GPU clusters. "
    "Not solved to any report figure: the TCO chapter shows the rate SemiAnalysis's $1.42 would need.",
    "coreweave_debt_note_2025", basis="assumption", low=0.0, high=0.5)
UTILIZATION = Param(
    "utilization", 1.0, "fraction", "Share of hours a GPU is in paid or productive use",
    "SemiAnalysis's $1.42 is cost per GPU-hour owned with no rental margin, i.e. every hour counts (A13).",
    "sa_gb200_2025", basis="derived", low=0.05, high=1.0)

# --- opex ----------------------------------------------------------------------------------------------
H100_IT_W_PER_GPU = Param(
    "h100_it_w_per_gpu", 1_389.0, "W per GPU", "All-in critical IT power per H100: chip, server share, network, storage",
    "SemiAnalysis's DGX H100 build-up: 11,112 W per 8-GPU server with its share of SuperPOD storage, "
    "management servers and switches, i.e. 1,389 W per H100 (C02). The server alone draws 1,275 W per "
    "GPU (C01); the 100k-cluster article's components give about 1,400 W (B14).", "sa_energy_2024",
    fact="C02_w_per_gpu", low=100, high=10_000)
GB200_IT_W_PER_GPU = Param(
    "gb200_it_w_per_gpu", 1_833.0, "W per GPU", "All-in critical IT power per GB200 GPU in an NVL72 rack",
    "Not public in SemiAnalysis's text. Derived: a ~120 kW NVL72 rack (Grace CPUs, NVLink switch trays "
    "included) / 72 GPUs, plus the same ~10 % for storage and network as the H100 build-up (B14).",
    "awesomeagents_gb200", basis="derived", low=100, high=5_000)
DATACENTER_USD_PER_KW_MONTH = Param(
    "datacenter_usd_per_kw_month", 130.0, "USD per kW-month", "Datacenter space and infrastructure per kW of critical IT, power excluded",
    "CBRE: wholesale-sized footprints in Northern Virginia, the largest market, rented at $120-140 per "
    "kW-month in H2 2023, the space hyperscalers and AI operators lease; 130 is the midpoint. Wholesale "
    "rents are quoted with electricity billed separately (modified gross), so power stays its own item. "
    "Smaller 250-500 kW deployments asked $174-184 (2024); data/cost_anchors.csv lists every anchor.",
    "cbre_nova_pr_2024", basis="derived", low=0, high=1_000)
# GB200's fault rate against the H100's: maintenance reads it, and so does the downtime chapter.
GB200_GPU_FAULT_RATIO = Param(
    "gb200_gpu_fault_ratio", 1.0, "x", "GB200 GPU, memory and host fault rate per GPU-hour relative to Llama 3's H100s",
    "An assumption: no public fault table exists for Blackwell; 1 means GPU, HBM and host faults "
    "per GPU-hour are those Llama 3 measured on H100.", None, basis="assumption", low=0.1, high=10)
# Maintenance, built from its parts (analysis.maintenance): the GPUs that fail, at their own price,
# outside the warranty; the other parts; the labour of each swap; a spares pool sized to the swaps.
# The fault rates are Llama 3's (data/llama3_interruptions.csv); the anchors are in data/cost_anchors.csv.
MAINTENANCE_BASIS = Param(
    "maintenance_basis", "parts", "basis", "How maintenance is paid: failed parts and labour, or a vendor's support contract",
    "An owner of a large fleet swaps failed parts itself, under the OEM's warranty and then at its own "
    "cost (the build-up below). 'support contract' prices maintenance as a vendor contract instead "
    "(support_frac_per_year), the basis of an enterprise buying a few servers.", None,
    basis="assumption", choices=("parts", "support contract"))
GPU_SWAP_SHARE = Param(
    "gpu_swap_share", 0.68, "fraction", "Share of GPU faults that end in hardware swapped",
    "Meta counts Llama 3's GPU faults as job interruptions, not replacements, and does not say how many "
    "ended in a swap. Crusoe's H200 cluster (GTC 2025) does: 41.5 % of its fault cases were GPU host "
    "replacements against 19.5 % GPU faults recovered in place, so 41.5 / 61 = 68 % of GPU faults took "
    "hardware out (rows crusoe_gpu_host_replacement and crusoe_gpu_recoverable). Applied to all of Llama "
    "3's GPU-category faults (GPU, HBM3, SRAM, system processor, thermal, silent data corruption).",
    "klockwood_component_reliability", basis="derived", low=0.0, high=1.0)
GPU_SHARE_OF_SERVER_PRICE = Param(
    "gpu_share_of_server_price", 0.818, "fraction of the server price", "A replacement GPU's price as a share of the server price per GPU",
    "Raymond James put the H100's sale price at $25,000-30,000; eight of them at the midpoint over "
    "SemiAnalysis's ~$269,010 DGX H100 price are 81.8 % of it (Epoch AI quotes both). The range runs from "
    "$25,000 (74.3 %) to the DGX price less SemiAnalysis's $32,010 of other parts at cost (88.1 %, the most "
    "the GPUs can be). A failed GPU is priced at this share of the server (or NVL72 rack) price per GPU, "
    "not at the whole all-in share, which includes the network and storage that do not fail with it.",
    "epoch_h100_cost_notebook", basis="derived", low=0.0, high=1.0)
WARRANTY_YEARS = Param(
    "warranty_years", 3.0, "years", "Years the OEM's warranty replaces failed parts at no charge",
    "No public source gives the warranty on an HGX H100 or GB200 NVL72 system. OEM servers carry one to "
    "three years of parts and labour (Supermicro's complete systems three, Lenovo's one or three by "
    "model); NVIDIA has a 'limited standard warranty' of unstated length. Three years, the common OEM "
    "term, is an assumption; 0 is an owner that insures itself (Supermicro's own warranty excludes "
    "third-party parts such as the NVIDIA board). It must not exceed the useful life.",
    "sth_supermicro_warranty_2012", basis="assumption", low=0.0, high=10.0)
SWAP_PERSON_HOURS = Param(
    "swap_person_hours", 4.0, "person-hours per swap", "Technician time to swap one failed part",
    "Lenovo's service guide has two trained people and a lift remove an HGX GPU complex; no source gives "
    "the time. Two people for two hours each is an assumption; the range runs from one hour each to four.",
    "lenovo_sr780a_v3_gpu_swap", basis="assumption", low=0.0, high=100.0)
TECHNICIAN_USD_PER_HOUR = Param(
    "technician_usd_per_hour", 180.0, "USD per person-hour", "Price of an hour of a datacenter technician",
    "QTS's remote-hands rate on a subscription, $180 an hour ($200 ad hoc); 365 Data Centers charges "
    "$115-165. A colocation operator's price for the hands that swap a part.",
    "qts_smartcart_rates", low=0.0, high=2_000.0)
SPARES_RESTOCK_DAYS = Param(
    "spares_restock_days", 30.0, "days", "Days a failed part takes to be replaced in the spares pool",
    "Sizes the pool of spare GPUs: swaps per day x these days. An OEM warranty can deliver parts the next "
    "business day (Lenovo's standard term); an RMA's return and repair, or a purchase out of warranty, "
    "takes longer, and no source gives how long. A month is an assumption.",
    "lenovo_sr860_warranty", basis="assumption", low=0.0, high=365.0)
SUPPORT_FRAC_PER_YEAR = Param(
    "support_frac_per_year", 0.20, "fraction of the server price per year", "A vendor's support contract a year, as a share of the server price",
    "NVIDIA DGX H100 support at list price: $39,800 a year on $199,000 (a blog quoting an unnamed source). "
    "Enterprise list prices are a ceiling for a large buyer; generic hardware contracts run 10-15 % "
    "(data/cost_anchors.csv). Read only when maintenance_basis is 'support contract'.",
    "supercluster_dgx_h100", low=0.0, high=1.0)
OTHER_USD_PER_GPU_MONTH = Param(
    "other_usd_per_gpu_month", 0.0, "USD per GPU-month", "Other operating costs (insurance, software, monitoring, staff)",
    "Not estimated: no public source prices these items per GPU, so the default leaves them out and "
    "every dollar of the TCO has a source. Set it to add your own.", None,
    basis="assumption", low=0, high=1_000)
# Everything a TCO per GPU-hour needs (analysis.chapters.gpu_cost.system_costs): every chapter that prices a
# GPU-hour lists these, so a scenario that changes one moves all of them together.
# Maintenance reads the server prices (a GPU's part price), the life and the cost of capital (the
# warranty's share, the spares pool) and GB200's fault rate against the H100's.
MAINTENANCE_INPUTS = (MAINTENANCE_BASIS, GPU_SWAP_SHARE, GPU_SHARE_OF_SERVER_PRICE, WARRANTY_YEARS,
                      SWAP_PERSON_HOURS, TECHNICIAN_USD_PER_HOUR, SPARES_RESTOCK_DAYS, SUPPORT_FRAC_PER_YEAR,
                      H100_SERVER_USD, GB200_RACK_USD, GB200_GPU_FAULT_RATIO)
TCO_INPUTS = (H100_ALLIN_USD, H100_GPUS_PER_SERVER, GB200_ALLIN_USD, GB200_GPUS_PER_RACK, USEFUL_LIFE_YEARS,
              COST_OF_CAPITAL, UTILIZATION, H100_IT_W_PER_GPU, GB200_IT_W_PER_GPU, PUE, TARIFF,
              DATACENTER_USD_PER_KW_MONTH, *MAINTENANCE_INPUTS, OTHER_USD_PER_GPU_MONTH, LOAD_FACTOR)

# --- energy per token, households, carbon (energy chapter) ---------------------------------------------
# SA's energy figures rest on a fixed all-in power per H100 at the meter (A31): IT watts times PUE
# above, the one facility overhead of the book; the overhead SA's figures imply is a result.
HOUSEHOLD_KWH_PER_YEAR = Param(
    "household_kwh_per_year", 10_791.0, "kWh per household-year", "Electricity use of an average US household in a year",
    "SemiAnalysis's basis: EIA's 2022 US average, 10,791 kWh (A26). EIA's figures for other years "
    "(10,244-10,791 kWh, 2020-2023) and the state extremes (Hawaii to Louisiana, about 6,000 to "
    "14,400 kWh) are rows of data/household_energy.csv; the chapter shows household-years as a band over them.",
    "sa_gb200_2025", fact="A26_household_kwh", low=1_000, high=50_000)
GRID_G_CO2_PER_KWH = Param(
    "grid_g_co2_per_kwh", 366.0, "g CO2 per kWh", "Carbon intensity of the grid that powers the training",
    "EIA: US utility-scale generation emitted 1,532 Mt CO2 for 4,183 TWh in 2023 (366 g/kWh; EIA "
    "rounds to 0.81 lb, 367 g). Earlier years were higher: 0.86 lb (390 g) in 2022, 0.92 lb (417 g) in "
    "2019. A location-based US average, not the mix of any particular datacenter; set 0 for a fully "
    "carbon-free supply.",
    "eia_co2_2023", basis="derived", low=0, high=1_500)
# --- benchmarks, scaling and software gains -----------------------------------------------------------
# The two prices below keep these names so that the TCO chapter's results can replace them later.
MFU_CHECK_TOLERANCE = Param(
    "mfu_check_tolerance", 0.01, "fraction",
    "Relative tolerance for reproducing a printed MFU from its printed tokens/s/GPU",
    "The package's FLOP count (6N + 12Lhs) matches the per-sample FLOPs NVIDIA's DGXC READMEs state "
    "for GPT-3 175B and Llama 3.1 8B/70B/405B within 1 %; a wider miss is a different FLOP "
    "convention or a misprint.", "nv_dgxc_v25_02", basis="derived", low=0.0001, high=1.0)
GPT3_TRAIN_TOKENS = Param(
    "gpt3_train_tokens", 3e11, "tokens", "Tokens of GPT-3 175B's original training run",
    "SemiAnalysis prices GPT-3 175B on its original 300B training tokens (fact A23_train_tokens; "
    "Brown et al. 2020).", "sa_gb200_2025", low=1e6, high=1e15)
LLAMA3_TRAIN_TOKENS = Param(
    "llama3_train_tokens", 15e12, "tokens", "Tokens of a Llama 3 pre-training run",
    "SemiAnalysis prices Llama 3 405B's 15T-token pre-training (fact A35_train_tokens), the token "
    "count Meta reports for its Llama 3 models.", "sa_gb200_2025", low=1e6, high=1e15)
STRONG_MODEL = Param(
    "strong_model", "llama31_70b", "model id", "Model of the strong-scaling example",
    "SemiAnalysis discusses scaling on Llama 3 70B (A39-A41). The measured step and the layout "
    "(TP, PP, CP, VP, global batch) come from NVIDIA's v25.02 sweep of the chosen model, the release "
    "SemiAnalysis's figures match.", "nv_dgxc_v25_02",
    choices=("gpt3_175b", "llama31_8b", "llama31_70b", "llama31_405b"))
STRONG_PRECISION = Param(
    "strong_precision", "fp8", "data type", "Precision of the strong-scaling example",
    "The 70B FP8 sweep is the one SemiAnalysis singles out for its scaling loss (A39).",
    "sa_gb200_2025", choices=("fp8", "bf16"))
STRONG_MAX_GPUS = Param(
    "strong_max_gpus", 2048, "GPUs", "Largest cluster of the strong-scaling sweep",
    "The largest cluster of the report's scaling runs (A01: 2,048 GPUs). A fixed global batch cannot "
    "use more GPUs than sequences x GPUs per replica; the sweep stops there if that comes first.",
    "sa_gb200_2025", low=2, high=1_000_000)
MARGINAL_GPUS = Param(
    "marginal_gpus", 1000, "GPUs", "Size of the last block of GPUs whose cost per unit of speed-up is shown",
    "A round block, well inside the 64 -> 2,048 sweep: what do the last 1,000 GPUs buy?",
    None, basis="assumption", low=1, high=1_000_000)
MAX_GLOBAL_BATCH_TOKENS = Param(
    "max_global_batch_tokens", 16_000_000, "tokens", "Largest global batch a planned run grows to",
    "Llama 3.1 405B's 16M tokens per step on 16,384 H100 (the paper's Table 4 as Balaji's SC'24 slide shows it; "
    "klockwood_llama31), the largest batch of the published runs whose GPU count is published with it. The planner "
    "holds the batch there when it chooses a job bigger than the largest published run (plan --days, --budget-usd): "
    "each added GPU then gets a smaller share of a step (strong scaling, the scaling chapter's model). "
    "DeepSeek-V3 ramped an MoE to about 63M tokens (15,360 sequences of 4,096), so larger batches exist.",
    "klockwood_llama31", low=100_000, high=1_000_000_000)
GRAD_BYTES_PER_PARAM = Param(
    "grad_bytes_per_param", 4.0, "bytes per parameter", "Bytes per gradient value in the data-parallel exchange",
    "Megatron-LM reduces the gradients of BF16 models in FP32, 4 bytes each (its argument checks: "
    "'bfloat16 requires gradient accumulation and all-reduce to be done in fp32'). Set 2 for BF16 "
    "reduction, or lower to mimic overlap of the exchange with compute.", "megatron_lm",
    low=0.0, high=16.0)
SEED_MFU_END = Param(
    "seed_mfu_end", 0.05, "fraction",
    "The seed's end-of-year MFU (claim S11: '2.5 % to 5 %'), kept only to test it",
    "Claim S11 as the seed states it. The chapter shows what a GPT-3 run would cost at this MFU, to "
    "set it against the original's 34 % -> 54 % (A18).", "seed_000", low=0.001, high=1.0)
SEED_GPT3_COST_END_USD = Param(
    "seed_gpt3_cost_end_usd", 12_000.0, "USD",
    "The seed's end-of-year GPT-3 175B training cost (claim S12: 12,000 USD), kept only to test it",
    "Claim S12 as the seed states it. The chapter shows the MFU this cost would need, to set it "
    "against the original's 162k USD (A23).", "seed_000", low=1.0, high=1e10)

# --- reliability: failures, checkpoints, goodput (reliability chapter), GB200 downtime (downtime chapter) ---
# Llama 3 405B's own counts (GPUs, days, interruptions) are data (data/reliability_facts.csv), not
# parameters. What Meta did not publish, and everything about GB200 NVL72 faults, is an assumption.
CHECKPOINT_WRITE_SECONDS = Param(
    "checkpoint_write_seconds", 10.0, "s", "Time training pauses to write one persistent checkpoint",
    "An assumption: Llama 3 publishes its checkpoint size (up to 4 GB per GPU) and storage bandwidth "
    "(2 TB/s sustained) but no save time. With asynchronous checkpointing, training pauses only while "
    "each GPU copies its shard to host memory: 6-14 s for 7B-13B models with PyTorch DCP (against "
    "~149 s synchronous). A synchronous write of 16,384 x 4 GB at 2 TB/s would take ~33 s (the "
    "chapter derives it); the range covers both and slower storage.",
    "pytorch_dcp_async_2024", basis="assumption", low=0.1, high=3_600)
FAILURE_DETECTION_MINUTES = Param(
    "failure_detection_minutes", 2.0, "minutes", "Time from a failure until the job stops to recover",
    "An assumption: no run publishes it. Most of Llama 3's interruptions are hardware faults that "
    "crash a process at once; hangs (NCCL watchdog timeouts, 7 of 419) wait for a timeout. Two "
    "minutes is an average weighted toward fast detection; the range runs to two hours of silent hangs.",
    None, basis="assumption", low=0.0, high=120)
RESTART_MINUTES = Param(
    "restart_minutes", 5.0, "minutes", "Time to restart after a failure: swap in healthy nodes, re-initialise, reload the checkpoint",
    "An assumption: Meta says it cut job start-up and checkpoint times and automated all but 3 of 466 "
    "recoveries, but gives no time. Reading 16,384 x 4 GB back at Tectonic's 7 TB/s peak takes ~10 s; "
    "rescheduling and initialising communicators on 16k GPUs take minutes. With the other defaults, "
    "Meta's >90 % effective training time needs detection + restart of about 11 minutes or less (the "
    "chapter computes the bound), so five minutes is inside what Meta must have achieved.",
    None, basis="assumption", low=0.0, high=600)
FAILURE_MODEL = Param(
    "failure_model", "per-gpu", "model", "How a job's MTBF depends on its size",
    "'per-gpu' (the default) scales Llama 3 405B's per-GPU failure rate as 1/GPUs: it is exact at "
    "Llama 3's 16,384 GPUs, the largest job with a published failure count. 'measured-fit' uses a "
    "power law fitted in log-log space to the measured job-level MTTFs of data/job_failures.csv "
    "(Kokolis et al.'s 8- and 1,024-GPU jobs on A100 research clusters, Llama 3's job; "
    "analysis.reliability.measured_job_mtbf_hours): jobs near 1,000 GPUs failed several times more "
    "often than the per-GPU projection says. The choice moves the modelled job MTBF, the Young/Daly "
    "intervals and the goodput at the cluster size and across job sizes; the Llama 3 run itself "
    "stays on its own counts.", "kokolis_2024", basis="assumption", choices=("per-gpu", "measured-fit"))
JOB_GPUS = Param(
    "job_gpus", 16_384, "GPUs", "GPUs in the training job whose reliability-adjusted cost is compared",
    "Llama 3 405B's job size, the largest with a published failure table (equal to the llama3_gpus "
    "row of data/reliability_facts.csv, tested). The chapter also reports the comparison at the "
    "cluster size `gpus`.", "meta_llama3_2024", low=8, high=2_000_000)
GOODPUT_TRIALS = Param(
    "goodput_trials", 1_000, "simulated runs", "Runs simulated per Monte Carlo goodput estimate",
    "A numerical setting: 1,000 runs put the standard error of the mean ratio far below 0.1 "
    "percentage points for Llama 3's inputs and take well under a second (make bench).",
    None, basis="assumption", low=10, high=100_000)
GOODPUT_SEED = Param(
    "goodput_seed", 2024, "seed", "Seed of the Monte Carlo's random generator (numpy PCG64)",
    "A numerical setting: a fixed seed makes every rebuild draw the same runs; change it to see "
    "the sampling noise.", None, basis="assumption", low=0, high=2**32 - 1)
H100_REPAIR_HOURS = Param(
    "h100_repair_hours", 24.0, "hours", "Time a failed H100 server (8 GPUs) is out of service",
    "An assumption: no public source gives repair times. A day to diagnose, swap the GPU board or "
    "part from spares and burn the server in again.", None, basis="assumption", low=0.1, high=2_000)
GB200_REPAIR_HOURS = Param(
    "gb200_repair_hours", 48.0, "hours", "Time a failed GB200 NVL72 rack (its NVLink domain) is out of service",
    "An assumption: twice the H100 server's, because the rack is serviced as one NVLink domain and "
    "SemiAnalysis reports that backplane debug tools lag and the copper backplane stays unreliable "
    "after burn-in (A47). SA's own downtime figures are paywalled.", "sa_gb200_2025",
    basis="assumption", low=0.1, high=2_000)
GB200_BLAST_RADIUS_GPUS = Param(
    "gb200_blast_radius_gpus", 72, "GPUs", "GPUs taken out of service by one GB200 NVL72 fault until repaired",
    "An assumption: the whole NVL72 NVLink domain, against an H100 fault's 8-GPU server "
    "(h100_gpus_per_server). A job sharded across the rack's NVLink cannot use a rack with a failed "
    "tray or link, and backplane repair drains the rack. Lower it to model racks run with spare GPUs.",
    "sa_gb200_2025", basis="assumption", low=1, high=576)
GB200_NVLINK_FAULTS_PER_RACK_MONTH = Param(
    "gb200_nvlink_faults_per_rack_month", 1.0, "faults per rack-month",
    "NVLink backplane, switch-tray and cable faults per GB200 NVL72 rack, beyond GPU and host faults",
    "An assumption: SemiAnalysis says the backplane was still unreliable in August 2025 (A47) but "
    "its numbers are paywalled, and no other public rate exists. One a month per rack is about as many "
    "interruptions as all of Llama 3's causes on 72 H100s (the chapter shows it), i.e. it doubles the "
    "job's failure rate; 0 is a fully fixed backplane.", "sa_gb200_2025", basis="assumption", low=0.0, high=30)

# --- uncertainty (uncertainty chapter; bands in the TCO, energy and reliability chapters) ----------------
MC_DRAWS = Param(
    "mc_draws", 100_000, "draws", "Monte Carlo draws of the uncertain inputs",
    "100,000 draws put the P10 and P90 within about 0.5 % of their limit; they take about 0.1 s.", None,
    basis="assumption", low=1_000, high=10_000_000)
MC_SEED = Param(
    "mc_seed", 20_250_820, "seed", "Seed of the Monte Carlo's random generator",
    "Any fixed seed makes the bands reproducible; this one is the report's date.", None,
    basis="assumption", low=0, high=2**32 - 1)

# --- the measured device (the rerun appendix's "Measured on the build machine") ---------------------------
# `python -m analysis measure` times a small model on the reader's own machine (data/measured/). These two
# parameters price and power that device; their defaults fit the measurement shipped with the book, made on
# a 2-core cloud VM. Set them for your own device: e.g. -p local_gpu_hour_usd 2.0 -p local_power_w 700.
LOCAL_GPU_HOUR_USD = Param(
    "local_gpu_hour_usd", 0.10, "USD per device-hour", "Price of one hour of the measured device (GPU or CPU machine)",
    "An assumption for the shipped measurement, two vCPUs of a cloud VM, whose on-demand price is of the "
    "order of ten cents an hour. For a GPU, use what an hour of it costs you: a rental price "
    "(data/cloud_prices.csv) or an owner's TCO per GPU-hour (the tco chapter).", None,
    basis="assumption", low=0.0001, high=1_000)
LOCAL_POWER_W = Param(
    "local_power_w", 15.0, "W", "Power the measured device draws while training, at the wall",
    "An assumption for the shipped measurement: two busy cores of a server CPU with their share of memory and "
    "platform, of the order of 5-10 W per core. Set what your meter shows, with any facility overhead you want "
    "counted; an H100 SXM board alone is rated at the TDP in data/gpus.csv.", None,
    basis="assumption", low=0.1, high=100_000)

# --- DeepSeek-V3's published training cost (fact A36) -------------------------------------------------
DEEPSEEK_V3_GPU_HOURS = Param(
    "deepseek_v3_gpu_hours", 2.788e6, "GPU-hours", "H800 GPU-hours of DeepSeek-V3's full training",
    "DeepSeek-V3 Technical Report, Table 1: 2,664K GPU-hours of pre-training, 119K of context extension and "
    "5K of post-training, 2,788K in all, on H800s; the official run only, without prior research and ablations.",
    "deepseek_v3_2024", low=1, high=1e9)
DEEPSEEK_V3_USD_PER_GPU_HOUR = Param(
    "deepseek_v3_usd_per_gpu_hour", 2.0, "USD per GPU-hour", "Rental price per H800 GPU-hour DeepSeek assumes",
    "DeepSeek-V3 Technical Report, Table 1 and Sec. 1: 'Assuming the rental price of the H800 GPU is $2 per GPU "
    "hour, our total training costs amount to only $5.576M'. An assumed rental price, not a measured cost.",
    "deepseek_v3_2024", low=0.01, high=100)
