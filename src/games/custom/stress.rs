//! `sprague stress custom`: a solution of a game program's game, one position in, its value or the winner out, judged against the brute force of the program's moves.

use super::program;
use crate::custom::program::contest::ProgramContest;
use crate::custom::program::Explorer;
use crate::error::Result;
use crate::game::stress::{outside_game_options, run_stress, Recorded};
use crate::game::{Args, Command, CommandSpec, OptSpec, Session, Status, StressSide, Verb};

/// `--search-budget` here: a game program lists only its starting positions, no size order to
/// search below a failure in.
const SEARCH_BUDGET: &str = "Unused by stress custom (accepted as by every stress command): a shrunk failure is reported locally minimal, since a game program lists no size order of its positions to search for a smaller failing one in.";

/// Copies of the game program: the judge asks it one request batch at a time.
const GAME_COPIES: usize = 4;

/// `stress custom`.
#[derive(Clone, Copy)]
pub struct StressCustom;

impl Command for StressCustom {
    fn verb(&self) -> Verb {
        Verb::Stress
    }

    fn spec(&self) -> CommandSpec {
        let max = OptSpec::value("max", "N", "Largest size generated: every starting position of sizes 0..=N (exhaustive), and positions reached from them.")
            .default("12")
            .validate(|s| program::parse_max(s).map(|_| ()));
        let mut options = vec![max];
        options.extend(outside_game_options(SEARCH_BUDGET));
        // The game program's time per answer is --game-timeout only: --timeout is the solution's.
        options.extend(program::options_without_timeout());
        CommandSpec {
            name: "custom",
            about: "A game program's game: one position (its token, a newline) to the program, its Grundy value or First/Second expected (misère: First/Second).",
            options,
            examples: &[
                "sprague stress custom --game-cmd 'python3 kayles.py' --cmd 'python3 solution.py'",
                "sprague stress custom --game-cmd ./game --cmd ./a.out --max 20 --generator adversarial --convention misere",
            ],
        }
    }

    fn run(&self, args: &Args, session: &mut Session) -> Result<Status> {
        run_stress("custom", build, args, session)
    }

    fn stress_side(&self, args: &Args) -> Option<Result<Box<dyn StressSide>>> {
        Some(build(args))
    }
}

fn build(args: &Args) -> Result<Box<dyn StressSide>> {
    let max = program::max_size(args)?;
    let convention = program::convention(args)?;
    let game = program::start(args, GAME_COPIES.min(rayon::current_num_threads()))?;
    let recorded = args.to_json(&["game-cmd", "convention", "game-timeout", "max-positions", "max-moves", "memory-limit"]);
    let explorer = Explorer::new(std::sync::Arc::new(game), convention, program::graph_limits(args)?);
    // A failing game program stops the run before anything is written (`Contest::take_failure`).
    Ok(Box::new(Recorded::new(ProgramContest::new(explorer, convention, max)?, "game_program", recorded)))
}
