//! The CodinGame entry point: everything lives in `csb::bot`; calls stay fully qualified so the
//! bundler can flatten the crate into one file.

fn main() {
    std::process::exit(csb::bot::run::run_stdio());
}
