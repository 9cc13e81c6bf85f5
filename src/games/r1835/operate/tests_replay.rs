//! The replay test (written below).
