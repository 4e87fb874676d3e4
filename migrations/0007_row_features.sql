-- StackDoc schema, version 7: the row features of issue 14 (layout model II) on `row`,
-- every one NULL when the row does not use it (older rows need no rewrite):
-- size limits along the parent's main and cross axes (border box, points) and the row's
-- background and highlight colours (#RRGGBB).
ALTER TABLE row ADD COLUMN min_main REAL;
ALTER TABLE row ADD COLUMN max_main REAL;
ALTER TABLE row ADD COLUMN min_cross REAL;
ALTER TABLE row ADD COLUMN max_cross REAL;
ALTER TABLE row ADD COLUMN background TEXT;
ALTER TABLE row ADD COLUMN highlight TEXT;
