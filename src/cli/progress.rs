//! Progress bars on standard error (indicatif): hidden with --quiet or when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
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
            Some(_) => "{msg:>8} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} ETA {eta}",
        };
        bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
        bar.set_message(label.to_string());
        bar.set_position(done);
        bar.reset_eta();
        if total.is_none() {
            bar.enable_steady_tick(Duration::from_millis(120));
        }
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
