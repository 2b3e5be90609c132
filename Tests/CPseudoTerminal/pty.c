// The few calls glibc declares only under _GNU_SOURCE / _XOPEN_SOURCE, which Swift's Glibc
// module does not see: posix_openpt and friends, POSIX_SPAWN_SETSID, addclosefrom_np.
#define _GNU_SOURCE
#include "cpseudoterminal.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cpt_open_master(char *name, size_t size) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, name, size) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int cpt_spawn_on_terminal(pid_t *pid, const char *path, const char *slave,
                          char *const argv[], char *const envp[]) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    int code = posix_spawnattr_init(&attributes);
    if (code != 0) return code;
    code = posix_spawn_file_actions_init(&actions);
    if (code != 0) { posix_spawnattr_destroy(&attributes); return code; }
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    if (code == 0) code = posix_spawnattr_setsigdefault(&attributes, &all);
    if (code == 0) code = posix_spawnattr_setsigmask(&attributes, &none);
    if (code == 0) code = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    if (code == 0) code = posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0);
    if (code == 0) code = posix_spawn_file_actions_adddup2(&actions, 0, 1);
    if (code == 0) code = posix_spawn_file_actions_adddup2(&actions, 0, 2);
    if (code == 0) code = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (code == 0) code = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return code;
}
