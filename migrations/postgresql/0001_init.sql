-- The PostgreSQL backend's schema (docs/shared-store.md): the same tables as the SQLite
-- schema's current shape, in PostgreSQL's types. Ids, names and order keys sort byte by byte
-- (COLLATE "C", as SQLite's BINARY): under a linguistic collation order keys sort otherwise.
-- Log payloads are text exactly as written (never jsonb, which reorders keys); change lists,
-- row fields and images are bytea in the StoreFormat codecs the SQLite backend writes.
-- No foreign keys: every delete of a document deletes its rows in each table
-- (PostgreSQLTransaction.dropDocument), and a foreign key on `row` cost ≈ 10 CPU-s per 1M rows.

-- One document: its identity, counters and settings (LogFormat's settings text).
CREATE TABLE document (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    uid text COLLATE "C" NOT NULL UNIQUE,
    name text COLLATE "C" NOT NULL UNIQUE,
    version bigint NOT NULL,
    cursor bigint NOT NULL DEFAULT 0,
    open_group bigint,
    history_base bigint NOT NULL DEFAULT 0,
    settings text NOT NULL,
    created double precision NOT NULL,
    modified double precision NOT NULL
);

-- A document's current rows: `parent` '' for the root; `size` NULL = fit; `fields` RowFields.
CREATE TABLE row (
    document bigint NOT NULL,
    id text COLLATE "C" NOT NULL,
    parent text COLLATE "C" NOT NULL,
    order_key text COLLATE "C" NOT NULL,
    size double precision,
    fields bytea,
    PRIMARY KEY (document, id)
);
CREATE INDEX row_order ON row (document, parent, order_key);

-- The operation log: `forward` ChangeBlob bytes (format 3; an inverse is never stored: it is forward's).
CREATE TABLE log (
    document bigint NOT NULL,
    seq bigint NOT NULL,
    kind text NOT NULL,
    payload text,
    forward bytea,
    grp bigint,
    label text,
    time double precision NOT NULL,
    format integer NOT NULL,
    origin text,
    PRIMARY KEY (document, seq)
);

-- Undo steps: log entries first_seq…last_seq.
CREATE TABLE step (
    document bigint NOT NULL,
    n bigint NOT NULL,
    first_seq bigint NOT NULL,
    last_seq bigint NOT NULL,
    label text,
    PRIMARY KEY (document, n)
);

-- Snapshot images (SnapshotImage); `image` NULL: the import image of entry `seq`.
CREATE TABLE snapshot (
    document bigint NOT NULL,
    version bigint NOT NULL,
    uid text COLLATE "C" NOT NULL,
    seq bigint NOT NULL,
    rows bigint NOT NULL,
    image bytea,
    time double precision NOT NULL,
    PRIMARY KEY (document, version)
);

-- The rows each import entry brought in, as one SnapshotImage.
CREATE TABLE import_image (
    document bigint NOT NULL,
    seq bigint NOT NULL,
    image bytea NOT NULL,
    PRIMARY KEY (document, seq)
);

-- Every snapshot with its image resolved (an import's first snapshot is its import image).
CREATE VIEW snapshot_image AS
    SELECT s.document, s.version, s.uid, s.seq, s.rows, coalesce(s.image, i.image) AS image,
           octet_length(coalesce(s.image, i.image)) AS bytes
    FROM snapshot s LEFT JOIN import_image i ON s.image IS NULL AND i.document = s.document AND i.seq = s.seq;
