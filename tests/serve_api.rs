//! `sprague serve`: the page, the games and analyses over HTTP, values as `sprague solve` and
//! the library's solver give them.

mod common;
use common::sprague;

mod serve_support;

use serve_support::Server;
use sprague::games::wall::{parse_board, solve};
use std::time::Instant;

#[test]
fn the_page_and_its_assets_are_served() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<title>sprague"));
    for asset in ["style.css", "api.js", "board.js", "views.js", "results.js", "app.js"] {
        assert!(page.contains(&format!("/assets/{asset}")), "{asset}");
        let (status, text) = server.get(&format!("/assets/{asset}"));
        assert_eq!(status, 200, "{asset}");
        assert!(text.len() > 500, "{asset}: {} bytes", text.len());
    }
    assert_eq!(server.get("/assets/nothing.js").0, 404);
}

#[test]
fn games_are_listed_with_their_view_and_example() {
    let server = Server::start(&[]);
    let (status, body) = server.get("/api/games");
    assert_eq!(status, 200);
    let games: serde_json::Value = serde_json::from_str(&body).unwrap();
    let wall = games.as_array().unwrap().iter().find(|g| g["name"] == "wall").expect("the wall is shown");
    assert_eq!(wall["view"], "board");
    assert_eq!(wall["grundy"], true);
    let (status, analysis) = server.analyse("wall", wall["example"].as_str().unwrap());
    assert_eq!(status, 200);
    assert_eq!(analysis["winner"], "First", "BOJ 11717's first sample");
}

/// The first sample's value and winning moves equal the solver's and `sprague solve wall`'s.
#[test]
fn an_analysis_agrees_with_solve() {
    let server = Server::start(&[]);
    let text = "4 5\nX....\n...X.\n.....\n.....\n";
    let (status, analysis) = server.analyse("wall", text);
    assert_eq!(status, 200);
    let solution = solve(&parse_board(text).unwrap());
    assert_eq!(analysis["value"], solution.grundy);
    let winning: Vec<&str> = analysis["moves"].as_array().unwrap().iter().filter(|m| m["winning"] == true).map(|m| m["name"].as_str().unwrap()).collect();
    let expected: Vec<String> = solution.winning_moves.iter().map(|(r, c)| format!("{} {}", r + 1, c + 1)).collect();
    assert_eq!(winning, expected);
    let cli = sprague().args(["solve", "wall", "--format", "json"]).write_stdin(text).output().unwrap();
    let solved: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(solved["grundy"], analysis["value"]);
    assert_eq!(solved["winner"], analysis["winner"]);
}

/// A 20×20 board (the contest's largest) with its 400 moves: every value, timed at the client.
#[test]
fn a_20_by_20_board_is_answered_with_every_move() {
    let server = Server::start(&[]);
    let rows: Vec<String> = (0..20).map(|r| (0..20).map(|c| if (r * 7 + c * 3) % 11 == 0 { 'X' } else { '.' }).collect()).collect();
    let text = format!("20 20\n{}\n", rows.join("\n"));
    server.analyse("wall", &text); // warm up
    let started = Instant::now();
    let (status, analysis) = server.analyse("wall", &text);
    let elapsed = started.elapsed();
    assert_eq!(status, 200);
    let moves = analysis["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 400 - text.matches('X').count());
    assert_eq!(analysis["value"], solve(&parse_board(&text).unwrap()).grundy);
    eprintln!("20×20 analysis with {} moves: {elapsed:?} at the client", moves.len());
    assert!(elapsed.as_secs() < 2, "{elapsed:?}");
}

/// Playing a move's position gives the value the move showed.
#[test]
fn a_moves_position_has_the_value_the_move_showed() {
    let server = Server::start(&[]);
    let (_, analysis) = server.analyse("wall", "3 4\n.X..\n....\n..X.\n");
    for m in analysis["moves"].as_array().unwrap() {
        let (status, after) = server.analyse("wall", m["position"].as_str().unwrap());
        assert_eq!(status, 200);
        assert_eq!(after["value"], m["value"], "{}", m["name"]);
    }
}

/// `--game-cmd`: a game given as a program joins the page as `custom`, with the program's
/// own moves and exact values (Kayles: g(5) = 4, and the move to 2.2 is the winning one).
#[test]
fn a_game_program_joins_the_page() {
    let server = Server::start(&["--game-cmd", "python3 examples/games/kayles_doc.py"]);
    let (_, body) = server.get("/api/games");
    let games: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(games.as_array().unwrap().iter().any(|g| g["name"] == "custom"), "{body}");
    let (status, analysis) = server.analyse("custom", "5");
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["value"], 4);
    let winning: Vec<&str> = analysis["moves"].as_array().unwrap().iter().filter(|m| m["winning"] == true).map(|m| m["position"].as_str().unwrap()).collect();
    assert_eq!(winning, ["2.2"]);
}

/// A program that cannot start is a usage error before the server listens.
#[test]
fn a_game_program_that_cannot_start_is_refused() {
    let out = sprague().args(["serve", "--port", "0", "--game-cmd", "./no-such-program"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--game-cmd") && stderr.contains("no-such-program"), "{stderr}");
}

/// A large results file is sent whole, with its length, in chunks: four downloads at once
/// neither hold it in memory nor keep the server from answering meanwhile.
#[test]
fn a_large_results_file_is_streamed_while_the_server_answers() {
    const SIZE: u64 = 48 << 20;
    let dir = tempfile::tempdir().unwrap();
    let big = std::fs::File::create(dir.path().join("big.bin")).unwrap();
    big.set_len(SIZE).unwrap();
    std::fs::write(dir.path().join("small.txt"), "abc").unwrap();
    let server = Server::start(&["--results", dir.path().to_str().unwrap()]);
    let url = format!("{}/api/results/big.bin", server.base);
    std::thread::scope(|scope| {
        let downloads: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    let reply = ureq::get(&url).call().unwrap();
                    assert_eq!(reply.header("content-length"), Some(SIZE.to_string().as_str()));
                    std::io::copy(&mut reply.into_reader(), &mut std::io::sink()).unwrap()
                })
            })
            .collect();
        let started = Instant::now();
        assert!(server.answers());
        assert!(started.elapsed().as_millis() < 1000, "{:?} for /api/games", started.elapsed());
        for download in downloads {
            assert_eq!(download.join().unwrap(), SIZE);
        }
    });
    assert_eq!(server.get("/api/results/small.txt"), (200, "abc".to_string()));
}

/// Every API route docs/serve.md names is one the server has: each answers, none is 404
/// (a route written with the wrong method gets 405, which still names a route that exists).
#[test]
fn the_routes_the_docs_name_are_served() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("report.md"), "# report\n").unwrap();
    let server = Server::start(&["--results", dir.path().to_str().unwrap()]);
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/serve.md")).unwrap();
    let mut routes: Vec<&str> = docs.match_indices("/api/").map(|(at, _)| &docs[at..]).map(|rest| {
        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || "_{}/*.-".contains(c))).unwrap_or(rest.len());
        rest[..end].trim_end_matches(['.', '/'])
    }).collect();
    routes.sort_unstable();
    routes.dedup();
    assert!(routes.len() >= 4, "{routes:?}");
    for route in routes {
        let path = route.replace("{name}", "wall").replace("{path}", "report.md");
        let (status, body) = if path.ends_with("/analyse") { server.post(&path, r#"{"position": "1 1\n.\n"}"#) } else { server.get(&path) };
        assert!(status == 200, "docs/serve.md names {route}: {status} {body}");
    }
}
