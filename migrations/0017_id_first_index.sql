-- StackDoc schema, version 17 (issue 11 target 3): the id index leads with the id.
-- `row_by_id` was (document, id): every entry of a document starts with the same integer, so
-- SQLite's sorter, which compares the first field of two entries by a fast path and only on a
-- tie the whole record, took the slow path for every comparison while it built the index (after
-- an import, a big undo or redo: `DeferredIDIndex`). Led by the id, entries rarely tie: the
-- build of a 1M-row document's index takes ≈ 0.41 s instead of ≈ 0.53 s (the `sqlite3` shell,
-- Benchmarks/RESULTS.md 2026-11-28). Lookups name both columns (`document = ? AND id = ?`)
-- and use it as before; counting a document's rows walks its range of the table instead.
DROP INDEX row_by_id;
CREATE UNIQUE INDEX row_by_id ON row(id, document) WHERE import_seq = 0;
