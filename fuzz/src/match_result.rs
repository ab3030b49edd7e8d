//! The JSON results `arena merge` adds up (shards of one match): parsed, merged with itself and
//! reported.

use crate::check::one_line;
use arena::matches::result::{merge, MatchResult};

pub fn match_result(input: &[u8]) {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    let part = match MatchResult::from_json(text) {
        Ok(part) => part,
        Err(why) => return one_line("match result", &why),
    };
    let _ = part.report();
    match merge(vec![part.clone(), part]) {
        Ok(merged) => {
            let _ = merged.report();
            let _ = merged.to_json();
        }
        Err(why) => one_line("merge", &why),
    }
}
