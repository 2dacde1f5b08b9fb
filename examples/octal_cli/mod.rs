//! The command line of the octal timing examples (examples/octal_marks.rs, octal_shape.rs): an
//! octal code, then whole numbers.

use sprague::games::octal::code::Code;

/// Runs `run` on the code and the numbers `names` from the command line; on an error (of the
/// command line or of `run`) prints it and the usage line `program CODE NAMES...   note`, exit 2.
pub fn main<const N: usize>(program: &str, names: [&str; N], note: &str, run: impl FnOnce(Code, [usize; N]) -> Result<(), String>) {
    if let Err(message) = parse(names).and_then(|(code, numbers)| run(code, numbers)) {
        eprintln!("error: {message}\nusage: {program} CODE {}   {note}", names.join(" "));
        std::process::exit(2);
    }
}

/// The code and the numbers `names`, which name them in the messages.
fn parse<const N: usize>(names: [&str; N]) -> Result<(Code, [usize; N]), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != N + 1 {
        return Err(format!("{} arguments expected, {} given", N + 1, args.len()));
    }
    let code = Code::parse(&args[0]).map_err(|e| e.to_string())?;
    let mut values = [0; N];
    for ((value, name), text) in values.iter_mut().zip(names).zip(&args[1..]) {
        *value = text.parse::<usize>().map_err(|e| format!("{name} {text:?}: {e}"))?;
    }
    Ok((code, values))
}
