//! `halfcheck features`: the emulator's inventory (`halfcheck_emu::inventory`), one line per
//! feature with its status and why, then the counts of each status.

use halfcheck_emu::inventory::{features, Feature, Status};

/// The inventory as text: `STATUS  KIND  NAMES: DETAIL` per feature, then the counts.
pub(crate) fn render() -> String {
    let mut out = String::new();
    let mut counts = [0usize; 3];
    for feature in features() {
        out.push_str(&line(feature));
        out.push('\n');
        counts[match feature.status {
            Status::Modelled(_) => 0,
            Status::Bounded(_) => 1,
            Status::NotModelled(_) => 2,
        }] += 1;
    }
    out.push_str(&format!(
        "{} features: {} modelled, {} bounded, {} not modelled\n",
        counts.iter().sum::<usize>(),
        counts[0],
        counts[1],
        counts[2]
    ));
    out
}

/// One feature's line.
fn line(feature: &Feature) -> String {
    let detail = match feature.status {
        Status::Modelled(cases) => format!("pinned by {}", cases.join(", ")),
        Status::Bounded(spec) | Status::NotModelled(spec) => spec.to_string(),
    };
    format!(
        "{:<12} {:<9} {}: {}",
        feature.status.name(),
        feature.kind.name(),
        feature.names.join(", "),
        detail
    )
}
