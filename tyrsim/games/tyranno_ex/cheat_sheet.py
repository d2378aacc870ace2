"""The printable combat cheat sheet: P(attacker wins) for every pair of strengths and 1-12 dice, one A4 page.

Layout. One small table per pair of strengths — a grid of tables, attacker strength down
the page, defender strength across — and in each table attacker dice down, defender dice
across, every cell holding the attacker's chance as a whole percentage. A grid of tables
keeps the 36 pairs (for 6 strengths) side by side on one page, so a player finds their
pair by two labels and reads the cell; one number per cell at about 5 pt fits an A4
landscape page, and whole percentages (two digits) are as precise as a player needs at
the table. Every table repeats its dice numbers, so no cell needs counting from the page's
edge.

Black and white. The colours run from dark (the attacker rarely wins) to light (the
attacker nearly always wins) with lightness rising steadily (matplotlib's cividis), so a
grey print keeps the order; each number is white or black, whichever contrasts more with
its cell (at least 4.5:1, the WCAG contrast for small text).
A thick line marks where the attacker's chance crosses 50%. "<1" and ">99" are chances
that round to 0 or 100 but are not certain; "0" and "100" are certain or less than one in a
trillion away (the exact odds carry rounding noise of about 1e-15 near 1); a dash is a fight
that can never end (both sides always hit with every die and have the same number of dice,
ties rerolled).
"""

from __future__ import annotations

import io

import numpy as np

import tyrsim
from tyrsim.games.tyranno_ex import combat
from tyrsim.games.tyranno_ex.combat import FightRules
from tyrsim.games.tyranno_ex.combat_words import dice_words, rounds_words, tie_words
from tyrsim.games.tyranno_ex.rules import Rules

MOST_DICE = 12  # dice 1 to 12 on each side: beyond that hardly any card in play rolls more
A4_LANDSCAPE = (11.69, 8.27)  # inches
CERTAIN = 1e-12  # a chance this close to 0 or 1 reads as certain: far above the odds' rounding noise (~1e-15)
PNG_DPI = 200  # about 5 pt numbers stay readable on screen
CMAP = "cividis"  # lightness rises steadily from 0 to 1: a grey print keeps the order
LABEL_GREY = "0.3"
# layout, in cells: dice labels beside and above each table, gaps between tables, the strength headings
LABEL_W, LABEL_H, GAP_W, GAP_H, HEAD_W, HEAD_H = 1.15, 1.0, 0.55, 0.55, 2.4, 1.7


def cell_text(p: float) -> str:
    """A chance as a whole percentage; "<1" / ">99" where rounding would read as certain; a dash where undefined."""
    if not np.isfinite(p):
        return "–"
    text = f"{p * 100:.0f}"
    if p <= CERTAIN or p >= 1 - CERTAIN:
        return text
    return {"0": "<1", "100": ">99"}.get(text, text)


def luminance(rgb) -> float:
    """A colour's relative luminance (WCAG 2), 0 for black to 1 for white."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ink(background) -> str:
    """"white" or "black": whichever contrasts more with the background colour (RGB in [0, 1])."""
    # the contrasts (1 + 0.05) / (L + 0.05) and (L + 0.05) / 0.05 are equal at L = sqrt(1.05 * 0.05) - 0.05
    return "white" if luminance(background) < (1.05 * 0.05) ** 0.5 - 0.05 else "black"


def sheet_dice(rules: Rules | FightRules) -> list[int]:
    """The dice counts the sheet covers: 1 to 12, or to the rules' most dice if fewer."""
    return list(range(1, min(MOST_DICE, rules.max_dice) + 1))


def sheet_odds(rules: Rules | FightRules) -> tuple[list[int], list[int], np.ndarray]:
    """(strengths, dice, p): p[attacker strength, defender strength, attacker dice, defender dice] is the exact
    P(attacker wins), NaN where the fight can never end; indices count from the lists' first values."""
    dice = sheet_dice(rules)
    if not dice:
        raise ValueError("the cheat sheet needs at least 1 die per side (max_dice is 0)")
    strengths = list(range(1, rules.max_strength + 1))
    odds = combat.odds(strengths, dice, strengths, dice, rules)
    n, k = len(strengths), len(dice)
    # the table nests attacker strength, attacker dice, defender strength, defender dice
    p = odds["p_attacker_wins"].to_numpy(dtype=float).reshape(n, k, n, k).transpose(0, 2, 1, 3)
    return strengths, dice, p


def cheat_sheet(rules: Rules | FightRules):
    """The cheat sheet as a matplotlib Figure (A4 landscape), under `rules` (its tie rule named on it)."""
    from matplotlib import colormaps
    from matplotlib.colors import Normalize
    from matplotlib.figure import Figure

    rules = FightRules.of(rules)
    strengths, dice, p = sheet_odds(rules)
    n, k = len(strengths), len(dice)

    fig = Figure(figsize=A4_LANDSCAPE)
    left, right, bottom, top = 0.022, 0.978, 0.095, 0.872
    ax = fig.add_axes((left, bottom, right - left, top - bottom))
    block_w, block_h = LABEL_W + k + GAP_W, LABEL_H + k + GAP_H
    width, height = HEAD_W + n * block_w - GAP_W, HEAD_H + n * block_h - GAP_H
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)  # rows run down the page
    ax.axis("off")
    cell = ((right - left) * A4_LANDSCAPE[0] * 72 / width, (top - bottom) * A4_LANDSCAPE[1] * 72 / height)  # pt
    size = min(0.72 * cell[1], 0.62 * cell[0])  # one line of two digits per cell; wider strings are squeezed
    head = min(2.2 * size, 10)
    cmap, norm = colormaps[CMAP], Normalize(0, 1)
    numbers = _Glyphs("numbers", size, 0.9 * cell[0])
    labels = _Glyphs("labels", 0.85 * size, 1.1 * cell[0])

    for i, sa in enumerate(strengths):
        y0 = HEAD_H + i * block_h + LABEL_H
        ax.text(HEAD_W / 2, y0 + k / 2, f"attacker\nstrength {sa}", rotation=90, ha="center", va="center",
                fontsize=head, fontweight="bold", linespacing=1.1)
        for j, sd in enumerate(strengths):
            x0 = HEAD_W + j * block_w + LABEL_W
            if i == 0:
                ax.text(x0 + k / 2, HEAD_H / 2, f"defender strength {sd}", ha="center", va="center",
                        fontsize=head, fontweight="bold")
            table = p[i, j]
            ax.imshow(np.ma.masked_invalid(table), cmap=cmap.with_extremes(bad="white"), norm=norm,
                      extent=(x0, x0 + k, y0 + k, y0), interpolation="nearest", aspect="auto")
            ax.add_patch(_frame(x0, y0, k))
            for r in range(k):
                labels.add(str(dice[r]), x0 - LABEL_W / 2, y0 + r + 0.5, LABEL_GREY)
                labels.add(str(dice[r]), x0 + r + 0.5, y0 - LABEL_H / 2, LABEL_GREY)
                for c in range(k):
                    value = table[r, c]
                    numbers.add(cell_text(value), x0 + c + 0.5, y0 + r + 0.5, ink(cmap(norm(value))[:3])
                                if np.isfinite(value) else "black")
            _even_line(ax, table, x0, y0)
    numbers.draw(ax)
    labels.draw(ax)

    fig.text(0.5, 0.966, "Tyranno Ex combat: the attacker's chance (%) to win the fight", ha="center",
             va="center", fontsize=15, fontweight="bold")
    lines = (f"Tie rule: {tie_words(rules.tie_rule)}.  {rounds_words(rules)}.",
             f"{dice_words(rules)}.",
             "Find the table of the two strengths; in it, the row of the attacker's dice (numbers on the left) "
             "and the column of the defender's dice (numbers on top).")
    for y, line in zip((0.937, 0.918, 0.899), lines, strict=True):
        fig.text(0.5, y, line, ha="center", va="center", fontsize=8.5)
    _legend(fig, cmap, norm, endless=bool(np.isnan(p).any()))
    return fig


class _Glyphs:
    """Many short strings drawn as shared glyph outlines: one path collection per distinct string.

    Thousands of matplotlib Text objects take half a minute to draw; a collection draws its
    string at every place in one call (and a PDF holds each outline once). Strings wider
    than `max_width` points are squeezed sideways to fit a cell, as a condensed face would.
    """

    def __init__(self, kind: str, size: float, max_width: float):
        self.kind, self.size, self.max_width = kind, size, max_width  # kind: "numbers" or "labels", the gid
        self.places: dict[str, list[tuple[float, float, str]]] = {}

    def add(self, text: str, x: float, y: float, colour: str) -> None:
        self.places.setdefault(text, []).append((x, y, colour))

    def draw(self, ax) -> None:
        from matplotlib.collections import PathCollection
        from matplotlib.transforms import Affine2D

        middle = _outline("0").get_extents()  # every string sits on the digits' baseline, centred on their height
        middle = (middle.y0 + middle.y1) / 2
        points = Affine2D().scale(1 / 72) + ax.figure.dpi_scale_trans  # path units are points at any dpi
        for text, places in self.places.items():
            path = _outline(text)
            box = path.get_extents()
            scale = self.size / OUTLINE_SIZE
            squeeze = min(1.0, self.max_width / (box.width * scale))
            path = Affine2D().translate(-(box.x0 + box.x1) / 2, -middle).scale(squeeze * scale, scale) \
                .transform_path(path)
            xs, ys, colours = zip(*places, strict=True)
            ax.add_collection(PathCollection(
                [path], offsets=np.column_stack([xs, ys]), offset_transform=ax.transData, transform=points,
                facecolors=list(colours), edgecolors="none", snap=False,  # snapping drops a thin dash
                label=text, gid=self.kind), autolim=False)


OUTLINE_SIZE = 100  # points: glyphs are flattened at this size, so the straight pieces are far below a printer's dot


def _outline(text: str):
    """`text`'s glyph outline with its curves flattened to polygons: a collection of them draws many times faster."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.path import Path
    from matplotlib.textpath import TextPath

    glyphs = TextPath((0, 0), text, size=OUTLINE_SIZE, prop=FontProperties(family="DejaVu Sans"))
    return Path.make_compound_path(*(Path(polygon, closed=True) for polygon in glyphs.to_polygons()))


def _frame(x0: float, y0: float, k: int):
    from matplotlib.patches import Rectangle

    return Rectangle((x0, y0), k, k, fill=False, linewidth=0.5, edgecolor="0.3")


def _even_line(ax, table: np.ndarray, x0: float, y0: float) -> None:
    """A thick line along every cell edge where the attacker's chance crosses 50% (a fight that never ends: even)."""
    ahead = np.nan_to_num(table, nan=0.5) >= 0.5
    segments = []
    rows, cols = ahead.shape
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and ahead[r, c] != ahead[r, c + 1]:
                segments.append([(x0 + c + 1, y0 + r), (x0 + c + 1, y0 + r + 1)])
            if r + 1 < rows and ahead[r, c] != ahead[r + 1, c]:
                segments.append([(x0 + c, y0 + r + 1), (x0 + c + 1, y0 + r + 1)])
    if segments:
        from matplotlib.collections import LineCollection

        ax.add_collection(LineCollection(segments, colors="black", linewidths=1.4, capstyle="projecting"))


def _legend(fig, cmap, norm, endless: bool) -> None:
    from matplotlib.cm import ScalarMappable

    bar = fig.add_axes((0.04, 0.037, 0.2, 0.014))
    colorbar = fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), cax=bar, orientation="horizontal")
    colorbar.set_ticks([0, 0.25, 0.5, 0.75, 1], labels=["0", "25", "50", "75", "100%"])
    colorbar.ax.tick_params(labelsize=7, length=2, pad=1)
    bar.set_title("the attacker's chance to win", fontsize=7.5, pad=3)
    never = "   –: the fight can never end." if endless else ""
    lines = ("Thick line: where the attacker's chance crosses 50%; on its darker side the defender is the favourite.",
             f"<1, >99: below 1% or above 99%, but not certain.   0, 100: certain (or within one in a trillion)."
             f"{never}",
             "A won fight: the loser is eliminated if it won no round, else turned face down.   Exact odds, not "
             f"simulated: tyrsim {tyrsim.__version__}, tyrsim combat --out DIR.")
    for y, line in zip((0.070, 0.052, 0.034), lines, strict=True):
        fig.text(0.29, y, line, fontsize=7.5, va="center")


def sheet_files(rules: Rules | FightRules) -> dict[str, bytes]:
    """{"cheat_sheet.pdf": ..., "cheat_sheet.png": ...} for `rules`; none where max_dice is 0 (no fight to show)."""
    if not sheet_dice(rules):
        return {}
    fig = cheat_sheet(rules)
    pdf = io.BytesIO()
    fig.savefig(pdf, format="pdf", metadata={"CreationDate": None})  # no date: the same rules give the same bytes
    return {"cheat_sheet.pdf": pdf.getvalue(), "cheat_sheet.png": _png(fig)}


def _png(fig) -> bytes:
    """The sheet as a PNG of 256 colours: a third of the full-colour file's size, and looks the same."""
    from PIL import Image

    full = io.BytesIO()
    fig.savefig(full, format="png", dpi=PNG_DPI)
    image = Image.open(full).convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
