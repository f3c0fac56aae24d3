"""Sentence lengths of a built page's prose, as a reader meets it (issue 45).

The rendered article of a chapter page, with its tables, code, math and headings left out: the
text of its paragraphs, list items, definitions and figure captions, numbers and glued values as
printed. Each block is split into sentences at a full stop, question or exclamation mark followed
by a space and a capital, a digit or a quote (an abbreviation such as "et al." or "e.g." does not
end one). A word is a whitespace-separated token with a letter or a digit in it.

    python tests/prose.py _build/html     # the median and longest sentences of every chapter
"""

from __future__ import annotations

import re
import statistics
import sys
from html.parser import HTMLParser
from pathlib import Path

# Left out with their text, ending the sentence before them: tables, code blocks, headings, the
# what-if panels, fold labels and the page's furniture.
SKIP = {"table", "pre", "script", "style", "nav", "svg", "h1", "h2", "h3", "h4", "h5", "h6", "button", "select",
        "summary", "noscript", "label"}
SKIP_CLASSES = ("whatif", "headerlink", "book-datatable", "admonition-title", "caption-number",
                "book-parameters")  # prefixes of class names
# Inside a sentence: inline code and math read as one word each.
ONE_WORD = {"code"}
ONE_WORD_CLASSES = {"math"}  # MathJax's source spans (not "mathjax_ignore", a section's class)
BLOCKS = {"p", "li", "dd", "dt", "figcaption", "caption", "div", "section", "blockquote", "ul", "ol", "dl",
          "figure", "article", "aside", "details"}
VOID = {"br", "img", "input", "hr", "meta", "link", "wbr", "source", "col", "area", "base", "embed", "param",
        "track"}
ABBREVIATIONS = ("et al.", "e.g.", "i.e.", "vs.", "Sec.", "Fig.", "Eq.", "No.", "approx.", "cf.", "Inc.", "Ltd.",
                 "Co.", "Jr.", "St.", "U.S.", "Mr.", "Dr.")
SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[A-Z0-9\"“$])")


class _Prose(HTMLParser):
    """The text blocks inside <article>, skipping the elements in SKIP and classes in SKIP_CLASSES."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped here)
        self.in_article = 0
        self.blocks: list[str] = []
        self.current: list[str] = []

    def _skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def _flush(self):
        text = " ".join("".join(self.current).split())
        if text:
            self.blocks.append(text)
        self.current = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        in_box = any(t == "answer-box" for t, _ in self.stack)
        skip = (tag in SKIP or any(c.startswith(SKIP_CLASSES) for c in classes)
                or (tag == "div" and "math" in classes)  # display math
                or (tag == "ul" and in_box))  # the verdict box's key figures: labelled values, not sentences
        one_word = tag in ONE_WORD or any(c in ONE_WORD_CLASSES for c in classes)
        if tag == "article":
            self.in_article += 1
        if tag in BLOCKS:
            self._flush()
        if one_word and self.in_article and not self._skipping():
            self.current.append(" x ")
        self.stack.append(("answer-box" if "answer-box" in classes else tag, skip or one_word))

    def handle_endtag(self, tag):
        if tag in VOID or tag not in {"div" if t == "answer-box" else t for t, _ in self.stack}:
            return  # a stray end tag closes nothing
        while self.stack:
            open_tag, _ = self.stack.pop()
            open_tag = "div" if open_tag == "answer-box" else open_tag
            if open_tag in BLOCKS:
                self._flush()
            if open_tag == tag:
                break
        if tag == "article":
            self.in_article -= 1

    def handle_data(self, data):
        if self.in_article and not self._skipping():
            self.current.append(data)


def sentences(html: str) -> list[str]:
    """The sentences of a page's article prose, in order."""
    parser = _Prose()
    parser.feed(html)
    parser.close()
    out = []
    for block in parser.blocks:
        protected = block
        for i, abbreviation in enumerate(ABBREVIATIONS):
            protected = protected.replace(abbreviation + " ", abbreviation.replace(".", f"\0{i}") + " ")
        for part in SENTENCE_END.split(protected):
            text = re.sub(r"\x00\d+", ".", part).strip()
            if words(text):
                out.append(text)
    return out


def words(sentence: str) -> int:
    return sum(1 for token in sentence.split() if re.search(r"[A-Za-z0-9]", token))


def page_summary(html: str) -> tuple[float, int, int]:
    """A page's median sentence in words, its sentences, and those over 30 words."""
    lengths = [words(s) for s in sentences(html)]
    return (statistics.median(lengths) if lengths else 0.0), len(lengths), sum(n > 30 for n in lengths)


if __name__ == "__main__":
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "_build/html") / "book" / "generated"
    for page in sorted(root.glob("*.html")):
        median, n, long = page_summary(page.read_text(encoding="utf-8"))
        print(f"{page.stem:14} median {median:5.1f}  sentences {n:4}  over 30 words {long:3}")
