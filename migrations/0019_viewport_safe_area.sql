-- StackDoc schema, version 19: the viewport's safe area (view state, SPEC §2.5): edges that are obscured and extend the scroll range.
ALTER TABLE document ADD COLUMN viewport_safe_area TEXT NOT NULL DEFAULT '0.0,0.0,0.0,0.0';
-- From this schema on, snapshot and import images are written in format 3 (the settings end
-- with the safe area); images of formats 1 and 2 are read as before, as no safe area.
