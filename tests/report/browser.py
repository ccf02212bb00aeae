#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Open a page in headless Chromium and check it, for dio's report tests.

Talks the Chrome DevTools Protocol over --remote-debugging-pipe (JSON messages ended by a
NUL byte; Chromium reads commands on fd 3 and writes on fd 4), so it needs nothing beyond
Python's standard library and Debian's chromium package.

    browser.py check FILE.html [--expect-js EXPR=VALUE] [--click SELECTOR]
                               [--screenshot OUT.png] [--viewport WxH] [--timeout S]
    browser.py probe

check loads the page, then runs its --expect-js, --click and --screenshot steps in the
order given, so that `--expect-js V=before --click '#b' --expect-js V=after` tests what a
click changes. It prints one line per failure: a step that fails, every console error,
uncaught exception and error log entry of the whole visit, and every request made to the
network (a report must be self-contained). Exit status: 0 when nothing failed, 1 when
something did, 77 (automake's SKIP) when no chromium is installed.

--expect-js: VALUE is what follows the last '='; it is compared as JSON when it parses as
JSON (3, true, "x", [1,2]), else as a string. A string result also matches VALUE's text,
so that a number shown in the page matches `...textContent=42`.
"""

import argparse
import base64
import collections
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib

EXIT_SKIP = 77

# Chromium starts in a few seconds here; a hung browser must fail a test, not hang make check.
DEFAULT_TIMEOUT = 60.0
# "Not blank": more than this share of the pixels differ from the most common colour.
# At 1280x800 that is 512 pixels, a short word; one line of text is about 0.1 %.
BLANK_SHARE = 0.0005


class BrowserError(Exception):
    """The browser failed, timed out or answered a command with an error."""


class NoBrowser(BrowserError):
    """No chromium is installed: the tests skip."""


def find_chromium():
    """The chromium binary: $CHROMIUM if set, else chromium or chromium-browser on PATH."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _spawn_with_pipe(argv, read_end, write_end, stderr, **kwargs):
    """Start argv with read_end as its fd 3, write_end as its fd 4 and stderr (a file) as 2.

    Arranged in this process around Popen, so that subprocess's own error pipe can never
    land on 3 or 4; whatever this process had on 3 and 4 (make's jobserver, say) is put back.
    Every fd the child gets is first copied above 9, where the moves cannot overwrite it.
    Not thread-safe: the driver is single-threaded.
    """
    saved = {}
    high_r = fcntl.fcntl(read_end, fcntl.F_DUPFD_CLOEXEC, 10)
    high_w = fcntl.fcntl(write_end, fcntl.F_DUPFD_CLOEXEC, 10)
    high_err = fcntl.fcntl(stderr.fileno(), fcntl.F_DUPFD_CLOEXEC, 10)
    try:
        for fd in (3, 4):
            try:
                saved[fd] = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10), os.get_inheritable(fd))
            except OSError:
                saved[fd] = None
        try:
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)
            return subprocess.Popen(argv, pass_fds=(3, 4), close_fds=True, stderr=high_err,
                                    **kwargs)
        finally:
            for fd, old in saved.items():
                if old is None:
                    os.close(fd)
                else:
                    os.dup2(old[0], fd, inheritable=old[1])
                    os.close(old[0])
    finally:
        os.close(high_r)
        os.close(high_w)
        os.close(high_err)


class Browser:
    """One headless Chromium with one page, driven over the DevTools pipe.

    Use as a context manager: leaving it ends the browser and its whole process group and
    removes its profile directory, even after a timeout. Every wait is bounded by both the
    call's timeout and the deadline set at start.
    """

    def __init__(self, timeout=DEFAULT_TIMEOUT, binary=None):
        self.binary = binary or find_chromium()
        if not self.binary:
            raise NoBrowser("no chromium installed (apt-get install chromium)")
        self.deadline = time.monotonic() + timeout
        self.errors = []  # console errors, uncaught exceptions, error log entries
        self.network = []  # URLs asked of the network (not file:, data:, blob:, about:)
        self.start_seconds = None
        self.version = None
        self._proc = None
        self._cmd_w = self._ev_r = None
        self._next_id = 0
        self._buf = b""
        self._events = collections.deque()
        self._session = None
        self._profile = tempfile.mkdtemp(prefix="dio-br-")
        self._stderr = open(os.path.join(self._profile, "chromium.stderr"), "w+b")
        try:
            self._start()
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _start(self):
        t0 = time.monotonic()
        cmd_r, self._cmd_w = os.pipe()
        self._ev_r, ev_w = os.pipe()
        # --no-sandbox: chromium refuses to run as root without it, and CI is root
        argv = [self.binary, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--mute-audio", "--hide-scrollbars", "--remote-debugging-pipe",
                "--user-data-dir=" + self._profile, "about:blank"]
        # chromium keeps its singleton socket in $TMPDIR and leaves it there when killed:
        # in the profile, it goes when the profile goes (a short path: sockets take 107 bytes)
        env = dict(os.environ, TMPDIR=self._profile)
        try:
            self._proc = _spawn_with_pipe(argv, cmd_r, ev_w, stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL, stderr=self._stderr,
                                          start_new_session=True, env=env)
        except OSError as e:
            raise BrowserError("cannot start %s: %s" % (self.binary, e)) from e
        finally:
            os.close(cmd_r)
            os.close(ev_w)
        os.set_blocking(self._cmd_w, False)
        self.version = self.send("Browser.getVersion", session=False).get("product")
        # the page chromium opened on about:blank, in a flat session of its own
        targets = self.send("Target.getTargets", session=False)["targetInfos"]
        pages = [t for t in targets if t.get("type") == "page"]
        if pages:
            target = pages[0]["targetId"]
        else:
            target = self.send("Target.createTarget", {"url": "about:blank"},
                               session=False)["targetId"]
        self._session = self.send("Target.attachToTarget",
                                  {"targetId": target, "flatten": True},
                                  session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(domain + ".enable")
        self.start_seconds = time.monotonic() - t0

    def close(self):
        """End the browser and its process group; safe to call twice."""
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                try:
                    self._write({"id": -1, "method": "Browser.close"})
                    proc.wait(timeout=min(5.0, max(0.5, self.deadline - time.monotonic())))
                except (OSError, BrowserError, subprocess.TimeoutExpired):
                    pass
            # renderers and zygotes share the group, and outlive a browser that was killed
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        for fd in ("_cmd_w", "_ev_r"):
            if getattr(self, fd) is not None:
                os.close(getattr(self, fd))
                setattr(self, fd, None)
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        shutil.rmtree(self._profile, ignore_errors=True)

    def _stderr_tail(self):
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        lines = self._stderr.read().decode(errors="replace").strip().splitlines()
        return ("; chromium said: " + " | ".join(lines[-5:])) if lines else ""

    def _remaining(self, until):
        left = min(until, self.deadline) - time.monotonic()
        if left <= 0:
            what = "the run's deadline" if self.deadline <= until else "the call's timeout"
            raise BrowserError("timed out (%s)%s" % (what, self._stderr_tail()))
        return left

    def _write(self, msg):
        data = json.dumps(msg).encode() + b"\0"
        until = time.monotonic() + 10
        while data:
            select.select([], [self._cmd_w], [], self._remaining(until))
            try:
                data = data[os.write(self._cmd_w, data):]
            except BlockingIOError:
                continue
            except BrokenPipeError as e:
                raise BrowserError("chromium is gone" + self._stderr_tail()) from e

    def _read_message(self, until):
        """The next message from the browser, waiting until `until` at most."""
        while b"\0" not in self._buf:
            ready, _, _ = select.select([self._ev_r], [], [], self._remaining(until))
            if not ready:
                continue
            chunk = os.read(self._ev_r, 1 << 20)
            if not chunk:
                try:
                    status = self._proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    status = None
                raise BrowserError("chromium closed the pipe (exit status %s)%s"
                                   % (status, self._stderr_tail()))
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def _note(self, msg):
        """Keep what the checks need from an event, and queue it for wait_event."""
        method, p = msg.get("method"), msg.get("params", {})
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            args = " ".join(_remote_text(a) for a in p.get("args", []))
            self.errors.append("console.%s: %s" % (p["type"], args))
        elif method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            text = d.get("exception", {}).get("description") or d.get("text", "")
            where = "%s:%s" % (d.get("url", "?"), d.get("lineNumber", 0) + 1)
            first = text.splitlines()[0] if text else "?"
            self.errors.append("uncaught exception at %s: %s" % (where, first))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            e = p["entry"]
            url = " " + e["url"] if e.get("url") else ""
            self.errors.append("log error (%s): %s%s" % (e.get("source", "?"), e.get("text", ""),
                                                         url))
        elif method == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            if url.split(":", 1)[0] not in ("file", "data", "blob", "about"):
                self.network.append(url)
        self._events.append(msg)

    def send(self, method, params=None, timeout=30.0, session=True):
        """Send one command and return its result; an error reply raises BrowserError."""
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self._session
        until = time.monotonic() + timeout
        self._write(msg)
        while True:
            reply = self._read_message(until)
            if reply.get("id") == msg["id"]:
                if "error" in reply:
                    raise BrowserError("%s: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})
            if "method" in reply:
                self._note(reply)

    def wait_event(self, method, timeout=30.0):
        """Wait for an event that arrived since the last wait for it (queued ones count)."""
        until = time.monotonic() + timeout
        while True:
            while self._events:
                msg = self._events.popleft()
                if msg.get("method") == method:
                    return msg.get("params", {})
            msg = self._read_message(until)
            if "method" in msg:
                self._note(msg)

    def open(self, url, timeout=30.0):
        """Navigate to url and wait for its load event."""
        self._events.clear()
        res = self.send("Page.navigate", {"url": url}, timeout=timeout)
        if res.get("errorText"):
            raise BrowserError("cannot open %s: %s" % (url, res["errorText"]))
        try:
            self.wait_event("Page.loadEventFired", timeout=timeout)
        except BrowserError as e:
            raise BrowserError("no load event from %s: %s" % (url, e)) from e

    def evaluate(self, expression, timeout=30.0):
        """The value of a JS expression (promises awaited); a thrown error raises BrowserError."""
        res = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in res:
            d = res["exceptionDetails"]
            text = d.get("exception", {}).get("description") or d.get("text") or "?"
            raise BrowserError("%s threw %s" % (expression, text.splitlines()[0]))
        r = res.get("result", {})
        if "unserializableValue" in r:
            return r["unserializableValue"]
        return r.get("value")

    def click(self, selector, timeout=30.0):
        """Click the centre of the element with a real mouse press and release.

        Fails if no element matches, if it has no size, or if another element covers its
        centre (the user could not click it either).
        """
        where = self.evaluate("""(() => {
            const el = document.querySelector(%s);
            if (!el) return {error: 'no element matches'};
            el.scrollIntoView({block: 'center', inline: 'center'});
            const r = el.getBoundingClientRect();
            if (r.width < 1 || r.height < 1) return {error: 'the element has no size'};
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            if (!hit || !(hit === el || el.contains(hit)))
                return {error: 'its centre is covered by ' +
                        (hit ? hit.outerHTML.slice(0, 80) : 'nothing')};
            return {x: x, y: y};
        })()""" % json.dumps(selector), timeout=timeout)
        if "error" in where:
            raise BrowserError("cannot click %s: %s" % (selector, where["error"]))
        for kind, count in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 1)):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": where["x"], "y": where["y"],
                       "button": "left" if count else "none", "clickCount": count},
                      timeout=timeout)
        # let handlers that defer work to the next task run before the caller looks
        self.evaluate("new Promise(r => setTimeout(r, 0))", timeout=timeout)

    def screenshot(self, path, width=1280, height=800, timeout=30.0):
        """Write a PNG of the viewport at width x height CSS pixels; return its bytes."""
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  timeout=timeout)
        res = self.send("Page.captureScreenshot", {"format": "png"}, timeout=timeout)
        data = base64.b64decode(res["data"])
        with open(path, "wb") as f:
            f.write(data)
        return data


def _remote_text(obj):
    """A console argument as text (a Runtime.RemoteObject)."""
    if "value" in obj:
        return obj["value"] if isinstance(obj["value"], str) else json.dumps(obj["value"])
    return obj.get("description") or obj.get("unserializableValue") or obj.get("type", "?")


# --- PNG: enough of the format to read Chromium's screenshots (8-bit, not interlaced) ---

_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4} # grey, RGB, grey+alpha, RGBA


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def png_pixels(data):
    """(width, height, bytes per pixel, raw pixel bytes) of an 8-bit, non-interlaced PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, [], None
    while pos + 8 <= len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if len(body) != length:
            raise ValueError("PNG cut short in a %s chunk" % kind.decode(errors="replace"))
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if ihdr is None or not idat:
        raise ValueError("PNG without IHDR or IDAT")
    width, height = int.from_bytes(ihdr[0:4], "big"), int.from_bytes(ihdr[4:8], "big")
    depth, ctype, interlace = ihdr[8], ihdr[9], ihdr[12]
    if depth != 8 or ctype not in _CHANNELS or interlace:
        raise ValueError("PNG of depth %d, colour type %d, interlace %d: not read here"
                         % (depth, ctype, interlace))
    bpp = _CHANNELS[ctype]
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    if len(raw) != height * (stride + 1):
        raise ValueError("PNG data of %d bytes for %dx%d" % (len(raw), width, height))
    out = bytearray(height * stride)
    prev = bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ftype == 1:  # Sub
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xff
        elif ftype == 2: # Up
            line = bytearray((a + b) & 0xff for a, b in zip(line, prev))
        elif ftype == 3: # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xff
        elif ftype == 4: # Paeth
            for i in range(stride):
                if i >= bpp:
                    line[i] = (line[i] + _paeth(line[i - bpp], prev[i], prev[i - bpp])) & 0xff
                else:
                    line[i] = (line[i] + prev[i]) & 0xff
        elif ftype != 0:
            raise ValueError("PNG row %d has filter type %d" % (y, ftype))
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return width, height, bpp, bytes(out)


def png_blankness(data):
    """(share of pixels that differ from the most common colour, number of colours)."""
    width, height, bpp, pixels = png_pixels(data)
    counts = collections.Counter(pixels[i:i + bpp] for i in range(0, len(pixels), bpp))
    common = counts.most_common(1)[0][1]
    total = width * height
    return (total - common) / total, len(counts)


# --- the command line ---

def _parse_expect(text):
    expr, sep, value = text.rpartition("=")
    if not sep or not expr:
        raise argparse.ArgumentTypeError("%r is not EXPR=VALUE" % text)
    return expr, value


def _matches(result, value):
    """Whether a JS result equals the expected VALUE text (see the module's doc)."""
    try:
        want = json.loads(value)
    except ValueError:
        want = None
    else:
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool)
                      for v in (want, result))
        if (numbers or type(want) is type(result)) and want == result:
            return True
    return isinstance(result, str) and result == value


def _viewport(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not WIDTHxHEIGHT" % text)
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError("%r: each side must be 16 to 8192" % text)
    return w, h


class _Step(argparse.Action):
    """Keep --expect-js, --click and --screenshot in the order given."""

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.steps = (namespace.steps or []) + [(self.dest, values)]


def _check(args, fail):
    path = os.path.abspath(args.file)
    if not os.path.isfile(path):
        fail("%s: no such file" % args.file)
        return
    with Browser(timeout=args.timeout) as b:
        try:
            b.open("file://" + path, timeout=args.timeout)
            for kind, arg in args.steps or []:
                if kind == "expect_js":
                    expr, value = arg
                    try:
                        got = b.evaluate(expr)
                    except BrowserError as e:
                        fail("expect-js: %s" % e)
                        continue
                    if not _matches(got, value):
                        fail("expect-js: %s is %s, expected %s"
                             % (expr, json.dumps(got), value))
                elif kind == "click":
                    try:
                        b.click(arg)
                    except BrowserError as e:
                        fail("click: %s" % e)
                elif kind == "screenshot":
                    data = b.screenshot(arg, *args.viewport)
                    share, colours = png_blankness(data)
                    if share <= BLANK_SHARE:
                        fail("screenshot %s is blank: %.2f%% of its pixels differ from "
                             "the most common colour (%d colours)"
                             % (arg, 100 * share, colours))
        finally:
            # whatever went wrong after loading, the page's own errors are still reported
            for e in b.errors:
                fail(e)
            for url in b.network:
                fail("network request (a report must be self-contained): %s" % url)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="load a page and check it")
    c.add_argument("file", help="the HTML file, opened as a file:// URL")
    c.add_argument("--expect-js", dest="expect_js", action=_Step, type=_parse_expect,
                   metavar="EXPR=VALUE", help="EXPR's value must equal VALUE")
    c.add_argument("--click", dest="click", action=_Step, metavar="SELECTOR",
                   help="click the element's centre with the mouse")
    c.add_argument("--screenshot", dest="screenshot", action=_Step, metavar="OUT.png",
                   help="write a PNG of the viewport; a blank one is a failure")
    c.add_argument("--viewport", type=_viewport, default=(1280, 800), metavar="WxH",
                   help="screenshot size in CSS pixels (default 1280x800)")
    c.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help="for the whole run, start to close (default %g)" % DEFAULT_TIMEOUT)
    c.set_defaults(steps=None)
    sub.add_parser("probe", help="start chromium, print its version and start time")
    args = p.parse_args(argv)

    failures = []

    def fail(line):
        failures.append(line)
        print("FAIL: " + line, flush=True)

    # a last resort should the driver itself hang: the Browser's deadline comes first
    timeout = getattr(args, "timeout", DEFAULT_TIMEOUT)

    def on_alarm(signum, frame):
        raise BrowserError("the driver itself hung for %d s" % (timeout + 15))

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(timeout) + 15)
    try:
        if args.command == "probe":
            with Browser(timeout=timeout) as b:
                print("%s started in %.2f s" % (b.version, b.start_seconds))
        else:
            _check(args, fail)
    except NoBrowser as e:
        print("SKIP: %s" % e)
        return EXIT_SKIP
    except (BrowserError, ValueError, OSError) as e:
        fail(str(e))
    finally:
        signal.alarm(0)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
