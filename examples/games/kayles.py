"""Kayles as a game program (docs/custom-programs.md): rows of pins; a move knocks down one pin
or two adjacent pins, which may split a row in two. The player who cannot move loses.

A position is its rows, sorted, joined by "." ("2.5"; "0": no pins left). The positions of
size N are every multiset of rows with N pins in all, so a run up to N checks the claim on
every sum of rows, not only on single rows.

The claim: the XOR of the one-row values as published in OEIS A002186 (N. J. A. Sloane,
"Sprague-Grundy values for the game of Kayles", data for n = 0..104; R. K. Guy and
C. A. B. Smith, Proc. Cambridge Philos. Soc. 52 (1956); periodic with period 12 after n = 70).

    sprague verify custom --game-cmd 'python3 examples/games/kayles.py' --max 20
"""

import gameprogram
from gameprogram import heaps, token

# OEIS A002186, n = 0..104, as published.
A002186 = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8,
    6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1,
]
PERIOD = 12


def row_value(n, table=A002186):
    """The published value of one row of n pins (beyond the table: period 12)."""
    while n >= len(table):
        n -= PERIOD
    return table[n]


def moves(position):
    """Every position one move away (each once)."""
    rows = heaps(position)
    out = set()
    for i, n in enumerate(rows):
        if i and rows[i - 1] == n:
            continue  # the same moves as the equal row before it
        rest = rows[:i] + rows[i + 1:]
        for take in (1, 2):
            for left in range((n - take) // 2 + 1):
                out.add(token(rest + [left, n - take - left]))
    return sorted(out)


def claim(position, table=A002186):
    value = 0
    for n in heaps(position):
        value ^= row_value(n, table)
    return value


def smaller(position):
    """Candidates for shrinking: one row removed, or one row a pin shorter."""
    rows = heaps(position)
    out = {token(rows[:i] + rows[i + 1:]) for i in range(len(rows))}
    out |= {token(rows[:i] + [n - 1] + rows[i + 1:]) for i, n in enumerate(rows)}
    return sorted(out)


def answers(claim=claim):
    """The requests this program answers, each a function of the request's argument."""
    return {
        "positions": lambda n: " ".join(token(p) for p in gameprogram.partitions(int(n))),
        "moves": lambda p: " ".join(moves(p)),
        "claim": lambda p: str(claim(p)),
        "components": lambda p: " ".join(map(str, heaps(p))),
        "smaller": lambda p: " ".join(smaller(p)),
        "size": lambda p: str(sum(heaps(p))),
    }


if __name__ == "__main__":
    gameprogram.serve(answers())
