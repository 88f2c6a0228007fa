#!/usr/bin/env python3
"""Loads a rendered report in headless Chromium (Debian's chromium, driven
through the DevTools protocol over --remote-debugging-pipe: no network, no
extra package) and checks what a reader would see:

  - the page loads from disk;
  - every <img> decodes, with a natural size above zero;
  - the console shows no error and no exception is thrown;
  - a full-page screenshot is written.

    browser_check.py INDEX_HTML SCREENSHOT_PNG [--expect-images N]

Prints one line per image and a summary; exit 0 when all holds, 1 when not,
2 when Chromium cannot be started."""
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Pipe:
    """The DevTools protocol over fds 3 (to Chromium) and 4 (from it)."""

    def __init__(self, index_html, profile):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            raise OSError("chromium is not installed (scripts/deps.sh installs it)")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # fd 3 and 4 in the child: Chromium reads commands on 3, writes on 4.
        # (Moved above 9 first so that neither overwrites the other.)
        def child_fds():
            a = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
             "--disable-extensions", "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"],
            close_fds=False, preexec_fn=child_fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read_one(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=60):
        want = self.send(method, params, session)
        deadline = time.time() + timeout
        while True:
            m = self.read_one(deadline)
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, name, timeout=60):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e["method"] == name:
                return self.events.pop(i)
        while True:
            m = self.read_one(deadline)
            if m.get("method") == name:
                return m
            if "method" in m:
                self.events.append(m)

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


IMAGES_JS = """Promise.all(Array.from(document.images).map(img =>
    img.decode().then(() => ({src: img.getAttribute('src'), w: img.naturalWidth, h: img.naturalHeight}),
                      e => ({src: img.getAttribute('src'), w: 0, h: 0, error: String(e)}))))"""


def console_errors(events):
    errs = []
    for e in events:
        p = e.get("params", {})
        if e["method"] == "Runtime.exceptionThrown":
            errs.append("exception: " + p.get("exceptionDetails", {}).get("text", "?"))
        elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            errs.append("console.%s: %s" % (p.get("type"), " ".join(str(a.get("value", a.get("description", "")))
                                                                   for a in p.get("args", []))))
        elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            ent = p["entry"]
            errs.append("%s: %s %s" % (ent.get("source"), ent.get("text"), ent.get("url", "")))
    return errs


def check(index_html, shot, expect):
    profile = tempfile.mkdtemp(prefix="lpmpipe-chromium.")
    b = None
    try:
        b = Pipe(index_html, profile)
        target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            b.call(domain + ".enable", session=s)
        b.call("Emulation.setDeviceMetricsOverride",
               {"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=s)
        b.call("Page.navigate", {"url": "file://" + os.path.abspath(index_html)}, session=s)
        b.wait_event("Page.loadEventFired")
        imgs = b.call("Runtime.evaluate", {"expression": IMAGES_JS, "awaitPromise": True, "returnByValue": True},
                      session=s)["result"]["value"]
        h = b.call("Runtime.evaluate", {"expression": "document.documentElement.scrollHeight", "returnByValue": True},
                   session=s)["result"]["value"]
        b.call("Emulation.setDeviceMetricsOverride",
               {"width": 1200, "height": min(int(h), 16000), "deviceScaleFactor": 1, "mobile": False}, session=s)
        time.sleep(0.3)
        png = b.call("Page.captureScreenshot", {"format": "png"}, session=s)["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png))
        # Let late events (a failed load logged after onload) arrive.
        b.call("Runtime.evaluate", {"expression": "1"}, session=s)
        errors = console_errors(b.events)
    finally:
        if b:
            b.close()
        shutil.rmtree(profile, ignore_errors=True)
    ok = True
    for i in imgs:
        good = i["w"] > 0 and i["h"] > 0 and "error" not in i
        ok &= good
        print("%s image %s: %dx%d%s" % ("ok " if good else "BAD", i["src"], i["w"], i["h"],
                                        "" if good else " " + i.get("error", "")))
    for e in errors:
        print("BAD console " + e)
    if expect is not None and len(imgs) != expect:
        print("BAD %d images on the page, %d expected" % (len(imgs), expect))
        ok = False
    if not imgs:
        print("BAD no image on the page")
        ok = False
    ok &= not errors
    print("browser check: %d images decoded, %d console errors, screenshot %s (%d bytes)"
          % (sum(1 for i in imgs if i["w"] > 0 and i["h"] > 0), len(errors), shot, os.path.getsize(shot)))
    return 0 if ok else 1


def main():
    args = sys.argv[1:]
    expect = None
    if "--expect-images" in args:
        k = args.index("--expect-images")
        expect = int(args[k + 1])
        del args[k:k + 2]
    if len(args) != 2:
        print(__doc__)
        return 2
    try:
        return check(args[0], args[1], expect)
    except (OSError, EOFError, TimeoutError) as e:
        print("browser check: cannot drive chromium: %s" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
