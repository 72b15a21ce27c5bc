#!/usr/bin/env python3
"""Does every page of a static report fit the screen? Loads pages in headless Chromium (Selenium and
chromium-driver) at a given viewport width and reports, per page:

* page overflow: the document is wider than the viewport (the reader must scroll the whole page sideways);
  a wide table may scroll inside its own box, the page may not;
* broken words: a short word (at most 24 characters between spaces) laid out on two lines, other than at
  a hyphen — "Ban te…rm", class names split every few letters, a 12-character commit id wrapped. Longer
  words (hashes, keys, paths, URLs) may break anywhere and are not counted.

Usage: layoutcheck.py --width 390 PAGE.html...   Prints one JSON object {page: [problems]} (empty when
every page fits) and exits 0; exits 2 when Chromium or Selenium is missing.
"""

import argparse
import json
import os
import sys

MEASURE = r"""
var width = document.documentElement.clientWidth;
var problems = [];
if (document.documentElement.scrollWidth > width + 1) {
  problems.push("the page is " + document.documentElement.scrollWidth + " px wide in a " + width + " px viewport");
}
var walker = document.createTreeWalker(document.querySelector("main") || document.body, NodeFilter.SHOW_TEXT);
var node;
while ((node = walker.nextNode())) {
  var element = node.parentElement;
  if (!element || element.closest("details:not([open]), script, style")) { continue; }
  var text = node.textContent;
  var words = /\S+/g;
  var word;
  while ((word = words.exec(text))) {
    if (word[0].length > 24) { continue; }
    var pieces = /[^\-]+/g;
    var piece;
    while ((piece = pieces.exec(word[0]))) {
      if (piece[0].length < 2) { continue; }
      var start = word.index + piece.index;
      var range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, start + piece[0].length);
      var tops = {};
      Array.prototype.forEach.call(range.getClientRects(), function (rect) {
        if (rect.width > 0) { tops[Math.round(rect.top)] = true; }
      });
      if (Object.keys(tops).length > 1) {
        problems.push("the word '" + piece[0] + "' is broken across lines in <" + element.tagName.toLowerCase() + ">");
      }
    }
  }
}
return problems.slice(0, 20);
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--width", type=int, required=True)
    parser.add_argument("--height", type=int, default=844)
    parser.add_argument("pages", nargs="+")
    arguments = parser.parse_args()
    os.environ["SE_AVOID_STATS"] = "true"  # Selenium would otherwise report usage over the network
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        print("selenium is not installed: 'make test' installs it", file=sys.stderr)
        return 2
    browser = next((p for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] if os.path.exists(p)), None)
    driver_path = next((p for p in ["/usr/bin/chromedriver"] if os.path.exists(p)), None)
    if browser is None or driver_path is None:
        print("chromium and chromium-driver are needed: 'make test' installs them", file=sys.stderr)
        return 2
    options = Options()
    options.binary_location = browser
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     "--window-size=%d,%d" % (arguments.width, arguments.height)]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        # The window size includes no scrollbar (hidden), so the layout viewport is the width asked for.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": arguments.width, "height": arguments.height, "deviceScaleFactor": 1, "mobile": True})
        report = {}
        for page in arguments.pages:
            driver.get("file://" + os.path.abspath(page))
            problems = driver.execute_script(MEASURE)
            if problems:
                report[page] = problems
    finally:
        driver.quit()
    print(json.dumps(report, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
