#ifndef FEEDS_CSQLITE_SHIM_H
#define FEEDS_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
/* sqlite3_config is variadic: one typed call for the one setting feeds makes (see Database). */
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
/* Linux's sync_file_range, declared as glibc declares it under _GNU_SOURCE (which Swift's Glibc
   module is built without): starts writing a file's dirty pages to the disk without waiting for
   them. Storage's FileWriteback. */
#include <sys/types.h>
extern int sync_file_range(int fd, __off64_t offset, __off64_t count, unsigned int flags);
static inline int csqlite_start_writeback(int fd) { return sync_file_range(fd, 0, 0, 2 /* SYNC_FILE_RANGE_WRITE */); }
/* The descriptor SQLite's unix VFS reads and writes a file of `schema` through (`log` nonzero:
   its write-ahead log, else the database file), or -1: its unixFile (os_unix.c) begins with the
   methods, the VFS, the inode's record and the descriptor, and -1 comes back unless the file's
   VFS is a unix one and the second member is that VFS. Storage's FileWriteback checks the
   descriptor's inode against the file's path as well, and never closes it (SQLite owns it). */
#include <string.h>
static inline int csqlite_file_descriptor(sqlite3 *db, const char *schema, int log) {
    sqlite3_vfs *vfs = 0;
    sqlite3_file *file = 0;
    if (sqlite3_file_control(db, schema, SQLITE_FCNTL_VFS_POINTER, &vfs) != SQLITE_OK || !vfs || !vfs->zName
        || strncmp(vfs->zName, "unix", 4) != 0) return -1;
    if (sqlite3_file_control(db, schema, log ? SQLITE_FCNTL_JOURNAL_POINTER : SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK
        || !file || !file->pMethods) return -1;
    struct unix_file_head { const sqlite3_io_methods *methods; sqlite3_vfs *vfs; void *inode; int descriptor; };
    const struct unix_file_head *head = (const struct unix_file_head *)file;
    return head->vfs == vfs ? head->descriptor : -1;
}
#endif
