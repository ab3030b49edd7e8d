//! Many games between two bots: the match runner with its seat swaps, shards and early stop
//! (`runner`), one game or one game pair between two commands (`pair`), the result with its
//! report, JSON and merge of shards (`result`), games played on worker threads (`parallel`),
//! game seeds from the match seed (`seeds`), response-time distributions (`response_times`),
//! and the commands `arena match|merge` (`command`). Uses the referee, the replay format and the
//! statistics; the ladder and the tuning play through it.

pub mod command;
pub mod pair;
pub mod parallel;
pub mod response_times;
pub mod result;
pub mod runner;
pub mod seeds;
