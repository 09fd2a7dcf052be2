"""Watches a game in progress on the live pages through headless Chromium.

usage: serve_live.py LIVE_URL SCREENSHOT_DIR

LIVE_URL is the now-playing list (`.../live`). Opens the first game in the list, checks
that its board advances by at least three moves without the page reloading (a marker set
on `window` survives), and that engine text (player names, the principal variation) is
shown as text: no element made from it exists. Saves screenshots. Exits non-zero on any
failure.
"""

import os
import shutil
import sys
import tempfile

from chromium import browser, js, wait








PLIES = "const e = document.getElementById('live'); return e ? Number(e.dataset.plies || -1) : -1;"
TEXT = "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;"


def main():
    live, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="live-chromium-")
    driver = browser(profile)
    try:
        driver.get(live)
        wait(driver, 30, lambda d: js(d, "return document.querySelector('table.playing a')") is not None,
             "a game in the now-playing list")
        driver.save_screenshot(os.path.join(shots, "live-list.png"))
        href = js(driver, "return document.querySelector('table.playing a').href")
        driver.get(href)
        wait(driver, 10, lambda d: js(d, PLIES) >= 0, "the live board to be drawn")
        js(driver, "window.liveMarker = 'same page';")
        start = js(driver, PLIES)
        wait(driver, 30, lambda d: js(d, PLIES) >= start + 3, "three more moves on the live board")
        assert js(driver, "return window.liveMarker") == "same page", "the page reloaded"
        assert js(driver, "return document.querySelectorAll('#live-board [data-square]').length") == 64
        now = js(driver, PLIES)
        print(f"live board advanced from ply {start} to {now} without reloading")
        wait(driver, 10, lambda d: "<img/src=x>" in (js(d, TEXT, "#live .pv") or "")
             or "<img/src=x>" in (js(d, TEXT, "#engine-black .pv") or ""), "the hostile PV as text")
        assert js(driver, "return document.querySelectorAll('#live img, #live b, main img').length") == 0, \
            "engine text became markup"
        players = js(driver, TEXT, "#live-players")
        assert "<i>evil</i>" in players, f"the hostile name is not shown as text: {players!r}"
        assert js(driver, "return document.querySelectorAll('#live-players i').length") == 0
        assert driver.title != "owned", "an engine's info string ran as script"
        print("hostile engine text shown as text")
        driver.save_screenshot(os.path.join(shots, "live-game.png"))
        print("live browser test: ok")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


main()
