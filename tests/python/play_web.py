"""Plays `challenge play --web` through headless Chromium, as a learner uses it, and opens
the report of an analysed game.

usage: play_web.py PLAY_URL REPORT_FILE SCREENSHOT_DIR

The game starts from a position where White (the human) can promote: the test clicks a
king move and waits for the bot's answer, promotes the pawn through the dialog (to a
rook, so the choice is seen to count; a knight would draw at once), posts an illegal move and a token-less move
straight to the server (both refused), and checks that the bot's hostile name is shown
as text. Then the report: coordinates on the board, the evaluation graph, its marker
following the moves. Screenshots of each page go to SCREENSHOT_DIR. Exits non-zero on
any failure.
"""

import os
import shutil
import sys
import tempfile

from selenium.webdriver.common.by import By

from chromium import browser, js, wait








def square(driver, name):
    """Clicks a square (found again each time: the board is redrawn on every change)."""
    def attempt(d):
        d.find_element(By.CSS_SELECTOR, f'#board [data-square="{name}"]').click()
        return True
    wait(driver, 10, attempt, f"to click {name}")


def piece_on(driver, name):
    return js(driver, "const c = document.querySelector(`#board [data-square='${arguments[0]}']`);"
                      "return c ? (c.dataset.piece || '') : null;", name)


def plies(driver):
    return int(js(driver, "return document.body.dataset.plies || '-1'"))


POST = """
const [path, body, token, done] = arguments;
const headers = {"content-type": "application/json"};
if (token) headers["x-play-token"] = document.querySelector('meta[name="play-token"]').content;
fetch(path, {method: "POST", headers, body}).then(async r => done([r.status, await r.text()]));
"""


def play(driver, url, shots):
    driver.get(url)
    wait(driver, 20, lambda d: js(d, "return document.body.dataset.turn") == "human", "the human's turn")
    # Coordinates on the board, the files along the bottom, the ranks up the side.
    coords = js(driver, "return [...document.querySelectorAll('#board .coord')].map(c => c.textContent).join('')")
    assert coords == "8765432a1bcdefgh" or sorted(coords) == sorted("87654321abcdefgh"), coords
    # The hostile name is text: shown literally, no element made of it.
    title = js(driver, "return document.querySelector('h1').textContent")
    assert "<i>x&amp;" in title, title
    assert js(driver, "return document.querySelectorAll('h1 i, .clock i').length") == 0
    names = js(driver, "return [...document.querySelectorAll('.clock .name')].map(n => n.textContent)")
    assert "<i>x&amp;" in names, names

    # Click a move (the legal targets are shown once the king is picked), see the bot answer.
    square(driver, "e1")
    targets = js(driver, "return [...document.querySelectorAll('#board .target')].map(c => c.dataset.square).sort()")
    assert targets == ["d1", "d2", "e2", "f1", "f2"], targets
    square(driver, "e2")
    wait(driver, 30, lambda d: plies(d) == 2 and js(d, "return document.body.dataset.turn") == "human",
         "the bot's answer")
    assert piece_on(driver, "e2") == "K"
    driver.save_screenshot(os.path.join(shots, "play.png"))
    print("the bot answered:", js(driver, "return document.getElementById('moves').textContent"))

    # Straight to the server: an illegal move, a malformed body, a post without the token.
    status, reason = driver.execute_async_script(POST, "/move", '{"move": "e2e5"}', True)
    assert (status, reason) == (400, "`e2e5` is not legal in this position"), (status, reason)
    status, reason = driver.execute_async_script(POST, "/move", "e2e4<script>", True)
    assert status == 400 and reason.startswith("malformed request"), (status, reason)
    status, reason = driver.execute_async_script(POST, "/move", '{"move": "e2d3"}', False)
    assert status == 403, (status, reason)
    assert plies(driver) == 2 and piece_on(driver, "e2") == "K", "nothing was played"

    # Promote through the dialog, to a rook (a knight would be a draw by material).
    square(driver, "a7")
    square(driver, "a8")
    wait(driver, 10, lambda d: js(d, "return document.getElementById('promotion').open"), "the promotion dialog")
    driver.save_screenshot(os.path.join(shots, "promotion.png"))
    driver.find_element(By.CSS_SELECTOR, '#promotion button[data-piece="r"]').click()
    wait(driver, 30, lambda d: plies(d) >= 3 and piece_on(d, "a8") == "R", "the rook on a8")
    assert "a8=R" in js(driver, "return document.getElementById('moves').textContent")
    wait(driver, 30, lambda d: plies(d) == 4, "the bot's answer to the promotion")
    print("promoted:", js(driver, "return document.getElementById('moves').textContent"))


def report(driver, path, shots):
    driver.get("file://" + os.path.abspath(path))
    wait(driver, 10, lambda d: js(d, "return document.querySelectorAll('#board > div').length") == 64, "the board")
    coords = js(driver, "return document.querySelectorAll('#board .coord').length")
    assert coords == 16, coords
    graph = js(driver, "const g = document.querySelector('.evalgraph:not([hidden]) svg'); return g ? g.dataset.plies : null")
    assert graph is not None, "no evaluation graph shown"
    end = js(driver, "return document.querySelector('.evalgraph:not([hidden]) .marker').getAttribute('x1')")
    driver.find_element(By.ID, "first").click()
    start = js(driver, "return document.querySelector('.evalgraph:not([hidden]) .marker').getAttribute('x1')")
    assert float(start) == 0 and float(end) > 0, (start, end)
    label = js(driver, "return document.querySelector('#games tr[data-i=\"0\"] td:nth-child(2)').textContent")
    assert label == "pair 1, game 2", label
    driver.find_element(By.ID, "last").click()
    # Mate: the king in check is the mated one (Black to move), not White's.
    assert js(driver, "return [...document.querySelectorAll('#board .check')].map(c => c.dataset.piece).join()") == "k"
    driver.save_screenshot(os.path.join(shots, "report.png"))
    print("report: board with coordinates, evaluation graph of", graph, "plies")


def main():
    url, report_file, shots = sys.argv[1:4]
    os.makedirs(shots, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="play-web-profile-")
    driver = browser(profile, "1100,900")
    try:
        play(driver, url, shots)
        report(driver, report_file, shots)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print("play web test: ok")


if __name__ == "__main__":
    main()
