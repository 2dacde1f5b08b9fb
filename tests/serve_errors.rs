//! Bad requests never hurt `sprague serve`: each gets a JSON error with a clear 4xx, and the
//! server answers the next request as before.

mod common;
use common::sprague;

mod serve_support;

use serve_support::{error_of, Server};

/// `(status, error message)` of a request that must fail, after which the server still answers.
fn refused(server: &Server, reply: (u16, String)) -> (u16, String) {
    let (status, body) = reply;
    assert!((400..500).contains(&status), "{status}: {body}");
    assert!(server.answers(), "the server stopped answering after a {status}");
    (status, error_of(&body))
}

fn analyse_raw(server: &Server, game: &str, body: &str) -> (u16, String) {
    refused(server, server.post(&format!("/api/games/{game}/analyse"), body))
}

fn position(text: &str) -> String {
    serde_json::json!({ "position": text }).to_string()
}

#[test]
fn malformed_positions_are_400_with_line_and_column() {
    let server = Server::start(&[]);
    let cases = [
        ("2 2\n..\n.a\n", "position:3:2: 'a' is not '.', 'X' or '#'"),
        ("2 2\n..\n", "position:3:1: missing board row 2 of 2"),
        ("", "position:1:1: expected H (rows), found end of input"),
        ("3 3\n...\n.##\n.#.\n", "position:3:2: the region of non-wall cells from row 1 column 1 is not a rectangle"),
        ("0 0\n", "position:1:1: H (rows) must be between 1 and 20, found 0"),
        ("-1 1\n", "position:1:1: H (rows) must be between 1 and 20, found -1"),
        ("99999999999999999999 1\n", "position:1:1: H (rows) must be between 1 and 20, found 99999999999999999999"),
    ];
    for (text, expected) in cases {
        let (status, message) = analyse_raw(&server, "wall", &position(text));
        assert_eq!(status, 400, "{text:?}");
        assert!(message.starts_with(expected), "{text:?}: {message}");
    }
}

#[test]
fn bodies_that_are_not_the_request_are_400() {
    let server = Server::start(&[]);
    for body in ["", "not json", "{\"board\": \"2 2\"}", "[1, 2]", "{\"position\": 3}", r#"["1 1\n.\n"]"#, r#""1 1\n.\n""#] {
        let (status, message) = analyse_raw(&server, "wall", body);
        assert_eq!(status, 400, "{body:?}");
        assert!(message.contains("{\"position\": \"…\"}"), "{message}");
    }
}

#[test]
fn an_oversized_body_is_413() {
    let server = Server::start(&[]);
    // Twenty times each: the server used to close while the client was still sending, and the
    // client then met a broken pipe instead of the 413 (one CI run in a few).
    for size in [1_100_000, 1_500_000, 3_500_000] {
        let huge = position(&".".repeat(size));
        for _ in 0..20 {
            let (status, message) = analyse_raw(&server, "wall", &huge);
            assert_eq!(status, 413, "{size} bytes");
            assert!(message.contains("over the limit of 1048576 bytes"), "{message}");
        }
    }
    assert!(server.answers());
}

#[test]
fn a_path_too_long_to_parse_is_414_with_a_json_error() {
    let server = Server::start(&[]);
    let reply = server.raw(&format!("GET /{} HTTP/1.1", "a".repeat(100_000)));
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 414") && head.contains("content-type: application/json"), "{head}");
    assert_eq!(error_of(body), "the request's path is over the limit of 65534 bytes");
    assert!(server.answers());
}

#[test]
fn a_board_past_20_by_20_is_422_with_the_estimate() {
    let server = Server::start(&[]);
    let rows = vec![".".repeat(30); 30].join("\n");
    let (status, message) = analyse_raw(&server, "wall", &position(&format!("30 30\n{rows}\n")));
    assert_eq!(status, 422);
    assert!(message.starts_with("a 30×30 board is past the contest limit of 20×20"), "{message}");
    assert!(message.contains("216225 sub-rectangles"), "{message}");
}

#[test]
fn unknown_games_paths_and_methods_are_404_and_405() {
    let server = Server::start(&[]);
    let (status, message) = analyse_raw(&server, "chess", &position("1 1\n.\n"));
    assert_eq!(status, 404);
    assert!(message.starts_with("no game \"chess\" here (games: wall"), "{message}");
    let (status, message) = refused(&server, server.get("/api/nothing"));
    assert_eq!((status, message.as_str()), (404, "nothing at /api/nothing"));
    let (status, message) = refused(&server, server.get("/api/games/wall/analyse"));
    assert_eq!(status, 405);
    assert!(message.starts_with("GET is not allowed on /api/games/wall/analyse"), "{message}");
    let (status, message) = refused(&server, server.get("/api/results"));
    assert_eq!(status, 404);
    assert!(message.contains("--results DIR"), "{message}");
}

/// The results view serves the files under `--results DIR` and nothing else: not `..`, not an
/// absolute path, not a symlink that leads out.
#[test]
fn results_files_never_leave_their_directory() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("report");
    std::fs::create_dir_all(results.join("plots")).unwrap();
    std::fs::write(results.join("report.md"), "# Report\n\n![plot](plots/a.svg)\n").unwrap();
    std::fs::write(results.join("plots/a.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "not served").unwrap();
    std::fs::write(results.join(".sprague.lock"), "a lock").unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), results.join("link.txt")).unwrap();
    let server = Server::start(&["--results", results.to_str().unwrap()]);
    let (status, listing) = server.get("/api/results");
    assert_eq!(status, 200);
    let listing: serde_json::Value = serde_json::from_str(&listing).unwrap();
    assert_eq!(listing["report"], "report.md");
    let paths: Vec<&str> = listing["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["plots/a.svg", "report.md"], "the symlink and the hidden file are not listed");
    assert_eq!(server.get("/api/results/report.md"), (200, "# Report\n\n![plot](plots/a.svg)\n".to_string()));
    assert_eq!(server.get("/api/results/plots/a.svg").0, 200);
    let (status, message) = refused(&server, server.get("/api/results/..%2Fsecret.txt"));
    assert_eq!(status, 400);
    assert!(message.contains("no '..'"), "{message}");
    assert_eq!(refused(&server, server.get("/api/results/%2Fetc%2Fpasswd")).0, 400);
    assert_eq!(refused(&server, server.get("/api/results/link.txt")), (404, "link.txt: leads outside the results directory".to_string()));
    assert_eq!(refused(&server, server.get("/api/results/none.svg")).0, 404);
    // Hidden files are neither listed nor served (the lock names a pid and a command line).
    std::fs::create_dir(results.join(".hidden")).unwrap();
    std::fs::write(results.join(".hidden/s"), "hidden").unwrap();
    for hidden in [".sprague.lock", ".hidden/s"] {
        assert_eq!(refused(&server, server.get(&format!("/api/results/{hidden}"))), (404, format!("{hidden}: no such file under the results directory")));
    }
    // Sent byte for byte, without a client that would resolve the dots first.
    assert!(server.raw_status("GET /api/results/../secret.txt HTTP/1.1").starts_with("HTTP/1.1 400"));
    assert!(server.raw_status("GET /api/results/plots/../../secret.txt HTTP/1.1").starts_with("HTTP/1.1 400"));
    assert!(server.answers());
}

#[test]
fn a_failing_flood_of_bad_requests_leaves_the_server_answering() {
    let server = Server::start(&[]);
    std::thread::scope(|scope| {
        for t in 0..8 {
            let server = &server;
            scope.spawn(move || {
                for i in 0..50 {
                    let (status, _) = server.post("/api/games/wall/analyse", &position(&format!("{t} {i}\n")));
                    assert!(matches!(status, 400 | 422), "{status}");
                }
            });
        }
    });
    let (status, analysis) = server.analyse("wall", "2 2\n..\n..\n");
    assert_eq!((status, analysis["value"].as_u64()), (200, Some(0)));
}

/// The hostile game program (subtraction {1, 3, 4}, with `deep`, `hang`, `bad` and `die`).
const HOSTILE: &str = "python3 tests/fixtures/programs/hostile_game.py";

/// A game program's position whose exploration never ends is refused at the time limit per
/// analysis, naming it, and the game answers the next position.
#[test]
fn an_endless_custom_position_is_422_at_the_time_limit() {
    let server = Server::start(&["--game-cmd", HOSTILE, "--game-budget", "0.5"]);
    let (status, message) = analyse_raw(&server, "custom", &position("deep"));
    assert_eq!(status, 422, "{message}");
    assert!(message.contains("\"deep\" stopped at the time limit of 0.5 s per analysis (--game-budget)"), "{message}");
    let (status, analysis) = server.analyse("custom", "5");
    assert_eq!((status, analysis["value"].as_u64()), (200, Some(3)), "{analysis}");
}

/// While the game program is taken, another of its requests gets 503 after the queue wait and
/// the built-in games are answered; a program that hangs or breaks the protocol is replaced by
/// a fresh copy, so the positions after the failure are answered.
#[test]
fn a_taken_custom_game_is_503_and_a_failed_program_is_restarted() {
    // A budget past the timeout: the hang fails at --game-timeout, not at the time limit.
    let server = Server::start(&["--game-cmd", HOSTILE, "--game-timeout", "6", "--game-budget", "10", "--queue-wait", "1"]);
    std::thread::scope(|scope| {
        let hang = scope.spawn(|| analyse_raw(&server, "custom", &position("hang")));
        // The hang holds the game for 6 s; this request comes 2 s in and waits 1 s.
        std::thread::sleep(std::time::Duration::from_secs(2));
        let (status, analysis) = server.analyse("wall", "2 2\n..\n..\n");
        assert_eq!((status, analysis["value"].as_u64()), (200, Some(0)), "the built-in games go on");
        let (status, body) = server.post("/api/games/custom/analyse", &position("5"));
        assert_eq!((status, error_of(&body).as_str()), (503, "busy: every turn of custom (1 analysis at a time) was taken for 1 s; try again"));
        let (status, message) = hang.join().unwrap();
        assert_eq!(status, 422, "{message}");
        assert!(message.contains("request `moves hang`: gave no answer within 6 s (--game-timeout)"), "{message}");
    });
    let (status, analysis) = server.analyse("custom", "5");
    assert_eq!((status, analysis["value"].as_u64()), (200, Some(3)), "after the hang: {analysis}");
    let (status, message) = analyse_raw(&server, "custom", &position("bad"));
    assert!(status == 422 && message.contains("request `moves bad`: answered with a line that is not UTF-8"), "{status}: {message}");
    for (heap, value) in [(5, 3), (8, 1), (13, 2)] {
        let (status, analysis) = server.analyse("custom", &heap.to_string());
        assert_eq!((status, analysis["value"].as_u64()), (200, Some(value)), "after the bad line: {analysis}");
    }
}

#[test]
fn a_game_command_that_cannot_start_is_named_by_its_option() {
    let run = |command: &str| sprague().args(["serve", "--port", "0", "--game-cmd", command]).timeout(std::time::Duration::from_secs(30)).assert().code(2);
    let stderr = |assert: assert_cmd::assert::Assert| String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    let missing = stderr(run("no-such-game-program"));
    assert_eq!(missing, "error: --game-cmd \"no-such-game-program\": command \"no-such-game-program\" not found on PATH\n");
    assert!(stderr(run("'")).contains("--game-cmd \"'\": unbalanced quotes"));
}

#[test]
fn a_port_out_of_range_is_named_with_the_range() {
    let assert = assert_cmd::Command::cargo_bin("sprague").unwrap().args(["serve", "--port", "70000"]).timeout(std::time::Duration::from_secs(30)).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert_eq!(stderr, "error: --port must be a port number in 0..=65535, not 70000\n");
}

/// A game program refused at startup by a limit names the options serve has (no `--max`).
#[test]
fn a_game_program_past_a_limit_at_startup_names_serves_options() {
    let kayles = "python3 examples/games/kayles_doc.py";
    let run = |limit: &[&str]| {
        let assert = sprague().args(["serve", "--port", "0", "--game-cmd", kayles]).args(limit).timeout(std::time::Duration::from_secs(30)).assert().code(2);
        String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
    };
    let positions = run(&["--max-positions", "1"]);
    assert!(positions.contains("raise --max-positions if they fit") && !positions.contains("--max,") && !positions.contains("--max "), "{positions}");
    let memory = run(&["--memory-limit", "1"]);
    assert!(memory.contains("raise --memory-limit") && !memory.contains("--max,") && !memory.contains("lower --max"), "{memory}");
}

/// A path part that is not UTF-8 once its escapes are decoded is a JSON 400 naming the part.
#[test]
fn a_path_that_is_not_utf8_is_a_json_400_naming_the_part() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&["--results", dir.path().to_str().unwrap()]);
    for (request, part) in [("POST /api/games/%FF/analyse", "the game name"), ("GET /assets/%FF", "the asset name"), ("GET /api/results/%FF", "the results path")] {
        let reply = server.raw(&format!("{request} HTTP/1.1"));
        let (head, body) = reply.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 400") && head.contains("content-type: application/json"), "{request}: {head}");
        assert!(error_of(body).starts_with(&format!("{part} in the path cannot be read: ")), "{request}: {body}");
    }
    assert!(server.answers());
}

/// A control character in a position is refused before any game sees it (a game program would
/// be handed it), naming the character and its place; line breaks and tabs are text.
#[test]
fn a_position_with_a_control_character_is_400_naming_it() {
    let server = Server::start(&["--game-cmd", HOSTILE]);
    let (status, message) = analyse_raw(&server, "custom", &position("7\u{0}"));
    assert_eq!((status, message.as_str()), (400, "position:1:2: the control character U+0000 is not allowed in a position"));
    let (status, message) = analyse_raw(&server, "wall", &position("2 2\n.\u{7}\n..\n"));
    assert_eq!((status, message.as_str()), (400, "position:2:2: the control character U+0007 is not allowed in a position"));
    let (status, analysis) = server.analyse("wall", "2 2\r\n..\t\r\n..\r\n");
    assert_eq!(status, 200, "{analysis}");
    let (status, analysis) = server.analyse("custom", "5");
    assert_eq!((status, analysis["value"].as_u64()), (200, Some(3)), "{analysis}");
}

/// A game program that fails is quoted in the 422 with the end of its stderr, bounded.
#[test]
fn a_failing_programs_stderr_is_quoted_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("noisy.py");
    let program = "import sys\nfor line in sys.stdin:\n    verb, _, arg = line.strip().partition(' ')\n    if verb == 'sprague': print('positions moves')\n    elif verb == 'positions': print(arg)\n    elif verb == 'moves' and arg == 'boom':\n        sys.stderr.write('noise ' * 200000 + 'the end')\n        sys.exit(3)\n    elif verb == 'moves': print('')\n    elif verb == 'flush': sys.stdout.flush()\n";
    std::fs::write(&script, program).unwrap();
    let server = Server::start(&["--game-cmd", &format!("python3 {}", script.display())]);
    let (status, message) = analyse_raw(&server, "custom", &position("boom"));
    assert_eq!(status, 422, "{message}");
    assert!(message.contains("exited (status 3)") && message.ends_with("the end") && message.contains("the last 4096 bytes of its stderr"), "{}", &message[..200.min(message.len())]);
    assert!(message.len() < 5000, "{} bytes", message.len());
}

/// A key given twice is refused, naming it (the last one used to win).
#[test]
fn a_repeated_key_is_400_naming_it() {
    let server = Server::start(&[]);
    let (status, message) = analyse_raw(&server, "wall", r#"{"position":"1 1\n.\n","position":"2 2\n..\n..\n"}"#);
    assert_eq!(status, 400);
    assert!(message.contains("duplicate field `position`"), "{message}");
    let (status, _) = server.post("/api/games/wall/analyse", r#" {"position":"1 1\n.\n","other":1}"#);
    assert_eq!(status, 200, "other keys are ignored");
}

/// The largest documented input of a game on the page fits the body limit: a DAGame of 500
/// nodes and 100,000 edges (here one token with one move).
#[test]
fn the_largest_dagame_input_fits_the_body_limit() {
    let server = Server::start(&[]);
    let edges: String = std::iter::once("1 2\n".to_string()).chain((1..100_000).map(|i| format!("{} 500\n", 400 + i % 99))).collect();
    let text = format!("500 100000\n{edges}1\n1 1\n");
    let body = position(&text);
    assert!(body.len() > 800_000, "{} bytes", body.len());
    let (status, reply) = server.post("/api/games/dagame/analyse", &body);
    assert_eq!(status, 200, "{}", &reply[..300.min(reply.len())]);
    let analysis: serde_json::Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(analysis["moves"].as_array().unwrap().len(), 1);
}
