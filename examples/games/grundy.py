"""Grundy's game as a game program (docs/custom-programs.md): heaps of stones; a move splits one
heap into two non-empty heaps of different sizes. The player who cannot move (every heap has
one or two stones) loses.

A position is its heaps, sorted, joined by "." ("1.2.5"; "0": no heap). The positions of size
T are every multiset of heaps with T stones in all (heaps >= 1), as `sprague verify grundy`
enumerates them, and the components are the heaps.

The claim: the XOR of the one-heap values from the recurrence
g(n) = mex { g(a) ^ g(n - a) : 1 <= a < n - a } (OEIS A002188), the claim that
`sprague verify grundy` tests; the exact values come from sprague's brute force.

    sprague verify custom --game-cmd 'python3 examples/games/grundy.py' --max 20
"""

import gameprogram
from gameprogram import heaps, token

_values = [0]


def heap_value(n):
    """g(n) of one heap by the recurrence, remembered."""
    while len(_values) <= n:
        m = len(_values)
        seen = {_values[a] ^ _values[m - a] for a in range(1, (m + 1) // 2)}
        _values.append(min(set(range(len(seen) + 1)) - seen))
    return _values[n]


def moves(position):
    """Every position one move away (each once)."""
    hs = heaps(position)
    out = set()
    for i, n in enumerate(hs):
        rest = hs[:i] + hs[i + 1:]
        for a in range(1, (n + 1) // 2):
            out.add(token(rest + [a, n - a]))
    return sorted(out)


def claim(position):
    value = 0
    for n in heaps(position):
        value ^= heap_value(n)
    return value


def answers():
    """The requests this program answers, each a function of the request's argument."""
    return {
        "positions": lambda t: " ".join(token(p) for p in gameprogram.partitions(int(t))),
        "moves": lambda p: " ".join(moves(p)),
        "claim": lambda p: str(claim(p)),
        "components": lambda p: " ".join(map(str, heaps(p))),
    }


if __name__ == "__main__":
    gameprogram.serve(answers())
