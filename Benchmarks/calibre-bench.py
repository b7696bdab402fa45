#!/usr/bin/env python3
"""Times bok browsing and searching a calibre library of 5 000 books, as a patron sees it (issue 14).

usage: Benchmarks/calibre-bench.py [--books 5000] [--samples 30] [--rounds 3] [--in-process] [--no-build]

1. The library: `reader-bench generate-library` writes the books (small EPUBs, each with its own
   title, authors, language, subjects and description), `calibredb add` puts them in a fresh
   calibre library 500 files a call. The library is kept in .build/bench/calibre-v1-BOOKS/, so
   later runs skip this slow step (change LIBRARY_VERSION when the generator changes).
2. calibre-server, headless, on a free port with --listen-on 127.0.0.1: nothing is sent until its
   log says it listens on 127.0.0.1 at that port (calibre falls back to another interface when
   the port is taken; then the benchmark stops it and fails). It is stopped at the end.
3. The release bok on a fresh 120x40 pseudo-terminal (`bok --library URL --kind opds`, a fresh
   HOME): the benchmark types a command and times from the moment it sends the Return until the
   command's results (the footer of the page, or an info page's Formats line) and then the next
   prompt have been drawn. browse (the root), browse N (By Title, By Author), search (SAMPLES
   different words), more (the next page of By Title) and info N, SAMPLES times each.
4. After each of bok's commands, calibre's own answer to the same request (a fresh connection, as
   bok makes, the whole body read), so the difference is what bok adds: its request, parsing,
   rendering, drawing. calibre keeps the answers to searches, so it is timed on other words, as
   fresh to it as bok's are. ROUNDS rounds, each on a fresh server.
--in-process runs bok with BOK_LOG=debug and adds its own time per command (the request, parsing and
making the page's lines; not drawing them), to tell where the time goes.
Prints a Markdown table for docs/performance.md. Exits 0 with a message when calibre is not
installed (scripts/install-test-tools.sh installs it), 1 when the target is missed or a step fails.
"""
import http.client, os, pty, re, select, shutil, signal, socket, subprocess, sys, tempfile, termios, time
import fcntl, struct, urllib.parse, xml.etree.ElementTree as ET

LIBRARY_VERSION = 1
TARGET_MS = 300
BATCH = 500
BUSY = "Another calibre program"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|_[^\x1b]*\x1b\\|[@-Z\\-_])")
# Words patrons type: title words, authors' names, subjects (calibre's tags). None without hits: calibre answers
# those with a 404, which bok shows as a page that has moved.
SEARCHES = [
    "lighthouse", "harbour", "silent", "winter", "lindqvist", "öberg", "crime", "poetry", "golden", "ferry",
    "müller", "island", "anna lindqvist", "fantasy", "dubois", "midnight", "bridge", "travel", "violin", "anna",
    "compass", "forgotten", "silent harbour", "kowalski", "meadow", "björn", "clock", "essays", "hollow", "salt",
    "lantern", "river", "orchard", "santos", "mystery", "chapel", "sunken", "mirror", "history", "walker",
]
# As many other words, for timing calibre alone on searches it has not answered before.
CALIBRE_SEARCHES = [
    "tower", "glass", "andersson", "summer", "thrillers", "iron", "berg", "romance", "paper", "station",
    "schneider", "kingdom", "marie larsen", "biography", "jensen", "crimson", "road", "children", "window", "lars",
    "market", "bright", "golden bridge", "rossi", "valley", "greta", "lost", "drama", "archive", "pale",
    "shore", "well", "costa", "humour", "family", "map", "empty", "mountain", "nature", "hughes",
]
assert not set(SEARCHES) & set(CALIBRE_SEARCHES)


def fail(message):
    print(f"calibre-bench: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def option(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def calibre_env(home):
    os.makedirs(home + "/runtime", mode=0o700, exist_ok=True)
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=home, XDG_CONFIG_HOME=home + "/config",
                XDG_RUNTIME_DIR=home + "/runtime", CALIBRE_CONFIG_DIRECTORY=home + "/calibre-config")


def run_calibre(args, env):
    """Runs a calibre tool; waits (bounded) while another calibre program holds calibre's lock."""
    deadline = time.time() + 300
    while True:
        done = subprocess.run(args, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if done.returncode == 0 or BUSY not in done.stderr + done.stdout or time.time() > deadline:
            break
        time.sleep(2)
    if done.returncode != 0:
        fail(" ".join(args[:2]) + " failed: " + (done.stderr or done.stdout).strip()[-600:])


def build_library(books, folder, reader_bench):
    """The calibre library of BOOKS generated books in FOLDER/library, built once and kept."""
    marker = folder + "/built"
    if os.path.exists(marker):
        return open(marker).read().strip()
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    epubs = folder + "/epubs"
    started = time.perf_counter()
    made = subprocess.run([reader_bench, "generate-library", epubs, "--count", str(books)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        fail("reader-bench generate-library failed: " + made.stderr.strip())
    files = sorted(os.path.join(epubs, name) for name in os.listdir(epubs))
    sizes = [os.path.getsize(path) for path in files]
    generated = time.perf_counter() - started
    env = calibre_env(folder + "/home")
    started = time.perf_counter()
    for first in range(0, len(files), BATCH):
        run_calibre(["calibredb", "add", "--library-path", folder + "/library"] + files[first:first + BATCH], env)
        print(f"calibre-bench: added {min(first + BATCH, len(files))} of {len(files)} books", file=sys.stderr,
              flush=True)
    added = time.perf_counter() - started
    shutil.rmtree(epubs)
    library_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder + "/library") for f in fs)
    sizes.sort()
    about = (f"{len(files)} books, EPUBs {sizes[0] / 1024:.1f}–{sizes[-1] / 1024:.1f} KB (median "
             f"{sizes[len(sizes) // 2] / 1024:.1f} KB, {sum(sizes) / 1e6:.1f} MB in all), library "
             f"{library_bytes / 1e6:.1f} MB; generated in {generated:.1f} s, calibredb add "
             f"{BATCH} a call in {added:.0f} s")
    with open(marker, "w") as out:
        out.write(about + "\n")
    return about


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """calibre-server on 127.0.0.1 in a session of its own, stopped (and its workers killed) by stop()."""

    def __init__(self, library, home):
        self.port = free_port()
        os.makedirs(home, exist_ok=True)
        self.log_path = home + "/server.log"
        self.args = ["calibre-server", "--listen-on", "127.0.0.1", "--port", str(self.port), library]
        self.env = calibre_env(home)
        self.start()
        deadline = time.time() + 90
        busy_until = time.time() + 120
        while True:
            text = open(self.log_path).read()
            if f"listening on 127.0.0.1:{self.port}" in text:
                break
            if BUSY in text and self.process.poll() is not None and time.time() < busy_until:
                # calibre runs one program per user at a time: the last server, or another session's.
                time.sleep(1)
                self.start()
                deadline = time.time() + 90
                continue
            if "listening on" in text or self.process.poll() is not None or time.time() > deadline:
                self.stop()
                fail(f"calibre-server is not listening on 127.0.0.1:{self.port}, so nothing was sent: "
                     + text.strip().replace("\n", " ")[-600:])
            time.sleep(0.1)
        self.root = f"http://127.0.0.1:{self.port}/opds"

    def start(self):
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(self.args, env=self.env, stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def stop(self):
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=5)
        except Exception:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # any worker left behind
        except ProcessLookupError:
            pass


class Patron:
    """bok's REPL on a pseudo-terminal, typed into as a patron types."""

    def __init__(self, command, env, columns=120, rows=40):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            os.environ.clear()
            os.environ.update(env)
            os.execvp(command[0], command)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.seen = b""
        self.prompt = None

    def read_until(self, done, timeout=30):
        """Reads what bok draws until done(plain text since the mark) holds; the time it held."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            at = time.perf_counter()
            self.seen += chunk
            if b"\x1b[6n" in chunk:  # a cursor-position query, answered as a terminal would
                os.write(self.fd, b"\x1b[1;1R")
            if done(self.plain()):
                return at
        fail("bok did not draw what was expected; the last of it: " + repr(self.plain()[-600:]))

    def plain(self):
        return ESCAPES.sub(b"", self.seen).decode("utf-8", "replace").replace("\r", "")

    def start(self):
        """Waits for the first prompt and learns it (the library's name and "> ")."""
        self.read_until(lambda text: re.search(r"\S+> $", text) is not None)
        self.prompt = re.search(r"(\S+> )$", self.plain()).group(1)

    def time(self, line, needle):
        """Milliseconds from sending LINE to its results (NEEDLE) and then the next prompt on screen."""
        self.seen = b""
        os.write(self.fd, line.encode() + b"\r")
        sent = time.perf_counter()
        prompt = self.prompt

        def finished(text):
            found = text.find(needle)
            return found >= 0 and text.find(prompt, found) >= 0
        drawn = self.read_until(finished)
        return (drawn - sent) * 1000, self.plain()

    def quit(self):
        try:
            os.write(self.fd, b"quit\r")
            deadline = time.time() + 5
            while time.time() < deadline:
                done, _ = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    return
                select.select([self.fd], [], [], 0.1)
                try:
                    os.read(self.fd, 65536)
                except OSError:
                    pass
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (OSError, ChildProcessError):
            pass


ATOM = "{http://www.w3.org/2005/Atom}"


def fetch(url):
    """calibre's answer to URL on a fresh connection, whole; (milliseconds, body)."""
    parts = urllib.parse.urlsplit(url)
    started = time.perf_counter()
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    path = parts.path + ("?" + parts.query if parts.query else "")
    connection.request("GET", path, headers={"Accept": "application/atom+xml;profile=opds-catalog, */*;q=0.1"})
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    if response.status != 200:
        fail(f"calibre answered {response.status} to {url}")
    return elapsed, body


def links(body, base):
    """The feed's links and its entries' navigation links, as (rel, title, absolute href)."""
    feed = ET.fromstring(body)
    found = [(l.get("rel"), None, urllib.parse.urljoin(base, l.get("href"))) for l in feed.findall(ATOM + "link")]
    for entry in feed.findall(ATOM + "entry"):
        title = entry.findtext(ATOM + "title")
        for l in entry.findall(ATOM + "link"):
            if "navigation" in (l.get("type") or "") or l.get("rel") in ("subsection", None):
                found.append(("entry", title, urllib.parse.urljoin(base, l.get("href"))))
    return found


def stats(values):
    ordered = sorted(values)
    if not ordered:
        return float("nan"), float("nan")
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return median, ordered[max(0, min(len(ordered) - 1, -(-len(ordered) * 95 // 100) - 1))]


def serve(folder, home, measure):
    """Runs measure(root) against a fresh calibre-server on the library, warmed by one request."""
    server = Server(folder + "/library", home)
    try:
        # calibre builds its caches on the first request: one warm-up, as a running server has had.
        fetch(server.root)
        return measure(server.root)
    finally:
        server.stop()


def sections_of(root):
    body = fetch(root)[1]
    found = links(body, root)
    sections = {title: href for rel, title, href in found if rel == "entry"}
    for name in ("By Title", "By Authors"):
        if name not in sections:
            fail(f"calibre's root feed has no section {name!r}")
    search = next((href for rel, _, href in found if rel == "search"), None)
    if not search or "{searchTerms}" not in urllib.parse.unquote(search):
        fail("calibre's root feed has no search template")
    return sections, urllib.parse.unquote(search)


def with_bok(root, bok, work, samples, in_process=False):
    """bok's REPL on the catalogue, each command followed by calibre's answer alone to the same request
    (to a search for another word: calibre keeps the answers to searches it has seen), so the two
    share the machine's load. Returns bok's milliseconds by operation, calibre's, and the hits each
    search word had. With in_process, also the time bok itself took for each command, from its
    BOK_LOG=debug line (as IN_PROCESS + the operation's name)."""
    home = work + "/patron"
    os.makedirs(home)
    env = {"HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
           "XDG_CACHE_HOME": home + "/cache", "XDG_STATE_HOME": home + "/state", "PATH": os.environ["PATH"],
           "TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8", "COLUMNS": "120", "LINES": "40"}
    if in_process:
        env["BOK_LOG"] = "debug"
    patron = Patron([bok, "--library", root, "--kind", "opds"], env)
    times, calibre, hits = {}, {}, {}
    sections, search = sections_of(root)
    bodies = {}

    def measure(name, line, needle, url=None):
        elapsed, text = patron.time(line, needle)
        times.setdefault(name, []).append(elapsed)
        if url:
            elapsed, bodies[name] = fetch(url)
            calibre.setdefault(name, []).append(elapsed)
        if in_process:
            took = re.search(r"ms=([0-9.]+) \[Client\] command finished", text)
            if not took:
                fail("no BOK_LOG=debug line for " + line)
            times.setdefault(IN_PROCESS + name, []).append(float(took.group(1)))
        return text
    try:
        patron.start()
        first_screen = patron.time("browse", "browse N opens a section")[1]

        def number(title):
            found = re.search(r"(\d+)  ▸ " + re.escape(title), first_screen)
            if not found:
                fail(f"bok shows no section {title!r}: " + first_screen[-400:])
            return found.group(1)
        by_title, by_authors = number("By Title"), number("By Authors")
        for _ in range(samples):
            measure(BROWSE, "browse", "browse N opens a section", root)
        for _ in range(samples):
            measure(BY_TITLE, "browse " + by_title, "for a book.", sections["By Title"])
            patron.time("back", "browse N opens a section")  # to the root again, from memory
            measure(BY_AUTHORS, "browse " + by_authors, "browse N opens a section", sections["By Authors"])
            patron.time("back", "browse N opens a section")
        # The pages after the first of By Title, one after the other.
        patron.time("browse " + by_title, "for a book.")
        page, body = sections["By Title"], bodies[BY_TITLE]
        for _ in range(samples):
            page = next(href for rel, _, href in links(body, page) if rel == "next")
            measure(MORE, "more", "for a book.", page)
            body = bodies[MORE]
        for n in range(samples):
            word, other = SEARCHES[n % len(SEARCHES)], CALIBRE_SEARCHES[n % len(CALIBRE_SEARCHES)]
            text = measure(SEARCH, "search " + word, "hit", search.replace("{searchTerms}", urllib.parse.quote(other)))
            count = re.search(r"(\d+) hits? for", text)
            hits[word] = count.group(1) if count else "0"
        patron.time("search " + SEARCHES[0], "for a book.")  # a page of books for info N
        for n in range(samples):
            measure(INFO, f"info {n % 25 + 1}", "Formats")
    finally:
        patron.quit()
    return times, calibre, hits


IN_PROCESS = "in bok: "
BROWSE = "browse (the root feed)"
BY_TITLE = "browse N (By Title, first page)"
BY_AUTHORS = "browse N (By Authors, a navigation feed)"
MORE = "more (the next page of By Title)"
SEARCH = "search (a different word each time)"
INFO = "info N (a book on screen)"


def main():
    books = option("--books", 5000)
    samples = option("--samples", 30)
    rounds = option("--rounds", 3)
    if not (shutil.which("calibredb") and shutil.which("calibre-server")):
        print("calibre-bench: skipped: calibre is not installed (scripts/install-test-tools.sh installs it).")
        return 0
    os.chdir(ROOT)
    release = ["swift", "build", "-c", "release", "--static-swift-stdlib"]
    if "--no-build" not in sys.argv:
        for product in ("bok", "reader-bench"):
            subprocess.run(release + ["--product", product], check=True, stdout=sys.stderr)
    bin_path = subprocess.run(release + ["--show-bin-path"], capture_output=True, text=True).stdout.strip()
    bok, reader_bench = bin_path + "/bok", bin_path + "/reader-bench"

    folder = os.path.join(ROOT, ".build", "bench", f"calibre-v{LIBRARY_VERSION}-{books}")
    about = build_library(books, folder, reader_bench)
    version = subprocess.run(["calibre-server", "--version"], capture_output=True, text=True).stdout.strip()
    work = tempfile.mkdtemp(prefix="bok-calibre-bench-")
    load_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    try:
        # calibre keeps the answers to searches: each side gets a fresh server, so both meet every
        # search for the first time, and the same requests in the same order.
        calibre, times = {}, {}
        for n in range(rounds):
            patron, alone, hits = serve(
                folder, f"{work}/round-{n}",
                lambda root: with_bok(root, bok, f"{work}/round-{n}", samples, "--in-process" in sys.argv))
            for mine, theirs in ((calibre, alone), (times, patron)):
                for name, values in theirs.items():
                    mine.setdefault(name, []).extend(values)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"Measured {started}; before: {load_before}; after: {load}")
    print(f"{version}, 30 entries a page (its default --max-opds-items); the library: {about}")
    print("Hits on the first page per search word: " + ", ".join(f"{word} {count}" for word, count in hits.items()))
    print()
    print("| what | samples | bok, to the page on screen: median | p95 | calibre's answer alone: median | p95 "
          f"| bok's share of the median | target p95 < {TARGET_MS} ms |")
    print("|---|---|---|---|---|---|---|---|")
    missed = False
    for name, values in times.items():
        if name.startswith(IN_PROCESS):
            continue
        median, p95 = stats(values)
        alone = calibre.get(name)
        c_median, c_p95 = stats(alone) if alone else (None, None)
        ok = p95 < TARGET_MS
        missed |= not ok
        calibre_cells = (f"{c_median:.1f} ms | {c_p95:.1f} ms | {median - c_median:.1f} ms" if alone
                         else "— (no request) | — | all")
        print(f"| {name} | {len(values)} | {median:.1f} ms | **{p95:.1f} ms** | {calibre_cells} | "
              f"{'✓' if ok else '✗'} |")
    inside = [(name, stats(values)) for name, values in times.items() if name.startswith(IN_PROCESS)]
    if inside:
        print()
        print("bok's own time per command (BOK_LOG=debug: request, parsing, the page's lines; not drawing them):")
        for name, (median, p95) in inside:
            print(f"- {name[len(IN_PROCESS):]}: median {median:.1f} ms, p95 {p95:.1f} ms")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
