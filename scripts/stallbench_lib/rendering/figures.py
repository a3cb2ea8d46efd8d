"""Saving figures (PNG for pages, SVG for print, both written atomically), and keeping legends and
labels off the data: panels that share a legend get one, below them and outside every axes
(`shared_legend`); a single panel's legend goes to a corner its data leaves empty, chosen from the
data, else beside the axes (`corner_legend`). `crowding` says what still covers data; the tests
run it on every figure of a rendered report."""
import io
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.path import Path as DrawnPath  # noqa: E402

from ..atomic import atomic_write

CLASS_COLOURS = {"pbkdf2": "#d62728", "fs": "#1f77b4", "dns": "#2ca02c", "tcp": "#9467bd"}
# matplotlib's tab10, then tab20's light tones, without their greys: grey is kept for legend keys
# that are not a series (a line style, a reference line).
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
           "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5"]
CORNERS = ("upper right", "upper left", "lower right", "lower left", "center right", "center left",
           "upper center", "lower center")


def save(fig, out_dir: Path, stem: str, alt: str) -> str:
    """Writes stem.png and stem.svg, closes the figure, returns the Markdown that embeds it. The
    tight bounding box is found once for both: `bbox_inches="tight"` lays the figure out again for
    each file, a third of a default run's report time."""
    fig.draw_without_rendering()
    tight = fig.get_tightbbox(fig.canvas.get_renderer()).padded(matplotlib.rcParams["savefig.pad_inches"])
    for fmt in ("png", "svg"):
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, dpi=110, bbox_inches=tight)
        atomic_write(out_dir / f"{stem}.{fmt}", buffer.getvalue())
    plt.close(fig)
    return f"![{alt}]({stem}.png)\n\n[SVG]({stem}.svg)\n"


def figure(*args, **kwargs):
    return plt.subplots(*args, **kwargs)


def colours_for(names: list[str]) -> dict[str, str]:
    """One colour per name, by its first position in `names` (a declared list, such as a bench's
    engines): the same declarations give the same colours in every figure and every run."""
    ordered = list(dict.fromkeys(names))
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(ordered)}


def mark_cores(ax, cores):
    """The machine's core count as a dashed vertical line, named in the legend: a label written on
    the line would sit on the data."""
    if cores:
        ax.axvline(cores, color="black", ls="--", lw=1, label=f"{cores} cores")


def legend_entries(axes) -> tuple[list, list]:
    """Every labelled mark of `axes`, each label once (from the first panel that has it)."""
    entries = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    return list(entries.values()), list(entries)


def shared_legend(fig, handles=None, labels=None, ncol=None, fontsize=8):
    """One legend for the whole figure, centred below its lowest panel (tick labels and axis label
    included): outside every axes, so it covers nothing. Call it once the layout is final."""
    if handles is None:
        handles, labels = legend_entries(fig.axes)
    if not handles:
        return None
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    bottom = min(ax.get_tightbbox(renderer).y0 for ax in fig.axes if ax.get_visible())
    ncol = ncol or min(len(handles), 4)
    return fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, bottom / fig.bbox.height),
                      ncol=ncol, fontsize=fontsize, frameon=False)


def corner_legend(ax, handles=None, labels=None, **kwargs):
    """The axes' legend in the first corner where it covers no data mark and no label, else beside
    the axes on the right. Call it once the layout is final (the corners are measured in pixels)."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    kwargs.setdefault("fontsize", 8)
    renderer = ax.figure.canvas.get_renderer()
    for loc in CORNERS:
        legend = ax.legend(handles, labels, loc=loc, **kwargs)
        if not _covered(legend.get_window_extent(renderer), ax.figure, renderer, legend):
            return legend
    return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0, **kwargs)


def crowding(fig) -> list[str]:
    """Each legend or free-standing label (one not anchored to a data point, such as a reference
    line's "2 cores") that covers a data mark, a label, or another legend: empty when nothing does."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    found = []
    for legend in legends:
        if _covered(legend.get_window_extent(renderer), fig, renderer, legend):
            found.append(f"a legend ({', '.join(t.get_text() for t in legend.get_texts()[:3])}, ...) covers data")
    for ax in fig.axes:
        for text in _free_labels(ax):
            box = text.get_window_extent(renderer)
            if any(box.overlaps(legend.get_window_extent(renderer)) for legend in legends):
                found.append(f"a legend covers the label '{text.get_text()}'")
            elif _covers_marks(box, fig, renderer):
                found.append(f"the label '{text.get_text()}' covers data")
    return found


def _free_labels(ax):
    """Texts placed in the axes that are not anchored to a data point: reference-line labels."""
    return [t for t in ax.texts if t.get_text() and getattr(t, "xycoords", "data") != "data"]


def _covered(box, fig, renderer, legend=None) -> bool:
    """True when `box` (pixels) covers a data mark, a label or another legend of the figure."""
    if _covers_marks(box, fig, renderer):
        return True
    for ax in fig.axes:
        if any(box.overlaps(t.get_window_extent(renderer)) for t in ax.texts if t.get_text()):
            return True
        other = ax.get_legend()
        if other is not None and other is not legend and box.overlaps(other.get_window_extent(renderer)):
            return True
    return False


def _covers_marks(box, fig, renderer) -> bool:
    return any(_crosses(box, path) for ax in fig.axes if ax.bbox.overlaps(box) for path in _marks(ax, renderer))


def _crosses(box, path) -> bool:
    return path.intersects_bbox(box, filled=False) or (len(path.vertices) and box.count_contains(path.vertices) > 0)


def _marks(ax, renderer):
    """The data marks of `ax` as paths in pixels: lines (reference lines across the axes too, such
    as a budget or a core count), markers, bars, error bars, scatter points. A shaded band across
    the axes (axvspan) is background, not a mark."""
    data = ax.transData
    for line in ax.lines:
        if line.get_visible():
            points = _finite(line.get_transform().transform(line.get_xydata()))
            if line.get_linestyle() in ("None", "", " ", "none"):
                yield from (_dot(p, line.get_markersize()) for p in points)
            elif len(points):
                yield DrawnPath(points)
    for patch in ax.patches:
        if patch.get_visible() and patch.get_data_transform() == data:
            extent = patch.get_window_extent(renderer)
            yield DrawnPath([(extent.x0, extent.y0), (extent.x1, extent.y0), (extent.x1, extent.y1),
                             (extent.x0, extent.y1), (extent.x0, extent.y0)])
    for collection in ax.collections:
        if not collection.get_visible():
            continue
        if isinstance(collection, LineCollection):
            if collection.get_transform() == data:
                for segment in collection.get_segments():
                    points = _finite(data.transform(segment))
                    if len(points):
                        yield DrawnPath(points)
        elif collection.get_offset_transform() == data:
            sizes = collection.get_sizes()
            size = math.sqrt(max(sizes)) if len(sizes) else 6
            yield from (_dot(p, size) for p in _finite(data.transform(collection.get_offsets())))


def _finite(points):
    return [p for p in points if all(map(math.isfinite, p))]


def _dot(point, size_points):
    """A marker as a small square path (size in points, about a pixel each at dpi 100)."""
    r = max(1.0, size_points / 2)
    x, y = point
    return DrawnPath([(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r), (x - r, y - r)])
