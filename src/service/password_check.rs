//! Password checks for GM sign-in (RULING W2): Argon2id on two dedicated threads (a bounded
//! blocking pool, off the async workers), at the same cost whether the account has a password
//! or not.

use super::ServiceError;
use argon2::password_hash::phc::Output;
use argon2::{Algorithm, Argon2, Block, Params, PasswordHash, PasswordHasher, Version};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use tokio::sync::{mpsc, oneshot};

/// Threads that run Argon2 (each check takes a core and 19 MiB for tens of milliseconds).
const HASHERS: usize = 2;
/// Checks that may wait for a hasher thread.
const HASH_QUEUE: usize = 16;
/// How long a password check waits for a place in the queue before it is refused.
const HASHER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

type HashJob = Box<dyn FnOnce() + Send>;

/// The hasher threads' queue. Dedicated threads (not tokio's growing blocking pool) keep
/// Argon2 off the async workers and bound its memory: each thread's allocator arena keeps about
/// one hash's worth, and there are only [`HASHERS`] of them.
fn hashers() -> &'static mpsc::Sender<HashJob> {
    static QUEUE: OnceLock<mpsc::Sender<HashJob>> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<HashJob>(HASH_QUEUE);
        let rx = Arc::new(Mutex::new(rx));
        for n in 0..HASHERS {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new().name(format!("argon2-{n}")).spawn(move || {
                loop {
                    let job = rx.lock().unwrap_or_else(PoisonError::into_inner).blocking_recv();
                    match job {
                        Some(job) => job(),
                        None => break,
                    }
                }
            });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password hasher thread");
            }
        }
        tx
    })
}

/// Runs `work` on a hasher thread and waits for its result.
async fn on_hasher<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ServiceError> + Send + 'static,
) -> Result<T, ServiceError> {
    let busy =
        || ServiceError::TooMany("the server is busy checking passwords; try again in a moment".into());
    let (tx, rx) = oneshot::channel();
    let job: HashJob = Box::new(move || {
        let _ = tx.send(work());
    });
    tokio::time::timeout(HASHER_WAIT, hashers().send(job)).await.map_err(|_| busy())?.map_err(|_| busy())?;
    rx.await.map_err(|_| ServiceError::Internal("a password hasher thread stopped".into()))?
}

/// A hash of nothing anyone knows, checked for addresses without a password so that they cost
/// the same time as a wrong password.
fn stand_in_hash() -> Result<&'static str, ServiceError> {
    static HASH: OnceLock<String> = OnceLock::new();
    if let Some(h) = HASH.get() {
        return Ok(h);
    }
    let h = Argon2::default()
        .hash_password(uuid::Uuid::new_v4().as_bytes())
        .map_err(|e| ServiceError::Internal(format!("password hashing: {e}")))?
        .to_string();
    Ok(HASH.get_or_init(|| h))
}

/// Checks a password against a stored hash (or the stand-in when there is none) on a hasher
/// thread. True only for a stored hash that matches.
pub(super) async fn verify_password(stored: Option<String>, password: &str) -> Result<bool, ServiceError> {
    let password = password.to_owned();
    on_hasher(move || {
        let known = stored.is_some();
        let hash = match stored {
            Some(h) => h,
            None => stand_in_hash()?.to_owned(),
        };
        Ok(argon2_matches(password.as_bytes(), &hash)? && known)
    })
    .await
}

/// Argon2 verification in the hasher thread's own memory, allocated once and reused: allocating
/// 19 MiB per check made the allocator keep hundreds of MiB after a burst of guesses.
fn argon2_matches(password: &[u8], phc: &str) -> Result<bool, ServiceError> {
    thread_local! {
        static MEMORY: std::cell::RefCell<Vec<Block>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let bad = |e: &dyn std::fmt::Display| ServiceError::Internal(format!("stored password hash: {e}"));
    let parsed = PasswordHash::new(phc).map_err(|e| bad(&e))?;
    let (Some(salt), Some(expected)) = (&parsed.salt, &parsed.hash) else {
        return Err(bad(&"no salt or no hash"));
    };
    let algorithm = Algorithm::try_from(parsed.algorithm.as_str()).map_err(|e| bad(&e))?;
    let version = parsed.version.map(Version::try_from).transpose().map_err(|e| bad(&e))?.unwrap_or_default();
    let params = Params::try_from(&parsed).map_err(|e| bad(&e))?;
    let blocks = params.block_count();
    let argon2 = Argon2::new(algorithm, version, params);
    let mut out = vec![0u8; expected.len()];
    MEMORY
        .with_borrow_mut(|memory| {
            memory.resize(blocks, Block::default());
            argon2.hash_password_into_with_memory(password, salt, &mut out, &mut memory[..])
        })
        .map_err(|e| bad(&e))?;
    // Output's equality is constant-time.
    Ok(Output::new(&out).map_err(|e| bad(&e))? == *expected)
}

/// Hashes a new password on a hasher thread.
pub(super) async fn hash_password(password: &str) -> Result<String, ServiceError> {
    let password = password.to_owned();
    on_hasher(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| ServiceError::Internal(format!("password hashing: {e}")))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn a_password_check_leaves_the_async_thread_free() {
        let stored = hash_password("a long enough secret").await.unwrap();
        let check = tokio::spawn(verify_password(Some(stored), "wrong"));
        let mut ticks = 0;
        while !check.is_finished() {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            ticks += 1;
        }
        assert!(!check.await.unwrap().unwrap());
        assert!(ticks >= 3, "the only async thread was blocked while Argon2 ran ({ticks} ticks)");
    }

    #[tokio::test]
    async fn only_a_stored_hash_that_matches_lets_a_password_in() {
        let stored = hash_password("a long enough secret").await.unwrap();
        assert!(verify_password(Some(stored.clone()), "a long enough secret").await.unwrap());
        assert!(!verify_password(Some(stored), "wrong").await.unwrap());
        assert!(!verify_password(None, "a long enough secret").await.unwrap());
    }
}
