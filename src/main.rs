//! `challenge`: the kit's one command-line program. The commands live in [`cli`]; what
//! they do lives in the kit's crates (`measure`, `league`, `results`, `serve`...).

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
