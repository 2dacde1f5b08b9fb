//! The command line: subcommands derived from the game registry (plus merge and check), parsed
//! with clap and run by the library.

mod check;
mod merge;
mod serve;
mod progress;
mod spec;

use anyhow::Context;
use clap::{ArgMatches, FromArgMatches};
use sprague::game::{Args, Command, Session, Status, Verb};
use sprague::games::commands;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::process::ExitCode;

/// The whole command tree: one subcommand per verb, under it one per game command.
#[cfg(test)]
fn cli() -> clap::Command {
    cli_for(&[])
}

/// The command tree a command line needs: when it starts `VERB GAME` with names clap knows,
/// the other verbs and games are left without their options (building every one cost a
/// one-board `solve` process about 0.2 ms of its 2 ms). Help, errors and anything
/// unrecognised get the whole tree.
fn cli_for(words: &[String]) -> clap::Command {
    let mut cli = clap::Command::new("sprague")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Parallel exhaustive verifier and research tool for Sprague–Grundy claims.")
        .propagate_version(true)
        .subcommand_required(true)
        .arg_required_else_help(true);
    let typed_verb = Verb::ALL.into_iter().find(|v| words.first().is_some_and(|w| w == v.name()));
    for verb in Verb::ALL {
        let built = match typed_verb {
            None => Some(None),
            Some(typed) if typed == verb => Some(words.get(1).map(String::as_str)),
            Some(_) => None,
        };
        cli = cli.subcommand(match built {
            Some(game) => verb_command(verb, game),
            None => clap::Command::new(verb.name()).about(verb.about()),
        });
    }
    let merge = <merge::Args as clap::Args>::augment_args(clap::Command::new("merge"))
        .about("Combine the output directories of `--shard K/N` runs into the files of one run.")
        .after_help("Examples:\n  sprague merge out/shard-1 out/shard-2 out/shard-3 --out out/merged");
    let check = <check::Args as clap::Args>::augment_args(clap::Command::new("check"))
        .about("Recompute the committed results that fit a time budget and compare them (CI regression).")
        .after_help(
            "Every committed file is checked against the SHA-256 in its manifest, and every size's counts against \
             its totals, whatever the budget.\n\nExamples:\n  sprague check\n  sprague check --budget 100000 --verbose",
        );
    cli.subcommand(merge).subcommand(check).subcommand(serve::command())
}

/// The subcommand of `verb`: its games' commands (or, for a flat verb, its one command). With
/// `typed` naming one of its games, only that game's options are built.
fn verb_command(verb: Verb, typed: Option<&str>) -> clap::Command {
    let commands = commands(verb);
    if verb.flat() {
        if let [only] = &commands[..] {
            return spec::command(&only.spec()).name(verb.name());
        }
    }
    let specs: Vec<_> = commands.iter().map(|c| c.spec()).collect();
    let known = specs.iter().any(|spec| Some(spec.name) == typed);
    let games = specs.iter().map(|spec| match known && Some(spec.name) != typed {
        true => clap::Command::new(spec.name).about(spec.about),
        false => spec::command(spec),
    });
    clap::Command::new(verb.name()).about(verb.about()).subcommand_required(true).subcommands(games)
}

/// Parses the command line and runs it; the exit code (0 ok, 1 mismatch, 2 usage, 3 stopped).
pub fn run() -> anyhow::Result<ExitCode> {
    let args: Vec<OsString> = std::env::args_os().collect();
    let words: Vec<String> = args.iter().skip(1).take(2).map(|a| a.to_string_lossy().into_owned()).collect();
    let cli = cli_for(&words);
    let args = attach_hyphen_values(&cli, args);
    let matches = match cli.try_get_matches_from(args) {
        Ok(matches) => matches,
        Err(parsed) => return parse_outcome(&parsed),
    };
    sprague::interrupt::install().context("cannot handle SIGINT and SIGTERM")?;
    let subcommand = matches.subcommand().expect("a subcommand is required");
    if ["merge", "check", "serve"].contains(&subcommand.0) {
        threads_from_env()?;
    }
    let status = (|| {
        anyhow::Ok(match subcommand {
            ("merge", m) => merge::run(merge::Args::from_arg_matches(m)?)?,
            ("check", m) => check::run(check::Args::from_arg_matches(m)?)?,
            ("serve", m) => serve::run(m)?,
            (verb, m) => run_game_command(verb, m)?,
        })
    })();
    // What the programs run left behind, however the command ended.
    sprague::interrupt::finish();
    // A command stopped gently by a signal ends as the signal would have, whatever it says.
    if let Some(signal) = sprague::interrupt::stopped_by() {
        if let Err(e) = &status {
            sprague::sys::say(&format!("error: {e:#}"));
        }
        return Ok(ExitCode::from(128 + signal as u8));
    }
    Ok(exit_code(status?))
}

/// What clap's word on the command line (help, version or a usage error) ends as: its exit code
/// once written; help that cannot be written to stdout (`--help >/dev/full`) is an error.
fn parse_outcome(parsed: &clap::Error) -> anyhow::Result<ExitCode> {
    let written = parsed.print().and_then(|()| std::io::Write::flush(&mut std::io::stdout()));
    match written {
        Err(e) if !parsed.use_stderr() => {
            let what = if parsed.kind() == clap::error::ErrorKind::DisplayVersion { "the version" } else { "the help" };
            Err(anyhow::Error::new(e).context(format!("cannot write {what} to standard output")))
        }
        _ => Ok(ExitCode::from(u8::try_from(parsed.exit_code()).unwrap_or(2))),
    }
}

/// `--max -3x5` as `--max=-3x5`: clap reads a value that starts with a hyphen and a digit as
/// flags ("unexpected argument '-3'"); attached, it reaches the option's own check ("invalid
/// size"). Only values of long options that take one, in the command the words lead to.
fn attach_hyphen_values(cli: &clap::Command, args: Vec<OsString>) -> Vec<OsString> {
    let mut command = cli;
    let mut out: Vec<OsString> = Vec::with_capacity(args.len());
    for arg in args {
        let text = arg.to_string_lossy();
        let joined = match out.last().map(|last| last.to_string_lossy()) {
            Some(last) if text.starts_with('-') && text[1..].starts_with(|c: char| c.is_ascii_digit()) => {
                last.strip_prefix("--").filter(|name| takes_value(command, name)).map(|_| format!("{last}={text}"))
            }
            _ => None,
        };
        match joined {
            Some(joined) => *out.last_mut().expect("a previous argument") = joined.into(),
            None => {
                command = command.find_subcommand(&*text).unwrap_or(command);
                out.push(arg);
            }
        }
    }
    out
}

/// Whether `command` has a long option `--name` that takes a value.
fn takes_value(command: &clap::Command, name: &str) -> bool {
    command.get_arguments().any(|a| a.get_long() == Some(name) && a.get_action().takes_values())
}

/// Finds the game command the matches name and runs it.
fn run_game_command(verb_name: &str, matches: &ArgMatches) -> anyhow::Result<Status> {
    let verb = Verb::ALL.into_iter().find(|v| v.name() == verb_name).expect("clap knows only these verbs");
    let commands = commands(verb);
    let (command, matches): (&dyn Command, &ArgMatches) = if verb.flat() && commands.len() == 1 {
        (&*commands[0], matches)
    } else {
        let (name, sub) = matches.subcommand().expect("a game is required");
        let command = commands.iter().find(|c| c.spec().name == name).expect("clap knows only these games");
        (&**command, sub)
    };
    let args = spec::values(&command.spec(), matches);
    start_threads(&args)?;
    let bars = progress::Bars::for_stderr(args.flag("quiet"), std::io::stderr().is_terminal())?;
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    let mut out = std::io::BufWriter::new(stdout.lock());
    // Stderr is not locked for the whole command: the progress bars' ticker thread writes to it.
    let mut session = Session {
        stdin: &mut stdin.lock(),
        stdout: &mut out,
        stderr: &mut std::io::stderr(),
        progress: &bars,
        command_line: command_line(),
    };
    let status = command.run(&args, &mut session)?;
    // What is still buffered is written here, so that a failed write (a full disk, a closed
    // pipe) is an error, not lost when the buffer is dropped.
    std::io::Write::flush(&mut out).map_err(|e| sprague::Error::io("<stdout>", e))?;
    Ok(status)
}

/// The command line as manifests record it: `sprague` and the arguments as typed (not the
/// path the binary happened to be run from).
pub fn command_line() -> Vec<String> {
    std::iter::once("sprague".to_string()).chain(std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned())).collect()
}

/// Most threads `--threads` accepts: far more than helps, far fewer than would swamp the machine.
fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (16 * cores).max(64)
}

/// Sets up the rayon pool when `--threads` was given; else checks `RAYON_NUM_THREADS`.
fn start_threads(args: &Args) -> anyhow::Result<()> {
    let Some(threads) = args.get::<usize>("threads")? else { return threads_from_env() };
    anyhow::ensure!(threads >= 1, "--threads must be at least 1");
    within_machine(threads, &format!("--threads {threads}"))?;
    rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().map_err(pool_error)
}

/// The thread pool's build error with its reason once (rayon's error shows its I/O error and
/// also gives it as its source, which `{:#}` would print a second time).
fn pool_error(error: rayon::ThreadPoolBuildError) -> anyhow::Error {
    anyhow::anyhow!("cannot start the thread pool: {error}")
}

/// Refuses a `RAYON_NUM_THREADS` above what `--threads` accepts: rayon would start that many
/// threads and manifests record them (check's estimates divide by them). A value rayon ignores
/// (not a number) is left alone, as is 0 (rayon's default).
fn threads_from_env() -> anyhow::Result<()> {
    let Some(text) = std::env::var_os("RAYON_NUM_THREADS") else { return Ok(()) };
    match text.to_str().and_then(|text| text.parse::<usize>().ok()) {
        Some(threads) => within_machine(threads, &format!("RAYON_NUM_THREADS={threads}")),
        None => Ok(()),
    }
}

/// An error naming `what` when `threads` is more than [`max_threads`].
fn within_machine(threads: usize, what: &str) -> anyhow::Result<()> {
    let most = max_threads();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    anyhow::ensure!(threads <= most, "{what} is more than this machine can use ({cores} cores; at most {most} accepted)");
    Ok(())
}

fn exit_code(status: Status) -> ExitCode {
    match status {
        Status::Ok => ExitCode::SUCCESS,
        Status::Failed => ExitCode::from(1),
        Status::Interrupted => ExitCode::from(3),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_pool_that_cannot_start_says_why_once() {
        let failed = rayon::ThreadPoolBuilder::new().num_threads(1).spawn_handler(|_| Err(std::io::Error::other("no threads left"))).build().unwrap_err();
        assert_eq!(format!("{:#}", super::pool_error(failed)), "cannot start the thread pool: no threads left");
    }

    /// Every command a user can run, with its path (`verify wall`).
    fn leaves(command: &clap::Command, path: String, out: &mut Vec<(String, clap::Command)>) {
        let subcommands: Vec<&clap::Command> = command.get_subcommands().filter(|c| c.get_name() != "help").collect();
        if subcommands.is_empty() {
            out.push((path.clone(), command.clone()));
        }
        for sub in subcommands {
            leaves(sub, format!("{path} {}", sub.get_name()).trim().to_string(), out);
        }
    }

    /// Help pages, for every command derived from the registry: an example and every allowed
    /// value of an option with choices.
    #[test]
    fn every_help_page_has_an_example_and_its_values() {
        let mut all = Vec::new();
        leaves(&super::cli(), String::new(), &mut all);
        assert!(all.len() > 20, "{} commands", all.len());
        for (path, mut command) in all {
            let help = command.render_long_help().to_string();
            let examples = help.split_once("Examples:\n").map(|(_, e)| e).unwrap_or_default();
            assert!(examples.contains(&format!("sprague {path}")), "{path}: no example:\n{help}");
            for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
                for value in arg.get_possible_values() {
                    assert!(help.contains(value.get_name()), "{path}: --{} value {} not listed", arg.get_id(), value.get_name());
                }
            }
        }
    }

    /// The tree built for a typed `VERB GAME` holds that command exactly as the whole tree does
    /// (same options, same help), so pruning the rest changes nothing a user sees.
    #[test]
    fn the_pruned_tree_holds_the_typed_command_unchanged() {
        let mut all = Vec::new();
        leaves(&super::cli(), String::new(), &mut all);
        for (path, mut full) in all {
            let words: Vec<String> = path.split(' ').map(str::to_string).collect();
            let mut pruned = super::cli_for(&words);
            for word in &words {
                pruned = pruned.find_subcommand(word).unwrap_or_else(|| panic!("{path}: {word} missing")).clone();
            }
            assert_eq!(pruned.render_long_help().to_string(), full.render_long_help().to_string(), "{path}");
        }
    }
}
