# The validator: exit 0 when stdin is a legal input, else a message and exit 1. It is what
# keeps shrunk inputs legal: the count on the first line must match the lines after it.
import sys

lines = sys.stdin.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
try:
    n = int(lines[0])
    assert 1 <= n <= 10, f"n = {n} is not between 1 and 10"
    assert len(lines) == n + 1, f"the first line says {n} numbers, {len(lines) - 1} lines follow"
    for line in lines[1:]:
        assert -100 <= int(line) <= 100, f"{line} is not between -100 and 100"
except (AssertionError, ValueError, IndexError) as e:
    sys.exit(f"invalid input: {e}")
