#!/usr/bin/env python3
"""Runs calibre's content server for a test, on 127.0.0.1 only, until standard input closes.

    calibre_server.py FOLDER PORT [USER PASSWORD]... < books (lines: title<TAB>author<TAB>language[<TAB>paragraphs])

Builds a calibre library in FOLDER from EPUBs it writes, starts calibre-server on PORT with
--listen-on 127.0.0.1 (and HTTP Basic for the USERs when given), and waits until its log says it
listens on 127.0.0.1:PORT; then prints "ready" and waits for standard input to close, and stops
the server and everything it started. calibre-server falls back to another interface when its
port is taken: then this prints "failed: ..." and never lets a request be sent there.
Running calibre from here, in its own session, keeps its worker processes and open files away
from the test process.
"""
import os, signal, subprocess, sys, time, zipfile

folder, port = sys.argv[1], sys.argv[2]
users = list(zip(sys.argv[3::2], sys.argv[4::2]))
env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=folder, XDG_CONFIG_HOME=folder + "/config",
           XDG_RUNTIME_DIR=folder + "/runtime", CALIBRE_CONFIG_DIRECTORY=folder + "/calibre-config")
os.makedirs(folder + "/runtime", mode=0o700, exist_ok=True)

books = [line.rstrip("\n").split("\t") for line in sys.stdin.readline().split("\x1e") if line.strip()]
paths = []
for n, (title, author, lang, *more) in enumerate(books):
    paragraphs = int(more[0]) if more else 1
    body = "".join(f"<p>Stycke {k} av {author}: det var en kall vinter och sjön låg stilla under isen.</p>" for k in range(2, paragraphs + 1))
    path = f"{folder}/book{n}.epub"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="c.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
        z.writestr("c.opf", f'<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="i"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="i">urn:uuid:00000000-0000-4000-8000-{n:012d}</dc:identifier><dc:title>{title}</dc:title><dc:creator>{author}</dc:creator><dc:language>{lang}</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata><manifest><item id="n" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>')
        z.writestr("nav.xhtml", '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="c.xhtml">1</a></li></ol></nav></body></html>')
        z.writestr("c.xhtml", f'<html xmlns="http://www.w3.org/1999/xhtml"><head><title>{title}</title></head><body><h1>{title}</h1><p>En bok av {author}.</p>{body}</body></html>')
    paths.append(path)

BUSY = "Another calibre program"

def run(args):
    # calibre allows one program at a time per user (a lock outside FOLDER): when another test run
    # on this machine has calibre open, wait for it (bounded) instead of failing.
    deadline = time.time() + 90
    while True:
        done = subprocess.run(args, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if done.returncode == 0 or BUSY not in (done.stderr + done.stdout) or time.time() > deadline:
            break
        time.sleep(1)
    if done.returncode != 0:
        print("failed: " + " ".join(args[:2]) + ": " + (done.stderr or done.stdout).strip().replace("\n", " "), flush=True)
        sys.exit(1)

library = folder + "/library"
run(["calibredb", "add", "--library-path", library] + paths)
args = ["calibre-server", "--listen-on", "127.0.0.1", "--port", port, library]
if users:
    userdb = folder + "/users.sqlite"
    for name, password in users:
        run(["calibre-server", "--userdb", userdb, "--manage-users", "--", "add", name, password])
    args[1:1] = ["--enable-auth", "--auth-mode", "basic", "--userdb", userdb]
def start():
    log = open(folder + "/server.log", "w")
    return subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

server = start()

def stop():
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=5)
    except Exception:
        try: os.killpg(server.pid, signal.SIGKILL)
        except Exception: pass

deadline = time.time() + 60
busy_until = time.time() + 90
while True:
    text = open(folder + "/server.log").read()
    if f"listening on 127.0.0.1:{port}" in text:
        break
    if BUSY in text and server.poll() is not None and time.time() < busy_until:
        time.sleep(1)
        server = start()
        deadline = time.time() + 60
        continue
    if "listening on" in text or server.poll() is not None or time.time() > deadline:
        stop()
        print("failed: calibre-server is not listening on 127.0.0.1:" + port + ": " + text.strip().replace("\n", " "), flush=True)
        sys.exit(1)
    time.sleep(0.1)
print("ready", flush=True)
sys.stdin.read()  # until the test closes it
stop()
