"""A markdown report cut to a terminal's width: what ``balance`` prints, while ``--markdown
FILE`` keeps the whole report.

Why: a per-line-up table of Hegemony's balance report is 22 columns (the class, its agent,
the win rate and its interval, the mean VP and 16 sources of VP), near 230 characters a line,
which a terminal folds into noise.  Here a table wider than ``WIDTH`` keeps its first columns
(the key ones: every table here puts them first), a long cell (a checkpoint's path) shows its
end, and a line under the table names the columns left out; other long lines are wrapped.
"""

from __future__ import annotations

import textwrap

WIDTH = 100  # characters a line in the terminal
MAX_CELL = 32  # a longer cell shows "…" and its last characters


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _short(cell: str) -> str:
    return cell if len(cell) <= MAX_CELL else "…" + cell[-(MAX_CELL - 1):]


def fit_table(lines: list[str], width: int = WIDTH) -> tuple[list[str], list[str]]:
    """A markdown table (header, rule, rows) cut to the first columns that fit ``width``,
    and the names of the columns cut (none when it fits as it is)."""
    if all(len(line) <= width for line in lines):
        return lines, []
    head, *rows = ([_short(cell) for cell in _cells(line)] for line in lines)
    body = rows[1:]  # rows[0] is the rule under the header

    def render(keep: int) -> list[str]:
        return [_row(head[:keep]), "|" + "---|" * keep, *(_row(r[:keep]) for r in body)]

    keep = len(head)
    while keep > 1 and max(map(len, render(keep))) > width:
        keep -= 1
    return render(keep), head[keep:]


def wrap(line: str, width: int = WIDTH) -> list[str]:
    """A line of text in lines of ``width`` at most (a quote's continuation quoted too)."""
    if len(line) <= width:
        return [line]
    indent = "> " if line.startswith("> ") else "  " if line.startswith("- ") else ""
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)


def fit(text: str, width: int = WIDTH) -> tuple[str, int]:
    """``text`` with every line ``width`` characters at most, and how many tables were cut;
    under each cut table, a line naming the columns it lost."""
    out: list[str] = []
    cut_tables = 0
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        if not lines[k].startswith("|"):
            out += wrap(lines[k], width)
            k += 1
            continue
        end = k
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        table, cut = fit_table(lines[k:end], width)
        out += table
        if cut:
            cut_tables += 1
            out += wrap(f"({len(cut)} more columns, in the Markdown file: {', '.join(cut)})",
                        width)
        k = end
    return "\n".join(out), cut_tables


def cut_note(cut_tables: int, markdown_path: str | None, width: int = WIDTH) -> str:
    """The closing line when tables were cut: where the whole ones are, or how to get them."""
    where = (f"the whole report is in {markdown_path}" if markdown_path
             else "--markdown FILE writes the whole report")
    return "\n".join(wrap(f"{cut_tables} tables were cut to {width} columns here; {where}.",
                          width))
