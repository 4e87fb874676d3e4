-- StackDoc schema, version 15 (issue 15 item 8): log entries of format 3 (Store/LogFormat.swift,
-- Store/ChangeBlob.swift). An entry's `forward` — the changes it applied — is a BLOB in a compact
-- binary coding (magic "SDCH", the distinct row styles once, then each change: its tag, ids,
-- indexes, and per config only its size, content, hidden flag and style number; a checksum)
-- instead of format 1's JSON text. A 100k-row `clear` logged 24.7 MB of JSON, which the clear
-- wrote and each undo and redo of it read back; its blob is about 2 MB.
-- Nothing is converted: entries of formats 1 and 2 keep their text and are read as before, and an
-- upgraded log mixes them with new format 3 entries (an undo of format 3 refers to a step of
-- format 2 as to any other). `forward`'s declared type stays TEXT: a TEXT column stores a BLOB as
-- it is. The version exists so that a StackDoc of schema 14, which cannot read format 3, refuses
-- the file as newer instead of calling its entries damaged.

-- The view below tells each entry's coding and size (what `scripts/measure-undo` sums); it also
-- makes the schema objects of version 15 differ from 14's, so that a file whose record of this
-- migration was deleted is recognized as damaged rather than upgraded again.
CREATE VIEW log_changes AS
    SELECT document, seq, kind, format, typeof(forward) AS coding, length(forward) AS bytes FROM log;
