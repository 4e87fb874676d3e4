-- StackDoc schema, version 9: snapshots of documents (Store/Snapshots.swift, docs/store.md
-- "Snapshots"). A snapshot is a compact binary image of a document's rows and settings as they
-- were after log entry `seq`, when the document's version was `version`. Opening a document
-- reads its newest snapshot and applies the log entries after `seq`, instead of stepping every
-- row of `row`; history reads (time travel, diff, restore, verify) start from the newest
-- snapshot at or before the point they need. Snapshots are derived data: a missing, damaged or
-- stale one (checked by its checksum, uid, version and seq) is ignored and the rows are read.
CREATE TABLE snapshot (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
    version               INTEGER NOT NULL,          -- the document's version the image is of
    uid                   TEXT    NOT NULL,          -- the document's uid (also inside the image)
    seq                   INTEGER NOT NULL,          -- the last log entry the image includes
    rows                  INTEGER NOT NULL,          -- rows in the image
    image                 BLOB    NOT NULL,          -- SnapshotImage format 1, checksum last
    time                  REAL    NOT NULL,          -- seconds since 1970
    PRIMARY KEY (document, version)
) WITHOUT ROWID;
