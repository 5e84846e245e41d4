#!/usr/bin/env python3
"""Fails when a C or C++ function body in the given files runs over a line limit.

Usage: function-length.py LIMIT FILE...

A function is a brace block whose opening follows a parameter list `)` (with `const`,
`noexcept` or a trailing return type between) and is not an `if`/`for`/`while`/`switch`
block or a lambda. Comments and string literals are blanked first. A heuristic, not a
parser: it is for keeping the tuned C++ in stages, not for arbitrary code.
"""
import re
import sys

CONTROL = re.compile(r"\b(if|for|while|switch|catch)\s*\(")
HEAD = re.compile(r"\)\s*(const\s*)?(noexcept\s*)?(->\s*[\w:<>,\s*&]+)?$")


def blank(text):
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def long_functions(path, limit):
    code = blank(open(path, encoding="utf-8").read())
    stack = []  # (line, is_function, name)
    line = 1
    for i, ch in enumerate(code):
        if ch == "\n":
            line += 1
        elif ch == "{":
            before = code[max(0, i - 300) : i].rstrip()
            statement = re.split(r"[;{}]", before)[-1]
            is_function = bool(HEAD.search(statement)) and not CONTROL.search(statement) and "](" not in statement
            name = statement.strip().split("(")[0].split()[-1] if is_function and statement.strip() else ""
            stack.append((line, is_function, name))
        elif ch == "}" and stack:
            start, is_function, name = stack.pop()
            if is_function and line - start + 1 > limit:
                yield f"{path}:{start}: {name} is {line - start + 1} lines (limit {limit})"


def main():
    limit = int(sys.argv[1])
    found = [message for path in sys.argv[2:] for message in long_functions(path, limit)]
    for message in found:
        print(message, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
