"""rustdoc's search, as a C# veteran uses it: each C# name typed into the framework's API
docs must list the faithful kit member first.

Usage: rustdoc_search.py DOC_DIR SHOTS NAME=EXPECTED...   (EXPECTED: the end of the first
result's address, e.g. `struct.Board.html#method.is_search_draw`)
"""

import sys

import chromium
from selenium.webdriver.common.by import By


def first_result(driver, doc, query):
    """The address of the first result rustdoc's search lists for `query`."""
    driver.get(f"file://{doc}/framework/index.html?search={query}")

    def listed(d):
        rows = d.find_elements(By.CSS_SELECTOR, "#search .search-results.active > a")
        return rows[0].get_attribute("href") if rows else None

    return chromium.wait(driver, 30, listed, f"rustdoc's results for {query}")


def main(doc, shots, pairs):
    wrong = []
    with chromium.browsers(1, shots, "rustdoc-search") as (driver,):
        for pair in pairs:
            query, expected = pair.split("=", 1)
            got = first_result(driver, doc, query)
            print(f"{query}: {got}")
            if not got.endswith(expected):
                wrong.append(f"{query}: first result {got}, expected ...{expected}")
    assert not wrong, "\n".join(wrong)
    print("rustdoc search: ok")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
