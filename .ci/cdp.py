"""A small Chrome DevTools protocol client over a WebSocket, on the standard library alone, for
.ci/browser_test.py: it starts headless Chromium, sends commands to one page and waits for their
answers and events."""
import base64, json, os, shutil, socket, struct, subprocess, tempfile, time, urllib.request


class WebSocket:
    """RFC 6455 text frames, client side: frames sent masked, answers read whole."""

    def __init__(self, url):
        assert url.startswith("ws://"), url
        host_port, _, path = url[len("ws://"):].partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("the DevTools socket closed during the handshake")
            head += chunk
        head, _, self.pending = head.partition(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(f"the DevTools handshake failed: {head[:200]!r}")

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _fill(self, count):
        """Reads until `count` bytes are pending. A timeout leaves what was read pending, so that a
        frame cut by one is read whole later."""
        while len(self.pending) < count:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("the DevTools socket closed")
            self.pending += chunk

    def _frame(self):
        """The next frame's first byte and payload, consumed only once it is all here."""
        self._fill(2)
        length, offset = self.pending[1] & 0x7F, 2
        if length == 126:
            self._fill(4)
            length, offset = struct.unpack("!H", self.pending[2:4])[0], 4
        elif length == 127:
            self._fill(10)
            length, offset = struct.unpack("!Q", self.pending[2:10])[0], 10
        self._fill(offset + length)
        first, payload = self.pending[0], self.pending[offset:offset + length]
        self.pending = self.pending[offset + length:]
        return first, payload

    def receive(self):
        message = b""
        while True:
            first, payload = self._frame()
            opcode = first & 0x0F
            if opcode == 8:
                raise RuntimeError("the DevTools socket was closed by Chromium")
            if opcode == 9:
                continue
            message += payload
            if first & 0x80:
                return message.decode()


class Browser:
    """Headless Chromium with one page, driven through the DevTools protocol."""

    def __init__(self, binary, width=1280, height=900):
        self.profile = tempfile.mkdtemp(prefix="osd-chromium-")
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start; the pages are our own.
        self.process = subprocess.Popen([binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                         "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                                         f"--window-size={width},{height}", "--remote-debugging-port=0",
                                         f"--user-data-dir={self.profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not (os.path.exists(port_file) and open(port_file).read().count("\n") >= 1):
            if time.time() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"{binary} did not open its DevTools port")
            time.sleep(0.05)
        port = int(open(port_file).read().split("\n")[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(target for target in targets if target["type"] == "page")
        self.socket = WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events = []
        for domain in ("Page", "Runtime", "Network"):
            self.call(f"{domain}.enable")

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.receive())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method} failed: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for_event(self, method, timeout=15):
        deadline = time.time() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(index)
            if time.time() > deadline:
                raise RuntimeError(f"no {method} within {timeout} s")
            self.socket.sock.settimeout(max(0.1, deadline - time.time()))
            try:
                self.events.append(json.loads(self.socket.receive()))
            except socket.timeout:
                pass
            finally:
                self.socket.sock.settimeout(30)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression} threw: {result['exceptionDetails']}")
        return result["result"].get("value")

    def navigating(self, action):
        """Runs `action` (which starts a navigation) and waits for the new page to load."""
        self.events = [event for event in self.events if event.get("method") != "Page.loadEventFired"]
        action()
        self.wait_for_event("Page.loadEventFired")

    def go(self, url):
        self.navigating(lambda: self.call("Page.navigate", url=url))

    def click(self, selector):
        """Clicks the element as a person would, through the mouse, at its center."""
        box = self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return null; "
                            f"e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); "
                            f"return [r.left + r.width / 2, r.top + r.height / 2]; }})()")
        if box is None:
            raise RuntimeError(f"nothing on the page matches {selector}")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def type_into(self, selector, text):
        """Focuses a field, selects what it holds, and types over it."""
        self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e.focus(); e.select(); }})()")
        self.call("Input.insertText", text=text)

    def press(self, key):
        """Presses and releases Enter or Tab."""
        code, text = {"Enter": (13, "\r"), "Tab": (9, "\t")}[key]
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code,
                      **({"text": text} if kind == "keyDown" else {}))

    def press_enter(self):
        self.press("Enter")

    def text(self, selector="body"):
        return self.evaluate(f"document.querySelector({json.dumps(selector)})?.innerText ?? ''")

    def screenshot(self, path):
        """The whole page: the viewport is made as tall as the page for the capture, then restored
        (capturing beyond the viewport instead leaves later clicks off target)."""
        size = self.call("Page.getLayoutMetrics")["cssContentSize"]
        width = self.evaluate("window.innerWidth")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=max(int(size["height"]), 1), deviceScaleFactor=1, mobile=False)
        try:
            data = self.call("Page.captureScreenshot", format="png")["data"]
        finally:
            self.call("Emulation.clearDeviceMetricsOverride")
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)
