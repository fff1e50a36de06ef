//! SQLite file: the appends written straight from the writer's thread.
//!
//! Through sqlx, every statement of a batch was a message to the connection's own thread and
//! its rows came back the same way (a wake-up each way, and SQLite's thread one more thread
//! wanting a core): the profile of the load test put sqlx's channels, wake-ups and argument
//! copies at about a quarter of that thread's time, and the writer's thread waited for it.
//! Here the writer's thread holds its own connection (rusqlite, over the same SQLite sqlx
//! links) and runs each batch itself, in one `BEGIN IMMEDIATE` transaction of prepared
//! statements, an append at a time: the `UPDATE` that moves its game from the version it
//! expects (none moved: a conflict, nothing written), then the `INSERT` of its action.
//!
//! Should an `INSERT` be refused (a row the schema refuses, which only a damaged database
//! has), the game's `UPDATE` is undone and only that append fails; should SQLite have rolled
//! the whole transaction back (it does on a full disk or an I/O error), or any other statement
//! fail, every append of the batch fails and nothing of it is kept. Nothing is answered `Ok`
//! before the `COMMIT`.
//!
//! The other writes (game creation, chat, rules versions) keep the sqlx writer connection: the
//! two take SQLite's write lock in turn (`busy_timeout`, as sqlx sets it).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior, params};
use tokio::sync::mpsc;

use crate::store::{Acknowledge, AppendJob, StoreError, conflict, count_to_sql, take_batch};

/// How long a statement waits for SQLite's write lock held by another connection (sqlx's
/// default, which the other writer connection has).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Opens the appends' connection to the database file `path` (made and migrated already).
pub(crate) fn open(path: &Path) -> Result<Connection, StoreError> {
    let fail = |e: rusqlite::Error| {
        StoreError::Write(format!("opening {} for appends: {e}", path.display()))
    };
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(fail)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
    // As the sqlx writer (see `SqlStore::connect_with`): WAL, committed without a sync (the
    // store syncs the WAL itself for `Durability::Disk`), no checkpoint after commits
    // (`checkpoint_wal` does them beside it), statement journals in memory.
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; \
         PRAGMA wal_autocheckpoint = 0; PRAGMA temp_store = MEMORY;",
    )
    .map_err(fail)?;
    Ok(conn)
}

/// The writer's thread: takes the queued appends in batches and commits each ([`write_batch`]),
/// one after the other; while it writes, the queue grows, so the next batch is larger. When
/// `restart` is set (the WAL has grown long), it checkpoints the WAL itself between two
/// batches, so that the WAL starts over. Ends when every `SqlStore` clone is dropped.
pub(crate) fn run(
    mut conn: Connection,
    mut queue: mpsc::Receiver<AppendJob>,
    acknowledge: Acknowledge,
    restart: Arc<AtomicBool>,
) {
    while let Some(first) = queue.blocking_recv() {
        if restart.swap(false, Ordering::AcqRel)
            && let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
        {
            tracing::warn!("WAL checkpoint by the writer failed (the next one will retry): {e}");
        }
        let batch = take_batch(first, &mut queue);
        let results = write_batch(&mut conn, &batch);
        acknowledge.committed(batch, results);
    }
}

/// Writes `batch` in one transaction; what each append is to be answered.
pub(crate) fn write_batch(
    conn: &mut Connection,
    batch: &[AppendJob],
) -> Vec<Result<(), StoreError>> {
    match try_batch(conn, batch) {
        Ok(results) => results,
        Err(e) => {
            tracing::warn!("a batch of {} appends failed: {e}", batch.len());
            batch
                .iter()
                .map(|_| Err(StoreError::Write(e.to_string())))
                .collect()
        }
    }
}

fn try_batch(
    conn: &mut Connection,
    batch: &[AppendJob],
) -> Result<Vec<Result<(), StoreError>>, rusqlite::Error> {
    let now = crate::util::now_millis();
    // Dropped without a commit, it rolls back.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut results = Vec::with_capacity(batch.len());
    {
        let mut step = tx.prepare_cached(
            "UPDATE games SET version = ?2 WHERE id = ?1 AND version = ?3 \
             AND finished_at IS NULL",
        )?;
        let mut last = tx.prepare_cached(
            "UPDATE games SET version = ?2, finished_at = ?4, outcome = ?5 \
             WHERE id = ?1 AND version = ?3 AND finished_at IS NULL",
        )?;
        let mut insert = tx.prepare_cached(
            "INSERT INTO actions (game_id, seq, seat, action, state_hash, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for job in batch {
            let seq = match count_to_sql(job.action.seq) {
                Ok(seq) => seq,
                Err(e) => {
                    results.push(Err(e));
                    continue;
                }
            };
            let moved = match &job.finished {
                None => step.execute(params![job.game_id, seq, seq - 1])?,
                Some(outcome) => last.execute(params![job.game_id, seq, seq - 1, now, outcome])?,
            };
            if moved == 0 {
                results.push(Err(conflict(job)));
                continue;
            }
            let a = &job.action;
            match insert.execute(params![
                job.game_id,
                seq,
                a.seat,
                a.action,
                a.state_hash,
                now
            ]) {
                Ok(_) => results.push(Ok(())),
                // SQLite rolled the whole transaction back: nothing of the batch is kept.
                Err(e) if tx.is_autocommit() => return Err(e),
                Err(e) => {
                    tx.execute(
                        "UPDATE games SET version = ?2, finished_at = NULL, outcome = NULL \
                         WHERE id = ?1",
                        params![job.game_id, seq - 1],
                    )?;
                    results.push(Err(StoreError::Sqlite(e)));
                }
            }
        }
    }
    tx.commit()?;
    Ok(results)
}
