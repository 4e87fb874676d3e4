-- StackDoc schema, version 11 (issue 15 item 7): bounded history. `history compact before REF`
-- drops a document's log entries up to a point; `history_base` is the last entry dropped (0:
-- the whole history is kept). The document right after that entry is the snapshot of the
-- same `seq` (the compaction writes it and nothing deletes it while it is the base): replay,
-- time travel and `verify` start from it, and references to earlier entries are refused.
ALTER TABLE document ADD COLUMN history_base INTEGER NOT NULL DEFAULT 0;
