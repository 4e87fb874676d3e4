// The few SQLite calls Swift cannot make itself: `sqlite3_db_config` is a C variadic function,
// which Swift does not import (the Store target, docs/store.md "Writing a write's rows: runs").
#ifndef STACKDOC_CSQLITECONFIG_H
#define STACKDOC_CSQLITECONFIG_H

struct sqlite3;

/// Turns foreign key enforcement of connection `db` on (`on` = 1) or off (0) with
/// `SQLITE_DBCONFIG_ENABLE_FKEY`, which — unlike `PRAGMA foreign_keys` — also works inside a
/// transaction. Returns the setting now in force (0 or 1), or -1 when SQLite refused.
int stackdoc_sqlite_enforce_foreign_keys(struct sqlite3 *db, int on);

#endif
