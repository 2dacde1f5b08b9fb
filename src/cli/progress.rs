//! Progress on standard error: indicatif bars on a terminal, a plain line every so often
//! otherwise (a batch job's log), nothing with --quiet.

use indicatif::{FormattedDuration, HumanCount, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use sprague::runner::cost::DAY_SECONDS;
use sprague::runner::Progress;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

/// The variable that sets how often a progress line is written when stderr is not a terminal.
pub const EVERY_VARIABLE: &str = "SPRAGUE_PROGRESS_EVERY";

/// The time between progress lines when [`EVERY_VARIABLE`] is not set.
const DEFAULT_EVERY: Duration = Duration::from_secs(60);

/// How progress reaches the user.
pub enum Bars {
    Hidden,
    /// One bar (or spinner) at a time, replaced at each new phase.
    Terminal(Mutex<ProgressBar>),
    /// One line at most every `every`, so that a log shows how far a run got and how long it has
    /// left; written by a heartbeat too ([`heartbeat`]), so that a phase with no step to report
    /// for long (a game program explored before its first position is judged) still shows it lives.
    Lines(Arc<Mutex<Lines>>),
}

impl Bars {
    /// What a command shows: nothing when `quiet`, bars on a terminal, else a line at most
    /// every [`EVERY_VARIABLE`] seconds (default 60).
    pub fn for_stderr(quiet: bool, terminal: bool) -> anyhow::Result<Bars> {
        Ok(match (quiet, terminal) {
            (true, _) => Bars::Hidden,
            (false, true) => Bars::Terminal(Mutex::new(ProgressBar::hidden())),
            (false, false) => {
                let lines = Arc::new(Mutex::new(Lines::new(every_from_env()?)));
                heartbeat(Arc::downgrade(&lines));
                Bars::Lines(lines)
            }
        })
    }

    fn replace(bar: &Mutex<ProgressBar>, next: ProgressBar) {
        let mut bar = bar.lock().expect("progress bar lock");
        bar.finish_and_clear();
        *bar = next;
    }
}

/// Reads [`EVERY_VARIABLE`]: a positive number of seconds.
fn every_from_env() -> anyhow::Result<Duration> {
    let Some(text) = std::env::var_os(EVERY_VARIABLE) else { return Ok(DEFAULT_EVERY) };
    let text = text.to_string_lossy();
    parse_every(&text).map_err(|why| anyhow::anyhow!("{EVERY_VARIABLE}={text:?}: {why}"))
}

/// A positive number of seconds, at most a day.
fn parse_every(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= DAY_SECONDS => Ok(Duration::from_secs_f64(seconds)),
        Ok(_) => Err(format!("seconds between progress lines must be more than 0 and at most {DAY_SECONDS}")),
        Err(_) => Err("not a number of seconds".into()),
    }
}

impl Progress for Bars {
    fn start(&self, label: &str, total: Option<u64>, done: u64) {
        match self {
            Bars::Hidden => {}
            Bars::Terminal(bar) => Bars::replace(bar, new_bar(label, total, done)),
            Bars::Lines(lines) => lines.lock().expect("progress lock").start(label, total, done),
        }
    }

    fn advance(&self, units: u64) {
        match self {
            Bars::Hidden => {}
            Bars::Terminal(bar) => bar.lock().expect("progress bar lock").inc(units),
            Bars::Lines(lines) => lines.lock().expect("progress lock").advance(units),
        }
    }

    fn message(&self, text: &str) {
        match self {
            Bars::Hidden => {}
            Bars::Terminal(bar) => bar.lock().expect("progress bar lock").set_message(text.to_string()),
            Bars::Lines(lines) => lines.lock().expect("progress lock").message(text),
        }
    }

    fn finish(&self) {
        match self {
            Bars::Hidden => {}
            Bars::Terminal(bar) => Bars::replace(bar, ProgressBar::hidden()),
            // Nothing more to say of a finished phase, on a heartbeat either.
            Bars::Lines(lines) => lines.lock().unwrap_or_else(PoisonError::into_inner).phase = None,
        }
    }
}

/// Writes the current phase's line of `lines` when due, checked every second (or every
/// `every`, when shorter), until the bars are dropped: between the steps a phase reports.
fn heartbeat(lines: Weak<Mutex<Lines>>) {
    std::thread::spawn(move || loop {
        let Some(every) = lines.upgrade().map(|l| l.lock().unwrap_or_else(PoisonError::into_inner).every) else { return };
        std::thread::sleep(every.min(Duration::from_secs(1)));
        let Some(lines) = lines.upgrade() else { return };
        lines.lock().unwrap_or_else(PoisonError::into_inner).write_when_due(Instant::now());
    });
}

/// A bar (`total` known) or a spinner for the phase `label`, `done` units already done.
fn new_bar(label: &str, total: Option<u64>, done: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
    let template = match total {
        None => "{spinner} [{elapsed_precise}] {msg}",
        Some(_) => "{msg:>8} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {rate} ETA {eta}",
    };
    let style = ProgressStyle::with_template(template).expect("valid template").with_key(
        "rate",
        |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}/s", human_rate(state.per_sec()));
        },
    );
    bar.set_style(style);
    bar.set_message(label.to_string());
    bar.set_position(done);
    bar.reset_eta();
    bar.enable_steady_tick(Duration::from_millis(if total.is_none() { 120 } else { 500 }));
    bar
}

/// The state behind progress lines: the current phase and when the last line was written.
pub struct Lines {
    every: Duration,
    last_line: Instant,
    phase: Option<Phase>,
}

/// One phase as a line reports it.
struct Phase {
    label: String,
    total: Option<u64>,
    done: u64,
    /// Units already done when the phase began (a resumed run): not counted in the rate.
    resumed: u64,
    began: Instant,
    message: Option<String>,
}

impl Lines {
    fn new(every: Duration) -> Lines {
        Lines { every, last_line: Instant::now(), phase: None }
    }

    fn start(&mut self, label: &str, total: Option<u64>, done: u64) {
        let began = Instant::now();
        self.phase = Some(Phase { label: label.to_string(), total, done, resumed: done, began, message: None });
        self.write_when_due(began);
    }

    fn advance(&mut self, units: u64) {
        if let Some(phase) = &mut self.phase {
            phase.done = phase.done.saturating_add(units);
        }
        self.write_when_due(Instant::now());
    }

    fn message(&mut self, text: &str) {
        if let Some(phase) = &mut self.phase {
            phase.message = Some(text.to_string());
        }
        self.write_when_due(Instant::now());
    }

    /// Writes the phase's line when `every` has passed since the last one.
    fn write_when_due(&mut self, now: Instant) {
        let Some(phase) = &self.phase else { return };
        if now.duration_since(self.last_line) >= self.every {
            sprague::sys::say(&phase.line(now));
            self.last_line = now;
        }
    }
}

impl Phase {
    /// `[00:12:30] 7x7: 1,234,567/9,999,999 (12.3%), 30.4k/s, ETA 4 minutes`, or the phase's
    /// message (`[00:01:00] stress wall: 120 runs, 0 failures, 2 runs/s`) when it has no total.
    fn line(&self, now: Instant) -> String {
        let elapsed = now.duration_since(self.began);
        let head = format!("[{}] {}", FormattedDuration(elapsed), self.message.as_deref().unwrap_or(&self.label));
        let Some(total) = self.total else { return head };
        let percent = if total == 0 { 100.0 } else { 100.0 * self.done as f64 / total as f64 };
        let rate = (self.done - self.resumed) as f64 / elapsed.as_secs_f64().max(1e-9);
        let left = total.saturating_sub(self.done) as f64;
        let eta = if rate > 0.0 { HumanDuration(Duration::from_secs_f64((left / rate).min(1e12))).to_string() } else { "unknown".into() };
        format!("{head}: {}/{} ({percent:.1}%), {}/s, ETA {eta}", HumanCount(self.done), HumanCount(total), human_rate(rate))
    }
}

/// A rate with three significant digits and an SI prefix: `950`, `12.3k`, `30.4M`.
fn human_rate(per_sec: f64) -> String {
    let (value, prefix) = match per_sec {
        r if r >= 1e9 => (r / 1e9, "G"),
        r if r >= 1e6 => (r / 1e6, "M"),
        r if r >= 1e3 => (r / 1e3, "k"),
        r => (r, ""),
    };
    let digits = if value >= 100.0 { 0 } else if value >= 10.0 { 1 } else { 2 };
    format!("{value:.digits$}{prefix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_well() {
        assert_eq!(human_rate(30_373_044.148_7), "30.4M");
        assert_eq!(human_rate(950.2), "950");
        assert_eq!(human_rate(1.5), "1.50");
        assert_eq!(human_rate(2.5e9), "2.50G");
    }

    #[test]
    fn a_line_says_how_far_how_fast_and_how_long_is_left() {
        let began = Instant::now();
        let phase = Phase { label: "7x7".into(), total: Some(1_000_000), done: 250_000, resumed: 50_000, began, message: None };
        // 200,000 units in 20 s since the phase began: 10k/s, 750,000 left: 75 s.
        let line = phase.line(began + Duration::from_secs(20));
        assert_eq!(line, "[00:00:20] 7x7: 250,000/1,000,000 (25.0%), 10.0k/s, ETA 75 seconds");
        let stalled = Phase { done: 50_000, ..phase };
        assert!(stalled.line(began + Duration::from_secs(5)).ends_with("(5.0%), 0.00/s, ETA unknown"));
    }

    #[test]
    fn a_phase_without_total_shows_its_message() {
        let began = Instant::now();
        let phase = Phase { label: "stress wall".into(), total: None, done: 0, resumed: 0, began, message: Some("stress wall: 12 runs".into()) };
        assert_eq!(phase.line(began + Duration::from_secs(61)), "[00:01:01] stress wall: 12 runs");
    }

    #[test]
    fn the_interval_is_a_positive_number_of_seconds() {
        assert_eq!(parse_every("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_every(" 60 "), Ok(Duration::from_secs(60)));
        for bad in ["0", "-1", "1e9", "NaN", "inf"] {
            assert!(parse_every(bad).is_err_and(|e| e.contains("more than 0")), "{bad}");
        }
        assert_eq!(parse_every("soon").unwrap_err(), "not a number of seconds");
    }
}
