//! Parsing one Rust source file with `syn`, turning a syntax error into a one-line
//! `file:line:column: message` input error.

use std::path::Path;

use crate::error::{input, Result};

/// Parses a whole file; `path` only names it in the error.
pub fn parse_file(text: &str, path: &Path) -> Result<syn::File> {
    syn::parse_file(text).map_err(|e| {
        let start = e.span().start();
        input(format!(
            "{}:{}:{}: cannot parse: {e}",
            path.display(),
            start.line,
            start.column + 1
        ))
    })
}
