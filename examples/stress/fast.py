# Kadane's algorithm with a classic slip: the best sum starts at 0, so a list of negative
# numbers only gets 0 (the empty run, which the problem does not allow).
import sys

words = sys.stdin.read().split()
best = here = 0
for w in words[1:]:
    here = max(int(w), here + int(w))
    best = max(best, here)
print(best)
