#!/usr/bin/env python3
"""Run one command REPS times after a warm-up run and append a row a run to a bench TSV file
(the rows `measure` in lib.sh writes: tool file rep wall_s cpu_s rss_kb rc stderr_lines).

Usage: repeat.py RES TOOL LABEL REPS TIMEOUT ERRLOG -- CMD...

For commands of a few tens of milliseconds judged against a goal of 50 (bench/scale.sh's
queries), where `measure`'s figures are too coarse: its CPU time comes from `/usr/bin/time -v`,
printed in hundredths (a 44 ms search reads 0.04 or 0.05 s, and start-up's 5 ms 0.00 or 0.01),
and its wall clock is read by `date` in the shell around `/usr/bin/time`. Here the wall time is
read around the spawn and the wait of the command itself and the CPU time (user + sys) comes
from the child's rusage, both to the microsecond. stdin and stdout are /dev/null; stderr goes to
ERRLOG (its line count is the row's last field, as `measure` does). A run past TIMEOUT seconds
is killed and recorded with exit code 124.
"""
import os
import subprocess
import sys
import threading
import time


def one(cmd, timeout, errlog):
    """(wall s, cpu s, max RSS KiB, exit code) of one run of cmd."""
    with open(os.devnull, "rb") as devin, open(os.devnull, "wb") as devout, open(errlog, "wb") as err:
        start = time.perf_counter()
        child = subprocess.Popen(cmd, stdin=devin, stdout=devout, stderr=err)
        killed = []
        timer = threading.Timer(timeout, lambda: (killed.append(1), child.kill()))
        timer.start()
        _, status, usage = os.wait4(child.pid, 0)  # a blocking wait: no polling beside the command
        wall = time.perf_counter() - start
        timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, 124 if killed else child.returncode


def main():
    if len(sys.argv) < 9 or sys.argv[7] != "--":
        sys.exit(__doc__)
    res, tool, label, reps, timeout, errlog = sys.argv[1:7]
    cmd = sys.argv[8:]
    reps, timeout = int(reps), float(timeout)
    one(cmd, timeout, errlog)  # warm-up: caches, the page cache, a backlog indexed
    with open(res, "a") as out:
        for rep in range(1, reps + 1):
            wall, cpu, rss, rc = one(cmd, timeout, errlog)
            with open(errlog, "rb") as err:
                lines = sum(1 for _ in err)
            out.write("%s\t%s\t%d\t%.4f\t%.4f\t%d\t%d\t%d\n" % (tool, label, rep, wall, cpu, rss, rc, lines))


if __name__ == "__main__":
    main()
