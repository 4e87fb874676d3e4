-- StackDoc schema, version 8: the viewport's obscured edges and the keyboard (view state, SPEC §2.5) and sticky rows (SPEC §2.7).
ALTER TABLE document ADD COLUMN viewport_insets TEXT NOT NULL DEFAULT '0.0,0.0,0.0,0.0';
ALTER TABLE document ADD COLUMN keyboard REAL NOT NULL DEFAULT 0;
ALTER TABLE row ADD COLUMN sticky INTEGER NOT NULL DEFAULT 0;
-- (The rows of import entries are rows of `row` since 0005: the column above is theirs too.)
