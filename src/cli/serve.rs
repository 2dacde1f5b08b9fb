//! `sprague serve`: the web page and JSON API of `sprague::serve` (docs/serve.md).

use sprague::game::Status;
use sprague::serve::{serve, Options};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on; 0 picks a free one (printed on stderr).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on (the default serves this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// A `sprague report --out` directory whose report.md and plots the page shows.
    #[arg(long, value_name = "DIR")]
    results: Option<PathBuf>,
    /// A custom game given as a program (docs/custom-programs.md), shown beside the built-in
    /// games as `custom`.
    #[arg(long = "game-cmd", value_name = "CMD")]
    game_cmd: Option<String>,
}

pub fn command() -> clap::Command {
    <Args as clap::Args>::augment_args(clap::Command::new("serve"))
        .about("Serve a web page where every move shows its value (and its JSON API) until stopped.")
        .after_help(
            "Open the printed address in a browser. Routes and examples: docs/serve.md.\n\nExamples:\n  sprague serve\n  \
             sprague serve --port 0 --results out/report",
        )
}

pub fn run(args: Args) -> anyhow::Result<Status> {
    let mut explorers = sprague::games::explorers();
    if let Some(command) = &args.game_cmd {
        explorers.push(sprague::games::custom::program_explorer(command).map_err(|e| anyhow::anyhow!("--game-cmd: {e}"))?);
    }
    let mut options = Options::new(args.port, explorers);
    options.host = args.host;
    options.results = args.results;
    serve(options, |address| eprintln!("sprague serve: listening on http://{address}/ (Ctrl-C stops it)"))?;
    Ok(Status::Ok)
}
