//! HTML accuracy reports for halfcheck results.
