//! The intake's appends, gathered (issue 32, RULING W60): a player's new version on the short
//! path (`super::submit_fast`) is handed to one of a few append tasks, and each task stores
//! whatever has arrived since its last statement in one statement and one commit
//! (`store::intake::append_batch`). Alone, an append goes at once; at a deadline rush the
//! appends that queue while others are being stored go together, so the database commits once
//! for many submissions. Each row is judged by the same conditions as alone; a batch that
//! fails (a race) is retried one append at a time, so one seat's race never refuses another's
//! orders. A submission is answered only after the commit that stored it.

use crate::store;
use crate::store::intake::{Appended, BatchItem};
use sqlx::PgPool;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use tokio::sync::{Mutex, mpsc, oneshot};

/// Append tasks: at most this many statements of the short path run at once (each holds one
/// pooled connection while it runs).
const TASKS: usize = 4;
/// At most this many appends share a statement.
const MAX_BATCH: usize = 64;
/// Appends waiting for a task; a submission beyond it waits to be queued.
const QUEUE: usize = 4096;

type Reply = oneshot::Sender<sqlx::Result<Option<Appended>>>;

struct Job {
    item: BatchItem,
    reply: Reply,
}

/// The append tasks of one process (in `Ctx`), started by the first append.
#[derive(Default)]
pub struct Appender {
    jobs: OnceLock<mpsc::Sender<Job>>,
    counts: Arc<Counts>,
}

/// How many statements the tasks ran and how many appends they carried.
#[derive(Debug, Default)]
struct Counts {
    statements: AtomicU64,
    appends: AtomicU64,
}

impl std::fmt::Debug for Appender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Appender").field("counts", &self.counts).finish()
    }
}

impl Appender {
    /// Stores `item` as its seat's next version if its turn still takes it (see
    /// `store::intake::append_batch`), together with whatever other appends are waiting;
    /// `None` when the locked path must decide.
    pub async fn append(&self, pool: &PgPool, item: BatchItem) -> sqlx::Result<Option<Appended>> {
        let jobs = self.jobs.get_or_init(|| start(pool.clone(), self.counts.clone()));
        let (reply, answer) = oneshot::channel();
        if let Err(mpsc::error::SendError(job)) = jobs.send(Job { item, reply }).await {
            // The tasks are gone (their runtime stopped): the append is made here.
            return append_alone(pool, &self.counts, &job.item).await;
        }
        // A task that stops before answering (its runtime shutting down) stored the append or
        // not; the submission is not acknowledged either way, so the player sends it again.
        answer.await.map_err(|_| sqlx::Error::WorkerCrashed)?
    }

    /// Statements run so far and the appends they carried (tests, and the batch size a
    /// deployment sees).
    pub fn counts(&self) -> (u64, u64) {
        (self.counts.statements.load(Ordering::Relaxed), self.counts.appends.load(Ordering::Relaxed))
    }
}

fn start(pool: PgPool, counts: Arc<Counts>) -> mpsc::Sender<Job> {
    let (send, receive) = mpsc::channel(QUEUE);
    let receive = Arc::new(Mutex::new(receive));
    for _ in 0..TASKS {
        tokio::spawn(run(pool.clone(), receive.clone(), counts.clone()));
    }
    send
}

/// One append task: takes the first waiting append (or waits for one), everything else waiting
/// up to [`MAX_BATCH`] — a seat's second append is kept for the next statement, as two versions
/// of one seat are numbered one after the other — and stores them. Ends when the appender is
/// dropped and nothing is left.
async fn run(pool: PgPool, receive: Arc<Mutex<mpsc::Receiver<Job>>>, counts: Arc<Counts>) {
    let mut kept: Vec<Job> = Vec::new();
    loop {
        let mut batch: Vec<Job> = Vec::new();
        let mut seats = HashSet::new();
        let mut take = |job: Job, batch: &mut Vec<Job>, kept: &mut Vec<Job>| {
            if seats.insert(job.item.seat_key()) { batch.push(job) } else { kept.push(job) }
        };
        for job in std::mem::take(&mut kept) {
            take(job, &mut batch, &mut kept);
        }
        // A task with appends in hand never waits for the queue (another task may be waiting
        // there for an append that never comes): it takes what is queued if it can, and goes.
        let queue = if batch.is_empty() { Some(receive.lock().await) } else { receive.try_lock().ok() };
        if let Some(mut queue) = queue {
            if batch.is_empty() {
                match queue.recv().await {
                    Some(job) => take(job, &mut batch, &mut kept),
                    None => return,
                }
            }
            while batch.len() < MAX_BATCH {
                match queue.try_recv() {
                    Ok(job) => take(job, &mut batch, &mut kept),
                    Err(_) => break,
                }
            }
        }
        store_batch(&pool, &counts, batch).await;
    }
}

/// Stores a batch and answers each of its submissions.
async fn store_batch(pool: &PgPool, counts: &Counts, batch: Vec<Job>) {
    let (items, replies): (Vec<BatchItem>, Vec<Reply>) = batch.into_iter().map(|j| (j.item, j.reply)).unzip();
    let together = append_all(pool, counts, &items).await;
    match together {
        Ok(appended) => {
            for (reply, appended) in replies.into_iter().zip(appended) {
                let _ = reply.send(Ok(appended));
            }
        }
        // Nothing of the batch was stored: each append again on its own, so that a race of one
        // seat's leaves the others' appends to their own fate.
        Err(_) if items.len() > 1 => {
            for (reply, item) in replies.into_iter().zip(&items) {
                let _ = reply.send(append_alone(pool, counts, item).await);
            }
        }
        Err(e) => {
            if let Some(reply) = replies.into_iter().next() {
                let _ = reply.send(Err(e));
            }
        }
    }
}

async fn append_all(
    pool: &PgPool,
    counts: &Counts,
    items: &[BatchItem],
) -> sqlx::Result<Vec<Option<Appended>>> {
    let mut conn = pool.acquire().await?;
    counts.statements.fetch_add(1, Ordering::Relaxed);
    counts.appends.fetch_add(items.len() as u64, Ordering::Relaxed);
    crate::metrics::intake_statement(items.len());
    store::intake::append_batch(&mut conn, items).await
}

async fn append_alone(pool: &PgPool, counts: &Counts, item: &BatchItem) -> sqlx::Result<Option<Appended>> {
    let mut one = append_all(pool, counts, std::slice::from_ref(item)).await?;
    Ok(one.pop().flatten())
}
