//! `token-counter [FILES...]`: counts bot files' tokens and checks the rules.

use clap::Parser;

/// Count a bot file's tokens and check it against the challenge rules.
#[derive(Parser)]
#[command(name = "token-counter", version)]
struct Cli {
    #[command(flatten)]
    args: token_counter::CountArgs,
}

fn main() {
    let cli = Cli::parse();
    let code = token_counter::run(&cli.args, &mut std::io::stdout().lock());
    std::process::exit(code);
}
