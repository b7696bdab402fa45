#!/usr/bin/env python3
"""Diffs what two builds of the mock lending library answer, for a few seeds and sizes.

    Benchmarks/mock-compare.py OLD-MOCK-BENCH NEW-MOCK-BENCH [SEED:SIZE ...]

Each build serves (`mock-bench --serve SEED SIZE`, loopback only); the same requests go to both:
searches in every sort order and direction, filters and pages, products, licences,
availability, similar books, the library page and the OPDS feeds. The server's own address and
the time of day are replaced by placeholders; everything else must be the same (JSON as values: its key order differs
from run to run). Exit status 1 on
any difference (the first few are printed).
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

SERVICE_ID = "bok-mock"
SERVICE_KEY = "mock-secret"
QUERIES = [
    "", "thriller", "author:Å*", "döden", "title:sommar*", '"huset vid sjön"', "stjärn",
    "category:fantasy drakens", "sommar", "category:Deckare", "the", "öland", "title:natt*",
    "fantasy drake", "isbn:978*", "publisher:norrsken", "barn", "klassiker", "mörker*", "language:en",
    "kärlek", "biografi", "a*", "9789", "978-91", "mord i", "language:svenska", "zzzz",
]
# English messages from both builds, wherever their translations are installed.
ENVIRONMENT = {**os.environ, "LANGUAGE": "en", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
SORTS = ["relevance", "title", "author", "date", "publisher", "popularity", "rating"]


def checksum(parameters):
    text = SERVICE_ID + "".join(parameters) + SERVICE_KEY
    return hashlib.sha512(text.encode()).hexdigest()


def get(base, path):
    try:
        request = urllib.request.Request(base + path, headers={"Accept-Language": "en"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def mask(body, origin):
    """The body without what differs between any two runs: the server's address, the time of day."""
    body = body.replace(origin.encode(), b"ORIGIN")
    return re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)", b"TIME", body)


def same_answer(a, b):
    """Equal bodies; JSON compared as values (the server's key order differs from run to run)."""
    if a == b:
        return True
    try:
        return json.loads(a) == json.loads(b)
    except ValueError:
        return False


def requests(size):
    """(path, checksum parameters) pairs: API paths are under /library/v3.0/."""
    api = []
    for number, query in enumerate(QUERIES):
        for sort in SORTS:
            for order in ["asc", "desc"]:
                api.append((f"products?q={urllib.parse.quote(query)}&sort={sort}&order={order}&limit=25", [query]))
        extras = ["&offset=40&limit=7", "&available=true", "&language=en", "&category=Deckare",
                  "&publisher=Bonnier&available=1", "&card=1002&available=true", "&offset=999999"]
        api.append((f"products?q={urllib.parse.quote(query)}{extras[number % len(extras)]}", [query]))
    ids = [str(1_000_000 + (i * 7_919 + 104_729) % 9_000_000) for i in range(0, size, max(1, size // 40))]
    for product in ids + ["1000000", "9999999", "abc"]:
        api.append((f"products/{product}", [product]))
        api.append((f"libraryproducts/{product}", [product]))
        api.append((f"books/availability/{product}", ["", product]))
        api.append((f"books/availability/{product}?card=1003", ["1003", product]))
    for product in ids[:12]:
        api.append((f"products/{product}/similar?limit=10", [product]))
    api.append(("library", []))
    opds = ["/opds/", "/opds/top", "/opds/new", "/opds/new?offset=20", "/opds/search?q=sommar&sort=author",
            "/opds/search?q=a*&sort=title&order=desc", "/opds/search?category=Deckare",
            "/opds/search?q=thriller&available=1"]
    opds += [f"/opds/books/{product}" for product in ids[:8]]
    return api, opds


def dump(binary, seed, size):
    server = subprocess.Popen([binary, "--serve", str(seed), str(size)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env=ENVIRONMENT)
    try:
        base = server.stdout.readline().decode().strip()  # http://127.0.0.1:PORT/library/v3.0/
        origin = base.split("/library/")[0]
        api, opds = requests(size)
        answers = []
        for path, parameters in api:
            joiner = "&" if "?" in path else "?"
            url = f"{path}{joiner}serviceid={SERVICE_ID}&checksum={checksum(parameters)}"
            status, body = get(base, url)
            answers.append((path, status, mask(body, origin)))
        for path in opds:
            status, body = get(origin, path)
            answers.append((path, status, mask(body, origin)))
        return answers
    finally:
        server.stdin.close()
        server.wait(timeout=60)


def main():
    if len(sys.argv) < 3:
        print("usage: mock-compare.py OLD-MOCK-BENCH NEW-MOCK-BENCH [SEED:SIZE ...]", file=sys.stderr)
        return 2
    cases = [tuple(int(n) for n in case.split(":")) for case in sys.argv[3:]] or [(1, 600), (7, 5_000), (42, 200_000)]
    differences = 0
    for seed, size in cases:
        old = dump(sys.argv[1], seed, size)
        new = dump(sys.argv[2], seed, size)
        same = 0
        for (path, status_a, body_a), (_, status_b, body_b) in zip(old, new):
            if status_a == status_b and same_answer(body_a, body_b):
                same += 1
                continue
            differences += 1
            if differences <= 5:
                at = next((i for i, (x, y) in enumerate(zip(body_a, body_b)) if x != y), min(len(body_a), len(body_b)))
                print(f"seed {seed} size {size}: {path}: {status_a} …{body_a[max(0, at - 150):at + 150]!r}\n"
                      f"  now {status_b} …{body_b[max(0, at - 150):at + 150]!r}")
        print(f"seed {seed}, {size} titles: {same} of {len(old)} answers identical")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
