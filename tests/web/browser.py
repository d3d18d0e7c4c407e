"""Headless Chromium from the system's packages (apt: chromium chromium-driver), driven by
selenium with the system's chromedriver: nothing downloads a browser of its own."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
INSTALL = "apt-get install -y chromium chromium-driver"


def need_browser():
    """Skip when there is no Chromium here, except on CI (CI=true): there it must be."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip install -e .[test])")
    if missing:
        why = f"no {', '.join(missing)}: {INSTALL}"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)


def open_browser(width=1280, height=720, lang="en", profile=None):
    """``profile``: a folder of ours for the browser's profile (kept after it quits), else its own."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", f"--lang={lang}", "--hide-scrollbars"):
        options.add_argument(arg)
    if profile is not None:
        options.add_argument(f"--user-data-dir={profile}")
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def wait_for(test, timeout=10.0, what="the page"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            got = test()
        except Exception:  # noqa: BLE001 - the element is not there yet
            got = None
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")
