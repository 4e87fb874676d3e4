-- StackDoc schema, version 5: the rows an `import` entry brought in are kept in `row` too, so a
-- row's columns are declared once. `import_seq` is 0 for a document's current rows and N for the
-- rows that its `import` log entry N brought in (they never change: replay starts from them).
-- `import_row` is gone; its rows move into `row` with their entry's seq.
CREATE TABLE row_v5 (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
    import_seq            INTEGER NOT NULL DEFAULT 0 CHECK (import_seq >= 0),
    parent                TEXT    NOT NULL,          -- '' for the root stack
    order_key             TEXT    NOT NULL,
    id                    TEXT    NOT NULL,
    type                  TEXT    NOT NULL,
    size                  REAL,                      -- NULL = fit, else fixed N
    content_width         REAL    NOT NULL,
    content_height        REAL    NOT NULL,
    insets                TEXT,                      -- NULL = inherit the document default
    margin                TEXT,                      -- NULL = 0,0,0,0
    grow                  REAL    NOT NULL,
    shrink                REAL    NOT NULL,
    align_self            TEXT    NOT NULL,
    hidden                INTEGER NOT NULL,
    -- Separator overrides: NULL follows the document default.
    separator_hidden      INTEGER,
    separator_insets      TEXT,
    separator_thickness   REAL,
    separator_color       TEXT,
    -- Stack settings: stack_axis NULL = not a stack.
    stack_axis            TEXT,
    stack_justify         TEXT,
    stack_align           TEXT,
    stack_spacing         REAL,
    -- Each stack's rows lie together in order: loading one is one sequential scan.
    PRIMARY KEY (document, import_seq, parent, order_key)
) WITHOUT ROWID;
INSERT INTO row_v5 (document, import_seq, parent, order_key, id, type, size, content_width, content_height,
                    insets, margin, grow, shrink, align_self, hidden, separator_hidden, separator_insets,
                    separator_thickness, separator_color, stack_axis, stack_justify, stack_align, stack_spacing)
    SELECT document, 0, parent, order_key, id, type, size, content_width, content_height,
           insets, margin, grow, shrink, align_self, hidden, separator_hidden, separator_insets,
           separator_thickness, separator_color, stack_axis, stack_justify, stack_align, stack_spacing
    FROM row;
INSERT INTO row_v5 (document, import_seq, parent, order_key, id, type, size, content_width, content_height,
                    insets, margin, grow, shrink, align_self, hidden, separator_hidden, separator_insets,
                    separator_thickness, separator_color, stack_axis, stack_justify, stack_align, stack_spacing)
    SELECT document, seq, parent, order_key, id, type, size, content_width, content_height,
           insets, margin, grow, shrink, align_self, hidden, separator_hidden, separator_insets,
           separator_thickness, separator_color, stack_axis, stack_justify, stack_align, stack_spacing
    FROM import_row;
DROP TABLE import_row;
DROP TABLE row;
ALTER TABLE row_v5 RENAME TO row;
-- Rows are looked up by id only among the current ones; an import's rows cost no index entries.
CREATE UNIQUE INDEX row_by_id ON row(document, id) WHERE import_seq = 0;
