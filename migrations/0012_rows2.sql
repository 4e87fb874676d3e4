-- StackDoc schema, version 12: text rows and aspect ratios (issue 14, items 2 and 3; SPEC §2.3).
-- One TEXT column per optional row field (`RowField`), NULL = not set, in the REPL's words:
-- `text` is 'N char W line H', `aspect` is 'W H'.
ALTER TABLE row ADD COLUMN text TEXT;
ALTER TABLE row ADD COLUMN aspect TEXT;
-- (The rows of import entries are rows of `row` since 0005: the columns above are theirs too.)
