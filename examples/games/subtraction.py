# A game program (docs/custom-programs.md): the subtraction game {1, 3, 4} on one heap.
# A position is the heap size; a move takes 1, 3 or 4 stones. The claim: period 7.
import sys

def moves(n):
    return [str(n - k) for k in (1, 3, 4) if k <= n]

for line in sys.stdin:
    verb, _, arg = line.strip().partition(" ")
    if verb == "sprague":
        print("positions moves claim")
    elif verb == "positions":
        print(arg)
    elif verb == "moves":
        print(" ".join(moves(int(arg))))
    elif verb == "claim":
        print([0, 1, 0, 1, 2, 3, 2][int(arg) % 7])
    elif verb == "flush":
        sys.stdout.flush()
