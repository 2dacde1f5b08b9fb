//! The games, one folder each (rules, input format, claimed solver, naive oracle, verification,
//! commands), and the registry from which the command line, `check` and the tests are derived.

use crate::check::{Plan, ResultsDir};
use crate::error::{Error, Result};
use crate::game::{Args, Command, Game, Verb};
use crate::output::records::Columns;
use crate::output::run_report::KnownGame;
use crate::runner::Verification;
use std::collections::BTreeMap;
use std::path::Path;

/// Declares each game folder as a module and lists its games in [`REGISTRY`]: each folder
/// gives an array of its games (the catalogue its `GAMES`, the one list behind its commands).
macro_rules! registry {
    ($($folder:ident: $games:expr),+ $(,)?) => {
        $(pub mod $folder;)+

        /// Every game, in the order the help lists them.
        pub static REGISTRY: &[&dyn Game] = &joined::<{ 0 $(+ $games.len())+ }>(&[$(&as_games(&$games)),+]);
    };
}

// Adding a game is one folder under src/games/ and one line here.
registry! {
    wall: [&wall::GAME],
    catalogue: catalogue::GAMES,
    dagame: [&dagame::GAME],
    footholds: [&footholds::GAME],
    cards: [&cards::GAME],
    kings: [&kings::GAME],
    grundy: [&grundy::GAME],
    octal: [&octal::GAME],
    custom: [&custom::GAME],
    problem: [&problem::GAME],
}

/// A folder's games as games of any kind.
const fn as_games<T: Game, const N: usize>(games: &[&'static T; N]) -> [&'static dyn Game; N] {
    let mut out: [&'static dyn Game; N] = [&wall::GAME; N];
    let mut i = 0;
    while i < N {
        out[i] = games[i];
        i += 1;
    }
    out
}

/// The folders' games one after another, `N` in all.
const fn joined<const N: usize>(folders: &[&[&'static dyn Game]]) -> [&'static dyn Game; N] {
    let mut out: [&'static dyn Game; N] = [&wall::GAME; N];
    let (mut folder, mut at) = (0, 0);
    while folder < folders.len() {
        let mut i = 0;
        while i < folders[folder].len() {
            out[at] = folders[folder][i];
            (at, i) = (at + 1, i + 1);
        }
        folder += 1;
    }
    assert!(at == N, "N counts every game");
    out
}

/// The game named `name`.
///
/// ```
/// use sprague::game::Verb;
/// let kings = sprague::games::find("kings").unwrap();
/// let verbs: Vec<Verb> = kings.commands().iter().map(|c| c.verb()).collect();
/// assert_eq!(verbs, [Verb::Solve, Verb::Verify, Verb::Stress]);
/// assert!(sprague::games::find("chess").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static dyn Game> {
    REGISTRY.iter().copied().find(|g| g.name() == name)
}

/// Every game `sprague serve` shows, in registry order.
pub fn explorers() -> Vec<Box<dyn crate::game::explore::Explore>> {
    REGISTRY.iter().filter_map(|g| g.explore()).collect()
}

/// The column names of game `name`'s verify files ([`Columns::BOARD`] for a name no game has).
pub fn columns(name: &str) -> Columns {
    find(name).map_or(Columns::BOARD, |g| g.columns())
}

/// Game `name`'s column names, what its value column means and its own report of a run
/// directory, if it has one: what `report` hands down to
/// [`crate::output::run_report::report_runs`].
pub fn run_report(name: &str) -> Option<KnownGame> {
    find(name).map(|g| KnownGame { columns: g.columns(), values: g.values(), report: g.report() })
}

/// Every committed results directory of every registered game (what `check` recomputes).
pub fn results() -> Vec<ResultsDir> {
    REGISTRY.iter().flat_map(|g| g.results()).collect()
}

/// `check`'s plan: the committed results (every registered directory) or any tree of runs under
/// `root`, the cheapest units within `budget`.
pub fn check_plan(root: &Path, budget: f64) -> Result<Plan> {
    Plan::read(root, budget, results(), verification_from_manifest, omitted_by_design)
}

/// Whether game `game`'s committed results may lack file `name` that a manifest of its runs
/// lists ([`Game::omitted_by_design`]; false for a game the registry does not have).
pub fn omitted_by_design(game: &str, name: &str) -> bool {
    find(game).is_some_and(|g| g.omitted_by_design(name))
}

/// Every command of every registered game with verb `verb`, in registry order.
pub fn commands(verb: Verb) -> Vec<Box<dyn Command>> {
    REGISTRY.iter().flat_map(|g| g.commands()).filter(|c| c.verb() == verb).collect()
}

/// The verification a finished run's manifest describes (its game, mode and recorded options),
/// rebuilt from the registry; `merge` uses it to write the game's own files.
pub fn verification_from_manifest(parameters: &BTreeMap<String, serde_json::Value>) -> Result<Box<dyn Verification>> {
    let (command, verb, game, mut args) = manifest_command(parameters)?;
    let spec = command.spec();
    for option in spec.options.iter().filter(|o| o.default.is_some()) {
        if args.text(option.name).is_none() && option.value.is_some() {
            args = args.with(option.name, option.default.expect("filtered"));
        }
    }
    let mut verification = command.verification(&args).ok_or_else(|| Error::Usage(format!("{} {game} runs no verification", verb.name())))??;
    verification.adopt_manifest(parameters)?;
    Ok(verification)
}

/// A manifest's options under their current names and values (`"rule"` → `"rules"`, options
/// the command no longer has dropped), so that shards recorded by older and newer versions of
/// one run compare equal.
pub fn current_options(parameters: &mut BTreeMap<String, serde_json::Value>) -> Result<()> {
    let (command, _, _, args) = manifest_command(parameters)?;
    let names: Vec<&str> = command.spec().options.iter().map(|o| o.name).collect();
    parameters.insert("options".into(), args.to_json(&names));
    Ok(())
}

/// The command a manifest's parameters name (its game and mode), the verb, the game, and the
/// recorded options read under their current names (older manifests record `rule`, `max-nodes`).
fn manifest_command(parameters: &BTreeMap<String, serde_json::Value>) -> Result<(Box<dyn Command>, Verb, String, Args)> {
    let text = |key: &str| parameters.get(key).and_then(serde_json::Value::as_str);
    let game = text("game").ok_or_else(|| Error::Usage("the manifest names no game".into()))?;
    let registered = find(game).ok_or_else(|| Error::UnknownGame { game: game.to_string() })?;
    let verb = if text("mode") == Some("census") { Verb::Census } else { Verb::Verify };
    let options = parameters.get("options").ok_or_else(|| {
        Error::Usage(format!("the manifest of this {game} run records no options (written by an older sprague); rerun it"))
    })?;
    let command = (registered.commands().into_iter().find(|c| c.verb() == verb))
        .ok_or_else(|| Error::Usage(format!("no {} command for game {game:?}", verb.name())))?;
    let args = Args::from_json(options)?.current(&command.spec().options);
    Ok((command, verb, game.to_string(), args))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_registry_says_which_files_a_game_leaves_out() {
        assert!(super::omitted_by_design("octal", "values/0.16.csv"));
        assert!(!super::omitted_by_design("octal", "family.csv"));
        assert!(!super::omitted_by_design("wall", "values/0.16.csv"));
        assert!(!super::omitted_by_design("chess", "values/0.16.csv"));
    }

    #[test]
    fn the_catalogue_s_games_are_its_list_in_order() {
        let names: Vec<&str> = super::REGISTRY.iter().map(|g| g.name()).collect();
        let catalogue: Vec<&str> = super::catalogue::GAMES.iter().map(|g| g.name).collect();
        assert_eq!(names[1..=catalogue.len()], catalogue[..]);
        assert_eq!(names.iter().collect::<std::collections::BTreeSet<_>>().len(), names.len(), "{names:?}");
    }

    #[test]
    fn every_game_names_distinct_columns() {
        for game in super::REGISTRY {
            for header in [game.columns().summary(), game.columns().distribution(), game.columns().mismatches()] {
                let distinct: std::collections::BTreeSet<&str> = header.iter().copied().collect();
                assert_eq!(distinct.len(), header.len(), "{}: {header:?}", game.name());
            }
        }
    }
}
