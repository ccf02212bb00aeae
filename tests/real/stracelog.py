# SPDX-License-Identifier: GPL-2.0-or-later
"""What a program did, from the log of `strace -f -y -o FILE CMD`.

The corpus computes the numbers it expects from dio (opens, create-unlink
cycles, files read whole, bytes read and written) from strace run on the same
program in the same recording, so that they come from a second tracer and not
from dio itself. strace does not log its own calls, so its I/O is never
counted.

Open file descriptions are followed as the kernel keeps them: an open makes
one; dup, dup2, dup3, fcntl F_DUPFD and fork share it (with its offset);
close, a dup2 over an fd, exec (for close-on-exec fds) and exit_group let go
of an fd, and the description ends when its last fd goes. Threads (clone with
CLONE_THREAD or CLONE_FILES) share their process's fds. Each description
records its reads with their offsets, its writes, its syncs and the sizes
fstat saw, so that a case can tell whether a file was read whole or which
bytes a process never read.
"""
import os
import re

CALL = re.compile(r"^(\d+) +([a-z_0-9]+)\((.*)$")
RESUMED = re.compile(r"^(\d+) +<\.\.\. ([a-z_0-9]+) resumed>(.*)$")
RET = re.compile(r"\) +=(?= )")
OPENS = ("open", "openat", "openat2", "creat")
READS = ("read", "readv", "pread64", "preadv", "preadv2")
POSITIONED = ("pread64", "preadv", "preadv2", "pwrite64", "pwritev", "pwritev2")
WRITES = ("write", "writev", "pwrite64", "pwritev", "pwritev2")
SYNCS = ("fsync", "fdatasync", "sync_file_range")
FSTATS = ("fstat", "newfstatat", "statx")
FORKS = ("clone", "clone3", "fork", "vfork")


def norm(path):
    """A path as -y prints it, without the mark of a deleted file."""
    if path and path.endswith(" (deleted)"):
        return path[: -len(" (deleted)")]
    return path


class Call:
    """One finished system call: seq (its place in the log), pid (the thread
    strace names), name, args (raw text), ret (an int, None for '?'), path
    (the file -y names for a returned fd), fd and fdpath (the first argument,
    when it is an fd with a path)."""

    def __init__(self, seq, pid, name, args, ret):
        self.seq, self.pid, self.name, self.args = seq, pid, name, args
        self.ret = self.path = self.fd = self.fdpath = None
        m = re.match(r"(-?\d+)(?:<(.*?)>)?", ret)
        if m:
            self.ret = int(m.group(1))
            self.path = norm(m.group(2))
        m = re.match(r"(-?\d+)<(.*?)>(?:, |$)", args)
        if m:
            self.fd, self.fdpath = int(m.group(1)), norm(m.group(2))

    def strings(self):
        """The quoted string arguments (only \\" and \\\\ unescaped)."""
        return [s.replace('\\"', '"').replace("\\\\", "\\")
                for s in re.findall(r'"((?:[^"\\]|\\.)*)"', self.args)]

    def offset(self):
        """The offset argument of a pread64, preadv, preadv2 or their
        writing twins: the last argument, or the one before the flags."""
        last = 2 if self.name in ("preadv2", "pwritev2") else 1
        return int(self.args.rsplit(", ", last)[-last])

    def __repr__(self):
        return f"{self.pid} {self.name}({self.args[:70]}) = {self.ret}"


def parse(logfile):
    """The calls of an strace -f -y log, in the order they finished."""
    calls = []
    pending = {}
    with open(logfile, errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            m = CALL.match(line)
            if m:
                pid, name, rest = int(m.group(1)), m.group(2), m.group(3)
                if rest.endswith("<unfinished ...>"):
                    pending[pid] = rest[: -len("<unfinished ...>")].rstrip()
                    continue
            else:
                m = RESUMED.match(line)
                if not m:
                    continue  # signals, exits
                pid, name, rest = int(m.group(1)), m.group(2), m.group(3)
                head = pending.pop(pid, "")
                rest = head + " " + rest.lstrip() if head.endswith(",") else head + rest
            # strace pads short calls: "close(3)       = 0"
            ends = list(RET.finditer(rest))
            if not ends:
                continue
            e = ends[-1]
            calls.append(Call(len(calls), pid, name, rest[:e.start()], rest[e.end():].strip()))
    return calls


class Description:
    """One open file description: the process that opened it (tgid), path,
    the open call, reads [(offset, bytes, call)], writes [(bytes, call)],
    syncs [call], sizes fstat saw, and end (the call that let go of its last
    fd; None if it stayed open)."""

    def __init__(self, tgid, call):
        self.tgid, self.open, self.path = tgid, call, call.path
        self.reads, self.writes, self.syncs, self.sizes = [], [], [], []
        self.pos = 0
        self.refs = 0
        self.end = None

    @property
    def read(self):
        return sum(n for _, n, _ in self.reads)

    @property
    def written(self):
        return sum(n for n, _ in self.writes)

    def whole(self):
        """Read from offset 0 to the end of file, in order: a read that
        returned 0 where the previous one ended, or as many bytes as the size
        fstat gave."""
        at = 0
        for off, n, _ in self.reads:
            if off != at:
                return False
            if n == 0 or (self.sizes and at + n >= self.sizes[-1]):
                return True
            at += n
        return False


class Log:
    """The calls of one log and the open file descriptions they made."""

    def __init__(self, logfile):
        self.calls = parse(logfile)
        self.prog = {}       # tgid -> file name of its program
        self.tgid = {}       # thread -> process
        self.descriptions = []
        fds = {}             # tgid -> {fd: [Description, cloexec]}
        # who made each process or thread, and how: a child's first calls
        # can come before its parent's clone returns in the log
        parent, thread = {}, {}
        for c in self.calls:
            if c.name in FORKS and c.ret is not None and c.ret > 0:
                parent[c.ret] = c.pid
                thread[c.ret] = "CLONE_THREAD" in c.args or "CLONE_FILES" in c.args
        started = set()

        def start(pid):
            started.add(pid)
            if pid not in parent:
                self.tgid[pid] = pid
                return
            p = self.tgid.get(parent[pid], parent[pid])
            if thread[pid]:
                self.tgid[pid] = p
                return
            self.tgid[pid] = pid
            fds[pid] = {k: list(v) for k, v in fds.get(p, {}).items()}
            for d, _ in fds[pid].values():
                d.refs += 1
            self.prog[pid] = self.prog.get(p, "?")

        for c in self.calls:
            if c.pid not in started:
                start(c.pid)
            t = self.tgid[c.pid]
            table = fds.setdefault(t, {})
            if c.name in FORKS:
                if c.ret is not None and c.ret > 0 and c.ret not in started:
                    start(c.ret)
                continue
            if c.name == "execve" and c.ret == 0:
                s = c.strings()
                self.prog[t] = os.path.basename(s[0]) if s else "?"
                for fd in [fd for fd, (_, cx) in table.items() if cx]:
                    self._drop(table, fd, c)
                continue
            if c.name == "exit_group":
                for fd in list(table):
                    self._drop(table, fd, c)
                continue
            if c.ret is None or c.ret < 0:
                continue
            if c.name in OPENS:
                d = Description(t, c)
                self.descriptions.append(d)
                self._drop(table, c.ret, c)
                table[c.ret] = [d, "O_CLOEXEC" in c.args]
                d.refs = 1
            elif c.name in ("dup", "dup2", "dup3") or (c.name == "fcntl" and "F_DUPFD" in c.args):
                src = table.get(c.fd)
                if c.ret != c.fd:
                    self._drop(table, c.ret, c)
                    if src:
                        table[c.ret] = [src[0], "CLOEXEC" in c.args]
                        src[0].refs += 1
            elif c.name == "close":
                self._drop(table, c.fd, c)
            elif c.name == "fcntl" and "F_SETFD" in c.args and c.fd in table:
                table[c.fd][1] = "FD_CLOEXEC" in c.args
            elif c.fd in table:
                d = table[c.fd][0]
                if c.name in READS:
                    off = c.offset() if c.name in POSITIONED else d.pos
                    d.reads.append((off, c.ret, c))
                    if c.name not in POSITIONED:
                        d.pos += c.ret
                elif c.name in WRITES:
                    d.writes.append((c.ret, c))
                    if c.name not in POSITIONED:
                        d.pos += c.ret
                elif c.name in SYNCS:
                    d.syncs.append(c)
                elif c.name == "lseek":
                    d.pos = c.ret
                elif c.name in FSTATS:
                    m = re.search(r"st_size=(\d+)", c.args)
                    if m:
                        d.sizes.append(int(m.group(1)))

    @staticmethod
    def _drop(table, fd, c):
        e = table.pop(fd, None)
        if e:
            e[0].refs -= 1
            if e[0].refs == 0:
                e[0].end = c

    def pids(self, prog):
        """The processes whose last program was prog ('bash', 'logtail2'),
        in the order they appear in the log."""
        seen = []
        for c in self.calls:
            t = self.tgid.get(c.pid, c.pid)
            if self.prog.get(t) == prog and t not in seen:
                seen.append(t)
        return seen

    def pid(self, prog):
        """The one process that ran prog; SystemExit if there are several."""
        p = self.pids(prog)
        if len(p) != 1:
            raise SystemExit(f"FAIL: strace log: {len(p)} processes ran {prog}: {p}")
        return p[0]

    def opened(self, pid, path):
        """The descriptions process pid opened on path."""
        return [d for d in self.descriptions if d.tgid == pid and d.path == path]

    def calls_of(self, names, pid=None, path=None, after=-1):
        """Successful calls named in names, of process pid (any thread), on
        the fd or returned path path, after the call numbered after."""
        return [c for c in self.calls
                if c.name in names and c.ret is not None and c.ret >= 0 and c.seq > after
                and (pid is None or self.tgid.get(c.pid, c.pid) == pid)
                and (path is None or c.fdpath == path or c.path == path)]

    def removals(self, pid, path):
        """Successful unlink/unlinkat of path by process pid (a relative path
        is taken from the directory -y shows for AT_FDCWD)."""
        out = []
        for c in self.calls_of(("unlink", "unlinkat"), pid):
            s = c.strings()
            if not s:
                continue
            p = s[0]
            if not p.startswith("/"):
                m = re.search(r"AT_FDCWD<([^>]*)>", c.args)
                if m:
                    p = os.path.join(m.group(1), p)
            if os.path.normpath(p) == path:
                out.append(c)
        return out

    def unread(self, descs, start, end, after=-1):
        """Bytes in [start, end) that no read through the descriptions descs
        (a reading position: what one open made, shared by its dups) got,
        after the call numbered after."""
        got = sorted((o, o + n) for d in descs for o, n, c in d.reads if c.seq > after and n > 0)
        missing = 0
        at = start
        for lo, hi in got:
            if hi <= at:
                continue
            if lo >= end:
                break
            if lo > at:
                missing += lo - at
            at = hi
        return missing + max(end - at, 0)

    # ---- durability: what a power cut could lose, as strace saw the calls ----

    def _named(self, pid, arg, c):
        """The path a rename's argument names: absolute as it is, relative to
        the directory fd strace shows, else the file process pid opened
        whose path ends with it."""
        if arg.startswith("/"):
            return os.path.normpath(arg)
        m = re.match(r"-?\d+<([^>]*)>", c.args)
        if m and c.name != "rename":
            return os.path.normpath(os.path.join(m.group(1), arg))
        tail = "/" + os.path.normpath(arg)
        paths = [d.path for d in self.descriptions
                 if d.tgid == pid and d.path and d.path.endswith(tail) and d.open.seq < c.seq]
        return paths[-1] if paths else None

    @staticmethod
    def _unsynced(descs, before):
        """Bytes written through descs after their last fsync or fdatasync
        (sync_file_range makes nothing durable), by calls before seq before."""
        syncs = [s.seq for d in descs for s in d.syncs
                 if s.name != "sync_file_range" and s.seq < before]
        last = max(syncs, default=-1)
        return sum(n for d in descs for n, w in d.writes if last < w.seq < before)

    def unsynced_replaces(self, pid):
        """[(target, bytes)]: each rename by process pid of a file it wrote
        over a path a file was opened under before, with bytes written to it
        that no fsync or fdatasync of it made durable before the rename."""
        out = []
        for c in self.calls_of(("rename", "renameat", "renameat2"), pid):
            s = c.strings()
            src = self._named(pid, s[0], c)
            dst = os.path.normpath(os.path.join(os.path.dirname(src), s[1])) \
                if src and not s[1].startswith("/") else os.path.normpath(s[1])
            descs = [d for d in self.descriptions if d.path == src and d.open.seq < c.seq]
            existed = any(d.path == dst and d.open.seq < c.seq for d in self.descriptions)
            n = self._unsynced(descs, c.seq)
            if existed and n:
                out.append((dst, n))
        return out

    def truncated_rewrites(self, pid):
        """[(path, bytes)]: each description of process pid that truncated a
        file read before (an open with O_TRUNC, or an ftruncate of its fd),
        then wrote it and ended with no fsync or fdatasync after its writes
        (bytes: the most one description read of it before)."""
        out = []
        for d in self.descriptions:
            if d.tgid != pid or not d.writes or not d.end:
                continue
            cut = [d.open.seq] if "O_TRUNC" in d.open.args else []
            cut += [c.seq for c in self.calls_of(("ftruncate",), pid, d.path)
                    if d.open.seq < c.seq < d.end.seq]
            if not cut or not any(w.seq > cut[0] for _, w in d.writes):
                continue
            held = max((sum(n for _, n, c in r.reads if c.seq < cut[0])
                        for r in self.descriptions if r.path == d.path and r.open.seq < cut[0]),
                       default=0)
            if held and self._unsynced([d], d.end.seq + 1):
                out.append((d.path, held))
        return out
