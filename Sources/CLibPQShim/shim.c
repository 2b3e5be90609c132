/* See cpq_shim.h: libpq's functions through pointers filled by dlopen on first use. */
#include "cpq_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

struct cpq_api {
    PGconn *(*connectdb_params)(const char *const *, const char *const *, int);
    ConnStatusType (*status)(const PGconn *);
    char *(*error_message)(const PGconn *);
    void (*finish)(PGconn *);
    char *(*host)(const PGconn *);
    char *(*port)(const PGconn *);
    char *(*db)(const PGconn *);
    char *(*user)(const PGconn *);
    PGTransactionStatusType (*transaction_status)(const PGconn *);
    PQnoticeProcessor (*set_notice_processor)(PGconn *, PQnoticeProcessor, void *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*exec_params)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int);
    ExecStatusType (*result_status)(const PGresult *);
    char *(*result_error_message)(const PGresult *);
    char *(*result_error_field)(const PGresult *, int);
    int (*ntuples)(const PGresult *);
    char *(*fname)(const PGresult *, int);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getisnull)(const PGresult *, int, int);
    char *(*cmd_tuples)(PGresult *);
    void (*clear)(PGresult *);
    int loaded;
    char error[256];
};

static struct cpq_api cpq_table;
static pthread_once_t cpq_once = PTHREAD_ONCE_INIT;

static void cpq_set_error(const char *why) {
    size_t i = 0;
    for (; why[i] != 0 && i + 1 < sizeof cpq_table.error; i++) cpq_table.error[i] = why[i];
    cpq_table.error[i] = 0;
}

static void cpq_load_once(void) {
    void *lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) lib = dlopen("libpq.so", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        const char *why = dlerror();
        cpq_set_error(why != NULL ? why : "libpq.so.5 could not be loaded");
        return;
    }
    int missing = 0;
#define CPQ_SYMBOL(field, name) \
    do { *(void **)(&cpq_table.field) = dlsym(lib, name); if (cpq_table.field == NULL) missing = 1; } while (0)
    CPQ_SYMBOL(connectdb_params, "PQconnectdbParams");
    CPQ_SYMBOL(status, "PQstatus");
    CPQ_SYMBOL(error_message, "PQerrorMessage");
    CPQ_SYMBOL(finish, "PQfinish");
    CPQ_SYMBOL(host, "PQhost");
    CPQ_SYMBOL(port, "PQport");
    CPQ_SYMBOL(db, "PQdb");
    CPQ_SYMBOL(user, "PQuser");
    CPQ_SYMBOL(transaction_status, "PQtransactionStatus");
    CPQ_SYMBOL(set_notice_processor, "PQsetNoticeProcessor");
    CPQ_SYMBOL(exec, "PQexec");
    CPQ_SYMBOL(exec_params, "PQexecParams");
    CPQ_SYMBOL(result_status, "PQresultStatus");
    CPQ_SYMBOL(result_error_message, "PQresultErrorMessage");
    CPQ_SYMBOL(result_error_field, "PQresultErrorField");
    CPQ_SYMBOL(ntuples, "PQntuples");
    CPQ_SYMBOL(fname, "PQfname");
    CPQ_SYMBOL(getvalue, "PQgetvalue");
    CPQ_SYMBOL(getisnull, "PQgetisnull");
    CPQ_SYMBOL(cmd_tuples, "PQcmdTuples");
    CPQ_SYMBOL(clear, "PQclear");
#undef CPQ_SYMBOL
    if (missing) {
        cpq_set_error("libpq.so.5 lacks a function feeds needs (libpq 10 or newer is required)");
        return;
    }
    cpq_table.loaded = 1;
}

int cpq_load(void) {
    pthread_once(&cpq_once, cpq_load_once);
    return cpq_table.loaded;
}

const char *cpq_load_error(void) {
    cpq_load();
    return cpq_table.loaded ? "" : cpq_table.error;
}

PGconn *cpq_connectdb_params(const char *const *keywords, const char *const *values, int expand_dbname) {
    return cpq_load() ? cpq_table.connectdb_params(keywords, values, expand_dbname) : NULL;
}
ConnStatusType cpq_status(const PGconn *conn) { return cpq_load() ? cpq_table.status(conn) : CONNECTION_BAD; }
char *cpq_error_message(const PGconn *conn) { return cpq_load() ? cpq_table.error_message(conn) : (char *)cpq_table.error; }
void cpq_finish(PGconn *conn) { if (cpq_load()) cpq_table.finish(conn); }
char *cpq_host(const PGconn *conn) { return cpq_load() ? cpq_table.host(conn) : NULL; }
char *cpq_port(const PGconn *conn) { return cpq_load() ? cpq_table.port(conn) : NULL; }
char *cpq_db(const PGconn *conn) { return cpq_load() ? cpq_table.db(conn) : NULL; }
char *cpq_user(const PGconn *conn) { return cpq_load() ? cpq_table.user(conn) : NULL; }
PGTransactionStatusType cpq_transaction_status(const PGconn *conn) {
    return cpq_load() ? cpq_table.transaction_status(conn) : PQTRANS_UNKNOWN;
}

static void cpq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }
void cpq_silence_notices(PGconn *conn) { if (cpq_load()) cpq_table.set_notice_processor(conn, cpq_ignore_notice, NULL); }

PGresult *cpq_exec(PGconn *conn, const char *query) { return cpq_load() ? cpq_table.exec(conn, query) : NULL; }
PGresult *cpq_exec_params(PGconn *conn, const char *command, int n, const char *const *values) {
    /* Text format both ways, types inferred by the server (casts in the SQL where it cannot). */
    return cpq_load() ? cpq_table.exec_params(conn, command, n, NULL, values, NULL, NULL, 0) : NULL;
}
ExecStatusType cpq_result_status(const PGresult *res) { return cpq_load() ? cpq_table.result_status(res) : PGRES_FATAL_ERROR; }
char *cpq_result_error_message(const PGresult *res) { return cpq_load() ? cpq_table.result_error_message(res) : (char *)""; }
char *cpq_result_error_field(const PGresult *res, int field) { return cpq_load() ? cpq_table.result_error_field(res, field) : NULL; }
int cpq_ntuples(const PGresult *res) { return cpq_load() ? cpq_table.ntuples(res) : 0; }
char *cpq_fname(const PGresult *res, int column) { return cpq_load() ? cpq_table.fname(res, column) : NULL; }
char *cpq_getvalue(const PGresult *res, int row, int column) { return cpq_load() ? cpq_table.getvalue(res, row, column) : NULL; }
int cpq_getisnull(const PGresult *res, int row, int column) { return cpq_load() ? cpq_table.getisnull(res, row, column) : 1; }
char *cpq_cmd_tuples(PGresult *res) { return cpq_load() ? cpq_table.cmd_tuples(res) : (char *)""; }
void cpq_clear(PGresult *res) { if (cpq_load()) cpq_table.clear(res); }
