//! Prints the scenario file that the `check_structured` target generates from each input file
//! given on the command line (a finding becomes a readable `.scn` this way).
//!
//! `fuzz/target/<host>/release/render_structured INPUT...`

// The build instruments this binary like the targets; libFuzzer supplies the coverage hooks.
use libfuzzer_sys as _;

fn main() {
    for path in std::env::args().skip(1) {
        match std::fs::read(&path) {
            Ok(data) => print!("{}", arbiter::fuzzing::structured::scenario_file(&data)),
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                std::process::exit(2);
            }
        }
    }
}
