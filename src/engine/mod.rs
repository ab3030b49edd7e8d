//! The rules of Coders Strike Back, exactly as CodinGame's referee applies them
//! (`../shared/csb-rules.md`). Knows nothing of search or bots.
