"""Saving figures: PNG for pages, SVG for print, both written atomically."""
import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from ..atomic import atomic_write  # noqa: E402

CLASS_COLOURS = {"pbkdf2": "#d62728", "fs": "#1f77b4", "dns": "#2ca02c", "tcp": "#9467bd"}


def save(fig, out_dir: Path, stem: str, alt: str) -> str:
    """Writes stem.png and stem.svg, closes the figure, returns the Markdown that embeds it."""
    for fmt in ("png", "svg"):
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, dpi=110, bbox_inches="tight")
        atomic_write(out_dir / f"{stem}.{fmt}", buffer.getvalue())
    plt.close(fig)
    return f"![{alt}]({stem}.png)\n\n[SVG]({stem}.svg)\n"


def figure(*args, **kwargs):
    return plt.subplots(*args, **kwargs)
