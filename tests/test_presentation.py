"""The book-wide presentation layer: figure legibility (analysis.page.plots.finalize), reader-facing
names (analysis.page.names), the generated pages (Sources, Report facts, Assumptions, landing page) and
the build stamp."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from analysis.page import appendices as pages  # noqa: E402
from analysis.page import names, plots  # noqa: E402


def test_finalize_caps_width_and_raises_small_text():
    plots.apply_style()
    fig, ax = plt.subplots(figsize=(12, 5))
    ax.plot([1, 2], [3, 4], label="a line")
    ax.set_title("Title", fontsize=7)
    ax.legend(fontsize=6)
    ax.annotate("note", (1, 3), fontsize=5)
    plots.finalize(fig)
    smallest, _ = plots.figure_text_sizes(fig)
    assert fig.get_size_inches()[0] == pytest.approx(plots.MAX_WIDTH_IN)
    assert smallest >= plots.min_font_pt(plots.MAX_WIDTH_IN * plots.TIGHT_ALLOWANCE) - 0.06
    plt.close(fig)


def test_text_floor_holds_at_1280_px_and_on_a_390_px_phone():
    # a figure shown at CONTENT_PX wide (1280 px window) and PHONE_CONTENT_PX wide (390 px phone):
    # its smallest text is at least the caption there and at least PHONE_TEXT_PX here, one of them exactly
    for width in (5.0, 7.0, 7.7, 9.0):
        floor = plots.min_font_pt(width)
        desktop = floor / 72 * min(plots.FIGURE_DPI, plots.CONTENT_PX / width)
        phone = floor / 72 * min(plots.FIGURE_DPI, plots.PHONE_CONTENT_PX / width)
        assert desktop >= plots.CAPTION_PX - 1e-9 and phone >= plots.PHONE_TEXT_PX - 1e-9
        assert min(desktop - plots.CAPTION_PX, phone - plots.PHONE_TEXT_PX) == pytest.approx(0, abs=1e-9)


def test_reader_facing_names():
    assert names.gpu_name("h100_sxm") == "H100 SXM 80GB"
    assert names.gpu_name("h100_sxm", vendor=True).startswith("NVIDIA ")
    assert names.param_label("pue").startswith("Power usage effectiveness")
    assert names.param_short_label("pue") == "Power usage effectiveness"
    assert names.fact_label("B09_fp8_eflops") == "B09"
    assert names.fact_link("B09_fp8_eflops") == "{ref}`B09 <fact-B09_fp8_eflops>`"
    assert names.source_label("sa_100k_2024") == "SemiAnalysis 2024"
    assert names.source_link("palm_2022") == "{ref}`Chowdhery et al. 2022 <src-palm_2022>`"
    assert names.author("this book's measurement harness (analysis/measure)") == "this book's measurement harness"
    assert names.clean_note("SA-B in report_facts.md; free preview read. See A01_gpus_max_405b.") == \
        "free preview read. See A01."
    # a source cited by its id is linked by its author-year label; other snake-case words stay
    assert names.clean_note("EIA's figure is 10,715 kWh (eia_household_2020)") == \
        f"EIA's figure is 10,715 kWh ({names.source_link('eia_household_2020')})"
    assert names.clean_note("a not_a_source word") == "a not_a_source word"


def test_names_follow_the_data_folder_they_are_read_from(data_copy):
    """A process that read names from an edited copy of the data (as a test does) reads the book's
    again on the book's data: the names are kept per data folder, not once per process."""
    import pandas as pd

    from analysis.data import load as data

    gpus = pd.read_csv(data_copy / "gpus.csv", dtype=str, keep_default_na=False)
    gpus.loc[gpus["gpu_id"] == "h100_sxm", "name"] = "NVIDIA Renamed H100"
    gpus.to_csv(data_copy / "gpus.csv", index=False)
    data.clear_cache()
    assert names.gpu_name("h100_sxm") == "Renamed H100"
    book = data.DATA_DIR
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ANALYSIS_DATA_DIR", str(book))
        assert names.gpu_name("h100_sxm") == "H100 SXM 80GB"


def test_source_titles_quote_repository_names_as_code_and_units_as_text():
    assert pages.code_names("Training v5.0 results (results/*/llama2_70b_lora, llama31_405b; systems/*.json)") == \
        "Training v5.0 results (`results/*/llama2_70b_lora`, `llama31_405b`; `systems/*.json`)"
    assert pages.code_names("Llama 3.1 model card (models/llama3_1/MODEL_CARD.md).") == \
        "Llama 3.1 model card (`models/llama3_1/MODEL_CARD.md`)."
    assert pages.code_names("meta-llama/Llama-3.1-8B on H100/H200 at 400Gb/s, 4/20") == \
        "`meta-llama/Llama-3.1-8B` on H100/H200 at 400Gb/s, 4/20"


def test_sources_page_is_author_year_sorted_without_internal_notes():
    page = pages.sources_page()
    assert "report_facts.md" not in page and "&amp;amp;" not in page
    entries = [line for line in page.splitlines() if line and not line.startswith(("(", "#", "Every"))]
    authors = [e.split(" (")[0].lower() for e in entries]
    assert authors == sorted(authors)
    assert "(src-sa_100k_2024)=" in page and "Read 30 November 2026." in page


def test_facts_page_anchors_every_fact():
    from analysis.data.load import load_table

    page = pages.facts_page()
    for fact_id in load_table("report_facts")["fact_id"]:
        assert f"(fact-{fact_id})=" in page
    assert "e+" not in page and "fraction" not in page


def test_assumptions_page_shows_names_and_percentages():
    page = pages.assumptions_page({})
    assert "H100 SXM 80GB (`h100_sxm`)" in page and "0.35 (35 %)" in page
    assert " fraction" not in page.replace("fraction of", "")


def test_landing_page_links_every_chapter():
    from analysis.chapters.registry import SECTIONS

    html = pages.landing_html("A title", {"commit": "abc", "date": "1 May 2026", "dirty": ""})
    for s in SECTIONS:
        assert f"book/generated/{s.name}.html" in html
    assert "Built from commit <code>abc</code> (1 May 2026)" in html


def test_build_stamp_outside_git_is_unknown(tmp_path):
    assert pages.build_stamp(tmp_path)["commit"] == "unknown"


def test_human_date():
    assert pages.human_date("2026-11-30") == "30 November 2026"
    assert pages.human_date("2024-07") == "July 2024"
    assert pages.human_date("2026") == "2026"
