#ifndef FEEDS_CPQ_SHIM_H
#define FEEDS_CPQ_SHIM_H
/* libpq for Swift, loaded on first use, as libcurl is (see ccurl_shim.h).

   Why loaded and not linked: libpq brings some twenty shared libraries with it (OpenSSL,
   GnuTLS, Kerberos, LDAP, SASL, ...). Linked, the dynamic loader would map and relocate all of
   them at every start of `feeds`, also for every person whose store is SQLite and never speaks
   to PostgreSQL. So the functions Storage calls go through pointers that `cpq_load` fills from
   libpq.so.5 with dlopen, once per process. Without libpq every call fails cleanly (NULL,
   CONNECTION_BAD, PGRES_FATAL_ERROR) and `cpq_load_error` says why. */
#include <postgresql/libpq-fe.h>

/* 1 when libpq is loaded (loading it on the first call), 0 when it cannot be. */
int cpq_load(void);
/* Why `cpq_load` failed (the dynamic loader's message). */
const char *cpq_load_error(void);

PGconn *cpq_connectdb_params(const char *const *keywords, const char *const *values, int expand_dbname);
ConnStatusType cpq_status(const PGconn *conn);
char *cpq_error_message(const PGconn *conn);
void cpq_finish(PGconn *conn);
char *cpq_host(const PGconn *conn);
char *cpq_port(const PGconn *conn);
char *cpq_db(const PGconn *conn);
char *cpq_user(const PGconn *conn);
PGTransactionStatusType cpq_transaction_status(const PGconn *conn);
/* Installs a notice processor that drops notices ("relation already exists, skipping": the
   server talking to a person at a psql prompt; libpq's default prints them to standard error). */
void cpq_silence_notices(PGconn *conn);

PGresult *cpq_exec(PGconn *conn, const char *query);
PGresult *cpq_exec_params(PGconn *conn, const char *command, int n, const char *const *values);
ExecStatusType cpq_result_status(const PGresult *res);
char *cpq_result_error_message(const PGresult *res);
char *cpq_result_error_field(const PGresult *res, int field);
int cpq_ntuples(const PGresult *res);
char *cpq_fname(const PGresult *res, int column);
char *cpq_getvalue(const PGresult *res, int row, int column);
int cpq_getisnull(const PGresult *res, int row, int column);
char *cpq_cmd_tuples(PGresult *res);
void cpq_clear(PGresult *res);
#endif
