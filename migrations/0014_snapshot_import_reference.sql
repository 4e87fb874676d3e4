-- StackDoc schema, version 14: an import's first snapshot no longer holds a second copy of the
-- import image (Store/Snapshots.swift, docs/store.md "Snapshots"). Both were the same bytes
-- (17.9 MB at 1M rows, written twice by every import). The rule, in this one place: a snapshot
-- whose `image` is empty (X'') is the `import_image` (0013) of the same document and log entry.
-- Every reader of snapshot images and sizes reads the view `snapshot_image`, which resolves it;
-- writers and deletions use the `snapshot` table. An empty image without its import image reads
-- as NULL: a damaged snapshot, skipped like any other.
--
-- Nothing else changes. A StackDoc of schema 13, which would take the empty images for damaged
-- snapshots, refuses the file as newer. The first snapshots of imports stored before this
-- migration are turned into references when they hold the import image's very bytes.
CREATE VIEW snapshot_image AS
    SELECT s.document AS document, s.version AS version, s.uid AS uid, s.seq AS seq, s.rows AS rows, s.time AS time,
           CASE WHEN length(s.image) > 0 THEN s.image ELSE i.image END AS image,
           CASE WHEN length(s.image) > 0 THEN length(s.image) ELSE ifnull(length(i.image), 0) END AS bytes
    FROM snapshot s LEFT JOIN import_image i ON +i.document = s.document AND +i.seq = s.seq;

UPDATE snapshot SET image = X''
WHERE image = (SELECT i.image FROM import_image i WHERE i.document = snapshot.document AND i.seq = snapshot.seq);
