//! Why a test stopped early: what a device returns to end the command loop (`piglit::run`).

use halfcheck_results::Status;

/// Why a test stopped early: a status (fail, skip, error) and the reason.
#[derive(Debug, Clone, PartialEq)]
pub struct Stop {
    /// The status the test ends with.
    pub status: Status,
    /// Why, for `results.json`.
    pub reason: String,
}

impl Stop {
    /// The test fails (as piglit would report it).
    pub fn fail(reason: impl Into<String>) -> Stop {
        Stop {
            status: Status::Fail,
            reason: reason.into(),
        }
    }

    /// The test cannot run here.
    pub fn skip(reason: impl Into<String>) -> Stop {
        Stop {
            status: Status::Skip,
            reason: reason.into(),
        }
    }

    /// Something went wrong that is not the driver's verdict.
    pub fn error(reason: impl Into<String>) -> Stop {
        Stop {
            status: Status::Error,
            reason: reason.into(),
        }
    }
}
