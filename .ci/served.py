"""Starts openswiftdata-server for the CI scripts and finds the port it chose."""
import re, subprocess, sys, threading


def start(binary, store, token):
    """The process and its URL; the server logs to standard error, and its start lines name the port."""
    process = subprocess.Popen([binary, "--store", store, "--port", "0", "--token", token, "--log-level", "info"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for line in process.stderr:
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line.decode())
        if match:
            # The server logs every request at info: a pipe nobody reads fills up, and the
            # server then blocks writing its log, request after request.
            threading.Thread(target=drain, args=(process.stderr,), daemon=True).start()
            return process, f"http://127.0.0.1:{match.group(1)}"
    sys.exit(f"{binary} did not start (exit status {process.wait()})")


def drain(stream):
    for _ in stream:
        pass
