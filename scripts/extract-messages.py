#!/usr/bin/env python3
"""Writes bok's message template (po/bok.pot) from the Swift sources: the text of every
tr("…"), trn("…", "…", n), trp("context", "…") and N_("…") call, every word a patron types
marked TypedWord("typed: …", "…") (its context first, as trp's), and every word the mock library
says, Said("…") (context "mock": the mock answers each request in the language it asks for). A `// TRANSLATORS: …` comment
on the lines just above a call goes to the translators with it, as xgettext's --add-comments does.

xgettext has no Swift parser (its C one trips over Swift's multi-line strings), so this script
is the extraction step; msgmerge and msgfmt (Debian's gettext) do the rest, see
scripts/update-po.sh. A message must be plain string literals, joined with + when it is longer
than a line: no \\( interpolation (use {name} placeholders, filled by tr's second argument).

  scripts/extract-messages.py OUT.pot SOURCE_DIR...
"""
import pathlib
import re
import sys

CALL = re.compile(r'\b(tr|trn|trp|N_|TypedWord|Said)\(\s*"')

# What every typed word's entry tells its translator; the header says the rest (see TypedWord.swift).
TYPED = "Typed by a patron, not shown: its names in this language, separated by commas, the main one first."
# What a facet word's entry tells its translator.
FACET = (
    "Read, not shown: part of the word an OPDS catalogue in this language names a facet or its group"
    " with (Sort by, Author, Ascending); the parts in lower case, separated by commas."
)

HEADER = [
    "# bok's messages. Made by scripts/extract-messages.py; do not edit by hand.",
    "#",
    '# A context that begins "typed: " marks a word a patron types (a command, a sort key, a search',
    "# field, a word of mock clock): translate it with its names in your language, separated by",
    "# commas, the main one first (help shows a command by it; a name may be two words, lämna",
    "# tillbaka). Write the English word itself when your language has no name of its own for it.",
    "# The English word works in every language, and so does every language's name.",
]


def translator_comment(text, start):
    """The `// TRANSLATORS:` comment on the lines just above text[start], joined; or None."""
    lines = text[:start].split("\n")[:-1]
    comment = []
    while lines and lines[-1].strip().startswith("//"):
        comment.insert(0, lines.pop().strip()[2:].strip())
        if comment[0].startswith("TRANSLATORS:"):
            return " ".join(comment)
    return None


def literal(text, start, where):
    """The value of the Swift string literal whose opening quote is at text[start]; its end."""
    assert text[start] == '"'
    if text.startswith('"""', start):
        sys.exit(f"{where}: a translated message must be a one-line string literal")
    out = []
    i = start + 1
    while i < len(text):
        c = text[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\n":
            break
        if c == "\\":
            n = text[i + 1]
            if n == "(":
                sys.exit(f"{where}: a translated message cannot interpolate \\(…); use a {{name}} placeholder")
            if n == "u":
                end = text.index("}", i)
                out.append(chr(int(text[i + 3:end], 16)))
                i = end + 1
                continue
            out.append({"n": "\n", "t": "\t", "0": "\0", "\\": "\\", '"': '"', "'": "'"}[n])
            i += 2
            continue
        out.append(c)
        i += 1
    sys.exit(f"{where}: unterminated string literal")


def joined(text, start, where):
    """A message: the literal at text[start] and any literals added to it with +; its end."""
    value, end = literal(text, start, where)
    while True:
        match = re.match(r'\s*\+\s*"', text[end:])
        if not match:
            return value, end
        more, end = literal(text, end + match.end() - 1, where)
        value += more


def po(value):
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" in escaped.rstrip("\n"):
        parts = escaped.split("\n")
        lines = [p + "\\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        return '""\n' + "\n".join(f'"{line}"' for line in lines)
    return '"' + escaped.replace("\n", "\\n") + '"'


def extract(roots):
    messages = {}  # (context, msgid) -> {"plural": …, "refs": […]}
    for root in roots:
        for path in sorted(pathlib.Path(root).rglob("*.swift")):
            text = path.read_text(encoding="utf-8")
            for match in CALL.finditer(text):
                # A call shown in a comment (a doc comment's example) is not a message.
                if text[text.rfind("\n", 0, match.start()) + 1 : match.start()].lstrip().startswith("//"):
                    continue
                line = text.count("\n", 0, match.start()) + 1
                where = f"{path}:{line}"
                kind = match.group(1)
                first, end = joined(text, match.end() - 1, where)
                context, plural = None, None
                rest = text[end:].lstrip()
                if kind in ("trn", "trp", "TypedWord"):
                    if not rest.startswith(","):
                        sys.exit(f"{where}: {kind} needs two string literals")
                    rest_start = text.index('"', end)
                    second, _ = joined(text, rest_start, where)
                    if kind == "trn":
                        plural = second
                    else:
                        context, first = first, second
                if kind == "Said":
                    context = "mock"
                if kind == "TypedWord" and not context.startswith("typed: "):
                    sys.exit(f"{where}: a typed word's context begins \"typed: \"")
                entry = messages.setdefault((context, first), {"plural": plural, "refs": [], "comments": []})
                if kind == "TypedWord":
                    comment = FACET if context == "typed: facet" else TYPED
                else:
                    comment = translator_comment(text, match.start())
                if comment and comment not in entry["comments"]:
                    entry["comments"].append(comment)
                # Files without line numbers, as xgettext --add-location=file: the template
                # changes only when messages do.
                if str(path) not in entry["refs"]:
                    entry["refs"].append(str(path))
    return messages


def main():
    out, roots = sys.argv[1], sys.argv[2:]
    messages = extract(roots)
    lines = HEADER + [
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: bok\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"',
        "",
    ]
    for (context, msgid), entry in sorted(messages.items(), key=lambda item: item[1]["refs"][0]):
        lines.append("#: " + " ".join(entry["refs"]))
        for comment in entry["comments"]:
            lines.append("#. " + comment)
        if "{" in msgid:
            lines.append("#. {name} placeholders are filled in by bok; keep them as they are.")
        if context is not None:
            lines.append(f"msgctxt {po(context)}")
        lines.append(f"msgid {po(msgid)}")
        if entry["plural"] is not None:
            lines += [f"msgid_plural {po(entry['plural'])}", 'msgstr[0] ""', 'msgstr[1] ""']
        else:
            lines.append('msgstr ""')
        lines.append("")
    pathlib.Path(out).write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
