"""What the browser tests share: a headless Chromium under selenium, and waiting for a
condition in the page.

Chromium is Debian's (`CHROMIUM`, default /usr/bin/chromium) with its chromedriver
(`CHROMEDRIVER`, default the one on PATH); each run gets a profile of its own.
"""

import os
import shutil

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

# A condition that meets a replaced element, or none yet, is asked again at the next poll.
RETRIED = (NoSuchElementException, StaleElementReferenceException)


def browser(profile, size="1280,1000"):
    """A headless Chromium with its profile in `profile`, its window `size` pixels."""
    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--no-first-run", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=" + size,
                 "--user-data-dir=" + profile):
        options.add_argument(flag)
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    service = Service(os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def wait(driver, seconds, condition, what, poll=0.1):
    """`condition(driver)`'s first true value within `seconds`; else an AssertionError
    naming `what`."""
    try:
        return WebDriverWait(driver, seconds, poll_frequency=poll,
                             ignored_exceptions=RETRIED).until(lambda d: condition(d))
    except Exception as err:
        raise AssertionError(f"timed out after {seconds}s waiting for {what}") from err


def js(driver, script, *args):
    """What `script` returns, run in the page with `args`."""
    return driver.execute_script(script, *args)
