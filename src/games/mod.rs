//! The games, one folder each (rules, input format, claimed solver, naive oracle, verification,
//! commands), and the registry from which the command line, `check` and the tests are derived.

use crate::game::Game;
use crate::output::records::Columns;

/// Declares each game folder as a module and lists its games in [`REGISTRY`].
macro_rules! registry {
    ($($folder:ident: [$($game:expr),+ $(,)?]),+ $(,)?) => {
        $(pub mod $folder;)+

        /// Every game, in the order the help lists them.
        pub static REGISTRY: &[&dyn Game] = &[$($(&$game),+),+];
    };
}

// Adding a game is one folder under src/games/ and one line here.
registry! {
    wall: [wall::GAME],
    catalogue: [
        catalogue::NIM,
        catalogue::NIM_COUNT,
        catalogue::MISERE_NIM,
        catalogue::ODD_EVEN_NIM,
        catalogue::PIMBER,
        catalogue::POLYGON,
        catalogue::CROSS,
        catalogue::DIVISOR,
    ],
    dagame: [dagame::GAME],
    footholds: [footholds::GAME],
    cards: [cards::GAME],
    kings: [kings::GAME],
    grundy: [grundy::GAME],
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

/// The column names of game `name`'s verify files ([`Columns::BOARD`] for a name no game has).
pub fn columns(name: &str) -> Columns {
    find(name).map_or(Columns::BOARD, |g| g.columns())
}
