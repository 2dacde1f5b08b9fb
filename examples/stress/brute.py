# The reference: every run of consecutive numbers tried (reads every number after the count).
import sys

words = sys.stdin.read().split()
a = [int(w) for w in words[1:]]
print(max(sum(a[i:j]) for i in range(len(a)) for j in range(i + 1, len(a) + 1)))
