"""Walks `challenge serve`'s pages through headless Chromium as a visitor does, checking
the fixes of issue 32: the nav's link to the games in progress, a game named alike live and
stored, a refused submission's page without a dead link, a withdraw form only where an
entry key exists, a tournament filter on the standings and crosstable, the live scores
labelled, a stored game opened at its last move, and no link anywhere leading to a 404.

usage: serve_pages.py BASE_URL ORGANISER_TOKEN BOT BROKEN_BOT HOST_ENTRY SCREENSHOT_DIR

BOT is submitted through the form as `mine`; BROKEN_BOT (a bot that breaks the rules) as
`broken`, and is refused; HOST_ENTRY is an entry submitted on the host before the server
started (it has no entry key). Two round-robins of one game pair each are played.
Exits non-zero on any failure.
"""

import os
import re
import sys
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from chromium import browsers, js, wait

TEXT = "const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;"
COUNT = "return document.querySelectorAll(arguments[0]).length;"


def text(driver, selector):
    return js(driver, TEXT, selector)


def count(driver, selector):
    return js(driver, COUNT, selector)


def click(driver, by, value, what, seconds=10):
    """Clicks the element, finding it again if a live update replaced it first."""
    def attempt(d):
        d.find_element(by, value).click()
        return True
    wait(driver, seconds, attempt, f"to click {what}")


def submit(driver, base, name, path):
    """Submits `path` as `name`; returns the job page's final state."""
    driver.get(base + "/submit")
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "file").send_keys(os.path.abspath(path))
    driver.find_element(By.ID, "send").click()
    return wait(driver, 600, lambda d: text(d, "#job-state") in ("accepted", "refused", "failed")
                and text(d, "#job-state"), f"{name}'s check to end")


def refused_submission_has_no_dead_link(driver, base, broken):
    state = submit(driver, base, "broken", broken)
    assert state == "refused", f"the broken bot was {state}"
    job_page = driver.current_url
    assert count(driver, 'a[href="/entries/broken"]') == 0, \
        "a refused first submission links to an entry that does not exist"
    assert text(driver, "#job-entry") == "broken"
    print("refused submission: the entry's name is not a link")
    return job_page


def log_in(driver, base, token):
    driver.get(base + "/organiser")
    driver.find_element(By.ID, "token").send_keys(token)
    driver.find_element(By.ID, "login").click()
    wait(driver, 10, lambda d: d.find_elements(By.ID, "start-form"), "the organiser's page")


def start_round_robin(driver, base):
    driver.get(base + "/organiser")
    Select(driver.find_element(By.ID, "format")).select_by_value("round-robin")
    for field, value in (("pairs", "1"), ("tc", "0.3/move")):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    driver.find_element(By.ID, "start").click()
    wait(driver, 10, lambda d: "round-robin" in (text(d, "#status") or ""), "the tournament to start")


def wait_finished(driver, base):
    driver.get(base + "/")
    wait(driver, 600, lambda d: text(d, "#state") == "finished", "the tournament to finish")


def watch_a_game(driver, base, shots):
    """From the standings, follows the nav's link to the games in progress, opens one, and
    follows it to its stored page: the names match. Returns whether the live page itself
    was seen (the game may have ended between the list and the click)."""
    driver.get(base + "/")
    click(driver, By.ID, "nav-live", "the nav's Now playing")
    wait(driver, 60, lambda d: count(d, "table.playing a") > 0, "a game in the now-playing list")
    label = text(driver, "table.playing a")
    click(driver, By.CSS_SELECTOR, "table.playing a", "the game in progress")
    live = "/live/" in driver.current_url
    if live:
        wait(driver, 10, lambda d: text(d, "#live-round") == label, "the live page's place")
        assert "Live game" not in driver.title, f"a number the stored game will not have: {driver.title}"
        assert "White" in text(driver, "#score-label"), \
            f"the score column says whose side: {text(driver, '#score-label')!r}"
        driver.save_screenshot(os.path.join(shots, "live.png"))
        wait(driver, 300, lambda d: "/games/" in d.current_url, "the game to end and be stored")
    assert "/games/" in driver.current_url, driver.current_url
    stored = wait(driver, 10, lambda d: text(d, "#round"), "the stored game's place")
    assert stored == label, f"live as {label!r}, stored as {stored!r}"
    print(f"followed {label!r} from the live list to its stored page (live page seen: {live})")
    return live


def game_opens_at_its_last_move(driver):
    wait(driver, 10, lambda d: count(d, "#board div") == 64, "the board")
    total = count(driver, "#moves span.m")
    ply = int(js(driver, "return document.getElementById('info').dataset.ply"))
    assert total > 0 and ply == total, f"the viewer opens at ply {ply} of {total}"
    print(f"the stored game opens at its last move ({total})")


def games_in_table(driver):
    return js(driver, "return [...document.querySelectorAll('#table td.games')]"
                      ".reduce((sum, cell) => sum + Number(cell.textContent), 0);")


def tournament_filter(driver, base, shots):
    driver.get(base + "/")
    wait(driver, 10, lambda d: count(d, "#tournaments a") == 2, "the tournament filter")
    everything = games_in_table(driver)
    click(driver, By.LINK_TEXT, "tournament 1", "tournament 1")
    wait(driver, 10, lambda d: d.current_url.endswith("?tournament=1"), "tournament 1's standings")
    first = games_in_table(driver)
    assert text(driver, "#tournaments strong") == "tournament 1"
    driver.save_screenshot(os.path.join(shots, "filtered.png"))
    click(driver, By.LINK_TEXT, "tournament 2", "tournament 2")
    wait(driver, 10, lambda d: d.current_url.endswith("?tournament=2"), "tournament 2's standings")
    second = games_in_table(driver)
    assert (first, second, everything) == (4, 4, 8), \
        f"games counted (twice each): tournament 1 {first}, 2 {second}, all {everything}"
    driver.get(base + "/crosstable?tournament=2")
    assert text(driver, "#tournaments strong") == "tournament 2"
    print("the standings and crosstable show one tournament at a time")


def labels_tell_tournaments_apart(driver, base):
    driver.get(base + "/entries/mine")
    hrefs = js(driver, "return [...new Set([...document.querySelectorAll('#games td:first-child a')]"
                       ".map(a => a.getAttribute('href')))];")
    assert len(hrefs) == 4, hrefs
    labels = []
    for href in hrefs:
        driver.get(base + href)
        labels.append(wait(driver, 10, lambda d: text(d, "#round"), "the game's place"))
    assert len(set(labels)) == 4, f"two games share a name: {labels}"
    assert any(l.startswith("tournament 1,") for l in labels), labels
    assert any(l.startswith("tournament 2,") for l in labels), labels
    game_opens_at_its_last_move(driver)
    print("stored games:", "; ".join(sorted(labels)))


def withdraw_only_with_a_key(driver, base, host_entry):
    driver.get(base + "/entries/mine")
    assert count(driver, "form#withdraw") == 1, "a web entry can be withdrawn with its key"
    driver.get(base + "/entries/" + host_entry)
    assert count(driver, "form#withdraw") == 0, "a host entry shows a form no key opens"
    assert "challenge withdraw" in (text(driver, "#host-entry") or ""), "how to withdraw it"
    print("withdraw form only where an entry key exists")


def no_dead_links(base, starts):
    """Follows every link of the server's pages from `starts`: none is a 404."""
    seen, queue, dead = set(), list(starts), []
    while queue and len(seen) < 200:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                page = response.read().decode("utf-8", "replace")
                kind = response.headers.get("content-type", "")
        except urllib.error.HTTPError as err:
            if err.code == 404:
                dead.append(url)
            continue
        if "text/html" not in kind:
            continue
        for href in re.findall(r'href="(/[^"]*)"', page):
            href = href.replace("&amp;", "&")
            if not href.startswith("/static/"):
                queue.append(base + href)
    assert not dead, f"links to pages that do not exist: {dead}"
    print(f"no dead links among {len(seen)} pages")


def main():
    base, token, bot, broken, host_entry, shots = sys.argv[1:7]
    os.makedirs(shots, exist_ok=True)
    with browsers(2, shots, "serve-pages") as (driver, organiser):
        assert submit(driver, base, "mine", bot) == "accepted"
        wait(driver, 10, lambda d: count(d, 'a#job-entry[href="/entries/mine"]') == 1,
             "the accepted entry's name to become a link")
        job_page = refused_submission_has_no_dead_link(driver, base, broken)
        log_in(organiser, base, token)
        seen_live = False
        for _ in range(2):
            start_round_robin(organiser, base)
            seen_live = watch_a_game(driver, base, shots) or seen_live
            wait_finished(driver, base)
        assert seen_live, "no game was seen on its live page"
        tournament_filter(driver, base, shots)
        labels_tell_tournaments_apart(driver, base)
        withdraw_only_with_a_key(driver, base, host_entry)
        no_dead_links(base, [base + "/", job_page, base + "/live", base + "/crosstable"])
    print("pages test: ok")


if __name__ == "__main__":
    main()
