-- StackDoc schema, version 18 (issue 11 target 3): snapshot images of format 2.
-- Nothing in the tables changes. From this schema on, StackDoc writes snapshot and import
-- images (`snapshot.image`, `import_image.image`) in format 2, where a row's whole-number
-- lengths (`fixed 40`, content 120x44) are varints instead of 8-byte doubles: a flat 1M-row
-- document's image takes ≈ 11.6 MB instead of ≈ 18 MB (Benchmarks/RESULTS.md 2026-11-28).
-- Format 1 images stay as they are and are read as before. The version moves so that an older
-- StackDoc, which reads only format 1, refuses the file as newer instead of calling its new
-- images damaged.
SELECT 1;
