//! The benchmark's MTA: delivers every mail in a folder to a command the way Postfix's `pipe(8)`
//! does — fork and exec the command directly (no shell), the message on its standard input —
//! keeping `parallel` deliveries in flight. Standard library only, built by
//! `benches/mail_ingest.sh` with plain `rustc`; not a cargo target.
//!
//!     pipe <parallel> <mail-folder> <command> [args...]
//!
//! Prints the number of deliveries that exited 0; exits 1 if any did not.

use std::collections::VecDeque;
use std::fs::File;
use std::process::{Child, Command, ExitCode, Stdio};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(parallel), Some(folder), Some(program)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!("usage: pipe <parallel> <mail-folder> <command> [args...]");
        return ExitCode::from(2);
    };
    let parallel: usize = match parallel.parse() {
        Ok(n) if n > 0 => n,
        _ => {
            eprintln!("pipe: parallel must be a positive number, not {parallel:?}");
            return ExitCode::from(2);
        }
    };
    let mut mails: Vec<_> = match std::fs::read_dir(folder) {
        Ok(dir) => dir.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            eprintln!("pipe: cannot read {folder}: {e}");
            return ExitCode::from(2);
        }
    };
    mails.sort();
    let (mut ok, mut failed) = (0usize, 0usize);
    let mut running: VecDeque<Child> = VecDeque::new();
    let mut wait_oldest = |running: &mut VecDeque<Child>| {
        if let Some(mut child) = running.pop_front() {
            match child.wait() {
                Ok(status) if status.success() => ok += 1,
                Ok(status) => {
                    failed += 1;
                    eprintln!("pipe: delivery failed: {status}");
                }
                Err(e) => {
                    failed += 1;
                    eprintln!("pipe: cannot wait for a delivery: {e}");
                }
            }
        }
    };
    for mail in &mails {
        if running.len() == parallel {
            wait_oldest(&mut running);
        }
        let stdin = match File::open(mail) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("pipe: cannot open {}: {e}", mail.display());
                return ExitCode::from(2);
            }
        };
        match Command::new(program).args(&args[3..]).stdin(Stdio::from(stdin)).spawn() {
            Ok(child) => running.push_back(child),
            Err(e) => {
                eprintln!("pipe: cannot run {program}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    while !running.is_empty() {
        wait_oldest(&mut running);
    }
    println!("{ok} delivered, {failed} failed");
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
