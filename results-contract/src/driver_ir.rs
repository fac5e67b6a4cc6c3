//! What the driver's own compiler said it did, as results record it: a summary of the NIR
//! Mesa printed for a test (`run --driver-ir`), its counts per shader, and how it compares
//! with halfcheck's model. The IR itself is kept in a file per test under the results
//! directory; these are only its counts.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The driver's IR of one test: its own run and, when one ran, its highp reference.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DriverIr {
    /// The IR of the test's own run.
    pub test: IrCapture,
    /// The IR of its highp reference run, when one ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<IrCapture>,
    /// The operations halfcheck's model lowers, against those the driver's IR computes at
    /// 16 bits; absent where the model could not compile the test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelMatch>,
}

/// One run's IR: where it is kept and what it holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IrCapture {
    /// The file holding it, relative to the results directory (`ir/<test name>.nir`).
    pub file: String,
    /// How many bytes the driver printed.
    pub bytes: u64,
    /// Set when the driver printed more than the size cap: how many bytes were kept (the
    /// file and the counts hold only those).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_at: Option<u64>,
    /// Each shader the driver was handed, in order.
    pub shaders: Vec<IrShader>,
}

/// The ALU instructions of one shader, counted by opcode.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IrShader {
    /// Its stage (`FRAGMENT`, `VERTEX`).
    pub stage: String,
    /// Float arithmetic at 16 bits, by opcode (`fmul`: 2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub float16: BTreeMap<String, u32>,
    /// Float arithmetic at 32 bits, by opcode.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub float32: BTreeMap<String, u32>,
    /// Integer arithmetic at 16 bits, by opcode.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub int16: BTreeMap<String, u32>,
    /// Integer arithmetic at 32 bits, by opcode.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub int32: BTreeMap<String, u32>,
    /// Conversions between types or bit sizes, by opcode (`f2f16`, `f2f32`, `i2i16`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub conversions: BTreeMap<String, u32>,
    /// Whether its text ended; false when the capture was cut inside it.
    pub complete: bool,
    /// Lines of its body that were no instruction the reader knows (blocks, control flow,
    /// syntax of another Mesa version).
    #[serde(default)]
    pub unknown_lines: u32,
}

/// halfcheck's lowered operations against the driver's 16-bit ones, by operation, in NIR's
/// names (`fmul`, `fdiv`, `ffract`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelMatch {
    /// Lowered by the model and computed at 16 bits in the driver's IR.
    #[serde(default)]
    pub agreed: BTreeMap<String, u32>,
    /// Lowered by the model, not at 16 bits in the driver's IR.
    #[serde(default)]
    pub model_only: BTreeMap<String, u32>,
    /// At 16 bits in the driver's IR, not lowered by the model.
    #[serde(default)]
    pub driver_only: BTreeMap<String, u32>,
}

impl IrShader {
    /// Whether any arithmetic (float or integer) or conversion in it is at 16 bits.
    pub fn any_16bit(&self) -> bool {
        !self.float16.is_empty()
            || !self.int16.is_empty()
            || self
                .conversions
                .keys()
                .any(|c| c.contains("16") || c.ends_with("mp"))
    }
}
