#ifndef FEEDS_RELEVANCE_H
#define FEEDS_RELEVANCE_H
#include <sqlite3.h>

/*
 * `feeds_relevance(card_search, title weight, description weight, author weight)`: the
 * relevance score of a full-text match, FTS5's bm25 formula (k1 1.2, b 0.75; lower is better,
 * as FTS5's `rank`), registered on one connection as an FTS5 auxiliary function.
 *
 * Why not FTS5's own `bm25()`: before its first score it counts the rows holding each phrase
 * of the query by walking the phrase's whole doclist, 82 M instructions for a word in 287,000
 * of a million cards, most of a search's time. A query of one phrase needs no count: its
 * inverse document frequency multiplies every score alike, so the order is bm25's without it
 * (the scores are bm25's divided by it). A query of several phrases weighs them by it, so it
 * is counted as bm25 counts it.
 *
 * Returns SQLite's result code.
 */
int feeds_register_relevance(sqlite3 *db);

#endif
