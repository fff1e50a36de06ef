//! SQLite group commit with the disk sync apart from the commit (`Durability::Disk`).
//!
//! With `synchronous = FULL` every SQLite commit syncs the WAL before it returns, and the single
//! writer can start nothing else meanwhile: a batch of appends costs its statements *plus* a
//! sync, one after the other (issue 9, item 5: under load the writer spent most of each batch
//! waiting for the disk). Here the writer connection commits with `synchronous = NORMAL` (the
//! WAL is written but not synced) and this module syncs the WAL file itself before anything is
//! acknowledged: while one sync runs, the writer commits the next batches, and the next sync
//! covers all of them. The durability promise is unchanged — nothing is acknowledged before the
//! disk holds it — because a transaction is durable once the WAL frames it wrote are, and one
//! `fdatasync` of the WAL covers every frame written before it started (SQLite's own
//! recovery replays the WAL up to its last valid commit frame).
//!
//! A sync that fails leaves the durability of what was committed unknown (Linux may drop the
//! pages it could not write), so, like PostgreSQL, the store stops accepting writes: every
//! later write fails until the server is restarted and the games are read back from the file.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use sqlx::{AnyPool, Row};

use crate::store::StoreError;

/// The file of the SQLite database `pool` is connected to; `None` for an in-memory database.
pub(crate) async fn main_file(pool: &AnyPool) -> Result<Option<PathBuf>, StoreError> {
    let rows = sqlx::query("PRAGMA database_list").fetch_all(pool).await?;
    for row in rows {
        let name: String = row.try_get(1)?;
        let file: String = row.try_get(2)?;
        if name == "main" && !file.is_empty() {
            return Ok(Some(PathBuf::from(file)));
        }
    }
    Ok(None)
}

/// The WAL file of one SQLite database file, and whether a sync of it ever failed.
#[derive(Debug)]
pub(crate) struct WalFile {
    path: PathBuf,
    failed: AtomicBool,
}

impl WalFile {
    /// The WAL of the database `writer` is connected to; `None` for an in-memory database,
    /// which has no file to sync (and no durability to keep).
    pub(crate) async fn of(writer: &AnyPool) -> Result<Option<Arc<WalFile>>, StoreError> {
        Ok(main_file(writer).await?.map(|file| {
            Arc::new(WalFile {
                path: wal_path(&file),
                failed: AtomicBool::new(false),
            })
        }))
    }

    /// Refuses a write once a sync has failed (see the module's doc).
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        if self.failed.load(Ordering::Acquire) {
            Err(broken())
        } else {
            Ok(())
        }
    }

    /// Makes every transaction committed so far durable: syncs the WAL file's data. The file
    /// is opened anew each time, so a WAL that SQLite deleted and created again (when the
    /// last connection closed) is the one synced. No WAL file: SQLite checkpointed it into the
    /// database file, synced, and removed it, so there is nothing left to sync.
    pub(crate) async fn sync(self: &Arc<Self>) -> Result<(), StoreError> {
        self.check()?;
        let me = Arc::clone(self);
        let outcome = tokio::task::spawn_blocking(move || sync_data(&me.path))
            .await
            .map_err(|e| StoreError::Write(format!("the WAL sync task failed: {e}")))
            .and_then(|r| {
                r.map_err(|e| StoreError::Write(format!("syncing {}: {e}", self.path.display())))
            });
        if let Err(e) = &outcome {
            tracing::error!("{e}; the store refuses writes until the server restarts");
            self.failed.store(true, Ordering::Release);
        }
        outcome
    }
}

fn broken() -> StoreError {
    StoreError::Write(
        "a disk sync of the database failed earlier; restart the server to read the games back"
            .into(),
    )
}

/// `game.db` → `game.db-wal` (SQLite's naming of the write-ahead log).
fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

fn sync_data(path: &Path) -> std::io::Result<()> {
    match std::fs::File::open(path) {
        Ok(file) => file.sync_data(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wal_is_named_after_the_database_file() {
        assert_eq!(
            wal_path(Path::new("/var/lib/acies/acies.db")),
            PathBuf::from("/var/lib/acies/acies.db-wal")
        );
    }

    #[test]
    fn a_missing_wal_has_nothing_to_sync() {
        let dir = std::env::temp_dir().join(format!("acies-wal-{}", std::process::id()));
        assert!(sync_data(&dir.join("none.db-wal")).is_ok());
    }

    #[tokio::test]
    async fn a_failed_sync_refuses_every_later_write() -> std::io::Result<()> {
        let dir = std::env::temp_dir().join(format!("acies-wal-dir-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        // A WAL path through a regular file cannot be opened (not a directory): the sync fails.
        let file = dir.join("plain");
        std::fs::write(&file, b"x")?;
        let wal = Arc::new(WalFile {
            path: file.join("db-wal"),
            failed: AtomicBool::new(false),
        });
        assert!(wal.sync().await.is_err());
        assert!(matches!(wal.check(), Err(StoreError::Write(_))));
        assert!(wal.sync().await.is_err(), "still refused");
        std::fs::remove_dir_all(&dir)
    }
}
