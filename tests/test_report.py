"""`tyrsim report --quick` writes a browsable report; the bundled scenarios ship in the wheel."""

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt

ROOT = Path(__file__).parent.parent


def check_report_folder(out: Path) -> None:
    index = (out / "index.html").read_text()
    links = re.findall(r"href='([^']+)'", index)
    assert links
    figures = 0
    for link in links:
        page = out / link
        assert page.exists(), link
        text = page.read_text()
        for ref in re.findall(r"href='([^']+)'", text):
            assert (page.parent / ref).exists(), ref
        folder = page.parent
        manifest = json.loads((folder / "manifest.json").read_text())
        assert manifest["seed"] and manifest["versions"]["tyrsim"] and manifest["points"]
        pngs = list(folder.glob("*.png"))
        for png in pngs:
            assert plt.imread(png).shape[0] > 100
            assert f"<h3>{png.stem}</h3><img alt='{png.stem}' src='data:image/png;base64," in text  # self-contained
        assert list(folder.glob("*.csv"))
        figures += len(pngs)
    assert figures > 0


def test_wheel_install_runs_the_quick_report_from_any_folder(tmp_path):
    """A plain wheel install (no source tree) finds its scenarios and data; links resolve, PNGs open."""
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True)
    target = tmp_path / "site"
    wheel = next(wheels.glob("tyrsim-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = "import sys; from tyrsim.cli import main; sys.exit(main())"
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code, "report", "--quick", "--jobs", "2"], cwd=elsewhere,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    import tyrsim

    assert str(target) not in tyrsim.__file__  # the test process still uses the source tree
    out = elsewhere / "reports"
    check_report_folder(out)
    sections = {html.unescape(h) for h in re.findall(r"<h2>([^<]+)</h2>", (out / "index.html").read_text())}
    assert {"Analyses", "Designer's dashboard"} <= sections
    comparison = (out / "tyranno_ex_tie_rule" / "index.md").read_text()
    assert "## comparison" in comparison and "Holm" in comparison
