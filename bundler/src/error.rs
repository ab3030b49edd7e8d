//! The bundler's one error type. Every failure ends as a single line on stderr and an exit
//! code: 2 when the input is unusable (bad flags, missing crate, unparsable source), 1 when a
//! bundle was produced but one of the checks rejected it.

use std::fmt;

/// Why the bundler stopped.
#[derive(Debug)]
pub enum Error {
    /// The input could not be bundled at all (exit code 2).
    Input(String),
    /// A check rejected the bundle (exit code 1).
    Check(String),
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => 2,
            Error::Check(_) => 1,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(m) | Error::Check(m) => f.write_str(m),
        }
    }
}

/// Shorthand for an input error built with `format!`-style arguments.
pub fn input(msg: impl Into<String>) -> Error {
    Error::Input(msg.into())
}

/// Shorthand for a failed check.
pub fn check(msg: impl Into<String>) -> Error {
    Error::Check(msg.into())
}

pub type Result<T> = std::result::Result<T, Error>;
