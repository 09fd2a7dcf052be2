"""Drives `challenge serve` through headless Chromium, as entrants and the organiser use it.

usage: serve_browser.py BASE_URL ORGANISER_TOKEN BOT_A BOT_B SCREENSHOT_DIR

The organiser asks new entries for an invitation code and makes one good for two entries;
a submission with a wrong code is refused at the door; two bots are submitted through the
form with the code; the organiser starts a round-robin; the standings change as games
finish (without reloading the page); then a game is opened and stepped through. Saves a
screenshot of each step. Exits non-zero on any failure.

Live parts of the pages (`data-live`, see src/serve/static/app.js) are replaced by fresh
HTML whenever the server announces a change, at any moment, and the game viewer redraws
its board and moves on every step. An element found a moment ago may be gone when it is
read (StaleElementReferenceException), so this script never holds one across two calls:
text and attributes are read with one script call each (`text`, `games_in_table`, `board`,
`ply`), and clicks and conditions are retried inside the wait when the element went stale.
"""

import os
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from chromium import browsers, wait


# Finding and reading in the page, in one call: no element reference comes back, so a
# live update between finding and reading cannot make it stale.
TEXT = """
const e = document.querySelector(arguments[0]);
return e ? e.textContent.trim() : null;
"""


def text(driver, selector):
    """The text of the element at `selector` now, or None if there is none."""
    return driver.execute_script(TEXT, selector)


def click(driver, by, value, what, seconds=10):
    """Clicks the element, finding it again if a live update replaced it first."""
    def attempt(d):
        d.find_element(by, value).click()
        return True
    wait(driver, seconds, attempt, f"to click {what}")


def fill_submission(driver, base, name, author, path, code):
    driver.get(base + "/submit")
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "author").send_keys(author)
    driver.find_element(By.ID, "invitation").send_keys(code)
    driver.find_element(By.ID, "file").send_keys(os.path.abspath(path))
    driver.find_element(By.ID, "send").click()


def submit_without_a_good_code(driver, base, shots, path):
    fill_submission(driver, base, "gatecrasher", "", path, "not-a-code")
    error = wait(driver, 20, lambda d: text(d, "#error"), "the refusal")
    assert "invitation code" in error, f"the refusal names the code: {error!r}"
    # The refusal is a 403, which Chromium logs; reading the log here empties it, so the
    # console check at the end still sees every other error.
    logged = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert all("/submit" in m and "403" in m for m in logged), f"console errors: {logged}"
    driver.save_screenshot(os.path.join(shots, "refused-without-code.png"))
    print(f"refused without a good code: {error}")


def submit(driver, base, shots, name, author, path, code):
    fill_submission(driver, base, name, author, path, code)
    key = wait(driver, 20, lambda d: text(d, "#entry-key"), "the entry key")
    assert len(key) == 43, f"an entry key of 43 characters, got {key!r}"
    state = wait(driver, 600, lambda d: text(d, "#job-state") in ("accepted", "refused", "failed")
                 and text(d, "#job-state"), f"{name}'s check to end")
    message = text(driver, "#job-message")
    assert state == "accepted", f"{name} was {state}: {message}"
    driver.save_screenshot(os.path.join(shots, f"submitted-{name}.png"))
    print(f"submitted {name}: {message}")


def log_in(driver, base, token):
    driver.get(base + "/organiser")
    driver.find_element(By.ID, "token").send_keys(token)
    driver.find_element(By.ID, "login").click()
    wait(driver, 10, lambda d: d.find_elements(By.ID, "start-form"), "the organiser's page")


def invite(driver, base, shots, uses):
    """Asks new entries for a code, and makes one good for `uses` entries; returns it."""
    driver.get(base + "/organiser")
    click(driver, By.ID, "invitations-on", "invitations on")
    wait(driver, 10, lambda d: "invitation code only" in (text(d, "#registration") or ""),
         "registration by invitation")
    uses_field = driver.find_element(By.ID, "uses")
    uses_field.clear()
    uses_field.send_keys(str(uses))
    driver.find_element(By.ID, "invite").click()
    code = wait(driver, 10, lambda d: text(d, "#invitation-code"), "the invitation code")
    driver.save_screenshot(os.path.join(shots, "invitation.png"))
    print(f"invitation made for {uses} entries")
    return code


def start_tournament(driver, base, shots):
    driver.get(base + "/organiser")
    wait(driver, 10, lambda d: d.find_elements(By.ID, "start-form"), "the organiser's page")
    Select(driver.find_element(By.ID, "format")).select_by_value("round-robin")
    pairs = driver.find_element(By.ID, "pairs")
    pairs.clear()
    pairs.send_keys(str(PAIRS))
    tc = driver.find_element(By.ID, "tc")
    tc.clear()
    tc.send_keys("0.05/move")
    driver.save_screenshot(os.path.join(shots, "organiser.png"))
    driver.find_element(By.ID, "start").click()
    wait(driver, 10, lambda d: "round-robin" in (text(d, "#status") or ""),
         "the tournament to start")
    print("tournament started:", text(driver, "#status"))


PAIRS = 3  # colour-swapped game pairs: 2 * PAIRS games between the two entries


def games_in_table(driver):
    return driver.execute_script("""
return [...document.querySelectorAll('#table td.games')]
  .reduce((sum, cell) => sum + Number(cell.textContent), 0);
""")


# Records, in the page, the games counted in the table after every change of it: a reload
# would wipe the record, so it also proves the page changed in place.
RECORD_CHANGES = """
window.kitSeen = [];
const count = () => [...document.querySelectorAll('#table td.games')]
  .reduce((sum, cell) => sum + Number(cell.textContent), 0);
new MutationObserver(() => {
  const now = count();
  if (window.kitSeen[window.kitSeen.length - 1] !== now) window.kitSeen.push(now);
}).observe(document.getElementById('standings'), { childList: true, subtree: true });
"""


def open_standings(driver, base):
    driver.get(base + "/")
    assert games_in_table(driver) == 0
    driver.execute_script(RECORD_CHANGES)


def watch_standings(driver, shots, games):
    wait(driver, 300, lambda d: d.execute_script("return window.kitSeen")[-1:] == [2 * games]
         and text(d, "#state") == "finished", "every game in the standings")
    seen = driver.execute_script("return window.kitSeen")
    for count in seen:
        print("standings changed: games counted", count)
    assert seen == sorted(seen) and len(seen) >= 3, \
        f"the standings should change in place as games finish, saw {seen}"
    driver.save_screenshot(os.path.join(shots, "standings.png"))


def placement(fen):
    """The pieces of a FEN placement field, by square."""
    pieces = {}
    for r, row in enumerate(fen.split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                pieces["abcdefgh"[file] + str(8 - r)] = ch
                file += 1
    return pieces


def board(driver):
    """The pieces the board shows, by square (the viewer redraws it on every step)."""
    return driver.execute_script("""
const pieces = {};
for (const cell of document.querySelectorAll('#board div[data-piece]'))
  pieces[cell.dataset.square] = cell.dataset.piece;
return pieces;
""")


def ply(driver):
    value = driver.execute_script("const e = document.getElementById('info'); "
                                  "return e ? e.dataset.ply : null;")
    return None if value is None else int(value)


def step(driver, action, to):
    """Does `action` (a click or a key) and waits for the viewer to be at ply `to`."""
    action()
    return wait(driver, 10, lambda d: ply(d) == to, f"the viewer at ply {to}")


def step_through_a_game(driver, base, shots):
    driver.get(base + "/")
    # The standings and the entry's games are live parts: the links may be replaced.
    click(driver, By.LINK_TEXT, "mine", "mine in the standings")
    wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, "#games td a"), "mine's games")
    click(driver, By.CSS_SELECTOR, "#games td a", "mine's first game")
    count = "return document.querySelectorAll(arguments[0]).length"
    wait(driver, 10, lambda d: d.execute_script(count, "#board div") == 64, "the board's 64 squares")
    total = driver.execute_script(count, "#moves span.m")
    assert total > 2, f"a game of {total} plies"
    assert ply(driver) == total, "the viewer opens at the last move, as the report does"
    fens = driver.execute_script("return JSON.parse(document.getElementById('game-data').textContent).fens")
    assert board(driver) == placement(fens[total]), "the board shows the game's final position"
    step(driver, lambda: click(driver, By.ID, "first", "first"), 0)
    assert board(driver) == placement(fens[0]), "the board shows the game's first position"
    step(driver, lambda: click(driver, By.ID, "next", "next"), 1)
    assert board(driver) == placement(fens[1]), "the board shows the position after move 1"
    assert driver.execute_script(count, "#board div.hl") == 2, "the move is marked"
    step(driver, lambda: driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT), 2)
    jump = min(10, total)
    # Every step redraws the move list, so the move is found when it is clicked.
    step(driver, lambda: click(driver, By.CSS_SELECTOR, f"#moves span.m:nth-of-type({jump})",
                               f"move {jump}"), jump)
    step(driver, lambda: click(driver, By.ID, "prev", "prev"), jump - 1)
    driver.save_screenshot(os.path.join(shots, "game.png"))
    step(driver, lambda: click(driver, By.ID, "last", "last"), total)
    print(f"stepped through a game of {total} plies")


def main():
    base, token, bot_a, bot_b, shots = sys.argv[1:6]
    os.makedirs(shots, exist_ok=True)
    with browsers(2, shots, "serve-browser") as (driver, organiser):
        log_in(organiser, base, token)
        code = invite(organiser, base, shots, 2)
        submit_without_a_good_code(driver, base, shots, bot_b)
        submit(driver, base, shots, "mine", "Mina", bot_a, code)
        submit(driver, base, shots, "other", "Otto <o@example.org>", bot_b, code)
        # An entrant watches the standings while the organiser, in another browser,
        # starts the tournament: the entrant's page must follow every game in place.
        open_standings(driver, base)
        start_tournament(organiser, base, shots)
        watch_standings(driver, shots, 2 * PAIRS)
        step_through_a_game(driver, base, shots)
    print("browser test: ok")


if __name__ == "__main__":
    main()
