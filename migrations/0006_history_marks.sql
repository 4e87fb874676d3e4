-- StackDoc schema, version 6 (issue 15): marks, restores and who wrote each entry.
-- The log's `kind` gains 'mark' (a named point of the history: label = the name, payload = the
-- undo cursor and the first entry of the step it stands on) and 'restore' (one undo step that
-- makes the document equal to an earlier point: payload = that point). `origin` names who wrote
-- the entry (`--as NAME`, else user:pid); NULL for entries older than this version. SQLite
-- cannot change a CHECK constraint in place, so the table is rebuilt with the same rows.
CREATE TABLE log_v6 (
    document              INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
    seq                   INTEGER NOT NULL,
    kind                  TEXT    NOT NULL CHECK (kind IN
                              ('new', 'import', 'op', 'view', 'undo', 'redo', 'begin', 'commit', 'mark', 'restore')),
    payload               TEXT,
    forward               TEXT,
    inverse               TEXT,
    grp                   INTEGER,
    label                 TEXT,
    time                  REAL    NOT NULL,
    format                INTEGER NOT NULL DEFAULT 1,
    origin                TEXT,
    PRIMARY KEY (document, seq)
) WITHOUT ROWID;
INSERT INTO log_v6 (document, seq, kind, payload, forward, inverse, grp, label, time, format)
    SELECT document, seq, kind, payload, forward, inverse, grp, label, time, format FROM log;
DROP TABLE log;
ALTER TABLE log_v6 RENAME TO log;
-- Mark names are unique per document (and found by name without a scan).
CREATE UNIQUE INDEX log_mark_names ON log(document, label) WHERE kind = 'mark';
