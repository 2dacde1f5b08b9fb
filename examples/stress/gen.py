# A testlib-style generator: the seed is its argument, the input goes to stdout.
# The problem: the first line says how many numbers follow (1 to 10), one per line, each
# between -100 and 100; the answer is the largest sum of a non-empty run of consecutive ones.
import random
import sys

rng = random.Random(int(sys.argv[1]))
n = rng.randint(1, 10)
print(n)
for _ in range(n):
    print(rng.randint(-100, 100))
