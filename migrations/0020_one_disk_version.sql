-- StackDoc schema, version 20: one on-disk version. Before this SQL, the migration's Swift part
-- (Store/SQLite/Upgrade/OneDiskVersion.swift, in the same transaction) converts what older
-- schemas left in older shapes: the rows of imports made before schema 13 (`row.import_seq` N)
-- become the entry's image in `import_image`, snapshot and import images of formats 1 and 2 are
-- written again in format 3, log entries of formats 1 and 2 become format 3 (LegacyLog.swift:
-- `forward` as a ChangeBlob, no stored `inverse`, an undo/redo naming the steps it moved). From
-- this schema on the running code reads only today's formats.
-- Then `row` is rebuilt without `import_seq`: every row left is a current row (`import_seq` 0),
-- so the primary key is (document, parent, order_key) and the id index covers every row.
CREATE TABLE row_v20 (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
    parent                TEXT    NOT NULL,          -- '' for the root stack
    order_key             TEXT    NOT NULL,
    id                    TEXT    NOT NULL,
    size                  REAL,                      -- NULL = fit, else fixed N
    fields                BLOB,                      -- NULL = every other field at its default
    PRIMARY KEY (document, parent, order_key)
) WITHOUT ROWID;
INSERT INTO row_v20 (document, parent, order_key, id, size, fields)
    SELECT document, parent, order_key, id, size, fields FROM row ORDER BY document, parent, order_key;
DROP TABLE row;
ALTER TABLE row_v20 RENAME TO row;
CREATE UNIQUE INDEX row_by_id ON row(id, document);
