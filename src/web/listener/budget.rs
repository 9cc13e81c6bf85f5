//! The budget of answer bytes held for clients (RULING W20): each connection counts the bytes of
//! its answer its client has not taken yet, the registry their sum; when a new answer or a new
//! stall takes the sum past the budget, the stalled answer furthest behind is dropped with its
//! connection until the rest fit. Answers being taken are left alone.

use super::{Conn, Registry, evict, furthest_behind};
use std::sync::PoisonError;
use std::sync::atomic::Ordering;

impl Registry {
    /// `conn` holds an answer of `bytes` not yet taken (the one before it, on the same connection,
    /// is all written by now); past the budget, stalled answers are dropped (RULING W20).
    pub(super) fn hold(&self, conn: &Conn, bytes: u64) {
        let before = conn.unsent.swap(bytes, Ordering::Relaxed);
        self.unsent.fetch_add(bytes, Ordering::Relaxed);
        self.unsent.fetch_sub(before, Ordering::Relaxed);
        self.shed();
    }

    /// The client of `conn` took `n` bytes of its answer.
    pub(super) fn took(&self, conn: &Conn, n: u64) {
        let taken = conn
            .unsent
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| Some(left.saturating_sub(n)))
            .map_or(0, |left| left.min(n));
        self.unsent.fetch_sub(taken, Ordering::Relaxed);
    }

    /// Counts `conn`'s answer as held no longer (its connection ended or was dropped).
    pub(super) fn forget(&self, conn: &Conn) {
        let left = conn.unsent.swap(0, Ordering::Relaxed);
        self.unsent.fetch_sub(left, Ordering::Relaxed);
    }

    /// While the answers held exceed the budget, drops the stalled answer furthest behind (the
    /// earliest cut-off; of equal ones the oldest) with its connection (RULING W20). Answers
    /// being taken are left alone: they free their bytes as fast as the network allows.
    pub(super) fn shed(&self) {
        if self.budget == 0 || self.unsent.load(Ordering::Relaxed) <= self.budget {
            return;
        }
        let mut conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        while self.unsent.load(Ordering::Relaxed) > self.budget {
            let stalled = |_: u64, c: &Conn| c.answer_stalled.load(Ordering::Relaxed);
            let Some(victim) = furthest_behind(&conns, stalled) else { break };
            if let Some(conn) = conns.get(&victim).cloned() {
                self.forget(&conn);
            }
            tracing::debug!("answers held over the budget: the stalled answer furthest behind dropped");
            evict(&mut conns, Some(victim));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Registry, client_of};
    use std::net::SocketAddr;
    use std::sync::atomic::Ordering;

    fn peer(n: u8) -> SocketAddr {
        SocketAddr::from(([192, 0, 2, n], 4000))
    }

    #[test]
    fn answers_held_over_the_budget_drop_the_stalled_one_furthest_behind() {
        let r = Registry::new(100);
        let (a, b, c) = (r.add(1, peer(1)), r.add(2, peer(2)), r.add(3, peer(3)));
        assert_eq!(client_of(peer(1).ip()), a.client);
        r.hold(&a, 60);
        r.stall_answer(1, &a, 16, 5_000);
        r.hold(&b, 30);
        r.stall_answer(2, &b, 16, 9_000);
        assert_eq!((r.unsent.load(Ordering::Relaxed), r.len()), (90, 3), "within the budget");
        // A third answer passes it: the stalled answer furthest behind (a) goes, b stays.
        r.hold(&c, 40);
        assert_eq!(r.len(), 2);
        assert!(!r.conns.lock().unwrap().contains_key(&1), "the answer furthest behind was dropped");
        assert_eq!(r.unsent.load(Ordering::Relaxed), 70);
        // Bytes taken are held no longer; a connection that ends frees the rest.
        r.took(&c, 25);
        assert_eq!(r.unsent.load(Ordering::Relaxed), 45);
        r.remove(3, &c);
        r.remove(1, &a);
        assert_eq!(r.unsent.load(Ordering::Relaxed), 30, "a dropped answer is not counted twice");
    }

    #[test]
    fn answers_being_taken_are_not_dropped_however_large() {
        let r = Registry::new(100);
        let a = r.add(1, peer(1));
        r.hold(&a, 1_000);
        assert_eq!(r.len(), 1, "an answer the client is taking is not stalled");
        r.took(&a, 5_000);
        assert_eq!(r.unsent.load(Ordering::Relaxed), 0, "headers taken besides the body count as none");
    }

    #[test]
    fn a_budget_of_zero_holds_everything() {
        let r = Registry::new(0);
        let a = r.add(1, peer(1));
        r.hold(&a, u64::MAX / 2);
        r.stall_answer(1, &a, 16, 1);
        assert_eq!(r.len(), 1);
    }
}
