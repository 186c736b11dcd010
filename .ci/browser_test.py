"""The data browser end to end (issue 50): openswiftdata-server --browse=edit over a seeded trips
store, driven by headless Chromium through the DevTools protocol. Log in, open an entity, sort,
filter, follow a relationship, edit a value, delete a model, and see another client's save appear;
the page's DOM text is checked after each step and a screenshot kept. An injected script renders
as text, and a form without the cookie or the CSRF token is refused.

  python3 .ci/browser_test.py SERVER TRIPS CHROMIUM STORE OUTPUT_DIR
  (STORE: sqlite:PATH, or a postgres:// URL of an empty database)
"""
import os, re, subprocess, sys, threading, time, urllib.error, urllib.parse, urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from cdp import Browser

TOKEN = "browser-ci-token"
INJECTION = "<script>window.injected = true; alert(1)</script>"


def start_server(binary, store):
    # An admin token: editing in the browser needs the admin scope.
    process = subprocess.Popen([binary, "--store", store, "--port", "0", "--admin-token", TOKEN, "--browse=edit", "--log-level", "info"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for line in process.stderr:
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line.decode())
        if match:
            # A pipe nobody reads fills up, and the server then blocks writing its request log.
            threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
            return process, match.group(1)
    sys.exit(f"browser-test: {binary} did not start (exit status {process.wait()})")


def trips(binary, url, *arguments):
    """Runs the trips app as another client of the server."""
    result = subprocess.run([binary, "--remote", url, "--token", TOKEN, *arguments], capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
    if result.returncode != 0:
        sys.exit(f"browser-test: trips {' '.join(arguments)} failed: {result.stderr}")
    return result.stdout


def seed(binary, url):
    trips(binary, url, "add", "Paris trip", "--destination", "Paris", "--start", "2026-06-01", "--end", "2026-06-05", "--budget", "1500", "--notes", "Louvre")
    trips(binary, url, "add", INJECTION, "--destination", "Nowhere", "--start", "2026-08-01")
    trips(binary, url, "add", "Oslo weekend", "--destination", "Oslo", "--start", "2026-09-12", "--budget", "400")
    trips(binary, url, "add", "Alps hike", "--destination", "Chamonix", "--start", "2026-07-03", "--budget", "900")
    trips(binary, url, "bucket", "add", "Paris trip", "See the Louvre")
    trips(binary, url, "bucket", "add", "Paris trip", "Eiffel tower", "--reserved")
    trips(binary, url, "stay", "Paris trip", "--place", "Hotel du Nord", "--address", "102 Quai de Jemmapes")


class Run:
    def __init__(self, chromium, url, output):
        self.url = url
        self.output = output
        self.browser = Browser(chromium)
        self.step = 0

    def check(self, name, condition, detail=""):
        if not condition:
            self.browser.screenshot(os.path.join(self.output, f"failed-{name}.png"))
            raise AssertionError(f"{name}: {detail}\n--- page text ---\n{self.browser.text()[:3000]}")

    def done(self, name):
        self.step += 1
        path = os.path.join(self.output, f"{self.step:02d}-{name}.png")
        self.browser.screenshot(path)
        print(f"browser-test: {name} ok ({path})")

    def accessible(self, name):
        """The page's structure for a screen reader and the keyboard: one h1, a label for every
        field, a caption for every table, and the skip link first in the focus order."""
        problems = self.browser.evaluate("""(() => {
            const problems = [];
            if (document.querySelectorAll('h1').length !== 1) problems.push('not one h1');
            for (const field of document.querySelectorAll('input:not([type=hidden]), select, textarea'))
                if (field.labels.length === 0 && !field.getAttribute('aria-label')) problems.push('unlabelled ' + (field.id || field.name));
            for (const table of document.querySelectorAll('table'))
                if (!table.caption) problems.push('a table without a caption');
            const focusable = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, [tabindex]')]
                .filter(e => e.tabIndex >= 0);
            if (focusable[0]?.className !== 'skip-link') problems.push('the skip link is not first in the focus order');
            if (focusable.some(e => e.tabIndex > 0)) problems.push('a positive tabindex reorders the focus');
            return problems;
        })()""")
        self.check(f"{name}-accessible", problems == [], str(problems))
        if self.browser.evaluate("document.activeElement === document.body"):
            self.browser.press("Tab")
            self.check(f"{name}-focus-order", self.browser.evaluate("document.activeElement.className") == "skip-link")

    def rows(self):
        """The first cell (the trip's name) of each row of the entity table."""
        return self.browser.evaluate("[...document.querySelectorAll('table.models tbody tr')].map(r => r.cells[1].innerText)")

    def wait_for_text(self, text, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if text in self.browser.text():
                return True
            time.sleep(0.1)
        return False


def main():
    server_binary, trips_binary, chromium, store, output = sys.argv[1:6]
    os.makedirs(output, exist_ok=True)
    server, url = start_server(server_binary, store)
    run = None
    try:
        seed(trips_binary, url)
        run = Run(chromium, url, output)
        browser = run.browser

        # Log in: the root leads to the login form, whose token field is typed into.
        browser.go(url + "/")
        run.check("login-form", "Log in" in browser.text() and "/browse/login" in browser.evaluate("location.pathname"))
        run.accessible("login-form")
        run.done("login-form")
        browser.type_into("#token", TOKEN)
        browser.navigating(browser.press_enter)
        text = browser.text()
        run.check("logged-in", "Schema" in text and "Trip\t4" in text, "the schema page should list Trip with 4 models")
        cookies = {c["name"]: c for c in browser.call("Network.getCookies", urls=[url + "/browse/"])["cookies"]}
        session = cookies.get("osd_session", {})
        run.check("session-cookie", session.get("secure") and session.get("httpOnly") and session.get("sameSite") == "Strict", str(session))
        run.accessible("schema")
        run.done("schema")

        # Open an entity; the injected name is text, not a script.
        browser.navigating(lambda: browser.click("table.entities a[href$='/entity/Trip']"))
        run.check("entity", browser.text("h1") == "Trip" and INJECTION in browser.text("table.models"))
        run.check("no-injection", browser.evaluate("window.injected === undefined && document.scripts.length === 1")
                  and not any(e.get("method") == "Page.javascriptDialogOpening" for e in browser.events))
        run.done("entity")

        # Sort by name, then descending.
        browser.navigating(lambda: browser.click("thead a[href*='sort=name']"))
        run.check("sorted", run.rows() == [INJECTION, "Alps hike", "Oslo weekend", "Paris trip"], str(run.rows()))
        run.check("sorted-aria", browser.evaluate("document.querySelector('th[aria-sort]').getAttribute('aria-sort')") == "ascending")
        browser.navigating(lambda: browser.click("thead a[href*='sort=name']"))
        run.check("sorted-descending", run.rows() == ["Paris trip", "Oslo weekend", "Alps hike", INJECTION], str(run.rows()))
        run.done("sorted")

        # Filter: the expression goes into the URL, and the table keeps the sort.
        browser.type_into("#filter", 'budgetCents >= 90000 && startDate < 2026-09-01')
        browser.navigating(browser.press_enter)
        run.check("filtered", run.rows() == ["Paris trip", "Alps hike"], str(run.rows()))
        location = urllib.parse.unquote_plus(browser.evaluate("location.search"))
        run.check("filter-in-url", "filter=budgetCents >= 90000 && startDate < 2026-09-01" in location and "sort=name" in location, location)
        run.check("filter-count", "2 of 4 models match the filter." in browser.text())
        run.accessible("filtered")
        run.done("filtered")

        # Follow a relationship: the trip, then where it stays.
        browser.navigating(lambda: browser.click("table.models tbody tr:first-child th a"))
        run.check("model", browser.text("h1").endswith("Paris trip") and "See the Louvre" in browser.text())
        browser.navigating(lambda: browser.click("ul.related a[href*='/model/LivingAccommodation/']"))
        run.check("relationship", "Hotel du Nord" in browser.text("h1") and "102 Quai de Jemmapes" in browser.text())
        run.done("relationship")
        browser.navigating(lambda: browser.click("ul.related a[href*='/model/Trip/']"))

        # Edit a value through the form.
        browser.navigating(lambda: browser.click("a[href$='/edit/budgetCents']"))
        browser.type_into("#value", "123400")
        browser.navigating(browser.press_enter)
        run.check("edited", "Saved budgetCents." in browser.text() and "123400" in browser.text("table.attributes"))
        run.check("edit-history", "by openswiftdata-browser: budgetCents" in browser.text("ol.timeline"))
        run.accessible("edited")
        run.done("edited")
        trip_path = browser.evaluate("location.pathname")

        # A form without the cookie, or without its CSRF token, is refused and changes nothing.
        edit_url = url + trip_path + "/edit/name"
        for headers, fields, expected in [({}, {"value": "Hacked"}, 401),
                                          ({"Cookie": f"osd_session={session.get('value')}"}, {"value": "Hacked"}, 403),
                                          ({"Cookie": f"osd_session={session.get('value')}"}, {"value": "Hacked", "csrf": "forged"}, 403)]:
            request = urllib.request.Request(edit_url, data=urllib.parse.urlencode(fields).encode(),
                                             headers={"Content-Type": "application/x-www-form-urlencoded", **headers})
            try:
                status = urllib.request.urlopen(request).status
            except urllib.error.HTTPError as error:
                status = error.code
            run.check("refused", status == expected, f"{headers.keys()} {fields.keys()}: {status}, expected {expected}")
        browser.go(url + trip_path)
        run.check("unchanged", browser.text("h1").endswith("Paris trip"))
        print("browser-test: forms without the cookie (401) or the CSRF token (403) refused")

        # Delete a model, confirming on its page.
        browser.go(url + "/browse/entity/Trip?filter=" + urllib.parse.quote('name == "Oslo weekend"'))
        browser.navigating(lambda: browser.click("table.models tbody tr:first-child th a"))
        browser.navigating(lambda: browser.click("a.danger"))
        run.check("delete-confirm", "Delete Trip" in browser.text("h1"))
        run.accessible("delete-confirm")
        browser.navigating(lambda: browser.click("form.delete button"))
        run.check("deleted", re.search(r"Deleted Trip \d+\.", browser.text()) is not None and "Oslo weekend" not in browser.text("main")
                  and "3 models." in browser.text())
        run.done("deleted")

        # Another client saves: the open page shows it without a reload.
        browser.go(url + "/browse/entity/Trip?sort=name")
        time.sleep(0.5)
        trips(trips_binary, url, "add", "Live from another client", "--destination", "Lisbon", "--start", "2026-10-10")
        run.check("live", run.wait_for_text("Live from another client"), "the new trip did not appear")
        run.check("live-status", "Updated after a save" in browser.text("#live-status"))
        run.done("live")
    finally:
        if run is not None:
            run.browser.close()
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
