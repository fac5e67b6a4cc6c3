//! A time limit for work halfcheck does in its own process (the emulator's images for a
//! report, `lint`'s predictions), where no worker process can be killed instead.
//!
//! The work runs on a thread of its own; when it takes longer than the limit, the caller goes
//! on without it and the thread is left to finish or to end with the process. What the work
//! costs after its limit is bounded by the life of the command, never by the input.

use std::sync::mpsc;
use std::time::Duration;

/// `work`'s value, or `None` when it took longer than `limit` (or panicked).
pub(crate) fn within<T: Send + 'static>(
    limit: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (sender, receiver) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("time-limited".into())
        .spawn(move || {
            // The receiver is gone once the limit passed: nobody wants the value any more.
            sender.send(work()).ok();
        });
    match spawned {
        Ok(_) => receiver.recv_timeout(limit).ok(),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn work_past_its_limit_is_left_behind_and_quick_work_returns_its_value() {
        assert_eq!(within(Duration::from_secs(5), || 7), Some(7));
        let started = Instant::now();
        let endless = within(Duration::from_millis(100), || loop {
            std::thread::sleep(Duration::from_millis(10));
        });
        assert_eq!(endless, None::<()>);
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}
