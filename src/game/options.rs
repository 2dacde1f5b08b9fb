//! Command options as data: what a game's command accepts (for any front end) and the values given.

use super::vocabulary::split_pair;
use crate::error::{Error, Result};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;
use std::str::FromStr;

/// The bound (excluded) of the times an option may give, in seconds (about 31 years).
pub const MAX_SECONDS: f64 = 1e9;

/// Checks one option value; the message says what is wrong with it.
pub type Validator = fn(&str) -> std::result::Result<(), String>;

/// One option of a command: its name, help, value and the rules between options.
#[derive(Debug, Clone, Copy)]
pub struct OptSpec {
    /// Long name without dashes, e.g. `max`; for a positional argument, its value name.
    pub name: &'static str,
    pub short: Option<char>,
    pub help: &'static str,
    /// Value name shown in help (`HxW`); `None` for a flag.
    pub value: Option<&'static str>,
    pub default: Option<&'static str>,
    /// The allowed values with one line of help each (empty: any value).
    pub choices: &'static [(&'static str, &'static str)],
    pub validate: Option<Validator>,
    pub positional: bool,
    pub required: bool,
    /// Required unless one of these options is given.
    pub required_unless: &'static [&'static str],
    pub conflicts: &'static [&'static str],
    pub requires: &'static [&'static str],
    /// Old names still accepted (hidden).
    pub aliases: &'static [&'static str],
    /// Old values still accepted (hidden), as (old, current): e.g. `("dp", "claim")`.
    pub value_aliases: &'static [(&'static str, &'static str)],
    /// Testing and tuning options left out of the help.
    pub hidden: bool,
    /// May be given more than once; the values are joined with ','.
    pub multiple: bool,
}

impl OptSpec {
    const BLANK: OptSpec = OptSpec {
        name: "",
        short: None,
        help: "",
        value: None,
        default: None,
        choices: &[],
        validate: None,
        positional: false,
        required: false,
        required_unless: &[],
        conflicts: &[],
        requires: &[],
        aliases: &[],
        value_aliases: &[],
        hidden: false,
        multiple: false,
    };

    /// Whether the value names a file or a directory (value name `DIR`, `FILE`, `PATH`, or
    /// ending so): an empty one is refused, as it would mean the current directory unasked.
    pub fn is_path(&self) -> bool {
        self.value.is_some_and(|v| ["DIR", "FILE", "PATH"].iter().any(|end| v.to_ascii_uppercase().ends_with(end)))
    }

    /// Checks a value given for this option: a path option's is not empty, a file's does not
    /// end in `/` (which only a directory may), then the option's own validator; the message
    /// says what is wrong.
    pub fn check(&self, value: &str) -> std::result::Result<(), String> {
        if self.is_path() && value.is_empty() {
            return Err("an empty path names no file or directory (write . for the current directory)".into());
        }
        if self.value.is_some_and(|v| v.to_ascii_uppercase().ends_with("FILE")) && value.ends_with('/') {
            return Err(format!("{value} ends in /, so it names a directory, not a file (write the file's path without the /)"));
        }
        self.validate.map_or(Ok(()), |validate| validate(value))
    }

    /// A flag `--name`.
    pub const fn flag(name: &'static str, help: &'static str) -> OptSpec {
        OptSpec { name, help, ..Self::BLANK }
    }

    /// An option `--name VALUE`.
    pub const fn value(name: &'static str, value: &'static str, help: &'static str) -> OptSpec {
        OptSpec { name, help, value: Some(value), ..Self::BLANK }
    }

    /// A positional argument (optional unless [`OptSpec::required`]).
    pub const fn positional(name: &'static str, help: &'static str) -> OptSpec {
        OptSpec { name, help, value: Some(name), positional: true, ..Self::BLANK }
    }

    pub const fn short(self, short: char) -> OptSpec {
        OptSpec { short: Some(short), ..self }
    }

    pub const fn default(self, default: &'static str) -> OptSpec {
        OptSpec { default: Some(default), ..self }
    }

    pub const fn choices(self, choices: &'static [(&'static str, &'static str)]) -> OptSpec {
        OptSpec { choices, ..self }
    }

    pub const fn validate(self, validate: Validator) -> OptSpec {
        OptSpec { validate: Some(validate), ..self }
    }

    pub const fn required(self) -> OptSpec {
        OptSpec { required: true, ..self }
    }

    pub const fn required_unless(self, others: &'static [&'static str]) -> OptSpec {
        OptSpec { required_unless: others, ..self }
    }

    pub const fn conflicts(self, others: &'static [&'static str]) -> OptSpec {
        OptSpec { conflicts: others, ..self }
    }

    pub const fn requires(self, others: &'static [&'static str]) -> OptSpec {
        OptSpec { requires: others, ..self }
    }

    pub const fn aliases(self, aliases: &'static [&'static str]) -> OptSpec {
        OptSpec { aliases, ..self }
    }

    pub const fn value_aliases(self, value_aliases: &'static [(&'static str, &'static str)]) -> OptSpec {
        OptSpec { value_aliases, ..self }
    }

    /// `value` as the current version records it: an old spelling replaced by the current one,
    /// and a pair of numbers (the value of an option whose value name is a pair, e.g. `HxW`) in
    /// one form, lower-case `x` and no leading zeros (`04X5` → `4x5`), so that runs given
    /// either spelling record the same options (and their shards merge).
    pub fn current_value<'a>(&self, value: &'a str) -> Cow<'a, str> {
        if let Some(&(_, new)) = self.value_aliases.iter().find(|(old, _)| *old == value) {
            return Cow::Borrowed(new);
        }
        match split_pair(value).filter(|_| self.takes_pair()) {
            Some((a, b)) => Cow::Owned(format!("{a}x{b}")),
            None => Cow::Borrowed(value),
        }
    }

    /// Whether the value name is a pair of upper-case names joined by `x` (`HxW`, `LENxVALUE`).
    fn takes_pair(&self) -> bool {
        let upper = |name: &str| !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase());
        self.value.and_then(|name| name.split_once('x')).is_some_and(|(a, b)| upper(a) && upper(b))
    }

    pub const fn hidden(self) -> OptSpec {
        OptSpec { hidden: true, ..self }
    }

    pub const fn multiple(self) -> OptSpec {
        OptSpec { multiple: true, ..self }
    }
}

/// The option values a command was given (defaults filled in by the front end).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Args {
    values: BTreeMap<String, String>,
    flags: BTreeSet<String>,
}

impl Args {
    pub fn new() -> Args {
        Args::default()
    }

    /// Sets option `name` to `value` (builder style, for tests and library callers).
    pub fn with(mut self, name: &str, value: impl ToString) -> Args {
        self.values.insert(name.to_string(), value.to_string());
        self
    }

    /// Sets flag `name`.
    pub fn with_flag(mut self, name: &str) -> Args {
        self.flags.insert(name.to_string());
        self
    }

    /// True when flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.flags.contains(name)
    }

    /// The raw text of option `name`, if given.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Option `name` parsed as `T`, if given; a usage error names the option and the value.
    pub fn get<T: FromStr>(&self, name: &str) -> Result<Option<T>>
    where
        T::Err: Display,
    {
        self.text(name)
            .map(|text| text.parse::<T>().map_err(|e| Error::Usage(format!("invalid value {text:?} for --{name}: {e}"))))
            .transpose()
    }

    /// Option `name` as a number of seconds from 0 to below [`MAX_SECONDS`], if given.
    pub fn seconds(&self, name: &str) -> Result<Option<std::time::Duration>> {
        self.bounded_seconds(name, "non-negative", |s| s >= 0.0)
    }

    /// Option `name` as a number of seconds above 0 and below [`MAX_SECONDS`], if given.
    pub fn positive_seconds(&self, name: &str) -> Result<Option<std::time::Duration>> {
        self.bounded_seconds(name, "positive", |s| s > 0.0)
    }

    /// [`Args::positive_seconds`] of an option that must be there (one with a default).
    pub fn required_positive_seconds(&self, name: &str) -> Result<std::time::Duration> {
        self.positive_seconds(name)?.ok_or_else(|| Error::Usage(format!("--{name} is required")))
    }

    /// Option `name` in seconds when `allowed` and below [`MAX_SECONDS`] (so that adding it
    /// to the clock cannot overflow), else an error calling it `kind`.
    fn bounded_seconds(&self, name: &str, kind: &str, allowed: fn(f64) -> bool) -> Result<Option<std::time::Duration>> {
        let Some(seconds) = self.get::<f64>(name)? else { return Ok(None) };
        if !(allowed(seconds) && seconds < MAX_SECONDS) {
            let given = self.text(name).unwrap_or_default();
            return Err(Error::Usage(format!("--{name} must be a {kind} number of seconds below 1000000000 (about 31 years), not {given}")));
        }
        Ok(Some(std::time::Duration::from_secs_f64(seconds)))
    }

    /// The options among `names` that were given, as a JSON object (flags as `true`).
    pub fn to_json(&self, names: &[&str]) -> serde_json::Value {
        let values = self.values.iter().filter(|(k, _)| names.contains(&k.as_str()));
        let mut object: serde_json::Map<String, serde_json::Value> =
            values.map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str()))).collect();
        for flag in self.flags.iter().filter(|f| names.contains(&f.as_str())) {
            object.insert(flag.clone(), true.into());
        }
        serde_json::Value::Object(object)
    }

    /// Options written by [`Args::to_json`].
    pub fn from_json(json: &serde_json::Value) -> Result<Args> {
        let object = json.as_object().ok_or_else(|| Error::Usage(format!("options {json} are not an object")))?;
        let mut args = Args::new();
        for (name, value) in object {
            args = match value {
                serde_json::Value::Bool(true) => args.with_flag(name),
                serde_json::Value::String(text) => args.with(name, text),
                other => return Err(Error::Usage(format!("option {name} has value {other}, not text or true"))),
            };
        }
        Ok(args)
    }

    /// The same values under the current names of `options`: old option names (aliases) and
    /// old values (value aliases) replaced, as in options read back from an older manifest.
    pub fn current(&self, options: &[OptSpec]) -> Args {
        let spec = |name: &str| options.iter().find(|o| o.name == name || o.aliases.contains(&name));
        let name = |name: &str| spec(name).map_or(name, |o| o.name).to_string();
        let values = self.values.iter().map(|(k, v)| (name(k), spec(k).map_or(Cow::Borrowed(v.as_str()), |o| o.current_value(v)).into_owned()));
        Args { values: values.collect(), flags: self.flags.iter().map(|f| name(f)).collect() }
    }

    /// Option `name` parsed as `T`; a usage error when it is missing.
    pub fn require<T: FromStr>(&self, name: &str) -> Result<T>
    where
        T::Err: Display,
    {
        self.get(name)?.ok_or_else(|| Error::Usage(format!("--{name} is required")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_path_is_refused() {
        let out = OptSpec::value("out", "DIR", "Output directory.");
        assert!(out.check("").unwrap_err().contains("empty path"));
        assert!(out.check(".").is_ok());
        assert!(OptSpec::positional("file", "Input.").check("").is_err());
        assert!(OptSpec::value("max", "HxW", "Largest size.").check("").is_ok());
    }

    #[test]
    fn a_file_path_ending_in_a_slash_is_refused_naming_it() {
        let out = OptSpec::value("out", "FILE", "Output file.");
        assert_eq!(out.check("tdir/").unwrap_err(), "tdir/ ends in /, so it names a directory, not a file (write the file's path without the /)");
        assert!(out.check("tdir").is_ok() && OptSpec::value("out", "DIR", "Output directory.").check("tdir/").is_ok());
    }

    #[test]
    fn typed_values_and_errors_name_the_option() {
        let args = Args::new().with("max", "12").with("seed", "x").with_flag("quiet");
        assert_eq!(args.get::<u64>("max").unwrap(), Some(12));
        assert_eq!(args.get::<u64>("absent").unwrap(), None);
        assert!(args.flag("quiet") && !args.flag("shrink"));
        let err = args.get::<u64>("seed").unwrap_err().to_string();
        assert_eq!(err, "invalid value \"x\" for --seed: invalid digit found in string");
        assert_eq!(args.require::<u64>("absent").unwrap_err().to_string(), "--absent is required");
        let json = args.to_json(&["max", "quiet"]);
        assert_eq!(json.to_string(), r#"{"max":"12","quiet":true}"#);
        assert_eq!(Args::from_json(&json).unwrap(), Args::new().with("max", "12").with_flag("quiet"));
    }

    #[test]
    fn old_names_and_values_read_as_current_ones() {
        let options = [
            OptSpec::value("rules", "RULES", "").aliases(&["rule"]),
            OptSpec::value("engine", "ENGINE", "").value_aliases(&[("dp", "claim")]),
            OptSpec::flag("quiet", "").aliases(&["silent"]),
        ];
        let old = Args::new().with("rule", "misere").with("engine", "dp").with("other", "1").with_flag("silent");
        let current = Args::new().with("rules", "misere").with("engine", "claim").with("other", "1").with_flag("quiet");
        assert_eq!(old.current(&options), current);
        assert_eq!(current.current(&options), current);
    }

    #[test]
    fn pairs_read_in_one_form() {
        let options = [OptSpec::value("size", "HxW", ""), OptSpec::value("max", "LENxVALUE", ""), OptSpec::value("seed", "N", "")];
        let given = Args::new().with("size", "04X5").with("max", "+3x007").with("seed", "04X5");
        let current = Args::new().with("size", "4x5").with("max", "3x7").with("seed", "04X5");
        assert_eq!(given.current(&options), current);
        assert_eq!(options[0].current_value("9"), "9");
        assert_eq!(options[0].current_value("4x5x6"), "4x5x6");
    }
}
