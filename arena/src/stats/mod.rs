//! The statistics of results, pure functions of counts: wins/draws/losses with Wilson's interval
//! and the Elo conversions (`wdl`), game pairs counted by the pentanomial model (`pentanomial`),
//! the sequential probability ratio test that stops a match early (`sprt`), and the ratings the
//! ladder fits to all its games by maximum likelihood (`ratings`). Uses nothing else of the
//! crate; the matches, the ladder and the tuning use it.

pub mod pentanomial;
pub mod ratings;
pub mod sprt;
pub mod wdl;
