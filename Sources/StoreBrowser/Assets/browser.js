// Live updates: when another client saves, the page reloads what it shows from the server (the
// same URL, so the same filter, sort and page) and says so in a status line a screen reader
// announces. A page whose form is being edited is left alone; the status line says it changed.
(function () {
  "use strict";
  const main = document.querySelector("main[data-live]");
  if (!main || !window.EventSource) { return; }
  const status = document.getElementById("live-status");
  let seen = null;

  function editing() {
    const active = document.activeElement;
    return active && main.contains(active) && active.matches("input, textarea, select");
  }

  async function refresh() {
    if (editing()) {
      status.textContent = "This page changed in the store; reload it to see the change.";
      return;
    }
    const response = await fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } });
    if (!response.ok) { return; }
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.querySelector("main");
    if (!fresh) { return; }
    main.innerHTML = fresh.innerHTML;
    status.textContent = "Updated after a save at " + new Date().toLocaleTimeString() + ".";
  }

  let events = null;

  function listen() {
    if (events) { return; }
    events = new EventSource(main.dataset.live);
    events.addEventListener("change", function (event) {
      if (seen === null) { seen = event.data; return; }
      if (event.data === seen) { return; }
      seen = event.data;
      refresh().catch(function () { status.textContent = "The page could not be updated; reload it."; });
    });
  }

  // A page left for another closes its stream: a browser keeps only a few connections to one
  // server, and streams of pages kept for the back button would use them all up.
  window.addEventListener("pagehide", function () {
    if (events) { events.close(); events = null; }
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { listen(); }
  });
  // After the load event: a stream opened before it would hold the page loading for as long as it stays open.
  if (document.readyState === "complete") { listen(); } else { window.addEventListener("load", listen); }
})();
