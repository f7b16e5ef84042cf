#ifndef WSH_CSQLITE_SHIM_H
#define WSH_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift cannot import:
// these bind a copy of the bytes, so the caller's buffer need not outlive the statement.
static inline int wsh_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
static inline int wsh_sqlite3_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}
// These bind the caller's bytes where they are (SQLITE_STATIC): they must stay there, unchanged,
// until the parameter is bound again or cleared.
static inline int wsh_sqlite3_bind_text_in_place(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_STATIC);
}
static inline int wsh_sqlite3_bind_blob_in_place(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_STATIC);
}

// Replaces SQLite's automatic checkpoints with a count: after each commit, `*frames` holds how
// many frames the write-ahead log has, and the caller checkpoints when it suits it.
static int wsh_sqlite3_wal_count(void *frames, sqlite3 *database, const char *name, int count) {
    (void)database;
    (void)name;
    *(int *)frames = count;
    return SQLITE_OK;
}
static inline void wsh_sqlite3_count_wal_frames(sqlite3 *database, int *frames) {
    sqlite3_wal_hook(database, wsh_sqlite3_wal_count, frames);
}

#endif
