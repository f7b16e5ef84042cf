/* What SQLite alone costs for the call history's writes: bench/run's "history floor" row.
 *
 *     history-floor SOURCE.sqlite DESTINATION.sqlite CALLS
 *
 * Takes the newest row of SOURCE's `calls` table (a call the bench just recorded, so its size is
 * that of the 2000-call rows) and writes it CALLS times into a new DESTINATION, as wsh's history
 * writer does (Sources/CallHistory/CallStore.swift): 8 KB pages, incremental auto-vacuum, WAL,
 * synchronous NORMAL, one prepared INSERT, 128 rows a transaction, and a TRUNCATE checkpoint
 * whenever the log holds 1 MB. No masking, no queue, no threads, no size cap: a lower bound on
 * what recording those calls can cost. Prints the CPU time (user + system) and the wall time, in
 * milliseconds, on one line. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static const char *columns =
    "time, target, method, url, status, elapsed_ms, stub, failure, size, reason, final_url, arguments, "
    "masked_arguments, withheld, request_headers, request_body, response_headers, body_size, body";

static double cpu_ms(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
        + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

static double wall_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

/* The log's frames after each commit, as the writer counts them (a hook, as wsh's). */
static int frames = 0;

static int count_frames(void *unused, sqlite3 *db, const char *name, int pages) {
    (void)unused, (void)db, (void)name;
    frames = pages;
    return SQLITE_OK;
}

static int fail(sqlite3 *db, const char *what) {
    fprintf(stderr, "history-floor: %s: %s\n", what, db ? sqlite3_errmsg(db) : "cannot open");
    return 2;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: history-floor SOURCE.sqlite DESTINATION.sqlite CALLS\n");
        return 2;
    }
    int calls = atoi(argv[3]);
    sqlite3 *source, *db;
    if (sqlite3_open_v2(argv[1], &source, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) return fail(source, "source");
    char sql[1024];
    snprintf(sql, sizeof sql, "SELECT %s FROM calls ORDER BY id DESC LIMIT 1", columns);
    sqlite3_stmt *newest;
    if (sqlite3_prepare_v2(source, sql, -1, &newest, NULL) != SQLITE_OK) return fail(source, "source");
    if (sqlite3_step(newest) != SQLITE_ROW) {
        fprintf(stderr, "history-floor: no call in %s\n", argv[1]);
        return 2;
    }

    /* As wsh opens it: one connection used by one thread at a time, no mutex. */
    if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return fail(db, "destination");
    if (sqlite3_exec(db, "PRAGMA page_size = 8192; PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL;"
                         "PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304; PRAGMA wal_autocheckpoint = 0",
                     NULL, NULL, NULL) != SQLITE_OK) return fail(db, "settings");
    if (sqlite3_exec(db, "CREATE TABLE calls (id INTEGER PRIMARY KEY, time REAL NOT NULL, target TEXT NOT NULL,"
                         " method TEXT NOT NULL, url TEXT NOT NULL, status INTEGER, elapsed_ms REAL NOT NULL,"
                         " stub INTEGER NOT NULL DEFAULT 0, failure TEXT, size INTEGER NOT NULL, reason TEXT, final_url TEXT,"
                         " arguments TEXT NOT NULL, masked_arguments TEXT NOT NULL, withheld TEXT NOT NULL,"
                         " request_headers TEXT NOT NULL, request_body BLOB, response_headers TEXT, body_size INTEGER, body BLOB)",
                     NULL, NULL, NULL) != SQLITE_OK) return fail(db, "schema");
    snprintf(sql, sizeof sql, "INSERT INTO calls (%s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
             "?14, ?15, ?16, ?17, ?18, ?19)", columns);
    sqlite3_stmt *insert;
    if (sqlite3_prepare_v2(db, sql, -1, &insert, NULL) != SQLITE_OK) return fail(db, "insert");
    sqlite3_wal_hook(db, count_frames, NULL);

    double cpu = cpu_ms(), wall = wall_ms();
    for (int first = 0; first < calls; first += 128) {
        if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return fail(db, "begin");
        for (int call = first; call < first + 128 && call < calls; call++) {
            for (int column = 0; column < 19; column++)
                sqlite3_bind_value(insert, column + 1, sqlite3_column_value(newest, column));
            if (sqlite3_step(insert) != SQLITE_DONE) return fail(db, "insert");
            sqlite3_reset(insert);
        }
        if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) return fail(db, "commit");
        if ((long)frames * 8192 >= 1 << 20) {
            sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
            frames = 0;
        }
    }
    printf("%.3f %.3f\n", cpu_ms() - cpu, wall_ms() - wall);
    sqlite3_finalize(insert);
    sqlite3_finalize(newest);
    sqlite3_close(db);
    sqlite3_close(source);
    return 0;
}
