#!/usr/bin/env python3
"""Load on `bok mock-server` before and during a slowloris, all on 127.0.0.1 (issue 17, item 16).

Usage: scripts/mock-slowloris.py [PATH-TO-BOK] [HALF_OPEN]

Starts the mock as a child on a free port, then:
  1. 2 000 GETs over 20 keep-alive connections (100 each): errors, p50, p99;
  2. opens HALF_OPEN (default 2 000) connections that send half a request head and stop;
  3. the same 2 000 GETs again while they hang (at once, and again a second later);
  4. waits for the mock's idle timeout (10 s) and counts the half-open ones it closed.
Prints the mock's VmRSS at each step and its VmHWM at the end. Every wait is bounded.
"""
import http.client
import socket
import subprocess
import sys
import threading
import time

BOK = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/bok"
HALF_OPEN = int(sys.argv[2]) if len(sys.argv) > 2 else 2000


def memory(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) // 1024  # MB
    return -1


def load(port, path, connections=20, per_connection=100):
    times, errors, lock = [], [0], threading.Lock()

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        for _ in range(per_connection):
            start = time.monotonic()
            try:
                conn.request("GET", path)
                answer = conn.getresponse()
                answer.read()
                ok = answer.status == 200
            except OSError:
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            elapsed = time.monotonic() - start
            with lock:
                times.append(elapsed)
                if not ok:
                    errors[0] += 1
        conn.close()

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    wall = time.monotonic() - started
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000
    return f"{len(times)} requests, {errors[0]} errors, p50 {pick(0.5):.1f} ms, p99 {pick(0.99):.1f} ms, {wall:.1f} s"


def main():
    child = subprocess.Popen([BOK, "mock-server", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = child.stdout.readline().strip()
        port = int(url.split(":")[2].split("/")[0])
        pid = child.pid
        print(f"mock {url} pid {pid}: RSS {memory(pid, 'VmRSS')} MB at start")
        path = "/mock/clock"
        print("before:", load(port, path), f"; RSS {memory(pid, 'VmRSS')} MB")

        hanging = []
        for _ in range(HALF_OPEN):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /mock/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            hanging.append(s)
        print(f"{HALF_OPEN} half-open connections: RSS {memory(pid, 'VmRSS')} MB")
        print("during, at once:", load(port, path), f"; RSS {memory(pid, 'VmRSS')} MB")
        time.sleep(1)  # the mock has accepted them all by now: the steady state of a slowloris
        print("during, 1 s later:", load(port, path), f"; RSS {memory(pid, 'VmRSS')} MB")

        deadline = time.monotonic() + 25
        closed = 0
        for s in hanging:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                if s.recv(4096) == b"":
                    closed += 1
            except ConnectionResetError:
                closed += 1
            except socket.timeout:
                pass
            s.close()
        print(f"closed by the mock within 25 s: {closed} of {HALF_OPEN}; RSS {memory(pid, 'VmRSS')} MB, "
              f"peak (VmHWM) {memory(pid, 'VmHWM')} MB")
        print("after:", load(port, path))
    finally:
        child.terminate()
        child.wait(10)


if __name__ == "__main__":
    main()
