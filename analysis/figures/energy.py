"""Figures and reader tables of the energy chapter, drawn from its ChapterResults
(:mod:`analysis.chapters.energy`)."""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt

from analysis.page.formatting import count, number, percent
from analysis.page.names import gpu_short_name, model_name, source_link
from analysis.page.notebook import format_quantity, glue, markdown_table
from analysis.page.plots import PALETTE, add_source, legend_above, new_figure

SA = "SemiAnalysis"


def glue_labels(E) -> None:
    """Glue the few words the prose takes from the data: the years of the US household averages
    and the states with the lowest and highest use."""
    households = E.tables["households"]
    states = households[households["kind"] == "state"]
    us_years = households.loc[households["kind"] == "us_average", "period"].str[:4]
    glue("state_low_name", states.loc[states["kwh_per_year"].idxmin(), "region"], display=False)
    glue("state_high_name", states.loc[states["kwh_per_year"].idxmax(), "region"], display=False)
    glue("us_years", f"{us_years.min()}-{us_years.max()}", display=False)


def power_build_up(E):
    """Stacked bars of one GPU's watts, chip to meter: H100 at the book's IT power and PUE, H100 at
    the server-only IT with the overhead SA's figures then imply, and GB200 at its IT power and PUE."""
    c01_it = E["sa_implied_h100_meter_w_per_gpu"] / E["sa_implied_pue_over_c01_ratio"]
    builds = [  # (label, chip W, rest of IT W, facility overhead W)
        (f"H100\n{E['h100_it_w_per_gpu']:,.0f} W IT\n× PUE {E['pue']:.2f}", E["h100_chip_w"],
         E["h100_rest_of_it_w_per_gpu"], E["h100_overhead_w_per_gpu"]),
        (f"H100, SA\n{c01_it:,.0f} W IT\n× {E['sa_implied_pue_over_c01_ratio']:.2f} implied", E["h100_chip_w"],
         c01_it - E["h100_chip_w"], E["sa_implied_h100_meter_w_per_gpu"] - c01_it),
        (f"GB200\n{E['gb200_it_w_per_gpu']:,.0f} W IT\n× PUE {E['pue']:.2f}", E["gb200_chip_w"],
         E["gb200_rest_of_it_w_per_gpu"], E["gb200_meter_w_per_gpu"] - E["gb200_it_w_per_gpu"]),
    ]
    fig, ax = new_figure("One GPU's rated power, chip to meter", "", "Watts per GPU", figsize=(7.0, 6.4))
    parts = (("GPU chip", PALETTE["blue"]), ("Rest of IT: host, network, storage", PALETTE["sky"]),
             ("Facility overhead (PUE)", PALETTE["orange"]))
    for i, (_, *watts) in enumerate(builds):
        bottom = 0.0
        for w, (name, colour) in zip(watts, parts, strict=True):
            ax.bar(i, w, bottom=bottom, width=0.6, color=colour, edgecolor="white", label=name if i == 0 else None)
            ax.text(i, bottom + w / 2, f"{w:,.0f}", ha="center", va="center")
            bottom += w
        ax.text(i, bottom + 30, f"{bottom:,.0f} W", ha="center", va="bottom", fontweight="bold")
    ax.axhline(E["sa_implied_h100_meter_w_per_gpu"], color=PALETTE["vermillion"], lw=1.5, ls="--",
               label="implied by SA's energy figures (A31)")
    ax.axhline(E["h100_average_meter_w_per_gpu"], color=PALETTE["blue"], lw=1.2, ls="-.",
               label=f"H100's average draw, training ({E['load_factor_frac']:.0%} of rated)")
    ax.axhline(E["household_w"], color=PALETTE["black"], lw=1.0, ls=":", label="one US household's average draw")
    ax.set_xticks(range(len(builds)), [b[0] for b in builds])
    ax.set_ylim(0, E["gb200_meter_w_per_gpu"] * 1.12)
    ax.grid(axis="x", visible=False)
    legend_above(ax)
    add_source(fig, "SemiAnalysis 2024 (C02: the first bar's IT power; C01: the second's) and 2025 (A31); PUE and "
                    "IT power per GPU are parameters; chip power from data/gpus.csv; household: the average US "
                    "household's electricity use, a parameter.")
    return fig


def joules_per_token(E):
    """Six panels, one per model: J/token at the meter against GPU count for every benchmark row."""
    bench = E.tables["joules_per_token"]
    panel_models = ["llama31_8b", "llama31_70b", "gpt3_175b", "llama31_405b", "llama4_maverick", "deepseek_v3"]
    # Two panels a row, so a phone shows each at half the width; the legend has a row of its own.
    fig = plt.figure(figsize=(7.0, 11.0), layout="constrained")
    grid = fig.add_gridspec(4, 2, height_ratios=[0.5, 1, 1, 1])
    key = fig.add_subplot(grid[0, :])
    key.axis("off")
    axes = [fig.add_subplot(grid[1 + i // 2, i % 2]) for i in range(len(panel_models))]
    colours = {"bf16": PALETTE["orange"], "fp8": PALETTE["blue"]}
    markers = {"h100_sxm": "o", "gb200_nvl72": "s"}
    for ax, model_id in zip(axes, panel_models, strict=True):
        rows = bench[bench["model_id"] == model_id]
        for (_, gpu_id, precision, publisher), series in rows.groupby(
                ["software", "gpu_id", "precision", "publisher"], sort=False):
            series = series.sort_values("gpus")
            sa = publisher == SA
            ax.plot(series["gpus"], series["joules_per_token"], marker=markers[gpu_id], color=colours[precision],
                    lw=0 if sa else 0.8, alpha=1.0 if sa else 0.55, ms=7 if sa else 4,
                    mfc="white" if sa else colours[precision], mew=1.5 if sa else 0.5)
        ax.set_title(textwrap.fill(rows["model_name"].iloc[0], 14), loc="left")  # two lines on a phone, not clipped
        ax.set_xscale("log", base=2)
        ax.set_xlim(6, 4096)
        ax.xaxis.set_major_locator(plt.FixedLocator([16, 128, 1024]))
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:,.0f}"))
        ax.set_ylim(0, rows["joules_per_token"].max() * 1.25)
    fig.supxlabel("GPUs (log scale)")
    fig.supylabel("J per token at the meter")
    handles = [plt.Line2D([], [], color=colours["bf16"], lw=0, marker="o", label="BF16"),
               plt.Line2D([], [], color=colours["fp8"], lw=0, marker="o", label="FP8"),
               plt.Line2D([], [], color="grey", lw=0, marker="o", label="H100"),
               plt.Line2D([], [], color="grey", lw=0, marker="s", label="GB200 NVL72 (NVIDIA v25.05)"),
               plt.Line2D([], [], color="grey", lw=0, marker="o", mfc="white", mew=1.5, ms=7,
                          label="SemiAnalysis's points"),
               plt.Line2D([], [], color="grey", lw=0.8, marker="o", ms=4, label="NVIDIA tables, one line a release")]
    fig.suptitle("Energy per trained token by model,\nprecision and GPU count", x=0.01, ha="left", fontweight="bold",
                 fontsize=plt.rcParams["axes.titlesize"])
    key.legend(handles=handles, loc="center left", ncols=2, frameon=False, borderaxespad=0)
    add_source(fig, f"data/benchmarks.csv throughput; {E['h100_average_meter_w_per_gpu']:,.0f} W per H100 and "
                    f"{E['gb200_average_meter_w_per_gpu']:,.0f} W per GB200 at the meter, the average draw "
                    f"({E['load_factor_frac']:.0%} of rated; this chapter's parameters).")
    return fig


def household_years(E):
    """Each training run in household-years: the book's value, SA's where it gives one, and the
    ranges over US-average and state-average households."""
    runs = E.tables["household_years"]
    households = E.tables["households"]
    us_years = households.loc[households["kind"] == "us_average", "period"].str[:4]
    fig, ax = new_figure("Training runs in household-years", "Household-years (log scale)", "",
                         figsize=(7.0, 2.6 + 1.0 * len(runs)))
    for i, r in runs.iterrows():
        first = i == 0
        ax.hlines(i, r["state_low"], r["state_high"], color=PALETTE["sky"], lw=9, alpha=0.5,
                  label="range over state averages" if first else None)
        ax.hlines(i, r["us_low"], r["us_high"], color=PALETTE["blue"], lw=9,
                  label=f"range over US averages, {us_years.min()}-{us_years.max()}" if first else None)
        ax.plot(r["book"], i, "|", color=PALETTE["black"], ms=16, mew=1.2,
                label=f"this book, {E['household_kwh_per_year']:,.0f} kWh per household" if first else None)
        if r["sa"] == r["sa"]:  # not NaN: drawn just above the bar so it does not hide the band
            ax.plot(r["sa"], i - 0.32, "v", color=PALETTE["vermillion"], ms=6,
                    label="SemiAnalysis's figure" if first else None)
        ax.annotate(f"{r['book']:,.0f}", (r["state_high"], i), xytext=(5, 0), textcoords="offset points",
                    va="center")
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.set_yticks(range(len(runs)), [textwrap.fill(str(label), 20) for label in runs["label"]])
    ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    ax.set_xlim(runs["state_low"].min() / 2, runs["state_high"].max() * 4)
    legend_above(ax)
    add_source(fig, "J/token from this chapter; household use from data/household_energy.csv (EIA, direct and "
                    "via secondary sources); SemiAnalysis 2025 (A30, A38, A43).")
    return fig


def households_table(E) -> str:
    """Markdown: every household figure in ``data/household_energy.csv``, with its source."""
    rows = [(h.period, h.region, f"{h.kwh:,.0f} kWh per {h.per}", f"{h.kwh_per_year:,.0f}", h.evidence,
             source_link(h.source_id)) for h in E.tables["households"].itertuples()]
    return markdown_table(["Period", "Where", "Published", "kWh per year", "Evidence", "Source"], rows)


def _versus(book: float, card: float, unit: str) -> tuple[str, str, str]:
    return format_quantity(book, unit), format_quantity(card, unit), f"{(book / card - 1) * 100:+.1f} %"


def model_card_table(E) -> str:
    """Markdown: this chapter's Llama 3.1 405B emissions and GPU-hours against the model card's."""
    return markdown_table(["Llama 3.1 405B", "This book", "Model card", "Difference"], [
        (f"Location-based emissions: the card's energy ({E['llama31_405b_card_w_per_gpu']:.0f} W per GPU-hour) at "
         f"{E['grid_g_co2_per_kwh']:.0f} g/kWh",
         *_versus(E["llama31_405b_card_emissions_at_grid_tco2"], E["llama31_405b_card_location_tco2"], "t CO2")),
        (f"GPU-hours: {E['llama31_405b_train_trillion_tokens']:.0f}T tokens at the reference throughput vs "
         "the card's total",
         *_versus(E["llama31_405b_bf16_15t_tokens_gpu_hours"], E["llama31_405b_card_gpu_hours"], "GPU-hours"))])


def verdict(R) -> str:
    """The first sentence of the chapter's "In short" box: its answer, with its condition,
    built from its results ``R``, so it moves with a scenario or ``-p`` like every number; the
    models and GPUs it names are the ones its results record (``R.names``)."""
    return (f"Training, an {gpu_short_name(R.names['h100'])} draws {count(R['h100_average_meter_w_per_gpu'])} W at the "
            f"meter on average ({percent(R['load_factor_frac'])} of its rated {count(R['h100_meter_w_per_gpu'])} W), and one "
            f"clean pass of {model_name(R.names['reference_model'])} over {number(R['llama31_405b_train_trillion_tokens'])}T "
            f"tokens uses the electricity of {count(R['llama31_405b_bf16_household_years_15t_tokens'])} US household-years "
            "at that average draw.")


# The result keys of the box the chapter opens with, and its closing line.
ANSWER = ["h100_average_meter_w_per_gpu", "gpt3_175b_fp8_j_per_token", "llama31_405b_bf16_household_years_15t_tokens", "cluster_annual_energy_twh"]
ANSWER_MORE = "Below: the headline figure, then the parameters this chapter ran with, the method and the sources."
