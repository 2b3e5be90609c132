#ifndef FEEDS_CLIBPQ_SHIM_H
#define FEEDS_CLIBPQ_SHIM_H
#include <libpq-fe.h>
/* The notice processor feeds installs: notices ("relation already exists, skipping") are the
   server talking to a person at a psql prompt; libpq's default prints them to standard error. */
static inline void clibpq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }
static inline void clibpq_silence_notices(PGconn *conn) { PQsetNoticeProcessor(conn, clibpq_ignore_notice, 0); }
#endif
