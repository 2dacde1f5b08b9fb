//! Progress bars on standard error (indicatif): hidden with --quiet or when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use sprague::runner::Progress;
use std::sync::Mutex;
use std::time::Duration;

/// One bar (or spinner) at a time, replaced at each new phase.
pub struct Bars {
    visible: bool,
    bar: Mutex<ProgressBar>,
}

impl Bars {
    pub fn new(visible: bool) -> Bars {
        Bars { visible, bar: Mutex::new(ProgressBar::hidden()) }
    }

    fn replace(&self, next: ProgressBar) {
        let mut bar = self.bar.lock().expect("progress bar lock");
        bar.finish_and_clear();
        *bar = next;
    }
}

impl Progress for Bars {
    fn start(&self, label: &str, total: Option<u64>, done: u64) {
        if !self.visible {
            return;
        }
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
        let template = match total {
            None => "{spinner} [{elapsed_precise}] {msg}",
            Some(_) => "{msg:>8} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {rate} ETA {eta}",
        };
        let style = ProgressStyle::with_template(template)
            .expect("valid template")
            .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}/s", human_rate(state.per_sec()));
            });
        bar.set_style(style);
        bar.set_message(label.to_string());
        bar.set_position(done);
        bar.reset_eta();
        bar.enable_steady_tick(Duration::from_millis(if total.is_none() { 120 } else { 500 }));
        self.replace(bar);
    }

    fn advance(&self, units: u64) {
        self.bar.lock().expect("progress bar lock").inc(units);
    }

    fn message(&self, text: &str) {
        self.bar.lock().expect("progress bar lock").set_message(text.to_string());
    }

    fn finish(&self) {
        self.replace(ProgressBar::hidden());
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
    #[test]
    fn rates_read_well() {
        assert_eq!(super::human_rate(30_373_044.148_7), "30.4M");
        assert_eq!(super::human_rate(950.2), "950");
        assert_eq!(super::human_rate(1.5), "1.50");
        assert_eq!(super::human_rate(2.5e9), "2.50G");
    }
}
