//! What the stages of the pipeline share, and nothing of any one stage: the text format of the
//! manifests with the SHA-256 they name files by (`manifest`), writing a file whole or not at
//! all (`files`), the layers both networks are built of in candle (`layers`), the seeded order
//! of the minibatches (`shuffle`), and the SVG pictures (`plot`: loss curves, the generations'
//! Elo). It imports no other room of `learn`.

pub mod files;
pub mod layers;
pub mod manifest;
pub mod plot;
pub mod shuffle;
