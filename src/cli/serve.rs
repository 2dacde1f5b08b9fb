//! `sprague serve`: the web page and JSON API of `sprague::serve` (docs/serve.md).

use sprague::game::explore::Explore;
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
    /// games; may be repeated.
    #[arg(long = "game-cmd", value_name = "CMD")]
    game_cmd: Vec<String>,
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
    explorers.extend(program_explorers(&args.game_cmd)?);
    let mut options = Options::new(args.port, explorers);
    options.host = args.host;
    options.results = args.results;
    serve(options, |address| eprintln!("sprague serve: listening on http://{address}/ (Ctrl-C stops it)"))?;
    Ok(Status::Ok)
}

/// The explorers of `--game-cmd` programs. The place where a custom program game joins the
/// page: not wired yet, so any `--game-cmd` is refused rather than ignored.
fn program_explorers(commands: &[String]) -> anyhow::Result<Vec<Box<dyn Explore>>> {
    match commands.first() {
        None => Ok(Vec::new()),
        Some(command) => anyhow::bail!("--game-cmd {command:?}: custom program games are not shown by serve yet"),
    }
}
