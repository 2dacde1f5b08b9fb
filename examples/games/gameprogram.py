"""The game-program protocol (docs/custom-programs.md, version 1) for the Python examples.

`serve(answers)` answers requests on stdin until it closes: `answers` maps each request the
program has (in the order the handshake lists them) to a function from the request's argument
to the answer line. Answers are buffered and written out on `flush`, as the protocol allows.
Positions of heaps or rows are the sizes, sorted ascending, joined by "." (`0`: none left).
"""

import sys


def token(heaps):
    """The canonical position of a list of heaps: sorted, empty heaps dropped."""
    return ".".join(map(str, sorted(h for h in heaps if h))) or "0"


def heaps(position):
    """The heaps of a position token, ascending ("0": none)."""
    return [int(h) for h in position.split(".") if h != "0"]


def partitions(total, smallest=1):
    """Every multiset of heaps (ascending lists) with exactly `total` in all."""
    if total == 0:
        return [[]]
    return [[first] + rest for first in range(smallest, total + 1) for rest in partitions(total - first, first)]


def serve(answers, stdin=sys.stdin, stdout=sys.stdout):
    """Answers one line per request until stdin ends."""
    for line in stdin:
        verb, _, arg = line.strip().partition(" ")
        if verb == "flush":
            stdout.flush()
        elif verb == "sprague":
            stdout.write(" ".join(answers) + "\n")
        else:
            stdout.write(answers[verb](arg) + "\n")
