"""What the bench scripts share: their table printed, and appended to bench/RESULTS.md (or to the
caller's --output; "-" prints only)."""

from __future__ import annotations


def emit(lines: list[str], output: str) -> None:
    text = "\n".join(lines) + "\n"
    print(text)
    if output != "-":
        with open(output, "a", encoding="utf-8") as f:
            f.write(text)
