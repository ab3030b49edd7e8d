//! A small job runner: worker threads take jobs from a list in order, and each result comes
//! back to the calling thread as soon as it is ready (completion order), where a callback
//! tallies it and may stop the run. Jobs already started when it stops still finish and are
//! still handed to the callback.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// What the callback wants after a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Start no further job.
    Stop,
}

/// Runs `work` on every job with `threads` workers (at least 1), calling `on_result` with
/// each job and its result on the calling thread.
pub fn run_parallel<J, R, W, C>(jobs: &[J], threads: usize, work: W, mut on_result: C)
where
    J: Sync,
    R: Send,
    W: Fn(&J) -> R + Sync,
    C: FnMut(&J, R) -> Flow,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<(usize, R)>();
        for _ in 0..threads.max(1).min(jobs.len().max(1)) {
            let sender = sender.clone();
            let (next, stop, work) = (&next, &stop, &work);
            scope.spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let slot = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(slot) else {
                    break;
                };
                if sender.send((slot, work(job))).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for (slot, result) in receiver {
            if on_result(&jobs[slot], result) == Flow::Stop {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_once_and_stop_ends_the_run() {
        let jobs: Vec<u64> = (0..50).collect();
        let mut seen = Vec::new();
        run_parallel(
            &jobs,
            3,
            |j| j * j,
            |j, r| {
                assert_eq!(r, j * j);
                seen.push(*j);
                Flow::Continue
            },
        );
        seen.sort();
        assert_eq!(seen, jobs);

        // Jobs take a few ms, so the worker cannot run far ahead of the stop.
        let mut count = 0;
        let slow = |j: &u64| {
            std::thread::sleep(std::time::Duration::from_millis(3));
            *j
        };
        run_parallel(&jobs, 1, slow, |_, _| {
            count += 1;
            if count == 5 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
        assert!((5..50).contains(&count), "{count}");
    }
}
