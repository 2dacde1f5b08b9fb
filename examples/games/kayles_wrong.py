"""Kayles with a deliberately wrong claim: kayles.py with one misprinted table entry, the value
of a row of 11 pins read as 4 instead of 6 (OEIS A002186 has a(11) = 6).

Every position with a row of 11 pins is then claimed wrong, so a run up to N >= 11 fails, and
shrinking a failing position with `smaller` (drop a row, shorten a row) ends at the smallest
counterexample, the single row `11`.

    sprague verify custom --game-cmd 'python3 examples/games/kayles_wrong.py' --max 14
"""

import gameprogram
import kayles

MISPRINTED = kayles.A002186[:11] + [4] + kayles.A002186[12:]


def claim(position):
    return kayles.claim(position, MISPRINTED)


if __name__ == "__main__":
    gameprogram.serve(kayles.answers(claim))
