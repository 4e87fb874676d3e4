// SQLite's variadic `sqlite3_db_config`, which Swift cannot call (CStackDocSystem.h).
#include "CStackDocSystem.h"
#include <sqlite3.h>

int stackdoc_sqlite_enforce_foreign_keys(struct sqlite3 *db, int on) {
    int now = -1;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, on, &now) != SQLITE_OK) return -1;
    return now;
}
