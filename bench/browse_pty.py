#!/usr/bin/env python3
"""Drives `feeds browse` on a pseudo-terminal and times what a person waits for.

    browse_pty.py BIN HOME OUT.tsv [--rows 30] [--columns 100] [--reps 20]

first_screen: from the spawn to the end of the first frame drawn (the program's start-up, the
first window of cards read, the frame written). Then each key, `reps` times where it makes
sense: the time from writing the key to the end of the frame it causes. A frame ends with
ESC[?25l (BrowseDrawing.frame), so the end is seen in the bytes, not guessed from a pause.
The times include the pseudo-terminal's round trip and this script (~0.1 ms): an upper bound
of the work. Peak RSS is the child's (wait4). Writes `label<TAB>ms` rows (medians) to OUT.
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
    results = [("first_screen_ms", first)]

    def key(label, keys, times=1):
        spent = []
        for _ in range(times):
            n = frames()
            t = time.perf_counter()
            os.write(fd, keys)
            spent.append((wait_frames(n + 1) - t) * 1000)
        spent.sort()
        results.append((label, spent[len(spent) // 2]))

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
    searched, ended = [], []
    for _ in range(reps):
        os.write(fd, b"/compiler")
        wait_frames(frames() + 1)
        for spent, keys in ((searched, b"\r"), (ended, b"\x1b")):
            n = frames()
            t = time.perf_counter()
            os.write(fd, keys)
            spent.append((wait_frames(n + 1) - t) * 1000)
    for label, spent in (("key_search_ms", searched), ("key_end_search_ms", ended)):
        spent.sort()
        results.append((label, spent[len(spent) // 2]))
    key("key_reload_ms", b"R")
    key("key_end_ms", b"\x1b[F")
    key("key_k_at_the_end_ms", b"k", reps)
    key("key_home_ms", b"\x1b[H")
    os.write(fd, b"q")
    _, status, usage = os.wait4(pid, 0)
    results.append(("peak_rss_mb", usage.ru_maxrss / 1024))
    results.append(("exit_status", os.waitstatus_to_exitcode(status)))
    with open(out, "w") as f:
        for label, value in results:
            f.write("%s\t%.2f\n" % (label, value))


if __name__ == "__main__":
    main()
