//! Reading and parsing one Rust source file with `syn`, turning a read or syntax error into a
//! one-line input error (`file:line:column: message` for syntax).

use std::fs;
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

/// A whole source file as text; a failure names the file.
pub fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| input(format!("cannot read {}: {e}", path.display())))
}
