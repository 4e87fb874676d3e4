-- StackDoc schema, version 13: the rows an `import` log entry brought in are kept as ONE
-- `SnapshotImage` blob (Store/ImportImages.swift, docs/store.md "Import images") instead of a
-- second copy of every row in `row` under `import_seq` N: a 1M-row import wrote each row twice
-- (once current, once for replay). The image is the truth for replay, `log export` and time
-- travel (not derived data like `snapshot`: a damaged one is a corrupt file). Imports made
-- before this migration keep their rows in `row` (`import_seq` N) and are read from there.
CREATE TABLE import_image (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
    seq                   INTEGER NOT NULL,          -- the `import` log entry
    image                 BLOB    NOT NULL,          -- SnapshotImage of the imported document
    PRIMARY KEY (document, seq)
) WITHOUT ROWID;
