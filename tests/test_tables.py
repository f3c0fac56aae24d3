"""Reader tables (analysis.page.tables): folds of long and wide tables, their CSV, the data
tables' key rows, and reader text without ids (analysis.page.names.reader_text)."""

from __future__ import annotations

import csv
import io
import re

from analysis.page.names import reader_text
from analysis.page.tables import Html, interactive_table, markdown_table, table_csv

HEADER = ["Run", "Outcome", "Published", "Source"]
ROWS = [["GPT-3 175B", "days", "34", "{ref}`Narayanan et al. 2021 <src-narayanan_2021>`"],
        ["OPT-175B", "energy (MWh)", "**356**", "[the logbook](https://example.org/opt)"],
        ["BLOOM-176B", "GPU-hours", "1,082,990", "—"]]


def test_a_table_without_a_fold_is_one_markdown_table():
    table = markdown_table(HEADER, ROWS, "llrl")
    assert not table.folded and "<details" not in table
    assert table.count("\n") == 4 and table.splitlines()[1] == "|---|---|---:|---|"


def test_key_rows_and_columns_show_and_the_whole_table_folds():
    table = markdown_table(HEADER, ROWS, "llrl", key=[2, 0], columns=["Run", "Published"], name="runs", title="runs")
    shown, fold = table.split("<details", 1)
    assert shown.splitlines()[0] == "| Run | Published |"
    assert [line.split(" | ")[0] for line in shown.strip().splitlines()[2:]] == ["| GPT-3 175B", "| BLOOM-176B"]
    assert "Show all 3 rows and 4 columns</summary>" in fold and fold.rstrip().endswith("</details>")
    assert "OPT-175B" in fold and "OPT-175B" not in shown  # the other row only in the fold
    assert table.folded and (table.name, table.title) == ("runs", "runs")


def test_a_boolean_mask_picks_rows_and_an_empty_key_folds_them_all():
    masked = markdown_table(HEADER, ROWS, key=[False, True, False])
    assert masked.split("<details")[0].count("OPT-175B") == 1 and "Show all 3 rows</summary>" in masked
    hidden = markdown_table(HEADER, ROWS, key=[])
    assert hidden.startswith('<details class="book-more"><summary>Show the table (3 rows)</summary>')


def test_the_csv_holds_every_row_and_column_as_plain_text():
    table = markdown_table(HEADER, ROWS, key=[0], columns=[0])
    rows = list(csv.reader(io.StringIO(table_csv(table))))
    assert rows[0] == HEADER and len(rows) == 4
    assert rows[1][3] == "Narayanan et al. 2021"  # a role by its text
    assert rows[2][2:] == ["356", "the logbook (https://example.org/opt)"]  # no emphasis; a link keeps its address


def test_a_data_table_shows_its_key_rows_and_folds_the_others():
    html = interactive_table([{"a": "x", "b": 1.0}, {"a": "y", "b": 2.0}, {"a": "z", "b": 3.0}], key=[1],
                             table_id="t")
    rows = re.findall(r"<tr( class=\"book-more-row\")?><td>(\w)</td>", html)
    assert rows == [(' class="book-more-row"', "x"), ("", "y"), (' class="book-more-row"', "z")]
    assert '<details class="book-more book-more-rows"><summary>Show all 3 rows</summary></details>' in html
    assert '<span class="book-datatable-count">1 of 3 rows</span>' in html
    whole = interactive_table([{"a": "<b>", "c": Html("<em>ok</em>")}])
    assert "&lt;b&gt;" in whole and "<em>ok</em>" in whole and "<details" not in whole  # text escaped, Html kept


def test_reader_text_drops_ids_and_names_sources():
    text = ("Priced at the all-in price (h100_allin_usd) from A03_h100_server_usd and sa_gb200_2025; "
            "see data/cost_anchors.csv, h100_it_w_per_gpu and tokens/household-year.")
    shown = reader_text(text, link=False)
    assert shown == ("Priced at the all-in price from A03 and SemiAnalysis 2025; see data\u200b/cost_anchors.csv, "
                     "All-in critical IT power per H100 and tokens\u200b/household-year.")
    assert "{ref}`SemiAnalysis 2025 <src-sa_gb200_2025>`" in reader_text(text)
