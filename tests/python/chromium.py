"""What the browser tests share: a headless Chromium under selenium, and waiting for a
condition in the page.

Chromium is Debian's (`CHROMIUM`, default /usr/bin/chromium) with its chromedriver
(`CHROMEDRIVER`, default the one on PATH); each run gets a profile of its own.
"""

import contextlib
import os
import shutil
import sys
import tempfile

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


@contextlib.contextmanager
def browsers(count, shots, prefix):
    """`count` headless Chromiums, each with a profile of its own. On a failure the first
    one's page is saved to SHOTS/failure.png and its address and source shown on stderr;
    every one quits at the end, and the first one's console must hold no error (a script
    the Content-Security-Policy refused, say)."""
    with contextlib.ExitStack() as stack:
        profiles = [stack.enter_context(tempfile.TemporaryDirectory(prefix=f"{prefix}-{n}-"))
                    for n in range(count)]
        drivers = []
        try:
            for profile in profiles:
                drivers.append(browser(profile))
            yield drivers
            errors = [e for e in drivers[0].get_log("browser") if e.get("level") == "SEVERE"]
            assert not errors, f"browser console errors (CSP?): {errors}"
        except Exception:
            if drivers:
                drivers[0].save_screenshot(os.path.join(shots, "failure.png"))
                print("page at failure:", drivers[0].current_url, file=sys.stderr)
                print(drivers[0].page_source[:4000], file=sys.stderr)
            raise
        finally:
            for driver in drivers:
                driver.quit()
