// The C calls Swift cannot make itself, in one place (the StackDocRuntime and Store targets):
// Linux calls that glibc declares only with `_GNU_SOURCE` (which Swift's Glibc module does not
// define) or in <malloc.h> (which it does not import), and SQLite's variadic
// `sqlite3_db_config` (Swift imports no C variadic function). Each wrapper passes its
// arguments through unchanged; where the system has no such call (not Linux) it fails with
// `ENOSYS`. The flag values come from the system's own headers (the `stackdoc_*` constants).
#ifndef STACKDOC_CSYSTEM_H
#define STACKDOC_CSYSTEM_H

#include <stdint.h>

struct sqlite3;

/// `sync_file_range(fd, offset, count, flags)`: 0, or -1 with `errno`.
int stackdoc_sync_file_range(int fd, int64_t offset, int64_t count, unsigned int flags);
/// `SYNC_FILE_RANGE_WRITE`: start writing the range's dirty pages, wait for nothing.
extern const unsigned int stackdoc_sync_file_range_write;

/// glibc's `mallopt(parameter, value)`: 1 on success, 0 on failure.
int stackdoc_mallopt(int parameter, int value);
/// `M_TOP_PAD`: bytes asked for beyond each heap growth.
extern const int stackdoc_m_top_pad;
/// `M_MMAP_THRESHOLD`: blocks at least this large are mapped on their own.
extern const int stackdoc_m_mmap_threshold;

/// `renameat2(olddirfd, oldpath, newdirfd, newpath, flags)`: 0, or -1 with `errno`.
int stackdoc_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
/// `RENAME_EXCHANGE`: swap the two names in one step.
extern const unsigned int stackdoc_rename_exchange;

/// `fallocate(fd, mode, offset, length)` (64-bit offsets): 0, or -1 with `errno`.
int stackdoc_fallocate(int fd, int mode, int64_t offset, int64_t length);
/// `FALLOC_FL_KEEP_SIZE`: reserve space past the end without changing the file's size.
extern const int stackdoc_falloc_keep_size;

/// Turns foreign key enforcement of connection `db` on (`on` = 1) or off (0) with
/// `sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, on, &now)`, which — unlike
/// `PRAGMA foreign_keys` — also works inside a transaction. Returns the setting now in force
/// (0 or 1), or -1 when SQLite refused.
int stackdoc_sqlite_enforce_foreign_keys(struct sqlite3 *db, int on);

#endif
