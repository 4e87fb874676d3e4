-- StackDoc schema, version 3: every document gets an identity that is never reused.
-- `document.id` is an INTEGER PRIMARY KEY, which SQLite hands out again after the newest document
-- is dropped, and `version` restarts at 1 for a re-created document: a handle of a dropped
-- document could pass the version check of its namesake (or of any document that got its id).
-- Every handle remembers `uid` and checks it with the version in every transaction.
ALTER TABLE document ADD COLUMN uid TEXT;
UPDATE document SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
CREATE UNIQUE INDEX document_by_uid ON document(uid);
