"""`tyrsim report --quick` writes a browsable report; the bundled scenarios ship in the wheel."""

import json
import re
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from click.testing import CliRunner

from tyrsim.cli import main

ROOT = Path(__file__).parent.parent


def check_report_folder(out: Path) -> None:
    index = (out / "index.html").read_text()
    links = re.findall(r"href='([^']+)'", index)
    assert links
    for link in links:
        page = out / link
        assert page.exists(), link
        html = page.read_text()
        for ref in re.findall(r"href='([^']+)'", html):
            assert (page.parent / ref).exists(), ref
        folder = page.parent
        manifest = json.loads((folder / "manifest.json").read_text())
        assert manifest["seed"] and manifest["versions"]["tyrsim"] and manifest["points"]
        pngs = list(folder.glob("*.png"))
        assert pngs
        for png in pngs:
            assert plt.imread(png).shape[0] > 100
        assert "data:image/png;base64," in html  # the page is self-contained
        assert list(folder.glob("*.csv"))


def test_quick_report_links_resolve_and_pngs_open(tmp_path):
    out = tmp_path / "reports"
    result = CliRunner().invoke(main, ["report", "--quick", "--out", str(out), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    check_report_folder(out)
    comparison = (out / "tyranno_ex_tie_rule" / "index.md").read_text()
    assert "## comparison" in comparison and "Holm" in comparison


@pytest.mark.slow
def test_wheel_install_runs_the_report_from_any_folder(tmp_path):
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
    done = subprocess.run([sys.executable, "-c", code, "report", "--quick", "--jobs", "1"], cwd=elsewhere,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    import tyrsim

    assert str(target) not in tyrsim.__file__  # the test process still uses the source tree
    check_report_folder(elsewhere / "reports")
