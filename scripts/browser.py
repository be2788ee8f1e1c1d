"""A tiny Chrome DevTools Protocol client over --remote-debugging-pipe (no extra packages).

Used by tests/test_browser.py to load each reference page in headless Chromium,
collect console errors, exceptions and network requests, check what is
visible, and by scripts/screenshots.py to save PNGs for reviewers.
"""

from __future__ import annotations

import base64
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe", "--hide-scrollbars", "--mute-audio"]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def _high_fd(fd: int) -> int:
    """Move a descriptor to 10 or above so bash's 3<& and 4>& cannot clobber it (dash cannot do this)."""
    import fcntl

    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


class Browser:
    def __init__(self) -> None:
        exe = chromium_path()
        if exe is None:
            raise RuntimeError("no chromium on PATH")
        self.profile = tempfile.mkdtemp(prefix="rulec-chromium-")
        to_child_r, self._to_child = (_high_fd(fd) for fd in os.pipe())
        self._from_child, from_child_w = (_high_fd(fd) for fd in os.pipe())

        # Chromium reads commands on fd 3 and answers on fd 4; the shell puts the pipes there.
        command = " ".join(shlex.quote(a) for a in [exe, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"])
        self.proc = subprocess.Popen([shutil.which("bash") or "/bin/bash", "-c", f"exec {command} 3<&{to_child_r} 4>&{from_child_w}"],
                                     pass_fds=(to_child_r, from_child_w),
                                     stdout=subprocess.DEVNULL, stderr=open(os.devnull, "w") if not os.environ.get("RULEC_BROWSER_DEBUG") else None)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def _send(self, method: str, params: dict[str, Any] | None = None, session: bool = True) -> int:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        return self._next

    def _read(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, params: dict[str, Any] | None = None, session: bool = True,
             timeout: float = 30.0) -> dict[str, Any]:
        wanted = self._send(method, params, session)
        while True:
            message = self._read(timeout)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, event: str, timeout: float = 30.0) -> dict[str, Any]:
        for message in self.events:
            if message.get("method") == event:
                return message
        while True:
            message = self._read(timeout)
            self.events.append(message)
            if message.get("method") == event:
                return message

    def open(self, url: str, width: int = 1200, height: int = 900, mobile: bool = False) -> None:
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        self.events.clear()
        self.call("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result["result"].get("value")

    def problems(self) -> list[str]:
        """Console errors, uncaught exceptions, failed or external requests seen so far."""
        out = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append(f"console error: {params.get('args')}")
            elif method == "Runtime.exceptionThrown":
                out.append(f"exception: {params.get('exceptionDetails', {}).get('text')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(f"log error: {params['entry'].get('text')}")
            elif method == "Network.loadingFailed":
                out.append(f"failed request: {params.get('errorText')}")
            elif method == "Network.requestWillBeSent":
                url = params.get("request", {}).get("url", "")
                if not url.startswith(("file:", "data:", "about:")):
                    out.append(f"external request: {url}")
        return out

    TILE = 16000  # Chromium's largest capture; a taller page is captured in tiles

    def screenshot(self, path: Path, full_page: bool = True) -> list[Path]:
        """Write the viewport (or the whole page) as PNG; a page taller than one capture goes into
        tiles `NAME-1.png`, `NAME-2.png`, ... so nothing below 16,000 px is cut off."""
        if not full_page:
            data = self.call("Page.captureScreenshot", {"format": "png"}, timeout=60)["data"]
            path.write_bytes(base64.b64decode(data))
            return [path]
        metrics = self.call("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        width, height = size["width"], size["height"]
        tops = list(range(0, max(1, int(height)), self.TILE))
        paths = [path] if len(tops) == 1 else [path.with_name(f"{path.stem}-{i + 1}{path.suffix}")
                                               for i in range(len(tops))]
        for top, target in zip(tops, paths):
            clip = {"x": 0, "y": top, "width": width, "height": min(self.TILE, height - top), "scale": 1}
            data = self.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True},
                             timeout=60)["data"]
            target.write_bytes(base64.b64decode(data))
        return paths

    def close(self) -> None:
        try:
            self.call("Browser.close", session=False, timeout=5)
        except Exception:  # noqa: BLE001 - closing a browser that is already gone
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._to_child)
        os.close(self._from_child)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
