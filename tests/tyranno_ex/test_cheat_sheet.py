"""The printable combat cheat sheet: the right number in every cell, readable in grey, one A4 landscape page."""

import io
import re
from collections import Counter

import numpy as np
import pytest
from matplotlib import colormaps
from PIL import Image

from tyrsim.games.tyranno_ex import cheat_sheet as sheet
from tyrsim.games.tyranno_ex import combat
from tyrsim.games.tyranno_ex.rules import Rules

SMALL = {"max_strength": 3, "max_dice": 4}  # a small sheet renders in a fraction of the time


@pytest.fixture(scope="module")
def figure():
    return sheet.cheat_sheet(Rules())


@pytest.fixture(scope="module")
def files():
    return sheet.sheet_files(Rules(**SMALL))


@pytest.mark.parametrize("p, text", [
    (0.0, "0"), (1.0, "100"), (0.004, "<1"), (0.005, "<1"), (0.0051, "1"), (0.4311, "43"), (0.5, "50"),
    (0.994, "99"), (0.995, ">99"), (0.99999, ">99"), (float("nan"), "–"),
    (1 + 3e-15, "100"), (1 - 1e-14, "100"), (2e-13, "0"),  # certain, or less than one in a trillion away
    (1e-11, "<1"), (1 - 1e-11, ">99"),
])
def test_cell_text_never_rounds_a_chance_to_certain(p, text):
    assert sheet.cell_text(p) == text


def test_sheet_odds_put_each_matchup_in_its_cell():
    strengths, dice, p = sheet.sheet_odds(Rules())
    assert strengths == [1, 2, 3, 4, 5, 6] and dice == list(range(1, 13)) and p.shape == (6, 6, 12, 12)
    rng = np.random.default_rng(3)
    for sa, sd, da, dd in zip(*(rng.integers(1, m + 1, 40) for m in (6, 6, 12, 12)), strict=True):
        exact = combat.odds(int(sa), int(da), int(sd), int(dd))["p_attacker_wins"].iloc[0]
        assert p[sa - 1, sd - 1, da - 1, dd - 1] == pytest.approx(exact, abs=1e-15)
    # the rulebook's fight (3 with 2 dice against no die with 7) and its mirror image are not the same cell
    assert p[2, 0, 1, 6] == pytest.approx(0.4311, abs=1e-4) and p[0, 2, 6, 1] != p[2, 0, 1, 6]
    # the only fights that can never end: strength 6 against strength 6 with as many dice
    assert [tuple(map(int, i)) for i in np.argwhere(np.isnan(p))] == [(5, 5, k, k) for k in range(12)]


def test_colours_darken_steadily_and_numbers_contrast_with_their_cell():
    """Readable printed in grey: lightness rises with the chance, and every number's ink contrasts at least
    4.5:1 (WCAG for small text) with its cell."""
    shades = colormaps[sheet.CMAP](np.linspace(0, 1, 256))[:, :3]
    lightness = np.array([sheet.luminance(c) for c in shades])
    assert np.all(np.diff(lightness) > 0)
    for colour, light in zip(shades, lightness, strict=True):
        ink = 1.0 if sheet.ink(colour) == "white" else 0.0
        contrast = (max(ink, light) + 0.05) / (min(ink, light) + 0.05)
        assert contrast >= 4.5


def test_the_figure_draws_every_cell_once(figure):
    numbers = [c for c in figure.axes[0].collections if c.get_gid() == "numbers"]
    shown = Counter()
    for collection in numbers:
        shown[collection.get_label()] += len(collection.get_offsets())
    _, _, p = sheet.sheet_odds(Rules())
    assert shown == Counter(sheet.cell_text(v) for v in p.ravel())
    # the top-left number of the page is attacker strength 1 against defender strength 1, one die each: 50%
    # and the one right of it the same against 2 dice (23%)
    places = sorted((y, x, c.get_label()) for c in numbers for x, y in c.get_offsets())
    assert places[0][2] == "50" and places[1][2] == sheet.cell_text(p[0, 0, 0, 1]) == "23"


def test_the_sheet_names_its_rules(figure):
    variant = sheet.cheat_sheet(Rules(tie_rule="defender", rounds_to_win=3, max_strength=6, max_dice=2))
    texts = " ".join(t.get_text() for t in variant.texts)
    assert "a tied roll is won by the defender" in texts and "win 3 rounds" in texts
    assert "(rulebook)" not in texts and "never end" not in texts  # no fight is endless when ties count
    texts = " ".join(t.get_text() for t in figure.texts)
    assert "a tied roll doesn't count and is rolled again (rulebook)" in texts and "never end" in texts
    assert "win 2 rounds" in texts


def test_pdf_and_png_are_one_a4_landscape_page(files):
    assert sorted(files) == ["cheat_sheet.pdf", "cheat_sheet.png"]
    pdf = files["cheat_sheet.pdf"]
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") == 1
    width, height = map(float, re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf).groups())
    assert (width, height) == pytest.approx((842, 595), abs=1)  # A4 landscape in points
    image = Image.open(io.BytesIO(files["cheat_sheet.png"]))
    assert image.size == pytest.approx((11.69 * sheet.PNG_DPI, 8.27 * sheet.PNG_DPI), abs=2)
    assert image.mode == "P"  # 256 colours


def test_same_rules_same_bytes(files):
    assert sheet.sheet_files(Rules(**SMALL)) == files  # no date or other noise in the files


@pytest.mark.slow
def test_the_full_sheet_is_small_enough_to_mail():
    files = sheet.sheet_files(Rules())
    assert len(files["cheat_sheet.png"]) < 1_000_000 and len(files["cheat_sheet.pdf"]) < 500_000


def test_no_dice_no_sheet():
    assert sheet.sheet_files(Rules(max_dice=0)) == {}
    assert sheet.sheet_dice(Rules(max_dice=5)) == [1, 2, 3, 4, 5]
