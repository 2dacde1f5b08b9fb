//! Every explorer of `sprague serve` (derived from `games::explorers()`, so a new game is
//! covered at once): examples and samples analysed, each move's position re-analysed, winners
//! against `sprague solve`, drawings in their documented shapes, bad and oversized positions.

mod common;
use common::sprague;

use serde_json::Value;
use sprague::error::Error;
use sprague::game::explore::{Analysis, Explore, View, Winner};
use sprague::game::Verb;

fn explorers() -> Vec<Box<dyn Explore>> {
    sprague::games::explorers()
}

/// Every move's position analysed again: the value the move shows, and `winning` when it
/// leaves the opponent lost (cards: when it keeps the best total).
fn check_moves(explorer: &dyn Explore, analysis: &Analysis) {
    let game = explorer.info().name;
    for m in &analysis.moves {
        let after = explorer.analyse(&m.position).unwrap_or_else(|e| panic!("{game}: {} leads to {:?}: {e}", m.name, m.position));
        assert_eq!(after.value, m.value, "{game}: {} from {:?}", m.name, analysis.position);
        assert_eq!(after.position, m.position, "{game}: positions are written normalized");
        let winning = if game == "cards" { m.detail["totals"][0] == analysis.drawing["totals"][0] } else { after.winner == Winner::Second };
        assert_eq!(m.winning, winning, "{game}: {}", m.name);
    }
    if game != "cards" {
        assert_eq!(analysis.winner == Winner::First, analysis.moves.iter().any(|m| m.winning), "{game}: {:?}", analysis.position);
    }
    assert_eq!(analysis.value.map(Winner::of_value).unwrap_or(analysis.winner), analysis.winner, "{game}");
}

/// The drawing has the fields its view documents (src/game/explore.rs).
fn check_drawing(view: View, drawing: &Value, game: &str) {
    let numbers = |v: &Value| v.as_array().is_some_and(|a| a.iter().all(Value::is_u64));
    match view {
        View::Heaps => assert!(numbers(&drawing["heaps"]), "{game}: {drawing}"),
        View::Graph => {
            let nodes = drawing["nodes"].as_array().unwrap_or_else(|| panic!("{game}: nodes"));
            assert!(nodes.iter().all(|n| n["id"].is_u64() && n["label"].is_string()), "{game}");
            let ids: Vec<&Value> = nodes.iter().map(|n| &n["id"]).collect();
            let edges = drawing["edges"].as_array().expect("edges");
            assert!(edges.iter().all(|e| numbers(e) && e.as_array().unwrap().iter().all(|v| ids.contains(&v))), "{game}");
            assert!(drawing["tokens"].as_array().expect("tokens").iter().all(|t| ids.contains(&t)), "{game}");
        }
        View::Text => assert!(drawing["text"].is_string(), "{game}: {drawing}"),
        View::Board => assert!(drawing["rows"].is_u64() && drawing["cols"].is_u64() && drawing["cells"].is_array(), "{game}"),
    }
}

fn analyse_fully(explorer: &dyn Explore, text: &str) -> Analysis {
    let info = explorer.info();
    let analysis = explorer.analyse(text).unwrap_or_else(|e| panic!("{}: {text:?}: {e}", info.name));
    assert_eq!(analysis.value.is_some(), info.grundy, "{}: Grundy values exactly where the game has them", info.name);
    let again = explorer.analyse(&analysis.position).unwrap();
    assert_eq!((again.value, again.winner, again.moves.len()), (analysis.value, analysis.winner, analysis.moves.len()), "{}", info.name);
    check_drawing(info.view, &analysis.drawing, info.name);
    check_moves(explorer, &analysis);
    analysis
}

#[test]
fn every_contest_game_but_the_wall_has_an_explorer() {
    for game in sprague::games::REGISTRY {
        if let Some(explorer) = game.explore() {
            assert_eq!(explorer.info().name, game.name(), "an explorer is listed under its game's name");
        }
    }
    let names: Vec<&str> = explorers().iter().map(|e| e.info().name).collect();
    for game in sprague::games::commands(Verb::Solve) {
        let name = game.spec().name;
        assert!(name == "wall" || names.contains(&name), "{name} has a contest input and no explorer");
    }
}

#[test]
fn examples_and_their_moves_analyse() {
    for explorer in explorers() {
        let analysis = analyse_fully(&*explorer, &explorer.info().example);
        assert!(!analysis.moves.is_empty(), "{}: the example has moves", explorer.info().name);
    }
}

/// The contest inputs of `solve NAME`'s help examples (`printf '…' | sprague solve NAME`).
fn samples(name: &str) -> Vec<String> {
    let solve = sprague::games::commands(Verb::Solve).into_iter().find(|c| c.spec().name == name);
    let examples = solve.map(|c| c.spec().examples).unwrap_or_default();
    let printed = examples.iter().filter_map(|e| e.strip_prefix("printf '")?.split_once("' |").map(|(text, _)| text.replace("\\n", "\n")));
    printed.collect()
}

/// Whether `solve NAME`'s answer `answer` to `input` says what the analysis says.
fn agrees(name: &str, answer: &str, input: &str, analysis: &Analysis) -> bool {
    let first = analysis.winner == Winner::First;
    match name {
        "nim-count" => answer.parse::<usize>() == Ok(analysis.moves.iter().filter(|m| m.winning).count()),
        "footholds" => answer.parse::<u64>().ok() == analysis.drawing["total_moves"].as_u64() && (answer.parse::<u64>().unwrap() % 2 == 1) == first,
        "cards" => answer.parse::<u64>().ok() == analysis.drawing["totals"][0].as_u64(),
        "kings" => (input.lines().nth(2) == Some(answer)) == first,
        _ => match answer {
            "koosaga" | "First" | "Young" | "1" => first,
            "cubelover" | "Second" | "Cheol" | "2" => !first,
            other => panic!("{name}: how is `solve {name}`'s answer {other:?} read?"),
        },
    }
}

#[test]
fn winners_agree_with_solve_on_samples_and_examples() {
    for explorer in explorers() {
        let name = explorer.info().name;
        for input in samples(name).into_iter().chain([explorer.info().example]) {
            let analysis = analyse_fully(&*explorer, &input);
            let out = sprague().args(["solve", name]).write_stdin(input.clone()).output().unwrap();
            assert!(out.status.success(), "solve {name} on {input:?}");
            let answer = String::from_utf8(out.stdout).unwrap();
            assert!(agrees(name, answer.trim(), &input, &analysis), "{name}: solve says {answer:?} on {input:?}, the explorer {:?}", analysis.winner);
        }
    }
}

/// A position too expensive to list (a usage error), or out of the format's range (an input
/// error) where the game's positions are all small.
fn oversized(name: &str) -> (String, fn(&Error) -> bool) {
    let usage: fn(&Error) -> bool = |e| matches!(e, Error::Usage(_));
    let input: fn(&Error) -> bool = |e| matches!(e, Error::Input { .. });
    let row = |n: usize, heap: &str| format!("{n}\n{}\n", vec![heap; n].join(" "));
    match name {
        "nim" | "nim-count" | "misere-nim" | "odd-even-nim" => ("1\n1000000000\n".into(), usage),
        "pimber" => (row(400, "3000000"), usage),
        "polygon" => ("200\n".into(), usage),
        "cross" => ("21\n".into(), usage),
        "divisor" => ("97821761637600\n".into(), usage),
        "grundy" => (row(3, "10000"), usage),
        "octal" => (format!("0.07\n{}", row(3, "10000")), usage),
        "kings" => ("1\n1000000000\nWhiteking\n".into(), usage),
        "dagame" => {
            let edges: Vec<String> = (1..200).flat_map(|p| (p + 1..=200).map(move |q| format!("{p} {q}"))).collect();
            let tokens: Vec<String> = (1..=60).map(|c| format!("1 {c}")).collect();
            (format!("200 {}\n{}\n60\n{}\n", edges.len(), edges.join("\n"), tokens.join("\n")), usage)
        }
        "wall" => ("21 21\n".into(), |e| matches!(e, Error::Usage(_) | Error::Input { .. })),
        "footholds" => ("6 1\n".into(), input),
        "cards" => ("1\n1001\n".into(), input),
        other => panic!("add an oversized position for {other}"),
    }
}

#[test]
fn bad_and_oversized_positions_get_the_right_errors() {
    for explorer in explorers() {
        let info = explorer.info();
        for bad in [String::new(), "@\n".into(), format!("{}@\n", info.example)] {
            match explorer.analyse(&bad) {
                Err(Error::Input { source_name, line, col, .. }) => assert!(source_name == "position" && line >= 1 && col >= 1),
                other => panic!("{}: {bad:?} gave {other:?}", info.name),
            }
        }
        let (text, kind) = oversized(info.name);
        let err = explorer.analyse(&text).map(|_| ()).expect_err(info.name);
        assert!(kind(&err), "{}: {err}", info.name);
    }
}
