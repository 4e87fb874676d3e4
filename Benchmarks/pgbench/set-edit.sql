-- pgbench's transaction of the same shape as one StackDoc `set` edit on PostgreSQL
-- (scripts/bench-postgres; the statements PostgreSQLTransaction sends, seen with
-- log_statement=all): the same 9 statements in the same 2 round trips (`\;` joins statements
-- into one query string: pgbench -M simple sends it as one message).
--   round trip 1: BEGIN; lock_timeout; the document's version FOR UPDATE
--   round trip 2: the row, the log entry, the redo steps dropped, the step, the header; COMMIT
-- -D distinct=1: client k writes document k+1 (distinct documents); 0: every client document 1.
-- -D notify=1: one pg_notify (document and version) before COMMIT, as NOTIFY-based live updates send.
\set doc 1 + :distinct * :client_id
\set size random(21, 70)
BEGIN \; SET LOCAL lock_timeout = 5000 \; SELECT version FROM document WHERE id = :doc FOR UPDATE \gset
\if :notify
UPDATE row SET size = :size, fields = NULL WHERE document = :doc AND id = 'r100' \; INSERT INTO log (document, seq, kind, payload, forward, grp, label, time, format, origin) VALUES (:doc, :version + 1, 'op', '{"set":{"id":"r100","spec":[{"fixed":{"_0":40}}]}}', '\x5344434801000103027233000000000000004440000000000000804440ed3b84d6aa7b733a'::bytea, NULL, NULL, extract(epoch from clock_timestamp()), 3, 'pgbench') \; DELETE FROM step WHERE document = :doc AND n > :version \; INSERT INTO step (document, n, first_seq, last_seq, label) VALUES (:doc, :version + 1, :version + 1, :version + 1, NULL) \; UPDATE document SET version = :version + 1, cursor = :version + 1, open_group = NULL, modified = extract(epoch from clock_timestamp()) WHERE id = :doc \; SELECT pg_notify('stackdoc', 'doc' || :doc || ' ' || (:version + 1)) \; COMMIT
\else
UPDATE row SET size = :size, fields = NULL WHERE document = :doc AND id = 'r100' \; INSERT INTO log (document, seq, kind, payload, forward, grp, label, time, format, origin) VALUES (:doc, :version + 1, 'op', '{"set":{"id":"r100","spec":[{"fixed":{"_0":40}}]}}', '\x5344434801000103027233000000000000004440000000000000804440ed3b84d6aa7b733a'::bytea, NULL, NULL, extract(epoch from clock_timestamp()), 3, 'pgbench') \; DELETE FROM step WHERE document = :doc AND n > :version \; INSERT INTO step (document, n, first_seq, last_seq, label) VALUES (:doc, :version + 1, :version + 1, :version + 1, NULL) \; UPDATE document SET version = :version + 1, cursor = :version + 1, open_group = NULL, modified = extract(epoch from clock_timestamp()) WHERE id = :doc \; COMMIT
\endif
