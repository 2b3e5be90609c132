/* See feeds_relevance.h. */
#include "feeds_relevance.h"
#include <math.h>
#include <string.h>

/* Per query: the phrases' inverse document frequencies and the mean row length in tokens,
 * and room for one row's phrase frequencies. */
typedef struct {
    int phrases;
    double meanTokens;
    double *idf;
    double *frequency;
} QueryData;

static int countRow(const Fts5ExtensionApi *api, Fts5Context *fts, void *user) {
    (void)api;
    (void)fts;
    (*(sqlite3_int64 *)user)++;
    return SQLITE_OK;
}

/* The query's data, made at its first row and kept by FTS5 for the rest of the query. */
static int queryData(const Fts5ExtensionApi *api, Fts5Context *fts, QueryData **out) {
    QueryData *data = api->xGetAuxdata(fts, 0);
    if (data) {
        *out = data;
        return SQLITE_OK;
    }
    sqlite3_int64 rows = 0, tokens = 0;
    int rc = api->xRowCount(fts, &rows);
    if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
    if (rc != SQLITE_OK) return rc;
    int phrases = api->xPhraseCount(fts);
    if (phrases < 0) return SQLITE_ERROR;
    size_t slots = (size_t)(phrases > 0 ? phrases : 1);
    data = sqlite3_malloc64(sizeof(QueryData) + 2 * slots * sizeof(double));
    if (!data) return SQLITE_NOMEM;
    memset(data, 0, sizeof(QueryData) + 2 * slots * sizeof(double));
    data->phrases = phrases;
    data->idf = (double *)&data[1];
    data->frequency = data->idf + slots;
    data->meanTokens = rows > 0 ? (double)tokens / (double)rows : 1.0;
    for (int i = 0; i < phrases; i++) {
        if (phrases == 1) {
            data->idf[i] = 1.0;  /* one phrase: the order does not depend on it (see the header) */
            continue;
        }
        sqlite3_int64 hits = 0;
        rc = api->xQueryPhrase(fts, i, &hits, countRow);
        if (rc != SQLITE_OK) {
            sqlite3_free(data);
            return rc;
        }
        double idf = log((0.5 + (double)rows - (double)hits) / (0.5 + (double)hits));
        data->idf[i] = idf <= 0.0 ? 1e-6 : idf;
    }
    /* On failure FTS5 frees `data` itself (the destructor is called). */
    rc = api->xSetAuxdata(fts, data, sqlite3_free);
    if (rc != SQLITE_OK) return rc;
    *out = data;
    return SQLITE_OK;
}

static void relevance(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                      int weights, sqlite3_value **weight) {
    QueryData *data = 0;
    int rc = queryData(api, fts, &data);
    int instances = 0, rowTokens = 0;
    if (rc == SQLITE_OK) rc = api->xInstCount(fts, &instances);
    if (rc != SQLITE_OK) {
        sqlite3_result_error_code(context, rc);
        return;
    }
    for (int i = 0; i < data->phrases; i++) data->frequency[i] = 0.0;
    for (int i = 0; i < instances; i++) {
        int phrase = 0, column = 0, offset = 0;
        rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (rc != SQLITE_OK) {
            sqlite3_result_error_code(context, rc);
            return;
        }
        if (phrase < 0 || phrase >= data->phrases) continue;
        data->frequency[phrase] += column >= 0 && column < weights ? sqlite3_value_double(weight[column]) : 1.0;
    }
    rc = api->xColumnSize(fts, -1, &rowTokens);
    if (rc != SQLITE_OK) {
        sqlite3_result_error_code(context, rc);
        return;
    }
    const double k1 = 1.2, b = 0.75;
    double score = 0.0;
    for (int i = 0; i < data->phrases; i++) {
        double f = data->frequency[i];
        score += data->idf[i] * (f * (k1 + 1.0)) / (f + k1 * (1.0 - b + b * (double)rowTokens / data->meanTokens));
    }
    sqlite3_result_double(context, -1.0 * score);
}

int feeds_register_relevance(sqlite3 *db) {
    fts5_api *api = 0;
    sqlite3_stmt *statement = 0;
    int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
    rc = sqlite3_finalize(statement);
    if (rc != SQLITE_OK) return rc;
    if (!api || api->iVersion < 2) return SQLITE_ERROR;
    return api->xCreateFunction(api, "feeds_relevance", 0, relevance, 0);
}
