//! `--max HxW` / `--size HxW`: the sizes of `verify wall` and `census wall`.

use super::board::dims::{parse_shape, sizes_up_to};
use super::board::Shape;
use crate::error::{Error, Result};
use crate::game::{Args, OptSpec};

/// `--max` or `--size` (one of them).
pub fn size_options() -> [OptSpec; 2] {
    [
        OptSpec::value("max", "HxW", "Every size h×w with h ≤ H and w ≤ W, e.g. `5x5` (this or --size is required).")
            .validate(|s| parse_shape(s).map(|_| ()))
            .conflicts(&["size"])
            .required_unless(&["size"]),
        OptSpec::value("size", "HxW", "One size, e.g. `4x5`.").validate(|s| parse_shape(s).map(|_| ())),
    ]
}

/// The shapes and the `sizes` label given by `--max` / `--size`.
pub fn shapes(args: &Args) -> Result<(Vec<Shape>, String)> {
    match (shape_option(args, "size")?, shape_option(args, "max")?) {
        (Some(one), _) => Ok((vec![one], one.to_string())),
        (None, Some(max)) => Ok((sizes_up_to(max), format!("max {max}"))),
        (None, None) => Err(Error::Usage("give --max HxW or --size HxW".into())),
    }
}

/// Option `name` as a shape.
fn shape_option(args: &Args, name: &str) -> Result<Option<Shape>> {
    args.text(name).map(|text| parse_shape(text).map_err(|e| Error::Usage(format!("--{name}: {e}")))).transpose()
}
