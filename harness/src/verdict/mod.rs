//! Verdicts: whether a driver lowered, what each driver is expected to do, and how two runs
//! differ. Plain data and pure functions, apart from running.

pub mod classify;
pub mod compare;
pub mod expectations;
pub mod judge;
pub mod reduced;

pub use classify::{ChannelVerdict, Interval, Verdict};
