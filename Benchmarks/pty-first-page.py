#!/usr/bin/env python3
"""Times a terminal program to its first page in a pseudo-terminal, and its peak memory.

usage: pty-first-page.py COLUMNS ROWS NEEDLE [--quit KEYS] [--linger SECONDS] -- COMMAND...

Spawns COMMAND on a fresh pty of COLUMNS x ROWS, reads what it draws until NEEDLE (text of
the first page) has appeared, prints the time from just before the spawn to then, sends KEYS
(default "q"), after --linger seconds if given (so background work can finish), and prints
the child's peak resident memory from wait4's rusage.
Escape sequences are stripped before looking for NEEDLE, so colour codes do not hide it.
"""
import fcntl, os, pty, re, select, signal, struct, sys, termios, time

def main():
    separator = sys.argv.index("--")
    options, command = sys.argv[1:separator], sys.argv[separator + 1:]
    columns, rows, needle = int(options[0]), int(options[1]), options[2]
    keys = options[options.index("--quit") + 1] if "--quit" in options else "q"
    linger = float(options[options.index("--linger") + 1]) if "--linger" in options else 0
    escapes = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|_[^\x1b]*\x1b\\|[@-Z\\-_])")

    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        os.environ.update({"TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8", "COLUMNS": str(columns), "LINES": str(rows)})
        os.execvp(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    seen = b""
    first = None
    deadline = start + 60
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        # Answer a cursor-position, device-attributes or status query, as a terminal would (a VT220
        # without Sixel; every terminal answers the status report, which ends bok's picture query).
        if b"\x1b[6n" in chunk:
            os.write(fd, b"\x1b[1;1R")
        if b"\x1b[c" in chunk:
            os.write(fd, b"\x1b[?62;c")
        if b"\x1b[5n" in chunk:
            os.write(fd, b"\x1b[0n")
        plain = escapes.sub(b"", seen).decode("utf-8", "replace")
        if needle in plain.replace("\r", "").replace("\n", " ") or needle in " ".join(plain.split()):
            first = time.perf_counter() - start
            break
    settle = time.perf_counter() + linger
    while time.perf_counter() < settle:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                os.read(fd, 65536)
            except OSError:
                break
    try:
        os.write(fd, keys.encode())
    except OSError:
        pass
    end = time.time() + 10
    status = None
    while time.time() < end:
        try:
            select.select([fd], [], [], 0.1)
            os.read(fd, 65536)
        except OSError:
            pass
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
    else:
        os.kill(pid, signal.SIGKILL)
        done, status, usage = os.wait4(pid, 0)
    if first is None:
        tail = escapes.sub(b"", seen)[-400:].decode("utf-8", "replace")
        print(f"first_page_ms=NA peak_rss_mb={usage.ru_maxrss / 1024:.1f} (needle not seen; last text: {tail!r})")
        sys.exit(1)
    print(f"first_page_ms={first * 1000:.1f} peak_rss_mb={usage.ru_maxrss / 1024:.1f}")

main()
