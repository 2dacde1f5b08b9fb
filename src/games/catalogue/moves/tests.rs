use super::*;
use crate::games::catalogue::contest::CatalogueContest;
use crate::games::catalogue::misere_nim::MisereNim;
use crate::games::catalogue::nim::Nim;
use crate::games::catalogue::odd_even_nim::{self, OddEvenNim};
use crate::games::catalogue::pimber::{fibonacci_up_to, Pimber};
use crate::games::catalogue::polygon::{pair_bit, Polygon};
use crate::games::catalogue::commands::CatalogueGame;
use crate::games::catalogue::entries::{DIVISOR, MISERE_NIM, NIM, ODD_EVEN_NIM, PIMBER, POLYGON};
use crate::impartial::{BruteForce, Impartial};
use crate::stress::moves::{ByMove, MoveAnswer};
use crate::stress::Contest;

fn contest(game: CatalogueGame) -> CatalogueContest {
    CatalogueContest { game, exhaustive_max: 4 }
}

#[test]
fn any_winning_move_is_right_and_losing_or_illegal_ones_are_not() {
    let game = ByMove(contest(NIM));
    assert_eq!(game.answer(&Case::Piles(vec![3, 5, 6])), MoveAnswer::Lost("cubelover"));
    let case = Case::Piles(vec![1, 4, 6, 2]);
    // XOR 1: pile 1 to 0 (take 1), pile 4 → 5 no, pile 6 → 7 no, pile 2 → 3 no.
    let expected = game.answer(&case);
    assert_eq!(expected, MoveAnswer::Moves(vec![Move::Take { pile: 1, take: 1 }]));
    let judge = |out: &str| game.judge(&case, out);
    assert!(judge("1 1\n").unwrap().0);
    assert_eq!(judge("3 1").unwrap().1, "the move leaves the opponent a win");
    assert_eq!(judge("2 5").unwrap().1, "illegal move: pile 2: the pile has only 4 stones, not 5");
    assert_eq!(judge("5 1").unwrap().1, "illegal move: there is no pile 5 (of 4)");
    assert_eq!(judge("cubelover").unwrap().1, "the position is won (1 winning move)");
    assert!(judge("1 0").unwrap_err().contains("i k") && judge("koosaga").unwrap_err().contains("or cubelover"));
    let two = game.answer(&Case::Piles(vec![3, 1, 1, 2]));
    let firsts = [1, 2, 3].map(|pile| Move::Take { pile, take: 1 });
    assert_eq!(two, MoveAnswer::Moves(firsts.to_vec()), "any of them is right");
}

/// The sizes a pile of n stones can become in each pile game (as their brute forces move).
fn heap_moves(game: &str, n: u32) -> Vec<u32> {
    match game {
        "odd-even-nim" => odd_even_nim::heap_moves(n),
        "pimber" => fibonacci_up_to(n).into_iter().map(|f| n - f).collect(),
        _ => (0..n).collect(),
    }
}

/// Every multiset of piles with at most `total` stones, sorted ascending.
fn pile_lists(total: u32) -> Vec<Vec<u32>> {
    let mut out = vec![];
    let mut stack = vec![(vec![], 0u32)];
    while let Some((piles, sum)) = stack.pop() {
        let least = piles.last().copied().unwrap_or(1);
        for p in least..=total - sum {
            let mut next: Vec<u32> = piles.clone();
            next.push(p);
            stack.push((next.clone(), sum + p));
            out.push(next);
        }
    }
    out
}

/// Every winning `i k` by whole-position search (the game's brute force), and every illegal
/// `i k` (k up to the pile + 1) flagged as such.
fn check_pile_game<G: Impartial<Position = Vec<u32>>>(entry: CatalogueGame, brute_game: &G) {
    let side = contest(entry);
    let mut brute = BruteForce::new(brute_game);
    for piles in pile_lists(9) {
        let case = Case::Piles(piles.iter().map(|&p| u64::from(p)).collect());
        let mut expected = Vec::new();
        for (i, &p) in piles.iter().enumerate() {
            let moves = heap_moves(entry.name, p);
            for k in 1..=p + 1 {
                let legal = k <= p && moves.contains(&(p - k));
                let mv = Move::Take { pile: i + 1, take: u64::from(k) };
                assert_eq!(side.illegal(&case, &mv).is_none(), legal, "{} {piles:?} {mv}", entry.name);
                if legal {
                    let mut after: Vec<u32> = piles.clone();
                    after[i] = p - k;
                    after.retain(|&q| q > 0);
                    after.sort_unstable();
                    if !brute.first_player_wins(&after) {
                        expected.push(mv);
                    }
                }
            }
        }
        let mut got = side.winning_moves(&case);
        got.sort_by_key(|m| m.to_string());
        expected.sort_by_key(|m| m.to_string());
        assert_eq!(got, expected, "{} {piles:?}", entry.name);
    }
}

#[test]
fn the_pile_games_winning_moves_are_those_of_whole_position_search() {
    check_pile_game(NIM, &Nim);
    check_pile_game(MISERE_NIM, &MisereNim);
    check_pile_game(ODD_EVEN_NIM, &OddEvenNim);
    check_pile_game(PIMBER, &Pimber);
}

#[test]
fn large_piles_have_their_winning_moves_without_listing_every_move() {
    let side = contest(ODD_EVEN_NIM);
    // g(10^9 − 1) = 5·10^8 and g(3) = 2: the big pile goes to a pile of value 2, 3 or 6, and
    // an odd pile stays odd (an even number taken): 3 only.
    let moves = side.winning_moves(&Case::Piles(vec![999_999_999, 3]));
    assert_eq!(moves, vec![Move::Take { pile: 1, take: 999_999_996 }]);
    let moves = side.winning_moves(&Case::Piles(vec![1_000_000_000, 3]));
    assert_eq!(moves, vec![Move::Take { pile: 1, take: 999_999_994 }], "an even pile to 6");
    let pimber = contest(PIMBER);
    let moves = pimber.winning_moves(&Case::Piles(vec![3_000_000, 2_999_999]));
    assert!(!moves.is_empty() && moves.iter().all(|m| pimber.illegal(&Case::Piles(vec![3_000_000, 2_999_999]), m).is_none()));
}

#[test]
fn the_divisor_games_winning_moves_are_those_of_whole_position_search() {
    let side = contest(DIVISOR);
    let game = crate::games::catalogue::divisor::Divisor;
    let mut brute = BruteForce::new(&game);
    for n in 1..=400u64 {
        let case = Case::Number { n, vertices: false };
        let losing: std::collections::BTreeSet<u64> = game.moves(&n).into_iter().filter(|d| !brute.first_player_wins(d)).collect();
        let expected: Vec<Move> = losing.into_iter().map(Move::Divisor).collect();
        assert_eq!(side.winning_moves(&case), expected, "N = {n}");
        for d in 1..=n + 1 {
            assert_eq!(side.illegal(&case, &Move::Divisor(d)).is_none(), game.moves(&n).contains(&d), "N = {n}, d = {d}");
        }
    }
    let big = 999_999_937u64 * 999_999_929;
    assert_eq!(side.winning_moves(&Case::Number { n: big, vertices: false }), vec![Move::Divisor(999_999_929), Move::Divisor(999_999_937)]);
    let expected = ByMove(side).answer(&Case::Number { n: 999_999_937, vertices: false });
    assert_eq!(expected, MoveAnswer::Lost("cubelover"), "a prime has no move");
}

#[test]
fn the_polygons_winning_chords_are_those_of_whole_position_search() {
    let side = contest(POLYGON);
    let mut brute = BruteForce::new(&Polygon);
    for n in 3..=13u32 {
        let case = Case::Number { n: u64::from(n), vertices: true };
        let mut expected = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                assert!(side.illegal(&case, &Move::Chord(u64::from(a + 1), u64::from(b + 1))).is_none());
                if !brute.first_player_wins(&(n, 1u128 << pair_bit(a, b))) {
                    expected.push(Move::Chord(u64::from(a + 1), u64::from(b + 1)));
                }
            }
        }
        assert_eq!(side.winning_moves(&case), expected, "N = {n}");
        let game = ByMove(contest(POLYGON));
        let out = game.parse_output(&case, "2 2").unwrap();
        assert_eq!(game.why_wrong(&case, &game.answer(&case), &out), "illegal move: a chord joins two vertices, not vertex 2 to itself");
        assert!(side.illegal(&case, &Move::Chord(1, u64::from(n) + 1)).is_some());
    }
}
