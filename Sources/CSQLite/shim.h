#ifndef FEEDS_CSQLITE_SHIM_H
#define FEEDS_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
/* sqlite3_config is variadic: one typed call for the one setting feeds makes (see Database). */
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
/* Linux's sync_file_range, declared as glibc declares it under _GNU_SOURCE (which Swift's Glibc
   module is built without): starts writing a file's dirty pages to the disk without waiting for
   them. Storage's LogWriteback, on SQLite's write-ahead logs. */
#include <sys/types.h>
extern int sync_file_range(int fd, __off64_t offset, __off64_t count, unsigned int flags);
static inline int csqlite_start_writeback(int fd) { return sync_file_range(fd, 0, 0, 2 /* SYNC_FILE_RANGE_WRITE */); }
#endif
