import sys

def moves(p):  # p: "3.5" -> every position one move away
    rows = [int(r) for r in p.split(".") if r != "0"]
    out = set()
    for i, n in enumerate(rows):
        rest = rows[:i] + rows[i + 1:]
        for take in (1, 2):
            for left in range(n - take + 1):
                parts = rest + [left, n - take - left]
                out.add(".".join(map(str, sorted(x for x in parts if x))) or "0")
    return out

for line in sys.stdin:
    verb, _, arg = line.strip().partition(" ")
    if verb == "sprague":
        print("positions moves components")
    elif verb == "positions":
        print(arg)                       # one row of N pins
    elif verb == "moves":
        print(" ".join(sorted(moves(arg))))
    elif verb == "components":
        print(" ".join(arg.split(".")))  # each row is a game of its own
    elif verb == "flush":
        sys.stdout.flush()
