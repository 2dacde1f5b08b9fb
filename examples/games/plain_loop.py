"""Times a Python game program's own answers in a plain loop, with no sprague and no pipe: the
baseline of the protocol benchmark (benches/custom_protocol.rs).

    python3 plain_loop.py MODULE REQUESTS_FILE

imports MODULE (kayles, grundy: a file beside this one), answers every request of the file
(one a line, `VERB ARG`, as sprague sends them) with the same functions the program's loop
calls, and prints: requests, wall seconds, CPU seconds.
"""

import importlib
import sys
import time


def main(module, path):
    answers = importlib.import_module(module).answers()
    with open(path) as f:
        requests = [line.rstrip("\n").partition(" ")[::2] for line in f]
    wall, cpu = time.perf_counter(), time.process_time()
    for verb, arg in requests:
        answers[verb](arg)
    print(len(requests), time.perf_counter() - wall, time.process_time() - cpu)


if __name__ == "__main__":
    main(*sys.argv[1:])
