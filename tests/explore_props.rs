//! Random small positions of a few games on `sprague serve`'s explorers: every move's value is
//! a fresh analysis of the position it leads to, and the value's winner is the oracle's (whole
//! positions searched, never split).

use proptest::prelude::*;
use sprague::game::explore::{Explore, Winner};
use sprague::games::dagame::{Dag, Group, Instance};
use sprague::games::{catalogue, find, grundy, octal};
use sprague::impartial::{BruteForce, Impartial};

fn explorer(name: &str) -> Box<dyn Explore> {
    find(name).and_then(|g| g.explore()).unwrap_or_else(|| panic!("{name} has an explorer"))
}

/// Analyses `text` and each move's position afresh; the values agree. The winner, for the oracle.
fn moves_agree(name: &str, text: &str) -> Result<Winner, TestCaseError> {
    let explorer = explorer(name);
    let analysis = explorer.analyse(text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
    for m in &analysis.moves {
        let fresh = explorer.analyse(&m.position).map_err(|e| TestCaseError::fail(format!("{:?}: {e}", m.position)))?;
        prop_assert_eq!(fresh.value, m.value, "{}: {} from {:?}", name, m.name, text);
        prop_assert_eq!(m.winning, fresh.winner == Winner::Second);
    }
    Ok(analysis.winner)
}

/// Whether the first player wins `heaps` of a heap game, by the whole-position search.
fn first_wins<G: Impartial<Position = Vec<u32>>>(game: &G, heaps: &[u64]) -> bool {
    BruteForce::new(game).first_player_wins(&heaps.iter().map(|&h| h as u32).collect())
}

fn counted(heaps: &[u64]) -> String {
    format!("{}\n{}\n", heaps.len(), heaps.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
}

fn arb_instance() -> impl Strategy<Value = Instance> {
    (2usize..=6)
        .prop_flat_map(|n| {
            let group = prop_oneof![(0..n as u16).prop_map(Group::Single), (0..n as u16, 0..n as u16).prop_map(|(a, b)| Group::Pair(a, b))];
            // Colours are 1..=N in the contest input.
            (Just(n), proptest::collection::vec(any::<bool>(), n * (n - 1) / 2), proptest::collection::vec(group, 1..=n.min(3)))
        })
        .prop_map(|(n, bits, groups)| {
            let all = (0..n as u16).flat_map(|p| (p + 1..n as u16).map(move |q| (p, q)));
            let mut edges: Vec<(u16, u16)> = all.zip(bits).filter(|(_, on)| *on).map(|(e, _)| e).collect();
            edges.push((0, 1)); // the contest input has at least one edge
            Instance::from_groups(Dag::new(n, &edges), &groups)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn nim_family(heaps in proptest::collection::vec(1u64..=9, 0..=4), game in 0usize..5) {
        let name = ["nim", "nim-count", "misere-nim", "odd-even-nim", "pimber"][game];
        let winner = moves_agree(name, &counted(&heaps))?;
        let first = match game {
            0 => first_wins(&catalogue::nim::Nim, &heaps),
            1 => first_wins(&catalogue::nim::NimCount, &heaps),
            2 => first_wins(&catalogue::misere_nim::MisereNim, &heaps),
            3 => first_wins(&catalogue::odd_even_nim::OddEvenNim, &heaps),
            _ => first_wins(&catalogue::pimber::Pimber, &heaps),
        };
        prop_assert_eq!(winner == Winner::First, first, "{} {:?}", name, heaps);
    }

    #[test]
    fn grundy_against_whole_positions(heaps in proptest::collection::vec(1u16..=12, 1..=3)) {
        let winner = moves_agree("grundy", &counted(&heaps.iter().map(|&h| u64::from(h)).collect::<Vec<_>>()))?;
        let (code, whole) = (grundy::code(), heaps.iter().map(|&h| usize::from(h)).collect::<Vec<_>>());
        let first = octal::brute::solve(&mut BruteForce::new(&octal::brute::WholePositions(&code)), &whole).1;
        prop_assert_eq!(winner == Winner::First, first);
    }

    #[test]
    fn octal_against_whole_positions(heaps in proptest::collection::vec(1usize..=9, 0..=3), pick in 0usize..5) {
        let code = ["0.07", "0.137", "4.07", "{1,3,4}", "0x0.f"][pick];
        let text = format!("{code}\n{}", counted(&heaps.iter().map(|&h| h as u64).collect::<Vec<_>>()));
        let winner = moves_agree("octal", &text)?;
        let parsed = octal::code::Code::parse(code).unwrap();
        let first = octal::brute::solve(&mut BruteForce::new(&octal::brute::WholePositions(&parsed)), &heaps).1;
        prop_assert_eq!(winner == Winner::First, first);
    }

    #[test]
    fn dagame_against_whole_positions(instance in arb_instance()) {
        let winner = moves_agree("dagame", &instance.to_input())?;
        let value = sprague::games::dagame::brute::solve(&instance).unwrap();
        prop_assert_eq!(winner == Winner::First, value != 0);
    }

    #[test]
    fn polygon_after_random_chords(n in 3u32..=11, picks in proptest::collection::vec(any::<prop::sample::Index>(), 0..=3)) {
        let explorer = explorer("polygon");
        let mut text = format!("{n}\n");
        for pick in picks {
            let moves = explorer.analyse(&text).unwrap().moves;
            if moves.is_empty() {
                break;
            }
            text = moves[pick.index(moves.len())].position.clone();
        }
        let winner = moves_agree("polygon", &text)?;
        let analysis = explorer.analyse(&text).unwrap();
        let chords = analysis.drawing["chords"].as_array().unwrap().iter().map(|c| (c[0].as_u64().unwrap() as u32 - 1, c[1].as_u64().unwrap() as u32 - 1));
        let drawn = chords.fold(0u128, |bits, (a, b)| bits | 1 << sprague::games::catalogue::polygon::pair_bit(a, b));
        let mut brute = BruteForce::new(&sprague::games::catalogue::polygon::Polygon);
        prop_assert_eq!(winner == Winner::First, brute.first_player_wins(&(n, drawn)));
        prop_assert_eq!(analysis.value, Some(u64::from(brute.grundy(&(n, drawn)))));
    }
}
