/// The database schema, as the ordered list of migrations that build it.
///
/// Migration *n* (1-based) takes a database from `PRAGMA user_version` *n − 1* to *n*. Once a
/// migration has shipped its text never changes — a database out there has already run it —
/// so a change is always a new string appended at the end.
///
/// # Tables (migration 1)
///
/// **`sources`** — one row per entry of the user's sources file, plus what fetching learned.
/// - `url` is the identity as the user wrote it (http(s)/file URL, or `search:` pseudo-URL);
///   `fetch_url` replaces it for requests after a permanent redirect (NULL = `url`).
/// - `name`, `kind`, `tags` (space-separated words), `keep_days`, `keep_count` come from the
///   configuration; NULL retention means "the default given to prune".
/// - `etag`, `last_modified`: validators of the last 200 response, for conditional requests.
/// - `feed_title`, `feed_link`, `feed_description`, `feed_image`, `refresh_hint_seconds`: what
///   the source says about itself.
/// - `last_attempt_at`, `last_success_at`, `last_error`, `consecutive_failures`, `next_due_at`,
///   `disabled_reason`: the scheduler's state. `items_seen_at` is the time of the last fetch that
///   delivered the items (a 200); cards whose `last_seen_at` equals it are the ones the source
///   lists right now, which retention must not delete (they would come back as new).
/// - `application_id` marks the file as a feeds database.
///
/// **`cards`** — one row per card per source; `UNIQUE(source_id, card_key)` is the identity
/// (the same guid in two sources is two cards). Content columns mirror `Card`; `guid` is
/// `Card.id`; `enclosures` is a JSON array of `{"url","type","length"}` objects.
/// - `content_hash` tells an unchanged card (only `last_seen_at` moves) from an updated one
///   (rewritten in place, keeping `id`, `first_seen_at` and `is_read`).
/// - `first_seen_at`, `changed_at`, `last_seen_at`: first fetch, fetch of the current content,
///   last fetch that listed it.
/// - `sort_date`: published, else updated, else first seen — what every listing orders by,
///   with `id` breaking ties so paging is stable.
///
/// Times are INTEGER seconds since 1970 UTC. Tables are STRICT, so a wrong type is an error
/// instead of a silently stored string.
enum Schema {
    /// Written to the file header by migration 1: "FEDS".
    static let applicationID: Int32 = 0x4645_4453

    static let migrations: [String] = [
        // 1: sources and cards.
        """
        CREATE TABLE sources (
            id                   INTEGER PRIMARY KEY,
            url                  TEXT    NOT NULL UNIQUE CHECK (url <> ''),
            fetch_url            TEXT,
            name                 TEXT,
            kind                 TEXT    NOT NULL CHECK (kind IN ('feed', 'search')),
            tags                 TEXT    NOT NULL DEFAULT '',
            etag                 TEXT,
            last_modified        TEXT,
            feed_title           TEXT,
            feed_link            TEXT,
            feed_description     TEXT,
            feed_image           TEXT,
            refresh_hint_seconds INTEGER CHECK (refresh_hint_seconds > 0),
            last_attempt_at      INTEGER,
            last_success_at      INTEGER,
            items_seen_at        INTEGER,
            last_error           TEXT,
            consecutive_failures INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
            next_due_at          INTEGER,
            disabled_reason      TEXT,
            keep_days            INTEGER CHECK (keep_days >= 0),
            keep_count           INTEGER CHECK (keep_count >= 0),
            created_at           INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE cards (
            id            INTEGER PRIMARY KEY,
            source_id     INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
            card_key      TEXT    NOT NULL CHECK (card_key <> ''),
            guid          TEXT,
            title         TEXT,
            description   TEXT,
            link          TEXT,
            image         TEXT,
            published     INTEGER,
            updated       INTEGER,
            author        TEXT,
            kind          TEXT    NOT NULL CHECK (kind IN ('article', 'image')),
            enclosures    TEXT    NOT NULL DEFAULT '[]'
                                  CHECK (json_valid(enclosures) AND json_type(enclosures) = 'array'),
            content_hash  TEXT    NOT NULL,
            first_seen_at INTEGER NOT NULL,
            changed_at    INTEGER NOT NULL,
            last_seen_at  INTEGER NOT NULL,
            is_read       INTEGER NOT NULL DEFAULT 0 CHECK (is_read IN (0, 1)),
            sort_date     INTEGER NOT NULL,
            UNIQUE (source_id, card_key)
        ) STRICT;

        -- Listing orders. UNIQUE(source_id, card_key) already indexes by source for the
        -- upsert lookup, the cascade and the per-source counts.
        CREATE INDEX cards_newest ON cards (sort_date DESC, id DESC);
        CREATE INDEX cards_newest_per_source ON cards (source_id, sort_date DESC, id DESC);
        CREATE INDEX cards_unread_newest ON cards (sort_date DESC, id DESC) WHERE is_read = 0;
        """,
        // 2: the indexes of the named sort orders (see `CardOrder`).
        """
        -- A card is "undated" when it has neither published nor updated: its sort_date is only
        -- the first sighting, and `newest` lists such cards after every dated card.
        -- VIRTUAL (computed on read, stored only in the indexes): ALTER TABLE cannot add STORED.
        ALTER TABLE cards ADD COLUMN undated INTEGER
            GENERATED ALWAYS AS (published IS NULL AND updated IS NULL) VIRTUAL;
        -- The key of the `title` order: trimmed, lower-cased (ASCII only: SQLite's lower()),
        -- NULL when the card has no title, so `title_key IS NULL` puts untitled cards last.
        ALTER TABLE cards ADD COLUMN title_key TEXT
            GENERATED ALWAYS AS (nullif(lower(trim(title)), '')) VIRTUAL;

        -- newest: dated first, sort_date DESC, id DESC. Unfiltered, unread-only, per source.
        CREATE INDEX cards_by_date ON cards (undated, sort_date DESC, id DESC);
        CREATE INDEX cards_unread_by_date ON cards (undated, sort_date DESC, id DESC) WHERE is_read = 0;
        CREATE INDEX cards_source_by_date ON cards (source_id, undated, sort_date DESC, id DESC);
        -- Replaced by cards_unread_by_date. cards_newest stays for sort_date ranges (since,
        -- before), cards_newest_per_source for retention's per-source ranking.
        DROP INDEX cards_unread_newest;
        -- oldest: dated first, sort_date ASC, id ASC (not the reverse of cards_by_date, whose
        -- backwards scan would list undated cards first).
        CREATE INDEX cards_oldest ON cards (undated, sort_date, id);
        -- title: titled first, title_key ASC, then the newest order.
        CREATE INDEX cards_by_title ON cards (title_key IS NULL, title_key, undated, sort_date DESC, id DESC);
        -- source: sources by display name (the same expression the listings show), id for equal
        -- names; each source's cards then come from cards_source_by_date, so the whole listing
        -- is two nested index scans and never a sort.
        CREATE INDEX sources_by_name ON sources (lower(coalesce(name, feed_title, url)), id);
        """,
        // 3: page previews for search cards (issue 4): the og:image/twitter:image/image_src a
        // result's page declared, NULL when it declared none or could not be read, with the
        // time it was looked at (entries expire: see PagePreviewPolicy in the Aggregator).
        // Self-contained: no other table refers to it or is referred to.
        """
        CREATE TABLE page_previews (
            page_url   TEXT    PRIMARY KEY CHECK (page_url <> ''),
            image_url  TEXT,
            checked_at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        """,
        // 4: image cache metadata (see `FeedStore+ImageCache.swift`): one row per image URL, the
        // file named by the URL's hash; failures are rows too (the negative cache).
        """
        CREATE TABLE cached_images (
            url           TEXT    PRIMARY KEY CHECK (url <> ''),
            file_key      TEXT    NOT NULL,
            type          TEXT    CHECK (type IN ('jpeg', 'png', 'gif', 'webp', 'avif')),
            bytes         INTEGER NOT NULL DEFAULT 0 CHECK (bytes >= 0),
            width         INTEGER,
            height        INTEGER,
            etag          TEXT,
            last_modified TEXT,
            fetched_at    INTEGER NOT NULL,
            last_used_at  INTEGER NOT NULL,
            expires_at    INTEGER NOT NULL,
            failures      INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
            retry_at      INTEGER,
            last_error    TEXT
        ) STRICT;
        CREATE INDEX cached_images_by_use ON cached_images (last_used_at) WHERE type IS NOT NULL;
        """,
        // 5: full-text search over the cards' title, description text and author (see `SearchIndex`).
        """
        -- An FTS5 table with its own copy of the searchable text: the description is indexed as
        -- plain text (the layer above converts it; Storage knows no HTML), at most its first
        -- `SearchIndex.descriptionLimit` bytes. Not external-content over `cards` (that would
        -- index the HTML) and not contentless (SQLite 3.40 has no contentless_delete, and
        -- deleting from a contentless table needs the old text).
        CREATE VIRTUAL TABLE card_search USING fts5 (
            title, description, author,
            tokenize = 'unicode61 remove_diacritics 2'
        );
        -- Relevance: a word in the title weighs ten times one in the description; the author five.
        INSERT INTO card_search (card_search, rank) VALUES ('rank', 'bm25(10.0, 1.0, 5.0)');

        -- What is indexed: every card with id <= indexed_through, except those in
        -- card_search_pending. A new card needs no write at all to be "not yet indexed" (its id
        -- is above the mark), so saving cards costs the index nothing; an update of a card's
        -- title, description or author queues it. `FeedStore.refreshSearchIndex` indexes both in
        -- one transaction and moves the mark; every `feeds update` run does so at its end, and
        -- every search first. So a search never misses a saved card, and an update pays one FTS5
        -- write per run instead of one per source (measured: per-source FTS5 writes cost more
        -- than half the CPU of a cold update; a queue row per new card, ~8%).
        CREATE TABLE card_search_state (
            id              INTEGER PRIMARY KEY CHECK (id = 1),
            indexed_through INTEGER NOT NULL
        ) STRICT;
        -- 0: the cards saved before this migration are indexed by the first refresh.
        INSERT INTO card_search_state (id, indexed_through) VALUES (1, 0);
        CREATE TABLE card_search_pending (card_id INTEGER PRIMARY KEY) STRICT;
        CREATE TRIGGER card_search_update AFTER UPDATE OF title, description, author ON cards
        WHEN new.title IS NOT old.title OR new.description IS NOT old.description OR new.author IS NOT old.author
        BEGIN
            INSERT OR IGNORE INTO card_search_pending (card_id) VALUES (new.id);
        END;
        -- Deletes (retention, source removal through the cascade) leave no word behind. A new
        -- card takes the highest id + 1, which may be a deleted card's id at or below the mark:
        -- the mark comes down to the highest remaining id, so such a card counts as not indexed.
        CREATE TRIGGER card_search_delete AFTER DELETE ON cards BEGIN
            DELETE FROM card_search WHERE rowid = old.id;
            DELETE FROM card_search_pending WHERE card_id = old.id;
            UPDATE card_search_state SET indexed_through = (SELECT coalesce(max(id), 0) FROM cards)
            WHERE indexed_through > (SELECT coalesce(max(id), 0) FROM cards);
        END;
        """,
        // 6: the search index moves to its own file (see `SearchIndexer`), written by its own
        // connection, so indexing never holds this file's write lock (during `feeds update` a
        // thread of its own indexes while the saving goes on). This file keeps what the index
        // needs to follow it: a log of the cards whose text changed or which were deleted, and
        // a token that tells an index of this database from one of another.
        """
        DROP TRIGGER card_search_update;
        DROP TRIGGER card_search_delete;
        DROP TABLE card_search;
        DROP TABLE card_search_state;
        DROP TABLE card_search_pending;

        -- Random, made once: an index file whose token differs belongs to another database (a
        -- new one in place of a deleted one, say) and is rebuilt.
        CREATE TABLE search_index_identity (
            id    INTEGER PRIMARY KEY CHECK (id = 1),
            token TEXT    NOT NULL CHECK (length(token) = 32)
        ) STRICT;
        INSERT INTO search_index_identity (id, token) VALUES (1, lower(hex(randomblob(16))));

        -- The index holds every card with id <= its mark, as of its last refresh; what happened
        -- since to cards at or below the mark is logged here, one row per event, and read by the
        -- next refresh (which looks at the card as it is then). AUTOINCREMENT: a sequence number
        -- is never given twice, even after the log is emptied, so the index's "read through"
        -- number stays meaningful. A new card costs no row (no trigger on INSERT: it would make
        -- every insert keep a statement journal): its id is above the mark, or, as SQLite gives
        -- the highest id + 1, above the highest id left after a delete, which each delete logs
        -- (`floor`): the refresh looks for new cards above the lowest floor logged since.
        CREATE TABLE card_search_changes (
            seq     INTEGER PRIMARY KEY AUTOINCREMENT,
            card_id INTEGER NOT NULL,
            floor   INTEGER
        );
        CREATE TRIGGER card_search_update AFTER UPDATE OF title, description, author ON cards
        WHEN new.title IS NOT old.title OR new.description IS NOT old.description OR new.author IS NOT old.author
        BEGIN
            INSERT INTO card_search_changes (card_id) VALUES (new.id);
        END;
        CREATE TRIGGER card_search_delete AFTER DELETE ON cards BEGIN
            INSERT INTO card_search_changes (card_id, floor) VALUES (old.id, (SELECT coalesce(max(id), 0) FROM cards));
        END;
        """,
        // 7: a run that dies inside one source (a trap, a kill) must not die there again at
        // every later run. `reading_since` is set when a source's response arrives and cleared
        // by the transaction that records its outcome: one still set when the next run starts
        // names the source(s) the last run stopped in. `isolated_reason` says why a source is
        // fetched last, alone, in a process of its own with its own bounds (it stopped a run or
        // exceeded a limit); its next success clears it.
        """
        ALTER TABLE sources ADD COLUMN reading_since INTEGER;
        ALTER TABLE sources ADD COLUMN isolated_reason TEXT CHECK (isolated_reason <> '');
        """,
        // 8: cards a source's skip=/keep= rules kept out (issue 19), shown by `feeds sources`:
        // in its last saved fetch, and in all.
        """
        ALTER TABLE sources ADD COLUMN skipped_last INTEGER NOT NULL DEFAULT 0 CHECK (skipped_last >= 0);
        ALTER TABLE sources ADD COLUMN skipped_total INTEGER NOT NULL DEFAULT 0 CHECK (skipped_total >= 0);
        """,
        // 9: a source whose last fetch was not well-formed XML is shown as degraded until a
        // clean fetch (issue 17): what the parser said, as "the XML is not well-formed at line
        // 212; 37 of 40 items kept, 1 damaged"; NULL after a clean fetch.
        """
        ALTER TABLE sources ADD COLUMN degraded TEXT;
        """,
        // 10: a big database (issue 21: 1,000,000 cards over 5,000 sources): the unread cards
        // by source. Counting each source's unread cards read the row of every card (to see
        // `is_read`): `feeds sources`, and every `feeds update` (which lists the sources), took
        // 1.7 s. With this index the count reads the unread cards' entries only, a few bytes
        // each; the insert of a new card (unread) writes one more small entry, marking it read
        // removes it.
        """
        CREATE INDEX cards_unread_by_source ON cards (source_id) WHERE is_read = 0;
        """,
        // 11: each source's card and unread counts kept on its row (issue 21): `feeds sources`
        // counted a million index entries at every listing (~50 ms of its ~130). Triggers keep
        // them whatever writes the cards (a save, a read mark, retention, a source's removal,
        // a rolled-back transaction takes its counts back with it). An inserted card costs one
        // UPDATE of its source's row (measured with the sqlite3 shell, 200,000 inserts of
        // 500-byte cards into 5,000 sources: 1.59-1.79 -> 1.85-2.12 s user, ~1.5 us a card).
        // The counts of an existing database are taken here, once.
        """
        ALTER TABLE sources ADD COLUMN card_count INTEGER NOT NULL DEFAULT 0 CHECK (card_count >= 0);
        ALTER TABLE sources ADD COLUMN unread_count INTEGER NOT NULL DEFAULT 0
            CHECK (unread_count >= 0 AND unread_count <= card_count);
        UPDATE sources SET
            card_count = (SELECT count(*) FROM cards INDEXED BY cards_newest_per_source WHERE source_id = sources.id),
            unread_count = (SELECT count(*) FROM cards INDEXED BY cards_unread_by_source
                            WHERE source_id = sources.id AND is_read = 0);
        CREATE TRIGGER source_counts_insert AFTER INSERT ON cards BEGIN
            UPDATE sources SET card_count = card_count + 1, unread_count = unread_count + (new.is_read = 0)
            WHERE id = new.source_id;
        END;
        -- Also fired by the cascade of a source's removal, when the source's row is gone already
        -- or about to be: updating it then changes nothing.
        CREATE TRIGGER source_counts_delete AFTER DELETE ON cards BEGIN
            UPDATE sources SET card_count = card_count - 1, unread_count = unread_count - (old.is_read = 0)
            WHERE id = old.source_id;
        END;
        -- No write changes a card's source; it is followed anyway so that the counts cannot drift.
        CREATE TRIGGER source_counts_update AFTER UPDATE OF is_read, source_id ON cards
        WHEN new.is_read IS NOT old.is_read OR new.source_id IS NOT old.source_id
        BEGIN
            UPDATE sources SET card_count = card_count - 1, unread_count = unread_count - (old.is_read = 0)
            WHERE id = old.source_id;
            UPDATE sources SET card_count = card_count + 1, unread_count = unread_count + (new.is_read = 0)
            WHERE id = new.source_id;
        END;
        """,
        // 12: `feeds html` on a big database (issue 21): a stamp of each day's and each
        // source's cards (`FeedStore.cardStampsByDay`, `cardStampsBySource`: count, sums of
        // ids, change times and sort dates) read from this index alone, so a rerun with
        // nothing new rewrites only the pages whose cards changed without reading a card row
        // (the day stamps read the whole table otherwise: 2.2 GB at a million cards).
        """
        CREATE INDEX cards_stamps ON cards (sort_date, changed_at, source_id);
        """,
        // 13: fewer indexes for a new card to enter (issue 21): `feeds update` of 200 new feeds
        // took 1.95x the CPU on 115,000 cards that it took on none, a new card's ~10 index
        // entries each on a page of its own. Two of the indexes ordered by date were another
        // index read backwards or in ranges (measured on a million cards: 39 of 2,279 bytes a
        // card; 18.5 -> 17.4 pwrite calls a new card, both files, 6.9 on an empty database):
        // - cards_oldest (undated, sort_date, id) is cards_by_date read backwards within each
        //   `undated` value: the `oldest` listing reads the dated cards, then the undated ones,
        //   merged by SQLite (`FeedStore.listing`), and a window's ranges fix `undated` by
        //   equality (`FeedStore.keyRanges`);
        // - cards_newest (sort_date DESC, id DESC): a range of dates (--since, read marks before
        //   a date, their counts) is a range of cards_stamps (sort_date first); the images never
        //   fetched, newest first, merge the dated and the undated cards of cards_by_date.
        // cards_newest_per_source stays: it is retention's rank (each source's cards by date,
        // undated ones among them, which cards_source_by_date does not give without a sort).
        """
        DROP INDEX cards_oldest;
        DROP INDEX cards_newest;
        """,
        // 14: opening a workspace skips the sync of the sources file when the file reads as it
        // did at the last sync (issue 21: with 5,000 sources, reading the file and every
        // source's configuration was ~11 ms of every command, `feeds search` included; see
        // `Workspace` and `SourcesFileStamp`). The stamp names the file's bytes as last synced
        // into this table; any write of a source's configuration, by the sync or otherwise,
        // drops it, so a stamp present means the table holds exactly that file's configuration.
        """
        CREATE TABLE sources_file_stamp (
            id    INTEGER PRIMARY KEY CHECK (id = 1),
            stamp TEXT    NOT NULL CHECK (stamp <> '')
        ) STRICT;
        CREATE TRIGGER sources_file_stamp_insert AFTER INSERT ON sources BEGIN
            DELETE FROM sources_file_stamp;
        END;
        CREATE TRIGGER sources_file_stamp_delete AFTER DELETE ON sources BEGIN
            DELETE FROM sources_file_stamp;
        END;
        CREATE TRIGGER sources_file_stamp_update AFTER UPDATE OF url, name, kind, tags, keep_days, keep_count ON sources BEGIN
            DELETE FROM sources_file_stamp;
        END;
        """,
        // 15: each host's concurrency as the last update left it (issue 21): `feeds update`
        // starts a host at the limit it ended the last run at (`FeedStore.hostStartLimits`)
        // instead of 6 and ramps from there, so a pass of 5,000 feeds on 20 hosts at 50 ms of
        // latency does not spend its first round trips at 6 and 12 a host; a host that was
        // struggling starts low. Only recent rows are used; old ones are deleted when recorded.
        """
        CREATE TABLE host_limits (
            host        TEXT    PRIMARY KEY CHECK (host <> ''),
            start_limit INTEGER NOT NULL CHECK (start_limit BETWEEN 1 AND 1000),
            recorded_at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        """,
        // 16: the `title` order kept beside the cards, in two tables (issue 21): a new card no
        // longer enters `cards_by_title`, whose keys are random, in every batch of an update.
        // On a million cards that index took a page a title in each batch's commit (886 leaves
        // rewritten 10 times each by 4,600 new cards), the biggest part of why an update there
        // cost ~1.45x what it costs on an empty database (with the index dropped on a copy,
        // 1.12-1.28x). A new or changed card's key goes to the small `card_titles_new`
        // (triggers, so whatever writes a card), which the end of an update folds into
        // `card_titles` in key order once 10,000 wait, each leaf of the big table written once
        // (`FeedStore.foldTitleOrder`, `titleFoldKeys`; since migration 17 `settleTitleOrder`).
        // The listing walks both, merged by SQLite (a compound SELECT ordered by the key:
        // MERGE (UNION ALL), no sort; `FeedStore.titleListing`).
        // The key is `CardOrder.title`'s, with '' for an untitled card's title: a WITHOUT ROWID
        // table's key columns are NOT NULL, and `untitled` (1) sorts those cards last anyway.
        """
        DROP INDEX cards_by_title;
        CREATE TABLE card_titles (
            untitled  INTEGER NOT NULL CHECK (untitled IN (0, 1)),
            title_key TEXT    NOT NULL,
            undated   INTEGER NOT NULL CHECK (undated IN (0, 1)),
            sort_date INTEGER NOT NULL,
            id        INTEGER NOT NULL,
            PRIMARY KEY (untitled, title_key, undated, sort_date DESC, id DESC)
        ) STRICT, WITHOUT ROWID;
        -- The same shape as card_titles on purpose: the fold moves its rows there as they are.
        CREATE TABLE card_titles_new (
            untitled  INTEGER NOT NULL CHECK (untitled IN (0, 1)),
            title_key TEXT    NOT NULL,
            undated   INTEGER NOT NULL CHECK (undated IN (0, 1)),
            sort_date INTEGER NOT NULL,
            id        INTEGER NOT NULL,
            PRIMARY KEY (untitled, title_key, undated, sort_date DESC, id DESC)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO card_titles
            SELECT title_key IS NULL, coalesce(title_key, ''), undated, sort_date, id FROM cards
            ORDER BY 1, 2, 3, 4 DESC, 5 DESC;
        CREATE TRIGGER card_titles_insert AFTER INSERT ON cards BEGIN
            INSERT INTO card_titles_new
            VALUES (new.title_key IS NULL, coalesce(new.title_key, ''), new.undated, new.sort_date, new.id);
        END;
        -- A card's key changes with its title or dates (an update in place keeps its id).
        CREATE TRIGGER card_titles_update AFTER UPDATE OF id, title, published, updated, sort_date ON cards
        WHEN new.id IS NOT old.id OR new.title_key IS NOT old.title_key OR new.undated IS NOT old.undated
             OR new.sort_date IS NOT old.sort_date
        BEGIN
            DELETE FROM card_titles WHERE untitled = (old.title_key IS NULL) AND title_key = coalesce(old.title_key, '')
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            DELETE FROM card_titles_new WHERE untitled = (old.title_key IS NULL) AND title_key = coalesce(old.title_key, '')
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            INSERT INTO card_titles_new
            VALUES (new.title_key IS NULL, coalesce(new.title_key, ''), new.undated, new.sort_date, new.id);
        END;
        CREATE TRIGGER card_titles_delete AFTER DELETE ON cards BEGIN
            DELETE FROM card_titles WHERE untitled = (old.title_key IS NULL) AND title_key = coalesce(old.title_key, '')
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            DELETE FROM card_titles_new WHERE untitled = (old.title_key IS NULL) AND title_key = coalesce(old.title_key, '')
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
        END;
        """,
        // 17: a new card's key of the `title` order goes first to `card_titles_log`, keyed by the
        // card's id (issue 21): a new card's id is the largest, so an update's inserts append to
        // that table's last leaf. `card_titles_new` is keyed by the title itself, so every batch
        // of an update wrote new keys on most of its leaves and each commit wrote those leaves
        // again: in a cold update of 1,000 feeds 21,691 of the log's 77,482 frames (54 a leaf),
        // more than the three indexes ordered by date together. Measured with the log (cold,
        // 20 loopback hosts, the two binaries in turn): 5,000 feeds 16.3-18.2 s where the
        // previous took 19.8-23.9 s, 1,000 feeds 2.80-2.83 s against 3.06-3.21 s; 200 new feeds
        // on a million cards, median of 10, 0.83 s against 0.89 s. The end of an update moves
        // the log's keys into `card_titles_new` in key order, each leaf once
        // (`FeedStore.settleTitleOrder`), so the log is empty between updates; listings walk it
        // as a third table, sorted (empty but during an update, or after one that did not end,
        // whose keys the next update's end moves). A trigger is replaced whole, so the update
        // and delete triggers restate migration 16's deletes from the two other tables.
        """
        CREATE TABLE card_titles_log (
            id        INTEGER PRIMARY KEY,
            untitled  INTEGER NOT NULL CHECK (untitled IN (0, 1)),
            title_key TEXT    NOT NULL,
            undated   INTEGER NOT NULL CHECK (undated IN (0, 1)),
            sort_date INTEGER NOT NULL
        ) STRICT;
        DROP TRIGGER card_titles_insert;
        CREATE TRIGGER card_titles_insert AFTER INSERT ON cards BEGIN
            INSERT INTO card_titles_log (id, untitled, title_key, undated, sort_date)
            VALUES (new.id, new.title_key IS NULL, coalesce(new.title_key, ''), new.undated, new.sort_date);
        END;
        DROP TRIGGER card_titles_update;
        CREATE TRIGGER card_titles_update AFTER UPDATE OF id, title, published, updated, sort_date ON cards
        WHEN new.id IS NOT old.id OR new.title_key IS NOT old.title_key OR new.undated IS NOT old.undated
             OR new.sort_date IS NOT old.sort_date
        BEGIN
            DELETE FROM card_titles WHERE untitled = (old.title_key IS NULL) AND title_key = coalesce(old.title_key, '')
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            DELETE FROM card_titles_new WHERE untitled = (old.title_key IS NULL) AND title_key = coalesce(old.title_key, '')
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            DELETE FROM card_titles_log WHERE id = old.id;
            INSERT INTO card_titles_log (id, untitled, title_key, undated, sort_date)
            VALUES (new.id, new.title_key IS NULL, coalesce(new.title_key, ''), new.undated, new.sort_date);
        END;
        DROP TRIGGER card_titles_delete;
        CREATE TRIGGER card_titles_delete AFTER DELETE ON cards BEGIN
            DELETE FROM card_titles WHERE untitled = (old.title_key IS NULL) AND title_key = coalesce(old.title_key, '')
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            DELETE FROM card_titles_new WHERE untitled = (old.title_key IS NULL) AND title_key = coalesce(old.title_key, '')
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            DELETE FROM card_titles_log WHERE id = old.id;
        END;
        """,
        // 18: one index ordered by date fewer for a new card to enter (issue 21): the stamps
        // of `feeds html` (migration 12) read `cards_by_date` alone, now that it carries
        // `changed_at` and `source_id` after its key, and `cards_stamps` goes. A range of dates
        // (`--since`, read marks before a date) is two ranges of it, one for each `undated`
        // value (`undated IN (0, 1)`: the column is generated as 0 or 1). A batch's new cards
        // enter the region of the last days' ~35,000 cards in each index ordered by date, so
        // each such index is hundreds of leaves to read, rewrite and log at every commit.
        // Measured, 200 new feeds on copies of a million cards, eight rounds, the binaries in
        // turn: 1.00-1.59 s (median 1.28) against 1.18-1.64 s (1.49); the scale bench's ratio
        // to an empty home 1.33x and 1.39x against 1.48x and 1.48x. Rebuilding the index takes
        // ~3 s on a million cards, once. `cards_unread_by_date` is made again after it,
        // unchanged: without statistics SQLite weighs the two alike for the unread cards of a
        // range of dates and takes the index made last; with `cards_by_date` made last, such a
        // listing read the row of every card of the range (on a million cards, oldest unread
        // since a month: 8 ms of statements instead of 2).
        """
        DROP INDEX cards_stamps;
        DROP INDEX cards_by_date;
        CREATE INDEX cards_by_date ON cards (undated, sort_date DESC, id DESC, changed_at, source_id);
        DROP INDEX cards_unread_by_date;
        CREATE INDEX cards_unread_by_date ON cards (undated, sort_date DESC, id DESC) WHERE is_read = 0;
        """,
        // 19: each card in one index by date (issue 21). Until now every card entered
        // `cards_by_date` and an unread one `cards_unread_by_date` too: a new card was two
        // inserts in the dense region of the last days' cards. Parted by the read flag instead,
        // each card is in exactly one (marking it read or unread moves it), and a walk over all
        // cards by date reads both merged (`DatePart`, `FeedStore.mergedListing`: a compound SELECT ordered by
        // the key, which SQLite merges without a sort; sums and counts of both added). Both
        // carry `changed_at` and `source_id` (the stamps, migration 18) and end with `is_read`:
        // without that column SQLite reads the card's row to test `is_read = 1`, even on an
        // index whose WHERE says as much. Measured on copies of a million cards (emulated by
        // SQL, eight rounds each): 200 new feeds' update 0.770 s against 0.830 s, and 0.830
        // against 0.925 s on copies twice as dense. Rebuilding both takes a few seconds on a
        // million cards, once.
        """
        DROP INDEX cards_by_date;
        DROP INDEX cards_unread_by_date;
        CREATE INDEX cards_read_by_date ON cards (undated, sort_date DESC, id DESC, changed_at, source_id, is_read)
            WHERE is_read = 1;
        CREATE INDEX cards_unread_by_date ON cards (undated, sort_date DESC, id DESC, changed_at, source_id, is_read)
            WHERE is_read = 0;
        """,
        // 20: the unread cards by date in two tables of their own (issue 21), not an index of
        // the cards. A new card entered `cards_unread_by_date` in the region of the last days'
        // cards, which on a big database holds thousands of unread ones: every batch of an update
        // rewrote and logged the hundreds of leaves its cards fell on (200 new feeds on a million
        // cards: 13,000 log frames, 5,000 without that index). Now a new unread card's entry goes
        // to `unread_by_date_new` (a trigger), small, and the end of an update moves them into
        // `unread_by_date` in one transaction (`FeedStore.settleDateOrder`): each leaf of the big
        // table written once a run. An index could not do it: moving a card from one partial
        // index to another rewrites its row (a flag), and rewriting an update's new rows cost
        // more than the index saved (tried: 0.5 s a fold of 13,800 cards of ~3 KB).
        // A card changed in place (read state, dates, `changed_at`, source) leaves both tables
        // and, unread, enters the new one. Both tables carry what the index carried (the key,
        // `changed_at` and `source_id` for the stamps) and `is_read` (always 0), so that a walk of
        // those columns alone (counts, ids, stamps) reads a table as it read the index, with the
        // same conditions on `c`; the views `unread_cards` and `unread_cards_new` show them as
        // cards (`DatePart`): the key's columns from the table, the rest from the card's row,
        // joined LEFT so that SQLite reads no card row where a listing reads no card column (a
        // LEFT JOIN on the card's id that nothing reads is left out, but not in an aggregate).
        // The views name every column of `cards`: a migration that adds one makes them again.
        // A read card changed in place (a new `changed_at` at every edit) runs no trigger body.
        """
        CREATE TABLE unread_by_date (
            undated    INTEGER NOT NULL,
            sort_date  INTEGER NOT NULL,
            id         INTEGER NOT NULL,
            changed_at INTEGER NOT NULL,
            source_id  INTEGER NOT NULL,
            is_read    INTEGER GENERATED ALWAYS AS (0) VIRTUAL,
            PRIMARY KEY (undated, sort_date DESC, id DESC)
        ) WITHOUT ROWID, STRICT;
        -- The same shape as unread_by_date on purpose: the fold moves its rows there as they are.
        CREATE TABLE unread_by_date_new (
            undated    INTEGER NOT NULL,
            sort_date  INTEGER NOT NULL,
            id         INTEGER NOT NULL,
            changed_at INTEGER NOT NULL,
            source_id  INTEGER NOT NULL,
            is_read    INTEGER GENERATED ALWAYS AS (0) VIRTUAL,
            PRIMARY KEY (undated, sort_date DESC, id DESC)
        ) WITHOUT ROWID, STRICT;
        INSERT INTO unread_by_date (undated, sort_date, id, changed_at, source_id)
            SELECT undated, sort_date, id, changed_at, source_id FROM cards WHERE is_read = 0
            ORDER BY undated, sort_date DESC, id DESC;
        DROP INDEX cards_unread_by_date;
        CREATE VIEW unread_cards AS
            SELECT t.id AS id, t.source_id AS source_id, c.card_key AS card_key, c.guid AS guid, c.title AS title,
                   c.description AS description, c.link AS link, c.image AS image, c.published AS published,
                   c.updated AS updated, c.author AS author, c.kind AS kind, c.enclosures AS enclosures,
                   c.content_hash AS content_hash, c.first_seen_at AS first_seen_at, t.changed_at AS changed_at,
                   c.last_seen_at AS last_seen_at, 0 AS is_read, t.sort_date AS sort_date, t.undated AS undated,
                   c.title_key AS title_key
            FROM unread_by_date t LEFT JOIN cards c ON c.id = t.id;
        CREATE VIEW unread_cards_new AS
            SELECT t.id AS id, t.source_id AS source_id, c.card_key AS card_key, c.guid AS guid, c.title AS title,
                   c.description AS description, c.link AS link, c.image AS image, c.published AS published,
                   c.updated AS updated, c.author AS author, c.kind AS kind, c.enclosures AS enclosures,
                   c.content_hash AS content_hash, c.first_seen_at AS first_seen_at, t.changed_at AS changed_at,
                   c.last_seen_at AS last_seen_at, 0 AS is_read, t.sort_date AS sort_date, t.undated AS undated,
                   c.title_key AS title_key
            FROM unread_by_date_new t LEFT JOIN cards c ON c.id = t.id;
        CREATE TRIGGER unread_by_date_insert AFTER INSERT ON cards WHEN new.is_read = 0 BEGIN
            INSERT INTO unread_by_date_new (undated, sort_date, id, changed_at, source_id)
            VALUES (new.undated, new.sort_date, new.id, new.changed_at, new.source_id);
        END;
        CREATE TRIGGER unread_by_date_update
        AFTER UPDATE OF id, source_id, published, updated, changed_at, is_read, sort_date ON cards
        WHEN (old.is_read = 0 OR new.is_read = 0)
             AND (new.is_read IS NOT old.is_read OR new.id IS NOT old.id OR new.source_id IS NOT old.source_id
                  OR new.undated IS NOT old.undated OR new.sort_date IS NOT old.sort_date
                  OR new.changed_at IS NOT old.changed_at)
        BEGIN
            DELETE FROM unread_by_date WHERE old.is_read = 0
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            DELETE FROM unread_by_date_new WHERE old.is_read = 0
                AND undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            INSERT INTO unread_by_date_new (undated, sort_date, id, changed_at, source_id)
            SELECT new.undated, new.sort_date, new.id, new.changed_at, new.source_id WHERE new.is_read = 0;
        END;
        CREATE TRIGGER unread_by_date_delete AFTER DELETE ON cards WHEN old.is_read = 0 BEGIN
            DELETE FROM unread_by_date WHERE undated = old.undated AND sort_date = old.sort_date AND id = old.id;
            DELETE FROM unread_by_date_new WHERE undated = old.undated AND sort_date = old.sort_date AND id = old.id;
        END;
        """,
        // Append migration 21 here; never edit the ones above.
    ]

    /// The schema version this program writes and understands.
    static var currentVersion: Int { migrations.count }
}
