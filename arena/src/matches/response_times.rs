//! Response-time distribution of one bot over a match: a sparse histogram in 0.1 ms buckets
//! (mergeable across shards) plus the exact maximum; median and p99 read from the buckets.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Bucket width in milliseconds.
const BUCKET_MS: f64 = 0.1;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ResponseTimes {
    /// Bucket index (ms / 0.1, rounded down) → responses in it.
    pub buckets: BTreeMap<u32, u64>,
    pub count: u64,
    pub max_ms: f64,
}

impl ResponseTimes {
    pub fn add(&mut self, ms: f64) {
        let bucket = (ms.max(0.0) / BUCKET_MS) as u32;
        *self.buckets.entry(bucket).or_insert(0) += 1;
        self.count += 1;
        self.max_ms = self.max_ms.max(ms);
    }

    pub fn merge(&mut self, other: &ResponseTimes) {
        for (bucket, count) in &other.buckets {
            *self.buckets.entry(*bucket).or_insert(0) += count;
        }
        self.count += other.count;
        self.max_ms = self.max_ms.max(other.max_ms);
    }

    /// The `q` quantile (0..=1), as the middle of its bucket, capped by the maximum.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (bucket, count) in &self.buckets {
            seen += count;
            if seen >= rank {
                return Some(((*bucket as f64 + 0.5) * BUCKET_MS).min(self.max_ms));
            }
        }
        Some(self.max_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_of_a_known_sample() {
        let mut times = ResponseTimes::default();
        for i in 1..=100 {
            times.add(i as f64);
        }
        assert!((times.quantile(0.5).unwrap() - 50.05).abs() < 1e-9);
        assert!((times.quantile(0.99).unwrap() - 99.05).abs() < 1e-9);
        assert_eq!(times.max_ms, 100.0);
        let mut other = ResponseTimes::default();
        other.add(500.0);
        times.merge(&other);
        assert_eq!(times.count, 101);
        assert_eq!(times.quantile(1.0), Some(500.0));
        assert_eq!(ResponseTimes::default().quantile(0.5), None);
    }
}
