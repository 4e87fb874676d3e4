-- StackDoc schema, version 1.
-- Marks the file as a StackDoc database ('SDOC'); foreign SQLite files are refused on open.
PRAGMA application_id = 1396985667;

-- One row per document: the root stack's settings, the live defaults, the version checked by
-- every write, and the history cursor.
CREATE TABLE document (
    id                    INTEGER PRIMARY KEY,
    name                  TEXT    NOT NULL UNIQUE,
    -- Number of the last log entry; every write transaction checks it (stale writers fail).
    version               INTEGER NOT NULL DEFAULT 0,
    -- Root stack settings (SPEC §2.1). Edges are text "top,left,bottom,right".
    axis                  TEXT    NOT NULL,
    viewport_width        REAL    NOT NULL,
    viewport_height       REAL    NOT NULL,
    offset                REAL    NOT NULL,
    padding               TEXT    NOT NULL,
    spacing               REAL    NOT NULL,
    justify               TEXT    NOT NULL,
    align                 TEXT    NOT NULL,
    -- Live defaults: row insets and the separator rows that override nothing follow.
    default_insets        TEXT    NOT NULL,
    separator_hidden      INTEGER NOT NULL,
    separator_insets      TEXT    NOT NULL,
    separator_thickness   REAL    NOT NULL,
    separator_color       TEXT    NOT NULL,
    autohide_last_separator INTEGER NOT NULL,
    -- History: undo steps 1...cursor are applied, cursor+1... are the redo tail.
    cursor                INTEGER NOT NULL DEFAULT 0,
    -- seq of the `begin` entry of an open begin…commit group, NULL when none is open.
    open_group            INTEGER
);

-- Rows, stored in stack order: the primary key (document, parent, order_key) keeps each stack's
-- rows together and sorted, so loading a document is one sequential scan. order_key is a
-- fractional key (text between its neighbours' keys), so an insert or move writes one row.
CREATE TABLE row (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
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
    PRIMARY KEY (document, parent, order_key)
) WITHOUT ROWID;
CREATE UNIQUE INDEX row_by_id ON row(document, id);

-- The operation log: every change of a document, in order. Replaying it from the empty
-- document gives the stored state.
CREATE TABLE log (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
    seq                   INTEGER NOT NULL,          -- 1, 2, 3… per document
    kind                  TEXT    NOT NULL CHECK (kind IN
                              ('new', 'import', 'op', 'view', 'undo', 'redo', 'begin', 'commit')),
    payload               TEXT,                      -- JSON: the Edit, the settings, the count
    forward               TEXT,                      -- JSON [Change] that this entry applied
    inverse               TEXT,                      -- JSON [Change] that undo it
    grp                   INTEGER,                   -- seq of the `begin` of the enclosing group
    label                 TEXT,
    time                  REAL    NOT NULL,          -- seconds since 1970
    PRIMARY KEY (document, seq)
) WITHOUT ROWID;

-- The rows an `import` entry brought in (same columns as `row`), so the import is replayable.
CREATE TABLE import_row (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
    seq                   INTEGER NOT NULL,          -- the import's log entry
    parent                TEXT    NOT NULL,
    order_key             TEXT    NOT NULL,
    id                    TEXT    NOT NULL,
    type                  TEXT    NOT NULL,
    size                  REAL,
    content_width         REAL    NOT NULL,
    content_height        REAL    NOT NULL,
    insets                TEXT,
    margin                TEXT,
    grow                  REAL    NOT NULL,
    shrink                REAL    NOT NULL,
    align_self            TEXT    NOT NULL,
    hidden                INTEGER NOT NULL,
    separator_hidden      INTEGER,
    separator_insets      TEXT,
    separator_thickness   REAL,
    separator_color       TEXT,
    stack_axis            TEXT,
    stack_justify         TEXT,
    stack_align           TEXT,
    stack_spacing         REAL,
    PRIMARY KEY (document, seq, parent, order_key)
) WITHOUT ROWID;

-- Undo steps: step n covers the log entries first_seq...last_seq (one operation, or one
-- begin…commit group).
CREATE TABLE step (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
    n                     INTEGER NOT NULL,
    first_seq             INTEGER NOT NULL,
    last_seq              INTEGER NOT NULL,
    label                 TEXT,
    PRIMARY KEY (document, n)
) WITHOUT ROWID;
