-- StackDoc schema, version 2: when each document was created and last changed (for `docs`).
-- Documents from version 1 get the time of their first and last log entries.
ALTER TABLE document ADD COLUMN created REAL;
ALTER TABLE document ADD COLUMN modified REAL;
UPDATE document SET
    created  = (SELECT min(time) FROM log WHERE log.document = document.id),
    modified = (SELECT max(time) FROM log WHERE log.document = document.id);
