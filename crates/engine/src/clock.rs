//! The searches' clock: `std::time::Instant`, except on `wasm32-unknown-unknown`, where std has
//! no clock (`Instant::now` panics) and the page's `performance.now()` is imported as
//! `env.othello_now_ms`.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use web::Instant;

#[cfg(target_arch = "wasm32")]
mod web {
    use std::ops::Add;
    use std::time::Duration;

    unsafe extern "C" {
        /// Milliseconds since an arbitrary start, never going back (`performance.now()`).
        fn othello_now_ms() -> f64;
    }

    /// A moment, in microseconds of the page's monotonic clock.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub struct Instant(u64);

    impl Instant {
        /// Now.
        #[must_use]
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "milliseconds since the page opened, positive and far below 2^64 microseconds"
        )]
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number.
            let ms = unsafe { othello_now_ms() };
            Instant((ms * 1000.0) as u64)
        }

        /// The time since `self`.
        #[must_use]
        pub fn elapsed(&self) -> Duration {
            Duration::from_micros(Instant::now().0.saturating_sub(self.0))
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        #[allow(
            clippy::cast_possible_truncation,
            reason = "a search's time limit, far below 2^64 microseconds"
        )]
        fn add(self, duration: Duration) -> Instant {
            Instant(self.0.saturating_add(duration.as_micros() as u64))
        }
    }
}
