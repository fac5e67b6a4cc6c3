//! The report's plots, drawn with `plotters` into SVG strings that the pages inline.
//!
//! Colours follow Okabe and Ito's palette, which reads with every common colour-vision
//! deficiency, and every series also differs by shape or line style.

use crate::model::Channel;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Okabe-Ito blue: highp (`h`, `H`).
pub const HIGHP: RGBColor = RGBColor(0, 114, 178);
/// Okabe-Ito orange: mediump (`m`, `M`).
pub const MEDIUMP: RGBColor = RGBColor(230, 159, 0);
/// Okabe-Ito reddish purple: the driver's own highp reference `r`.
pub const REFERENCE: RGBColor = RGBColor(204, 121, 167);
/// Okabe-Ito vermillion.
pub const VERMILLION: RGBColor = RGBColor(213, 94, 0);
/// Okabe-Ito bluish green.
pub const GREEN: RGBColor = RGBColor(0, 158, 115);
/// Okabe-Ito sky blue.
pub const SKY: RGBColor = RGBColor(86, 180, 233);

const FONT: &str = "sans-serif";

/// The histogram bins of an error in ULPs: `0`, `<1`, then one bin per power of two.
fn ulp_bin(error: f64, top: usize) -> usize {
    if error == 0.0 {
        0
    } else if error < 1.0 {
        1
    } else if error.is_finite() {
        (2 + error.log2().floor() as usize).min(top)
    } else {
        top
    }
}

/// A bin's label: `0`, `<1`, `1`, `2`, `4`, ... `2^k` (the bin holds `[2^k, 2^(k+1))`).
fn ulp_bin_label(bin: usize, top: usize) -> String {
    match bin {
        0 => "0".into(),
        1 => "<1".into(),
        b if b == top => format!("≥2^{}", b - 2),
        b if b - 2 < 10 => format!("{}", 1u32 << (b - 2)),
        b => format!("2^{}", b - 2),
    }
}

/// Per run, the distribution of judged channels' distance from the binary16 prediction `m`
/// in binary16 ULPs (left) and from the binary32 prediction `h` in binary32 ULPs (right);
/// `None` when no channel was judged.
pub fn ulp_histograms(channels: &[&Channel]) -> Option<String> {
    if channels.is_empty() {
        return None;
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 260)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let (left, right) = root.split_horizontally(450);
        let ulp16: Vec<f64> = channels.iter().map(|c| c.from_mediump_ulp16).collect();
        let ulp32: Vec<f64> = channels.iter().map(|c| c.from_highp_ulp32).collect();
        histogram(
            &left,
            "|o - m|: from the binary16 prediction",
            "binary16 ULPs at m (bins by powers of two)",
            &ulp16,
            18,
            MEDIUMP,
        )?;
        histogram(
            &right,
            "|o - h|: from the binary32 prediction",
            "binary32 ULPs at h (bins by powers of two)",
            &ulp32,
            32,
            HIGHP,
        )?;
        root.present().ok()?;
    }
    Some(svg)
}

fn histogram(
    area: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    unit: &str,
    errors: &[f64],
    top: usize,
    colour: RGBColor,
) -> Option<()> {
    let mut counts = vec![0u32; top + 1];
    for e in errors {
        counts[ulp_bin(*e, top)] += 1;
    }
    let highest = counts.iter().copied().max().unwrap_or(0).max(1);
    // About a dozen labels fit: the first two and the last bins, and every `step`-th power.
    let step = top.div_ceil(12).max(1);
    let labelled =
        move |b: usize| b < 2 || b == top || ((b - 2).is_multiple_of(step) && top - b >= step);
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 16))
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(44)
        .build_cartesian_2d((0..top).into_segmented(), 0u32..highest + highest / 10 + 1)
        .ok()?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_max_light_lines(1)
        .x_labels(top + 1)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(b) if labelled(*b) => ulp_bin_label(*b, top),
            _ => String::new(),
        })
        .x_label_style((FONT, 10))
        .y_desc("channels")
        .x_desc(unit)
        .axis_desc_style((FONT, 12))
        .draw()
        .ok()?;
    // One bar per bin, in bin order (plotters' `Histogram` sums through a hash map, so its
    // bars came out in a different order on every run).
    let bar = |(b, count): (usize, &u32)| {
        let corners = [
            (SegmentValue::Exact(b), 0),
            (SegmentValue::Exact(b + 1), *count),
        ];
        let mut bar = Rectangle::new(corners, colour.filled());
        bar.set_margin(0, 0, 2, 2);
        bar
    };
    chart.draw_series(counts.iter().enumerate().map(bar)).ok()?;
    Some(())
}

/// Per judged channel of one test, a number line with the acceptance intervals `H` and `M`
/// as bands, the predictions `h` and `m`, the driver's reference `r` when known and the
/// observed `o`. `labels` name the rows (`line 31 (0, 0) r`).
pub fn channel_values(rows: &[(String, &Channel)]) -> Option<String> {
    if rows.is_empty() {
        return None;
    }
    let row_height = 74u32;
    let legend_height = 30u32;
    let height = legend_height + row_height * rows.len() as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, height)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let (legend, body) = root.split_vertically(legend_height);
        draw_legend(&legend)?;
        let areas = body.split_evenly((rows.len(), 1));
        for (area, (label, channel)) in areas.iter().zip(rows) {
            channel_row(area, label, channel)?;
        }
        root.present().ok()?;
    }
    Some(svg)
}

fn draw_legend(area: &DrawingArea<SVGBackend, Shift>) -> Option<()> {
    let style = TextStyle::from((FONT, 13)).color(&BLACK);
    let y = 15;
    let mut x = 10;
    let mut item = |label: &str, draw: &dyn Fn(i32) -> Option<()>| -> Option<()> {
        draw(x)?;
        area.draw_text(label, &style, (x + 16, y - 7)).ok()?;
        x += 16 + 7 * label.chars().count() as i32 + 22;
        Some(())
    };
    item("H: any conforming highp", &|x| {
        area.draw(&Rectangle::new(
            [(x, y - 6), (x + 12, y + 6)],
            HIGHP.mix(0.3).filled(),
        ))
        .ok()
    })?;
    item("M: any conforming mediump", &|x| {
        area.draw(&Rectangle::new(
            [(x, y - 6), (x + 12, y + 6)],
            MEDIUMP.mix(0.35).filled(),
        ))
        .ok()
    })?;
    item("h", &|x| {
        area.draw(&Circle::new((x + 6, y), 5, HIGHP.stroke_width(2)))
            .ok()
    })?;
    item("m", &|x| {
        area.draw(&TriangleMarker::new((x + 6, y), 6, VERMILLION.filled()))
            .ok()
    })?;
    item("r (driver highp)", &|x| {
        area.draw(&Rectangle::new(
            [(x + 2, y - 4), (x + 10, y + 4)],
            REFERENCE.filled(),
        ))
        .ok()
    })?;
    item("o (observed)", &|x| {
        area.draw(&Cross::new((x + 6, y), 6, BLACK.stroke_width(3)))
            .ok()
    })?;
    Some(())
}

fn channel_row(area: &DrawingArea<SVGBackend, Shift>, label: &str, c: &Channel) -> Option<()> {
    let mut values = vec![c.observed, c.highp, c.mediump];
    values.extend(c.reference);
    for (lo, hi) in [c.highp_bounds, c.mediump_bounds] {
        values.extend([lo, hi]);
    }
    let finite: Vec<f64> = values.into_iter().filter(|v| v.is_finite()).collect();
    let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if !lo.is_finite() {
        (-1.0, 1.0)
    } else if hi - lo <= f64::EPSILON * hi.abs().max(1e-30) {
        let pad = (hi.abs() * 1e-3).max(1e-6);
        (lo - pad, hi + pad)
    } else {
        let pad = (hi - lo) * 0.06;
        (lo - pad, hi + pad)
    };
    // Enough decimals that the labels of ticks differ.
    let decimals = (-((hi - lo) / 6.0).log10()).ceil().clamp(0.0, 12.0) as usize + 1;
    let caption = format!(
        "{label}; H [{}, {}]",
        crate::html::num(c.highp_bounds.0),
        crate::html::num(c.highp_bounds.1)
    );
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 13))
        .margin_left(16)
        .margin_right(24)
        .x_label_area_size(22)
        .build_cartesian_2d(lo..hi, 0.0..3.0)
        .ok()?;
    chart
        .configure_mesh()
        .disable_mesh()
        .disable_y_axis()
        .x_labels(6)
        .x_label_formatter(&|v| format!("{v:.decimals$}"))
        .x_label_style((FONT, 10))
        .draw()
        .ok()?;
    let clamp = |v: f64| v.clamp(lo, hi);
    // Bands with an outline, so an interval narrower than a pixel still shows as a line: H,
    // a few binary32 ULPs wide, is thinner than a pixel beside M's [0, 1], so its outline is
    // drawn 3 pixels wide.
    let band = |(a, b): (f64, f64), y0: f64, y1: f64, colour: RGBColor, alpha: f64, px: u32| {
        [
            Rectangle::new([(clamp(a), y0), (clamp(b), y1)], colour.mix(alpha).filled()),
            Rectangle::new([(clamp(a), y0), (clamp(b), y1)], colour.stroke_width(px)),
        ]
    };
    chart
        .draw_series(band(c.mediump_bounds, 0.2, 2.8, MEDIUMP, 0.35, 1))
        .ok()?;
    chart
        .draw_series(band(c.highp_bounds, 0.6, 2.4, HIGHP, 0.3, 3))
        .ok()?;
    // Each marker on its own height, so equal values stay visible: h low, m high, r above
    // the middle, o in the middle.
    let at = |v: f64, y: f64| (clamp(if v.is_nan() { lo } else { v }), y);
    chart
        .draw_series([Circle::new(at(c.highp, 0.9), 6, HIGHP.stroke_width(2))])
        .ok()?;
    chart
        .draw_series([TriangleMarker::new(
            at(c.mediump, 2.1),
            6,
            VERMILLION.filled(),
        )])
        .ok()?;
    if let Some(r) = c.reference {
        chart
            .draw_series([Rectangle::new(
                [(clamp(r), 1.7), (clamp(r), 1.95)],
                REFERENCE.stroke_width(8),
            )])
            .ok()?;
    }
    chart
        .draw_series([Cross::new(at(c.observed, 1.4), 7, BLACK.stroke_width(3))])
        .ok()?;
    Some(())
}

/// Counts per verdict over the nights of a history, one line per verdict.
pub fn trend(nights: &[String], series: &[(String, Vec<usize>)]) -> Option<String> {
    if nights.is_empty() {
        return None;
    }
    let highest = series
        .iter()
        .flat_map(|(_, counts)| counts.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    // The badges' colours: blue lowered, orange-red not lowered, black out of bounds.
    let colour_of = |verdict: &str, k: usize| match verdict {
        "lowered" => HIGHP,
        "partial" => SKY,
        "not-lowered" => VERMILLION,
        "out-of-bounds" => BLACK,
        "undetermined" | "n/a" | "unjudged" => RGBColor(150, 150, 150),
        _ => [MEDIUMP, REFERENCE, GREEN][k % 3],
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 320)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let last = nights.len().saturating_sub(1).max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption("tests per verdict, night by night", (FONT, 16))
            .margin(10)
            .margin_right(40)
            .x_label_area_size(40)
            .y_label_area_size(44)
            .build_cartesian_2d(0..last, 0..highest + highest / 10 + 1)
            .ok()?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_max_light_lines(1)
            .x_labels(nights.len().min(12))
            .x_label_formatter(&|i| nights.get(*i).cloned().unwrap_or_default())
            .x_label_style((FONT, 10))
            .y_desc("tests")
            .draw()
            .ok()?;
        for (k, (name, counts)) in series.iter().enumerate() {
            let colour = colour_of(name, k);
            let style = ShapeStyle::from(colour).stroke_width(2);
            chart
                .draw_series(LineSeries::new(counts.iter().copied().enumerate(), style))
                .ok()?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], style));
            chart
                .draw_series(
                    counts
                        .iter()
                        .enumerate()
                        .map(|(i, n)| Circle::new((i, *n), 3, colour.filled())),
                )
                .ok()?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FONT, 12))
            .draw()
            .ok()?;
        root.present().ok()?;
    }
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulp_bins_are_zero_below_one_then_powers_of_two() {
        assert_eq!(ulp_bin(0.0, 18), 0);
        assert_eq!(ulp_bin(0.5, 18), 1);
        assert_eq!(ulp_bin(1.0, 18), 2);
        assert_eq!(ulp_bin(3.9, 18), 3);
        assert_eq!(ulp_bin(1e30, 18), 18);
        assert_eq!(ulp_bin(f64::INFINITY, 18), 18);
        assert_eq!(ulp_bin_label(4, 18), "4");
        assert_eq!(ulp_bin_label(18, 18), "≥2^16");
    }

    #[test]
    fn ulp_histograms_draw_one_bar_per_bin_in_bin_order() {
        let channels: Vec<Channel> = [0.0, 0.5, 1.0, 3.0, 5.0, 1e9]
            .map(|e| Channel {
                from_mediump_ulp16: e,
                from_highp_ulp32: e * 2.0,
                ..Channel::default()
            })
            .to_vec();
        let refs: Vec<&Channel> = channels.iter().collect();
        let svg = ulp_histograms(&refs).expect("drawn");
        let bars = |colour: &str| -> Vec<u32> {
            svg.lines()
                .filter(|l| l.starts_with("<rect") && l.contains(colour))
                .filter_map(|l| l.split("x=\"").nth(1)?.split('"').next()?.parse().ok())
                .collect()
        };
        for colour in ["#E69F00", "#0072B2"] {
            let xs = bars(colour);
            assert!(xs.len() > 10, "{colour}: {xs:?}");
            assert!(xs.windows(2).all(|w| w[0] < w[1]), "{colour}: {xs:?}");
        }
        assert_eq!(ulp_histograms(&refs).as_deref(), Some(svg.as_str()));
    }

    #[test]
    fn channel_plot_is_an_svg_with_one_row_per_channel() {
        let channel = Channel {
            observed: 0.25,
            highp: 0.49,
            mediump: 0.25,
            exact: 0.49,
            highp_bounds: (0.4899, 0.4901),
            mediump_bounds: (0.0, 1.0),
            verdict: "lowered".into(),
            ..Channel::default()
        };
        let svg = channel_values(&[("a".into(), &channel), ("b".into(), &channel)]).expect("drawn");
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        assert_eq!(svg.matches(">\na; H [0.4899, 0.4901]\n<").count(), 1);
        assert_eq!(svg.matches(">\nb; H [0.4899, 0.4901]\n<").count(), 1);
    }
}
