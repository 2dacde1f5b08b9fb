//! Library command specs as clap arguments, and clap's matches back as library option values.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches};
use sprague::game::{Args, CommandSpec, OptSpec};
use std::ffi::OsStr;
use std::path::PathBuf;

/// The clap subcommand of a library command spec.
pub fn command(spec: &CommandSpec) -> clap::Command {
    let mut command = clap::Command::new(spec.name).about(spec.about).args(spec.options.iter().map(arg));
    if !spec.examples.is_empty() {
        let lines: Vec<String> = spec.examples.iter().map(|e| format!("  {e}")).collect();
        command = command.after_help(format!("Examples:\n{}", lines.join("\n")));
    }
    command
}

/// One option as a clap argument.
fn arg(spec: &OptSpec) -> Arg {
    let mut arg = Arg::new(spec.name).help(spec.help).hide(spec.hidden).required(spec.required);
    if !spec.positional {
        arg = arg.long(spec.name).aliases(spec.aliases.iter().copied());
    }
    if let Some(short) = spec.short {
        arg = arg.short(short);
    }
    arg = match spec.value {
        None => arg.action(ArgAction::SetTrue),
        Some(name) if spec.multiple => arg.value_name(name).action(ArgAction::Append),
        Some(name) => arg.value_name(name).action(ArgAction::Set),
    };
    if let Some(default) = spec.default {
        arg = arg.default_value(default);
    }
    if !spec.choices.is_empty() {
        let old = |value| spec.value_aliases.iter().filter(move |&&(_, new)| new == value).map(|&(old, _)| old);
        let values = spec.choices.iter().map(|&(value, help)| PossibleValue::new(value).help(help).aliases(old(value)));
        let spec = *spec;
        arg = arg.value_parser(PossibleValuesParser::new(values).map(move |value: String| spec.current_value(&value).into_owned()));
    } else if spec.value.is_some() {
        arg = arg.value_parser(Text(Some(*spec)));
    }
    if !spec.required_unless.is_empty() {
        arg = arg.required_unless_present_any(spec.required_unless.iter().copied());
    }
    for &other in spec.requires {
        arg = arg.requires(other);
    }
    arg.conflicts_with_all(spec.conflicts.iter().copied())
}

/// A value that must be UTF-8 (clap alone says only that some argument is not, naming none),
/// then pass its option's own check ([`OptSpec::check`]), if any.
#[derive(Clone)]
struct Text(Option<OptSpec>);

impl TypedValueParser for Text {
    type Value = String;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&Arg>, value: &OsStr) -> Result<String, clap::Error> {
        if value.to_str().is_none() {
            let name = arg.map_or_else(|| "a value".to_string(), |arg| arg.to_string());
            let message = format!("{name}: {value:?} is not UTF-8 (sprague records every path and value as text); choose a UTF-8 name\n");
            return Err(clap::Error::raw(ErrorKind::InvalidUtf8, message).with_cmd(cmd));
        }
        let spec = self.0;
        (move |s: &str| spec.map_or(Ok(()), |spec| spec.check(s)).map(|()| s.to_string())).parse_ref(cmd, arg, value)
    }
}

/// The parser of a path option clap derives (`merge`'s): UTF-8 only, as [`Text`].
pub fn utf8_path() -> impl TypedValueParser<Value = PathBuf> {
    Text(None).map(PathBuf::from)
}

/// The values of `spec`'s options in `matches` (defaults included), each in its current form
/// ([`OptSpec::current_value`]: `4X4` is recorded as `4x4`).
pub fn values(spec: &CommandSpec, matches: &ArgMatches) -> Args {
    spec.options.iter().fold(Args::new(), |args, option| match option.value {
        None if matches.get_flag(option.name) => args.with_flag(option.name),
        None => args,
        Some(_) => match matches.get_many::<String>(option.name) {
            Some(values) => args.with(option.name, values.map(|value| option.current_value(value)).collect::<Vec<_>>().join(",")),
            None => args,
        },
    })
}
