"""Takes the README's screenshot of the data browser (docs/browser.png): openswiftdata-server
--browse over a trips store seeded here, the Trip table filtered and sorted, in headless Chromium.

  swift build && python3 scripts/browser-screenshot.py
"""
import base64, os, subprocess, sys, tempfile, urllib.parse

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(root, ".ci"))
from cdp import Browser
from browser_test import TOKEN, start_server, trips

TRIPS = [
    ("Paris in spring", "Paris", "2026-04-10", "2026-04-15", "1800", "Louvre on Friday evening"),
    ("Lofoten by boat", "Norway", "2026-06-20", "2026-06-28", "3200", None),
    ("Kyoto temples", "Japan", "2026-11-02", "2026-11-12", "4100", "Book the tea ceremony"),
    ("Lisbon weekend", "Portugal", "2026-03-06", "2026-03-08", "650", None),
    ("Alps hike", "Chamonix", "2026-07-03", "2026-07-10", "1400", "Hut reservations confirmed"),
    ("Rome with family", "Italy", "2026-08-14", "2026-08-21", "2600", None),
    ("Iceland ring road", "Iceland", "2026-09-01", "2026-09-12", "3900", "Rent a 4x4"),
    ("Berlin conference", "Germany", "2026-05-18", "2026-05-20", "900", "Talk on Wednesday"),
]


def main():
    binaries = subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
    chromium = next(path for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(path))
    with tempfile.TemporaryDirectory() as scratch:
        server, url = start_server(os.path.join(binaries, "openswiftdata-server"), f"sqlite:{scratch}/trips.store")
        try:
            trips_binary = os.path.join(binaries, "trips")
            for name, destination, start, end, budget, notes in TRIPS:
                trips(trips_binary, url, "add", name, "--destination", destination, "--start", start, "--end", end, "--budget", budget,
                      *(["--notes", notes] if notes else []))
            trips(trips_binary, url, "bucket", "add", "Paris in spring", "See the Louvre")
            trips(trips_binary, url, "stay", "Paris in spring", "--place", "Hôtel du Nord", "--address", "102 Quai de Jemmapes")
            browser = Browser(chromium, width=1280, height=720)
            try:
                browser.go(url + "/browse/login")
                browser.type_into("#token", TOKEN)
                browser.navigating(browser.press_enter)
                browser.go(url + "/browse/entity/Trip?" + urllib.parse.urlencode({"filter": "budgetCents >= 100000", "sort": "startDate"}))
                data = browser.call("Page.captureScreenshot", format="png")["data"]
                output = os.path.join(root, "docs", "browser.png")
                with open(output, "wb") as file:
                    file.write(base64.b64decode(data))
                print(f"wrote {output}")
            finally:
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
