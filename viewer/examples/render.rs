//! Renders a replay file to a self-contained HTML page with [`viewer::render_html`].
//!
//! Run with `cargo run -p viewer --example render -- REPLAY.json OUTPUT.html`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [replay_path, output_path] = args.as_slice() else {
        eprintln!("usage: render REPLAY.json OUTPUT.html");
        return ExitCode::from(2);
    };
    let replay = match std::fs::read_to_string(replay_path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("render: cannot read {replay_path}: {error}");
            return ExitCode::FAILURE;
        }
    };
    match viewer::render_html(&replay) {
        Ok(html) => match std::fs::write(output_path, html) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("render: cannot write {output_path}: {error}");
                ExitCode::FAILURE
            }
        },
        Err(message) => {
            eprintln!("render: {replay_path}: {message}");
            ExitCode::FAILURE
        }
    }
}
