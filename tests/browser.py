"""A real headless browser for the tests that look at generated pages (Debian's chromium + chromedriver).

Nothing is downloaded: the tests use the system's `chromium` and `chromedriver` (on Debian,
`apt-get install -y chromium chromium-driver`) through selenium. Where they are missing the
browser tests are skipped with a message saying so, unless TYRSIM_REQUIRE_BROWSER=1 (set by
`.ci/run`), in which case they fail: in CI they must run.
"""

from __future__ import annotations

import os
import shutil

import pytest

ENABLE = ("install chromium and its driver (apt-get install -y chromium chromium-driver) "
          "and selenium (pip install '.[test]')")


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    for program in ("chromium", "chromedriver"):
        if shutil.which(program) is None:
            return f"no {program} on PATH"
    return None


def open_browser():
    """A headless chromium that keeps the page's console log; skips (or fails in CI) without one."""
    missing = _missing()
    if missing:
        message = f"browser tests need a real browser: {missing}; {ENABLE}"
        if os.environ.get("TYRSIM_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    # Without the background-networking flags chromium keeps trying to reach Google's hosts.
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1400,1000"):
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def console_errors(driver) -> list[str]:
    """The page's console messages at level SEVERE (errors, failed loads) since the last call."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
