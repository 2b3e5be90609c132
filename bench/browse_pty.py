#!/usr/bin/env python3
"""Drives `feeds browse` on a pseudo-terminal and times what a person waits for.

    browse_pty.py BIN HOME OUT.tsv [--rows 30] [--columns 100] [--reps 20]

first_screen: from the spawn to the end of the first frame drawn (the program's start-up, the
first window of cards read, the frame written). Then each key, `reps` times where it makes
sense: the time from writing the key to the end of the frame it causes. A frame ends with
ESC[?25l (BrowseDrawing.frame), so the end is seen in the bytes, not guessed from a pause.
The times include the pseudo-terminal's round trip and this script (~0.1 ms): an upper bound
of the work, and on a busy machine also the time feeds waited for a core. So each key's CPU
time is measured too: the child's time on a CPU over the same span (/proc/PID/schedstat, in
nanoseconds; feeds browse is one thread), the work itself. Peak RSS is the child's (wait4).
A lone Esc (ending the search) is drawn 40 ms late by design: browse waits that long for the
rest of an escape sequence (BrowseSession.escapeWaitMilliseconds); its CPU time is the work.
Writes `label<TAB>ms<TAB>cpu ms` rows (medians; no CPU time for the first screen and RSS) to OUT.
"""
import fcntl, os, pty, select, signal, struct, sys, termios, time

MARK = b"\x1b[?25l"


def main():
    args = sys.argv[1:]
    binary, home, out = args[0], args[1], args[2]
    opts = dict(zip(args[3::2], args[4::2]))
    rows, cols, reps = int(opts.get("--rows", 30)), int(opts.get("--columns", 100)), int(opts.get("--reps", 20))
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "TERM": "xterm", "LANG": "C.UTF-8", "TZ": "UTC",
           "BROWSER": "true"}
    t0 = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.execve(binary, [binary, "--home", home, "browse"], env)
    seen = bytearray()

    def cpu_ms():
        try:
            with open("/proc/%d/schedstat" % pid) as f:
                return int(f.read().split()[0]) / 1e6
        except (OSError, ValueError, IndexError):
            return float("nan")

    def frames():
        return seen.count(MARK)

    def wait_frames(n, timeout=60.0):
        end = time.perf_counter() + timeout
        while frames() < n:
            left = end - time.perf_counter()
            if left <= 0:
                raise SystemExit("browse_pty: no frame within %.0f s; last bytes %r" % (timeout, bytes(seen[-200:])))
            r, _, _ = select.select([fd], [], [], left)
            if r:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    raise SystemExit("browse_pty: the terminal closed; last bytes %r" % bytes(seen[-300:]))
                seen.extend(data)
        return time.perf_counter()

    # The first frame: the enter sequence hides the cursor once, the frame a second time.
    first = (wait_frames(2) - t0) * 1000
    results = [("first_screen_ms", first, None)]

    def median(values):
        values = sorted(values)
        return values[len(values) // 2]

    def timed(keys, spent, worked):
        n = frames()
        c = cpu_ms()
        t = time.perf_counter()
        os.write(fd, keys)
        spent.append((wait_frames(n + 1) - t) * 1000)
        worked.append(cpu_ms() - c)

    def key(label, keys, times=1):
        spent, worked = [], []
        for _ in range(times):
            timed(keys, spent, worked)
        results.append((label, median(spent), median(worked)))

    key("key_j_ms", b"j", reps)
    key("key_k_ms", b"k", reps)
    key("key_pgdn_ms", b"\x1b[6~", reps)
    key("key_open_card_ms", b"\r")
    key("key_scroll_card_ms", b"j", reps)
    key("key_n_next_unread_card_ms", b"n", reps)
    key("key_back_ms", b"q")
    key("key_r_toggle_ms", b"r", reps)
    key("key_sort_oldest_ms", b"S")
    key("key_sort_source_ms", b"S")
    key("key_sort_title_ms", b"S")
    key("key_sort_newest_ms", b"S")
    # A search and its end, `reps` times (one sample each was too noisy on a busy machine):
    # typing the query draws the prompt (not timed), Enter lists the matches, Esc ends it.
    searched, ended = ([], []), ([], [])
    for _ in range(reps):
        os.write(fd, b"/compiler")
        wait_frames(frames() + 1)
        timed(b"\r", *searched)
        timed(b"\x1b", *ended)
    for label, (spent, worked) in (("key_search_ms", searched), ("key_end_search_ms", ended)):
        results.append((label, median(spent), median(worked)))
    key("key_reload_ms", b"R")
    key("key_end_ms", b"\x1b[F")
    key("key_k_at_the_end_ms", b"k", reps)
    key("key_home_ms", b"\x1b[H")
    os.write(fd, b"q")
    _, status, usage = os.wait4(pid, 0)
    results.append(("peak_rss_mb", usage.ru_maxrss / 1024, None))
    results.append(("exit_status", os.waitstatus_to_exitcode(status), None))
    with open(out, "w") as f:
        for label, value, cpu in results:
            f.write("%s\t%.2f\t%s\n" % (label, value, "" if cpu is None else "%.2f" % cpu))


if __name__ == "__main__":
    main()
