/// The PostgreSQL schema, as the ordered list of migrations that build it: PostgreSQL's own
/// list, apart from SQLite's (`Schema`), with the same rules. Migration *n* (1-based) takes a
/// database from version *n − 1* to *n* (`feeds_schema` holds the versions applied); once a
/// migration has shipped its text never changes, so a change is a new string at the end.
///
/// The tables mirror SQLite's (see `Schema` for the meaning of each column), with the same
/// identity keys: `sources.url` UNIQUE, `cards (source_id, card_key)` UNIQUE. Times are bigint
/// seconds since 1970 UTC, as there. What PostgreSQL adds is for many workers:
/// - `sources.lease_owner`, `sources.lease_until`: the worker holding the source and until
///   when (`SourceLeasing`); both set or both NULL.
/// - `hosts`, `host_slots` (migration 2): per-host politeness across workers (`SharedHostState`).
/// - `cards.title_key` (migration 3) is STORED, where SQLite's is VIRTUAL.
/// - `card_search` (migration 4): the search index, in the database (SQLite's is a file of its own).
/// - `cached_images`, `page_previews` (migration 5): keyed by the SHA-256 of their URL.
/// - `cards_stamps` (migration 6): `feeds html`'s stamps, SQLite's covering index of its migration 12.
/// - `card_changes` (migration 7): the count of commits that changed a listing (`dataVersion`).
/// - `sources.lease_takeovers`, `feeds_take_host_slot` (migration 8): crash isolation and
///   fewer round trips for workers.
enum PostgresSchema {
    /// The key of the advisory lock migrations hold, so two workers starting together migrate
    /// one after the other ("FEDS").
    static let migrationLock: Int64 = 0x4645_4453

    static let migrations: [String] = [
        // 1: sources (with leases), cards (with read state).
        """
        CREATE TABLE sources (
            id                   bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            url                  text    NOT NULL UNIQUE CHECK (url <> ''),
            fetch_url            text,
            name                 text,
            kind                 text    NOT NULL CHECK (kind IN ('feed', 'search')),
            tags                 text    NOT NULL DEFAULT '',
            etag                 text,
            last_modified        text,
            feed_title           text,
            feed_link            text,
            feed_description     text,
            feed_image           text,
            refresh_hint_seconds bigint  CHECK (refresh_hint_seconds > 0),
            last_attempt_at      bigint,
            last_success_at      bigint,
            items_seen_at        bigint,
            last_error           text,
            consecutive_failures bigint  NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
            next_due_at          bigint,
            disabled_reason      text,
            keep_days            bigint  CHECK (keep_days >= 0),
            keep_count           bigint  CHECK (keep_count >= 0),
            created_at           bigint  NOT NULL,
            reading_since        bigint,
            isolated_reason      text    CHECK (isolated_reason <> ''),
            skipped_last         bigint  NOT NULL DEFAULT 0 CHECK (skipped_last >= 0),
            skipped_total        bigint  NOT NULL DEFAULT 0 CHECK (skipped_total >= 0),
            degraded             text,
            lease_owner          text    CHECK (lease_owner <> ''),
            lease_until          bigint,
            CHECK ((lease_owner IS NULL) = (lease_until IS NULL))
        );
        -- What the leasing query walks: enabled sources, the longest waiting first.
        CREATE INDEX sources_due ON sources (next_due_at NULLS FIRST, id) WHERE disabled_reason IS NULL;

        CREATE TABLE cards (
            id            bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            source_id     bigint  NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
            card_key      text    NOT NULL CHECK (card_key <> ''),
            guid          text,
            title         text,
            description   text,
            link          text,
            image         text,
            published     bigint,
            updated       bigint,
            author        text,
            kind          text    NOT NULL CHECK (kind IN ('article', 'image')),
            -- json, not jsonb: kept as written (jsonb refuses the escape \\u0000 a feed may carry).
            enclosures    json    NOT NULL DEFAULT '[]' CHECK (json_typeof(enclosures) = 'array'),
            content_hash  text    NOT NULL,
            first_seen_at bigint  NOT NULL,
            changed_at    bigint  NOT NULL,
            last_seen_at  bigint  NOT NULL,
            is_read       boolean NOT NULL DEFAULT false,
            sort_date     bigint  NOT NULL,
            undated       boolean GENERATED ALWAYS AS (published IS NULL AND updated IS NULL) STORED,
            UNIQUE (source_id, card_key)
        );
        -- The listing orders, as SQLite's migration 2 (newest, unread newest, per source, oldest).
        CREATE INDEX cards_by_date ON cards (undated, sort_date DESC, id DESC);
        CREATE INDEX cards_unread_by_date ON cards (undated, sort_date DESC, id DESC) WHERE NOT is_read;
        CREATE INDEX cards_source_by_date ON cards (source_id, undated, sort_date DESC, id DESC);
        CREATE INDEX cards_oldest ON cards (undated, sort_date, id);
        """,
        // 2: per-host politeness shared by the workers (`SharedHostState`): the moment before
        // which no worker asks a host again, and the request slots all workers hold, each a
        // lease with a deadline (a killed worker's slots free themselves).
        """
        CREATE TABLE hosts (
            host          text   PRIMARY KEY CHECK (host <> ''),
            backoff_until bigint
        );
        CREATE TABLE host_slots (
            id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            host   text   NOT NULL REFERENCES hosts (host) ON DELETE CASCADE,
            worker text   NOT NULL CHECK (worker <> ''),
            until  bigint NOT NULL
        );
        CREATE INDEX host_slots_by_host ON host_slots (host, until);
        """,
        // 3: the keys and indexes of the `title` and `source` orders (see `CardOrder`), in
        // SQLite's byte order: lower-casing ASCII only and comparing bytes (COLLATE "C"),
        // whatever the database's locale, so both backends list in the same order.
        """
        ALTER TABLE cards ADD COLUMN title_key text COLLATE "C"
            GENERATED ALWAYS AS (nullif(lower(trim(title) COLLATE "C"), '')) STORED;
        CREATE INDEX cards_by_title ON cards ((title_key IS NULL), title_key, undated, sort_date DESC, id DESC);
        CREATE INDEX sources_by_name ON sources ((lower(coalesce(name, feed_title, url) COLLATE "C")), id);
        """,
        // 4: full-text search (PostgresStore+Search.swift): each card's words as a tsvector
        // computed by feeds (SQLite's tokenizer over `SearchFolding`'s folding: one rule for both
        // backends, see `SearchWords`), never by PostgreSQL's parser; a GIN index over it. A row
        // goes with its card (ON DELETE CASCADE); saving a card writes its row.
        """
        CREATE TABLE card_search (
            card_id bigint   PRIMARY KEY REFERENCES cards (id) ON DELETE CASCADE,
            words   tsvector NOT NULL
        );
        CREATE INDEX card_search_words ON card_search USING gin (words);
        """,
        // 5: the image cache's metadata (PostgresStore+ImageCache.swift) and the page previews
        // of saved searches (PostgresStore+UpdateRun.swift), SQLite's migrations 4 and 3
        // with the same columns and CHECKs. One difference: a URL is unique by its SHA-256
        // (`url_digest`, the primary key), not by its text, because a B-tree entry holds at
        // most 2,704 bytes and an image or page URL from a feed or a search answer may be
        // longer (a 6,400-byte one failed the insert); SQLite's keys have no such limit. The
        // digest's function is IMMUTABLE as a generated column needs (convert_to is STABLE
        // only because it depends on the database's encoding, which never changes).
        """
        CREATE FUNCTION feeds_text_digest(value text) RETURNS bytea
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
            AS $$ SELECT sha256(convert_to(value, 'UTF8')) $$;

        CREATE TABLE cached_images (
            url           text   NOT NULL CHECK (url <> ''),
            url_digest    bytea  GENERATED ALWAYS AS (feeds_text_digest(url)) STORED PRIMARY KEY,
            file_key      text   NOT NULL,
            type          text   CHECK (type IN ('jpeg', 'png', 'gif', 'webp', 'avif')),
            bytes         bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0),
            width         bigint,
            height        bigint,
            etag          text,
            last_modified text,
            fetched_at    bigint NOT NULL,
            last_used_at  bigint NOT NULL,
            expires_at    bigint NOT NULL,
            failures      bigint NOT NULL DEFAULT 0 CHECK (failures >= 0),
            retry_at      bigint,
            last_error    text
        );
        CREATE INDEX cached_images_by_use ON cached_images (last_used_at) WHERE type IS NOT NULL;

        CREATE TABLE page_previews (
            page_url    text   NOT NULL CHECK (page_url <> ''),
            page_digest bytea  GENERATED ALWAYS AS (feeds_text_digest(page_url)) STORED PRIMARY KEY,
            image_url   text,
            checked_at  bigint NOT NULL
        );
        """,
        // 6: `feeds html` (PostgresStore+Digest.swift): each day's
        // and each source's stamp read from this index alone (an index-only scan, no card row):
        // SQLite's `cards_stamps` (its migration 12) with the id (its rowid) spelled out, and
        // the source first: the sources' stamps come grouped in index order, a tag's days read
        // only its sources' entries, all days the whole index (hashed by day). The statistics of
        // the day (`PostgresStore.dayOfSortDate`) tell the planner how few days there are, so it
        // hashes the index's entries by day instead of sorting them all (300,000 cards: 120 ms
        // where the sort spilled 12 MB to disk and took 350 ms).
        """
        CREATE INDEX cards_stamps ON cards (source_id, sort_date, changed_at, id);
        CREATE STATISTICS cards_days ON ((sort_date / 86400 - (sort_date % 86400 < 0)::int)) FROM cards;
        """,
        // 7: what `feeds
        // browse` reads before each frame to see that another session committed a change to
        // the listing (PostgresStore+BrowseVersion.swift), as SQLite's `PRAGMA data_version`.
        // `card_changes.version` counts the transactions that changed cards (inserted, deleted,
        // any column but `last_seen_at`, which every fetch writes and no listing shows) or a
        // source's name, feed title, URL or tags. The bump is a deferred constraint trigger: it
        // runs at COMMIT, once per transaction (a transaction-local flag), so the row is locked
        // only from then to the end of the commit, and a transaction holding it never waits
        // for another lock (no deadlock; committing transactions queue for it, nothing else).
        // Each session also counts its own bumps (`feeds.own_card_changes`, a session setting,
        // undone with its transaction): the version less that is what others committed.
        """
        CREATE TABLE card_changes (
            one_row boolean PRIMARY KEY DEFAULT true CHECK (one_row),
            version bigint  NOT NULL CHECK (version >= 0)
        );
        INSERT INTO card_changes (one_row, version) VALUES (true, 0);
        CREATE FUNCTION feeds_note_card_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF current_setting('feeds.cards_changed', true) IS DISTINCT FROM 'yes' THEN
                UPDATE card_changes SET version = version + 1;
                PERFORM set_config('feeds.cards_changed', 'yes', true);
                PERFORM set_config('feeds.own_card_changes',
                    (coalesce(nullif(current_setting('feeds.own_card_changes', true), ''), '0')::bigint + 1)::text, false);
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE CONSTRAINT TRIGGER cards_changed
            AFTER INSERT OR DELETE OR UPDATE OF source_id, card_key, guid, title, description, link, image,
                published, updated, author, kind, enclosures, content_hash, first_seen_at, changed_at,
                is_read, sort_date
            ON cards DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW EXECUTE FUNCTION feeds_note_card_change();
        CREATE CONSTRAINT TRIGGER sources_renamed
            AFTER UPDATE OF name, feed_title, url, tags ON sources DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW
            WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.feed_title IS DISTINCT FROM NEW.feed_title
                  OR OLD.url IS DISTINCT FROM NEW.url OR OLD.tags IS DISTINCT FROM NEW.tags)
            EXECUTE FUNCTION feeds_note_card_change();
        CREATE TRIGGER cards_truncated AFTER TRUNCATE ON cards
            FOR EACH STATEMENT EXECUTE FUNCTION feeds_note_card_change();
        """,
        // 8: what update workers need past one machine (issue 22).
        // - `sources.lease_takeovers`: the leases of the source that ended with no outcome
        //   recorded while a worker was reading it (its reading mark still set when another
        //   worker took it over), in a row; back to 0 with an outcome. One is a worker killed
        //   or crashed; the source is then fetched in a process of its own, and a count that
        //   still grows quarantines it (`UpdateWorker.quarantineTakeovers`).
        // - `feeds_take_host_slot`: `SharedHostState.acquireHostSlot` in one round trip (it was
        //   seven: BEGIN, five statements, COMMIT), giving back the worker's finished slots at
        //   the same time. PL/pgSQL: each statement reads what was committed before it ran,
        //   so the count after the host's row lock sees every slot the lock's last holder added.
        """
        ALTER TABLE sources ADD COLUMN lease_takeovers bigint NOT NULL DEFAULT 0 CHECK (lease_takeovers >= 0);

        CREATE FUNCTION feeds_take_host_slot(p_host text, p_limit bigint, p_worker text, p_until bigint,
                                             p_now bigint, p_release bigint[])
            RETURNS TABLE (slot_id bigint, held bigint, backoff_until bigint)
            LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            backoff bigint;
            taken bigint;
            granted bigint;
        BEGIN
            IF cardinality(p_release) > 0 THEN
                DELETE FROM host_slots WHERE id = ANY(p_release);
            END IF;
            INSERT INTO hosts (host) VALUES (p_host) ON CONFLICT (host) DO NOTHING;
            SELECT h.backoff_until INTO backoff FROM hosts h WHERE h.host = p_host FOR UPDATE;
            IF backoff > p_now THEN
                RETURN QUERY SELECT NULL::bigint, NULL::bigint, backoff;
                RETURN;
            END IF;
            DELETE FROM host_slots s WHERE s.host = p_host AND s.until <= p_now;
            SELECT count(*) INTO taken FROM host_slots s WHERE s.host = p_host;
            IF taken >= greatest(p_limit, 1) THEN
                RETURN QUERY SELECT NULL::bigint, taken, NULL::bigint;
                RETURN;
            END IF;
            INSERT INTO host_slots (host, worker, until) VALUES (p_host, p_worker, p_until) RETURNING id INTO granted;
            RETURN QUERY SELECT granted, taken, NULL::bigint;
        END
        $$;
        """,
    ]

    static var currentVersion: Int { migrations.count }
}
