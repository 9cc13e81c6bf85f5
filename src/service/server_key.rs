//! The server key (seat links, signed reply addresses): where it lives — never in the database
//! (issue 11) — and how a process finds it.
//!
//! The key is `STATIONMASTER_SECRET_KEY`, or else the contents of the key file
//! (`STATIONMASTER_SECRET_KEY_FILE`, default `<state dir>/secret.key`), created with mode 0600 on
//! first start. A database from before holds the key in `server_secrets`: the first start writes
//! it to the key file, reads it back, and only then deletes the row (RULING P5). The database
//! keeps only the key's fingerprint ([`key_check`]); a process whose key does not match refuses
//! to start, so a console run as another user (another default key file) can never make a second
//! key and break every link. Rotation: `service::rotate_key` (RULING P6).

use crate::config::Settings;
use crate::store::secrets::{self, KEY_CHECK, LEGACY_KEY};
use anyhow::{Context as _, bail};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use std::io::{ErrorKind, Write as _};
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

/// The key file when none is configured: `secret.key` in the state directory.
pub fn default_key_file() -> PathBuf {
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let dir = env("STATE_DIRECTORY")
        .or_else(|| env("XDG_STATE_HOME").map(|d| d.join("stationmaster")))
        .or_else(|| env("HOME").map(|h| h.join(".local/state/stationmaster")))
        .unwrap_or_else(|| PathBuf::from(".stationmaster"));
    dir.join("secret.key")
}

/// The key file these settings use.
pub fn key_file(settings: &Settings) -> PathBuf {
    settings.secret_key_file.clone().filter(|p| !p.as_os_str().is_empty()).unwrap_or_else(default_key_file)
}

/// Where a rotation leaves the new key until the database has switched to it.
pub(crate) fn next_file(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".next");
    path.with_file_name(name)
}

/// The fingerprint the database keeps of a key: no token can be derived from it.
pub fn key_check(key: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(b"stationmaster key check\n");
    h.update(key);
    data_encoding::HEXLOWER.encode(&h.finalize())
}

/// A new random key, as the text a key file holds.
pub(crate) fn new_key() -> Vec<u8> {
    data_encoding::HEXLOWER.encode(&rand::random::<[u8; 32]>()).into_bytes()
}

/// The configured key, if one is given directly.
fn configured(settings: &Settings) -> Option<Vec<u8>> {
    settings.secret_key.as_deref().filter(|k| !k.trim().is_empty()).map(|k| k.as_bytes().to_vec())
}

/// Reads a key file; `None` when there is none.
pub(crate) fn read_key(path: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    match std::fs::read_to_string(path) {
        Ok(text) if text.trim().is_empty() => bail!("the key file {} is empty", path.display()),
        Ok(text) => Ok(Some(text.trim().as_bytes().to_vec())),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read the key file {}", path.display())),
    }
}

/// Writes a key file durably with mode 0600 (its directory 0700 when created): a temporary file
/// is written and synced, then put at `path` — replacing a file there only when `replace`, else
/// failing if another process made one meanwhile — and the directory synced.
pub(crate) fn write_key(path: &Path, key: &[u8], replace: bool) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.exists() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut tmp_name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    tmp_name.push(format!(".tmp{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let written = (|| {
        let mut f =
            std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        f.write_all(key)?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        if replace {
            std::fs::rename(&tmp, path)?;
        } else {
            // A hard link is made only where no file is: two first starts cannot both win.
            std::fs::hard_link(&tmp, path)?;
            std::fs::remove_file(&tmp)?;
        }
        std::fs::File::open(dir)?.sync_all()
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.with_context(|| format!("cannot write the key file {}", path.display()))?;
    // Read back before anything relies on it (the database row is deleted only after this).
    match read_key(path)? {
        Some(k) if k == key => Ok(()),
        _ => bail!("the key file {} does not read back as written", path.display()),
    }
}

/// The key of a server or console process: the configured key, or the key file's (created on
/// first start, or moved out of an old database). Fails rather than make a key that does not
/// match the database's fingerprint.
pub async fn load(pool: &PgPool, settings: &Settings) -> anyhow::Result<Vec<u8>> {
    let path = key_file(settings);
    if let Some(key) = configured(settings) {
        // The database is not needed to run with a configured key; moving an old key out of it
        // is done when it can be.
        if let Err(e) = move_out_beside(pool, &path, &key).await {
            tracing::warn!(error = %format!("{e:#}"), "the key left in the database was not moved out");
        }
        return Ok(key);
    }
    let mut conn = pool.acquire().await.context("no database connection")?;
    let legacy = secrets::get(&mut conn, LEGACY_KEY).await?;
    let check = secrets::get(&mut conn, KEY_CHECK).await?;
    let mut file = read_key(&path)?;
    if let (Some(f), Some(c)) = (&file, &check) {
        file = Some(finish_rotation(&path, f, c)?);
    }
    let shown = path.display();
    let key = match (file, &legacy) {
        (Some(f), Some(l)) if f == l.as_bytes() => f,
        (Some(_), Some(_)) => bail!(
            "the database holds a server key that differs from the key file {shown}; nothing was changed \
             (set STATIONMASTER_SECRET_KEY_FILE to another path to move the database's key there)"
        ),
        (Some(f), None) => f,
        (None, Some(l)) => {
            write_key(&path, l.as_bytes(), false)?;
            tracing::info!(key_file = %shown, "the server key was moved out of the database");
            l.clone().into_bytes()
        }
        (None, None) if check.is_some() => bail!(
            "this database's seat links were made with a server key that is not at {shown}: restore that \
             file, or point STATIONMASTER_SECRET_KEY_FILE at it"
        ),
        (None, None) => {
            let key = new_key();
            write_key(&path, &key, false)?;
            tracing::info!(key_file = %shown, "a new server key was created");
            key
        }
    };
    let fingerprint = key_check(&key);
    if secrets::put_if_absent(&mut conn, KEY_CHECK, &fingerprint).await? != fingerprint {
        bail!(
            "the key file {shown} holds another key than the one this database's seat links were made with \
             (a console run as another user? set STATIONMASTER_SECRET_KEY_FILE to the server's key file)"
        );
    }
    if let Some(l) = legacy {
        secrets::delete_if(&mut conn, LEGACY_KEY, &l).await?;
    }
    Ok(key)
}

/// A rotation interrupted after the database switched but before the new key file replaced the
/// old one: the `.next` file matching the database's fingerprint becomes the key file.
fn finish_rotation(path: &Path, file: &[u8], check: &str) -> anyhow::Result<Vec<u8>> {
    if key_check(file) == check {
        return Ok(file.to_vec());
    }
    let next = next_file(path);
    match read_key(&next)? {
        Some(n) if key_check(&n) == check => {
            std::fs::rename(&next, path).with_context(|| format!("cannot replace {}", path.display()))?;
            tracing::info!(key_file = %path.display(), "an interrupted key rotation was completed");
            Ok(n)
        }
        // The caller reports the mismatch.
        _ => Ok(file.to_vec()),
    }
}

/// The key another process rotated to: `Some` when the database's fingerprint names another key
/// than `current` and the key file (or the rotation's `.next` file, not yet renamed) holds it.
pub async fn rotated(pool: &PgPool, settings: &Settings, current: &str) -> anyhow::Result<Option<Vec<u8>>> {
    if configured(settings).is_some() {
        return Ok(None);
    }
    let mut conn = pool.acquire().await?;
    let Some(check) = secrets::get(&mut conn, KEY_CHECK).await?.filter(|c| c != current) else {
        return Ok(None);
    };
    let path = key_file(settings);
    for candidate in [read_key(&path)?, read_key(&next_file(&path))?].into_iter().flatten() {
        if key_check(&candidate) == check {
            return Ok(Some(candidate));
        }
    }
    Ok(None)
}

/// With a configured key, a key still in the database is written to the key file (unless that
/// file already holds another key) and then deleted from the database.
async fn move_out_beside(pool: &PgPool, path: &Path, key: &[u8]) -> anyhow::Result<()> {
    let mut conn = pool.acquire().await?;
    let Some(legacy) = secrets::get(&mut conn, LEGACY_KEY).await? else { return Ok(()) };
    if legacy.as_bytes() != key {
        match read_key(path)? {
            Some(f) if f == legacy.as_bytes() => {}
            Some(_) => bail!("the key file {} holds another key", path.display()),
            None => write_key(path, legacy.as_bytes(), false)?,
        }
    }
    secrets::delete_if(&mut conn, LEGACY_KEY, &legacy).await?;
    Ok(())
}

/// The key for a process that may only read it (`mail ingest`, run by the MTA as another user):
/// the configured key, a readable key file, or a key not yet moved out of the database. Never
/// creates, moves or deletes anything; `None` when this process cannot read the key.
pub async fn existing(pool: &PgPool, settings: &Settings) -> Option<Vec<u8>> {
    if let Some(key) = configured(settings) {
        return Some(key);
    }
    if let Ok(Some(key)) = read_key(&key_file(settings)) {
        let mut conn = pool.acquire().await.ok()?;
        // A key file of another key would judge every reply address wrongly: only the key the
        // database's fingerprint names is used (a server with a configured key keeps none).
        let check = secrets::get(&mut conn, KEY_CHECK).await.ok()?;
        return check.is_some_and(|c| c == key_check(&key)).then_some(key);
    }
    let mut conn = pool.acquire().await.ok()?;
    secrets::get(&mut conn, LEGACY_KEY).await.ok().flatten().map(String::into_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_file_is_written_0600_and_never_replaced_by_a_second_first_start() {
        let dir = std::env::temp_dir().join(format!("sm-key-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("secret.key");
        write_key(&path, b"first", false).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
        assert!(write_key(&path, b"second", false).is_err(), "a first start that lost the race fails");
        assert_eq!(read_key(&path).unwrap().as_deref(), Some(&b"first"[..]));
        write_key(&path, b"third", true).unwrap();
        assert_eq!(read_key(&path).unwrap().as_deref(), Some(&b"third"[..]));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file is left");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_fingerprint_is_not_the_key_and_names_it() {
        assert_ne!(key_check(b"k").as_bytes(), b"k");
        assert_eq!(key_check(b"k"), key_check(b"k"));
        assert_ne!(key_check(b"k"), key_check(b"l"));
        assert_eq!(next_file(Path::new("/x/secret.key")), Path::new("/x/secret.key.next"));
    }
}
