//! Helpers shared by subcommands: reading FILE-or-stdin input.

use anyhow::Context;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Reads the input named on the command line (`-` or none means stdin).
/// Returns the name to use in messages and the text.
pub fn read_input(file: Option<&Path>) -> anyhow::Result<(String, String)> {
    let bytes = match file {
        None => read_stdin()?,
        Some(p) if p == Path::new("-") => read_stdin()?,
        Some(p) => std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?,
    };
    let name = file.filter(|p| *p != Path::new("-")).map_or("<stdin>".to_string(), |p| p.display().to_string());
    let text = String::from_utf8(bytes)
        .map_err(|e| anyhow::anyhow!("{name}: input is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))?;
    Ok((name, text))
}

fn read_stdin() -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
    Ok(bytes)
}

/// The optional FILE argument of `solve` subcommands.
#[derive(clap::Args, Debug)]
pub struct InputArg {
    /// Input file in the problem's format; `-` or absent reads standard input.
    pub file: Option<PathBuf>,
}

impl InputArg {
    pub fn read(&self) -> anyhow::Result<(String, String)> {
        read_input(self.file.as_deref())
    }
}
