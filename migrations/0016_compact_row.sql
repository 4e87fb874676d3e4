-- StackDoc schema, version 16 (issue 11 target 3, issue 15 item 8): the compact `row` record.
-- A row keeps its place, id and size in columns; every other field of its config is ONE BLOB,
-- `fields` (Store/RowFields.swift: a flags byte, the content, the style as a snapshot image
-- writes it), NULL when all of them are at their defaults, as most rows of a large document
-- are. Until 15 a row had 26 config columns (a 33-byte record header, a byte per column, and
-- `OP_MakeRecord` walking every column of every INSERT). SQLite's own work for the rows of the
-- 1M-row import (`scripts/measure-row-shape`, RESULTS.md 2026-11-27 19:05–19:41 UTC) was 3.71 s
-- with that record and 2.13 s with this one (database 103.5 → 66.2 MB); the undo of a 100k-row
-- `clear` spent ≈ 300 ms in its INSERTs.
--
-- Every row is converted, current ones (import_seq 0) and those of imports made before 0013
-- (import_seq N), by `stackdoc_row_fields_v15`, a deterministic SQL function of this binary
-- (Store/LegacyRowColumns.swift; `Schema` registers it on every connection it migrates). The
-- constraints stay: the document's rows go with it, import_seq ≥ 0, the primary key keeps each
-- stack's rows together in order, ids are unique among the current rows.
CREATE TABLE row_v16 (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
    import_seq            INTEGER NOT NULL DEFAULT 0 CHECK (import_seq >= 0),
    parent                TEXT    NOT NULL,          -- '' for the root stack
    order_key             TEXT    NOT NULL,
    id                    TEXT    NOT NULL,
    size                  REAL,                      -- NULL = fit, else fixed N
    fields                BLOB,                      -- NULL = every other field at its default
    PRIMARY KEY (document, import_seq, parent, order_key)
) WITHOUT ROWID;
INSERT INTO row_v16 (document, import_seq, parent, order_key, id, size, fields)
    SELECT document, import_seq, parent, order_key, id, size,
           stackdoc_row_fields_v15(type, content_width, content_height, insets, margin, grow, shrink, align_self,
                                   hidden, separator_hidden, separator_insets, separator_thickness, separator_color,
                                   stack_axis, stack_justify, stack_align, stack_spacing, sticky,
                                   min_main, max_main, min_cross, max_cross, background, highlight, text, aspect)
    FROM row ORDER BY document, import_seq, parent, order_key;
DROP TABLE row;
ALTER TABLE row_v16 RENAME TO row;
-- Rows are looked up by id only among the current ones; an import's rows cost no index entries.
CREATE UNIQUE INDEX row_by_id ON row(document, id) WHERE import_seq = 0;
