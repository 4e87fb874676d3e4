-- An open `begin … commit` group belongs to its session, the origin (`--as NAME`) that began
-- it (SPEC §3 "Groups belong to the session"): one open group per document and origin ('' for
-- a session that records none). The document's single open_group moves here, under the origin
-- of its `begin` entry, and is no longer written.
CREATE TABLE open_group (
    document bigint NOT NULL,
    origin text COLLATE "C" NOT NULL,
    seq bigint NOT NULL,
    PRIMARY KEY (document, origin)
);
INSERT INTO open_group (document, origin, seq)
    SELECT d.id, coalesce((SELECT l.origin FROM log l WHERE l.document = d.id AND l.seq = d.open_group), ''), d.open_group
    FROM document d WHERE d.open_group IS NOT NULL;
UPDATE document SET open_group = NULL WHERE open_group IS NOT NULL;
