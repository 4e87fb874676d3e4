-- StackDoc schema, version 4: the format of each log entry's payloads (see Store/LogFormat.swift).
-- Format 1 is what every earlier release wrote, so existing entries are format 1.
ALTER TABLE log ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
