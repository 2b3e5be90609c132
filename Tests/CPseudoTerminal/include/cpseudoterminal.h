#ifndef CPSEUDOTERMINAL_H
#define CPSEUDOTERMINAL_H
#include <sys/types.h>
#include <stddef.h>

/// Opens a pseudo-terminal's master (close-on-exec, not our controlling terminal) and writes
/// the slave's path into `name`. Returns the master descriptor, or -1 with errno set.
int cpt_open_master(char *name, size_t size);

/// posix_spawn of `path` in a new session (POSIX_SPAWN_SETSID) whose standard input, output
/// and error are the terminal at `slave`, opened in the child so it becomes the session's
/// controlling terminal; every other descriptor closed, all signals default and unblocked.
/// Returns 0 or an errno value.
int cpt_spawn_on_terminal(pid_t *pid, const char *path, const char *slave,
                          char *const argv[], char *const envp[]);
#endif
