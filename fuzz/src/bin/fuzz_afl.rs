//! The AFL++ driver: `fuzz-afl TARGET` runs one fuzz target in AFL++'s persistent mode (built
//! and started by `make fuzz TARGET=... SECONDS=...`, see docs/reliability.md).

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let Some(target) = fuzz::target(&name) else {
        eprintln!(
            "fuzz-afl: unknown target {name:?}; targets: {}",
            fuzz::target_names()
        );
        std::process::exit(2);
    };
    let run = target.run;
    afl::fuzz(true, |data: &[u8]| run(data));
}
