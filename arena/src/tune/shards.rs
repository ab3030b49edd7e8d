//! Shards of an `arena tune` run (`--shard I/N`): N processes, on one machine or on several that
//! share a directory, each play the game pairs I mod N of every iteration (as `arena match
//! --shard` does) and meet after it. Shard I appends its own results as a part record to its own
//! trajectory (the --trajectory path with `.shardIofN` appended), waits until every other
//! shard's file holds its part for the same iteration at the same θ, adds them up, and makes the
//! same update as all the others, so that every shard writes the same iteration records as an
//! unsharded run would.

use super::trajectory::{self, Part};
use crate::stats::wdl::Wdl;
use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How often a waiting shard looks at the other shards' files.
const POLL_INTERVAL: Duration = Duration::from_millis(100);
/// How often a waiting shard says what it waits for.
const WAIT_NOTICE_INTERVAL: Duration = Duration::from_secs(60);

/// The trajectory file of shard `index` of `count`.
pub fn shard_path(path: &Path, (index, count): (usize, usize)) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".shard{index}of{count}"));
    PathBuf::from(name)
}

/// The other shards' part of iteration `iteration`, once they are all written.
fn other_parts(
    path: &Path,
    shard: (usize, usize),
    iteration: usize,
) -> Result<Option<Vec<Part>>, String> {
    let mut parts = Vec::new();
    for other in (0..shard.1).filter(|other| *other != shard.0) {
        let other_path = shard_path(path, (other, shard.1));
        if !other_path.exists() {
            return Ok(None);
        }
        let found = trajectory::parts_of(&other_path, iteration)?;
        match found {
            Some(part) => parts.push(part),
            None => return Ok(None),
        }
    }
    Ok(Some(parts))
}

/// Waits for every other shard's part of `own`'s iteration and returns the whole iteration's
/// results; a shard at another θ is an error (its run was started with other settings).
pub fn gather(path: &Path, shard: (usize, usize), own: &Part) -> Result<Wdl, String> {
    let started = Instant::now();
    let mut last_notice = started;
    loop {
        if let Some(parts) = other_parts(path, shard, own.part)? {
            let mut total = own.results;
            for part in &parts {
                if part.theta != own.theta {
                    return Err(format!(
                        "shard {} of iteration {} played θ {:?}, this shard {:?}: were the shards \
                         started with the same settings?",
                        part.shard, own.part, part.theta, own.theta
                    ));
                }
                total.merge(&part.results);
            }
            return Ok(total);
        }
        if last_notice.elapsed() >= WAIT_NOTICE_INTERVAL {
            last_notice = Instant::now();
            eprintln!(
                "tune: shard {}/{} waits for the other shards' iteration {} ({} s so far)",
                shard.0,
                shard.1,
                own.part + 1,
                started.elapsed().as_secs()
            );
        }
        sleep(POLL_INTERVAL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_files_sit_next_to_the_trajectory() {
        assert_eq!(
            shard_path(Path::new("runs/t.jsonl"), (1, 3)),
            PathBuf::from("runs/t.jsonl.shard1of3")
        );
    }
}
