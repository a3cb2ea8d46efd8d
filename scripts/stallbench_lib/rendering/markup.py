"""Markup the report's sections share."""
import html


def collapsed(summary: str, body: str) -> str:
    """Markdown folded under a one-line summary (<details>): a section's figures and summary stay in
    view, the per-cell table behind them is one click away. Rendered by Python-Markdown's
    md_in_html and by GitHub alike."""
    return f'<details markdown="1"><summary>{html.escape(summary, quote=False)}</summary>\n\n{body.strip()}\n\n</details>\n'
