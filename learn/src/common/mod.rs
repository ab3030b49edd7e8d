//! What every stage of the pipeline shares, and nothing of any stage: the text format of the
//! manifests with the SHA-256 they name files by (`manifest`), writing a file whole or not at
//! all (`files`), and the SVG pictures (`plot`: loss curves, the generations' Elo). It imports
//! no other room of `learn`.

pub mod files;
pub mod manifest;
pub mod plot;
