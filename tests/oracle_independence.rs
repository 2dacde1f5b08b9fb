//! The naive oracles are independent checkers: each oracle file may name only the modules its
//! game declares (`Game::oracle`: the board and the move rule), never the claimed solver.

mod rust_source;

use rust_source::expand;
use sprague::game::Oracle;
use sprague::games::REGISTRY;
use std::path::Path;

/// Every `crate::…` and `super::…` path named in `source` outside its test module: `use`
/// trees expanded (`use super::{a, b::c}` names `super::a` and `super::b::c`), then paths in code.
fn named_paths(source: &str) -> Vec<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or_default();
    let code: String = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let mut paths = Vec::new();
    let mut body = String::new();
    let mut rest = code.as_str();
    // A `use` item starts a line (after indentation and `pub`), so text in strings is not one.
    while let Some(at) = use_item(rest) {
        body.push_str(&rest[..at]);
        let keyword = at + rest[at..].find("use ").expect("use_item found it") + 4;
        let end = rest[keyword..].find(';').map_or(rest.len(), |e| keyword + e);
        expand("", rest[keyword..end].trim(), &mut paths);
        rest = &rest[end..];
    }
    body.push_str(rest);
    for start in ["crate::", "super::"] {
        let mut rest = body.as_str();
        while let Some(at) = rest.find(start) {
            let path: String = rest[at..].chars().take_while(|c| c.is_alphanumeric() || "_:*".contains(*c)).collect();
            paths.push(path.trim_end_matches(':').to_string());
            rest = &rest[at + start.len()..];
        }
    }
    paths.retain(|p| p.starts_with("crate::") || p.starts_with("super::"));
    paths
}

/// Where the next `use` item of `code` starts: a line whose first word is `use` (or `pub use`,
/// `pub(crate) use`).
fn use_item(code: &str) -> Option<usize> {
    let mut offset = 0;
    for line in code.split_inclusive('\n') {
        let words = line.trim_start();
        let item = words.strip_prefix("pub").map_or(words, |w| w.trim_start_matches(|c: char| c != ' ').trim_start());
        if item.starts_with("use ") {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// The named paths of `source` that `oracle` does not allow (glob imports never are).
fn violations(source: &str, oracle: &Oracle) -> Vec<String> {
    let allowed = |path: &str| {
        !path.contains('*')
            && oracle.may_use.iter().any(|m| path == *m || path.starts_with(&format!("{m}::")))
    };
    named_paths(source).into_iter().filter(|p| !allowed(p)).collect()
}

#[test]
fn oracles_name_only_what_their_game_allows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for game in REGISTRY {
        let oracle = game.oracle();
        assert!(!oracle.files.is_empty(), "{} declares no oracle file", game.name());
        for file in oracle.files {
            let source = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            let bad = violations(&source, &oracle);
            assert!(bad.is_empty(), "{file} (oracle of {}) names {bad:?}; it may use only {:?}", game.name(), oracle.may_use);
            checked += 1;
        }
    }
    assert!(checked >= REGISTRY.len(), "{checked} files");
}

/// The catalogue's oracles are its move rules (src/games/catalogue/rules/) and the generic brute
/// force, not the brute force alone; and a sibling a rules file may use (`super::piles`) is one
/// of the oracle's files, so it is checked too (the claims' piles.rs, with the XOR, is not).
#[test]
fn catalogue_oracles_are_their_rules_files() {
    const RULES: &str = "src/games/catalogue/rules/";
    for game in sprague::games::catalogue::GAMES {
        let oracle = game.oracle;
        for file in oracle.files {
            assert!(file.starts_with(RULES) || *file == "src/impartial.rs", "{}: oracle file {file} is not a move rule", game.name);
        }
        let own = oracle.files.iter().filter(|f| f.starts_with(RULES) && !f.ends_with("/mod.rs") && !f.ends_with("/piles.rs"));
        assert!(own.count() >= 1, "{} declares no move-rule file of its own: {:?}", game.name, oracle.files);
        for module in oracle.may_use {
            let sibling = module.strip_prefix("super::").map(|m| format!("{RULES}{}.rs", m.split("::").next().unwrap_or(m)));
            match sibling {
                Some(file) => assert!(oracle.files.contains(&file.as_str()), "{}: may use {module} but {file} is not checked", game.name),
                None => assert_eq!(*module, "crate::impartial", "{} may use only its rules and crate::impartial", game.name),
            }
        }
    }
}

#[test]
fn the_check_catches_a_claim_import() {
    let oracle = Oracle { files: &[], may_use: &["super::board", "super::rules", "crate::error"] };
    let source = "use super::rules::{apply_move, Rule};\nuse super::dp::RectDp;\nfn f() { crate::games::wall::claim::solve(); }\n";
    assert_eq!(violations(source, &oracle), ["super::dp::RectDp", "crate::games::wall::claim::solve"]);
    assert_eq!(violations("use super::*;\n", &oracle), ["super::*"]);
    let grouped = "use super::{board::Board, dp::{self, solve as s}};\nuse std::fmt;\n";
    assert_eq!(violations(grouped, &oracle), ["super::dp", "super::dp::solve"]);
    assert!(violations("use super::board::Board;\n#[cfg(test)]\nmod t { use super::dp; }\n", &oracle).is_empty());
}
