//! `learn merge`: its arguments, and the line it prints once the shard directories of a run
//! are one data directory (`merge.rs` does the work).

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The merged data directory (created if missing; games already there must equal the
    /// shards').
    #[arg(long)]
    out: PathBuf,
    /// The shard directories, one per `--shard I/N` of the run.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
}

/// `learn merge`: the shards into one directory, and one line saying what was written.
pub fn merge(args: &MergeArgs) -> Result<(), String> {
    let merged = crate::data::merge::merge(&args.out, &args.shards)?;
    eprintln!(
        "merge: {} shards into {}, {} games written now, {} already there; its manifest lists {} \
         of the run's {} games (data-sha256 {})",
        args.shards.len(),
        args.out.display(),
        merged.copied,
        merged.already_there,
        merged.manifest.files.len(),
        merged.manifest.run.games,
        merged.manifest.data_sha256()
    );
    Ok(())
}
