"""Checks editors/vscode's TextMate grammar against tilec's own lexer.

Compiles every pattern of the grammar with Oniguruma (as VS Code does),
tokenizes each .tile file given with a small TextMate engine (match rules
with captures, begin/end rules, includes), and requires, at the first
character of each token that `tilec --emit=tokens` reports: keywords in a
keyword (or constant.language, or storage.type.function) scope, numbers in
constant.numeric, strings in string; every `#` outside a string in a
comment scope; every `tl.NAME` of a built-in in support.function.builtin.
Also requires that the grammar's built-ins are exactly Sema's list.

usage: check_grammar.py GRAMMAR SEMA_CPP TILEC FILE...
"""
import json
import re
import subprocess
import sys

import onigurumacffi as onig

grammar_path, sema_path, tilec = sys.argv[1:4]
files = sys.argv[4:]
grammar = json.load(open(grammar_path))
failures = []


def fail(message):
    failures.append(message)


def leaves(patterns):
    """The rules `patterns` stand for, includes resolved, in order."""
    out = []
    for rule in patterns:
        if "include" in rule:
            ref = grammar["repository"][rule["include"].lstrip("#")]
            out += leaves([ref])
        elif "patterns" in rule and "match" not in rule and "begin" not in rule:
            out += leaves(rule["patterns"])
        else:
            out.append(rule)
    return out


rules = leaves(grammar["patterns"])
for rule in rules:
    for key in ("match", "begin", "end"):
        if key in rule and "\\1" not in rule[key]:
            try:
                onig.compile(rule[key])
            except onig.OnigError as e:
                fail(f"pattern {rule[key]!r} does not compile: {e}")
scanner = onig.compile_regset(*[r.get("match", r.get("begin")) for r in rules])


def scopes_of(text):
    """The innermost scope of every character of `text`, by line."""
    lines = text.split("\n")
    result = []
    state = None  # (end regex, name) inside a begin/end rule
    for line in lines:
        scope = [""] * (len(line) + 1)
        pos = 0
        while pos <= len(line):
            if state:
                end, name = state
                m = end.search(line, pos)
                stop = m.end() if m else len(line)
                scope[pos:stop] = [name] * (stop - pos)
                pos = stop
                if not m:
                    break
                state = None
                continue
            found = scanner.search(line, pos)
            if found is None or found[0] < 0 or found[1] is None:
                break
            index, m = found
            rule = rules[index]
            start, stop = m.span(0)
            name = rule.get("name", "")
            if name:
                scope[start:stop] = [name] * (stop - start)
            for group, capture in rule.get("captures", {}).items():
                span = m.span(int(group))
                if span[0] >= 0:
                    scope[span[0]:span[1]] = [capture["name"]] * (span[1] - span[0])
            if "begin" in rule:
                end = rule["end"]
                end = re.sub(r"\\(\d)", lambda g: re.escape(m.group(int(g.group(1)))), end)
                state = (onig.compile(end), name)
            pos = stop if stop > pos else pos + 1
        result.append(scope)
    return result


sema = open(sema_path).read()
start = sema.index("kBuiltinNames[] = {")
builtins = set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"',
                          sema[start:sema.index("};", start)]))
builtin_rule = grammar["repository"]["builtin"]["match"]
listed = set(re.search(r"\\s\*\(([^)]*)\)\\b$", builtin_rule).group(1).split("|"))
if listed != builtins:
    fail(f"grammar built-ins differ from Sema's: missing {sorted(builtins - listed)}, "
         f"extra {sorted(listed - builtins)}")

TOKEN = re.compile(r"^(\d+):(\d+) (\w+)(?: '(.*)')?$", re.S)
ESCAPE = re.compile(r"\\([0-7]{3}|.)", re.S)


def unescape(text):
    """A token's text as the file has it (tilec prints it escaped:
    LLVM's write_escaped), so that a string's characters keep their
    lines and columns."""
    named = {"n": "\n", "t": "\t"}
    return ESCAPE.sub(lambda m: chr(int(m.group(1), 8)) if len(m.group(1)) == 3
                      else named.get(m.group(1), m.group(1)), text)


checked = {"KEYWORD": 0, "NUMBER": 0, "STRING": 0, "COMMENT": 0, "BUILTIN": 0}
for path in files:
    text = open(path).read()
    scopes = scopes_of(text)
    out = subprocess.run([tilec, path, "--emit=tokens", "-o", "-"],
                         capture_output=True, text=True, check=True).stdout
    tokens = []
    for entry in re.split(r"\n(?=\d+:\d+ )", out.strip()):
        m = TOKEN.match(entry)
        if m:
            tokens.append((int(m.group(1)) - 1, int(m.group(2)) - 1,
                           m.group(3), unescape(m.group(4) or "")))
    in_string = set()

    def expect(line, col, prefixes, what):
        scope = scopes[line][col] if col < len(scopes[line]) else ""
        if not scope.startswith(prefixes):
            fail(f"{path}:{line + 1}:{col + 1}: {what} has scope {scope!r}")

    for i, (line, col, kind, value) in enumerate(tokens):
        if kind == "KEYWORD":
            checked[kind] += 1
            expect(line, col, ("keyword.", "constant.language",
                               "storage.type.function"), f"keyword {value!r}")
        elif kind in ("INT", "FLOAT"):
            checked["NUMBER"] += 1
            expect(line, col, ("constant.numeric",), f"number {value!r}")
        elif kind == "STRING":
            checked[kind] += 1
            expect(line, col, ("string.",), f"string {value!r}")
            l, c = line, col
            for ch in value:
                in_string.add((l, c))
                l, c = (l + 1, 0) if ch == "\n" else (l, c + 1)
        elif (kind == "NAME" and value in builtins and i >= 2
              and tokens[i - 1][3] == "." and tokens[i - 2][3] == "tl"):
            checked["BUILTIN"] += 1
            expect(line, col, ("support.function.builtin",),
                   f"built-in tl.{value}")
    for line, content in enumerate(text.split("\n")):
        col = content.find("#")
        while col >= 0 and (line, col) in in_string:
            col = content.find("#", col + 1)
        if col >= 0:
            checked["COMMENT"] += 1
            expect(line, col, ("comment.",), "comment")

for message in failures:
    print("error:", message)
print("checked", ", ".join(f"{n} {k.lower()}s" for k, n in checked.items()))
sys.exit(1 if failures else 0)
