//! Small multiples of line charts: a few series per panel, panels on a grid with common axes.

use super::plots::{fitting_title, legend, tick, whole_tick, Entry, Mark, PlotResult, Series, FONT};
use plotters::prelude::*;

/// Distinct colours for the few series of one panel (Tableau 10).
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Width of the legend beside each panel (outside its plot area, so that it hides no line).
const PANEL_LEGEND: u32 = 80;

/// One panel: its caption and its series (at most [`PALETTE`]'s length are told apart).
#[derive(Debug, Clone, PartialEq)]
pub struct LinePanel {
    pub label: String,
    pub series: Vec<Series>,
}

/// Line charts of `panels`, `columns` per row, sharing their x and y ranges; each panel
/// carries the legend of its own series beside its plot area. Where every x is a whole number
/// (a count of X cells), the x axis is labelled at whole numbers only.
pub fn line_panels(title: &str, x_desc: &str, y_desc: &str, panels: &[LinePanel], columns: usize) -> PlotResult<String> {
    let columns = columns.clamp(1, panels.len().max(1));
    let rows = panels.len().div_ceil(columns).max(1);
    let points = || panels.iter().flat_map(|p| p.series.iter().flat_map(|s| s.points.iter()));
    let x1 = points().map(|p| p.0).fold(1.0, f64::max);
    let y1 = points().map(|p| p.1).fold(1e-9, f64::max) * 1.08;
    let whole_x = points().all(|p| p.0.fract() == 0.0);
    let (x_labels, x_tick): (usize, &dyn Fn(&f64) -> String) = if whole_x { ((x1 as usize + 1).min(11), &whole_tick) } else { (10, &tick) };
    let (width, height) = (fitting_title(20 + (320 + PANEL_LEGEND) * columns as u32, title, 24), 60 + 260 * rows as u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let body = root.titled(title, (FONT, 24))?;
        for (area, panel) in body.split_evenly((rows, columns)).iter().zip(panels) {
            let (plot, side) = area.split_horizontally(area.dim_in_pixel().0.saturating_sub(PANEL_LEGEND));
            let mut chart = ChartBuilder::on(&plot)
                .caption(&panel.label, (FONT, 15))
                .margin(8)
                .x_label_area_size(34)
                .y_label_area_size(44)
                .build_cartesian_2d(0.0..x1, 0.0..y1)?;
            let mut mesh = chart.configure_mesh();
            mesh.x_desc(x_desc).y_desc(y_desc).x_labels(x_labels).x_label_formatter(x_tick).y_label_formatter(&tick);
            mesh.label_style((FONT, 10)).axis_desc_style((FONT, 11)).draw()?;
            let mut entries: Vec<Entry> = Vec::new();
            for (i, s) in panel.series.iter().enumerate() {
                let c = PALETTE[i % PALETTE.len()];
                chart.draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))?;
                chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 2, c.filled())))?;
                entries.push((s.label.clone(), c, Mark::Line));
            }
            legend(&side, &entries)?;
        }
        root.present()?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_panel_and_legend() {
        let line = |label: &str, k: f64| Series { label: label.into(), points: vec![(0.0, k), (1.0, 2.0 * k)] };
        let panels = vec![
            LinePanel { label: "H = 1".into(), series: vec![line("W = 1", 1.0), line("W = 2", 2.0)] },
            LinePanel { label: "H = 2".into(), series: vec![line("W = 1", 0.5)] },
        ];
        let svg = line_panels("Title", "x", "y", &panels, 2).unwrap();
        for text in ["Title", "H = 1", "H = 2", "W = 2"] {
            assert!(svg.contains(text), "{text}");
        }
        assert!(svg.contains("rgb(255,127,14)") || svg.contains("#FF7F0E"), "second series in its own colour");
        // The legend is beside the plot area of its panel (it used to cover its lines), and the
        // ticks carry no ".0".
        let panel_width = 20.0 / 2.0 + 320.0 + f64::from(PANEL_LEGEND);
        let x = super::super::plots::text_positions(&svg, "W = 2")[0].0;
        assert!(x > panel_width - f64::from(PANEL_LEGEND) && x < panel_width, "legend at x = {x}");
        assert!(!svg.contains("1.0\n"), "whole ticks");
    }

    /// Counts on the x axis (X cells, 0 to 4) are labelled 0, 1, …, 4, never 0.5 between them.
    #[test]
    fn whole_x_values_get_whole_ticks_only() {
        let points = (0..=4).map(|x| (f64::from(x), 1.5)).collect();
        let panels = vec![LinePanel { label: "H = 2".into(), series: vec![Series { label: "W = 2".into(), points }] }];
        let svg = line_panels("Title", "x", "y", &panels, 1).unwrap();
        let labels: Vec<String> = super::super::plots::texts(&svg).into_iter().map(|t| t.0).collect();
        assert!(!labels.iter().any(|t| t == "0.5" || t == "3.5"), "{labels:?}");
        assert!(["0", "1", "2", "3", "4"].iter().all(|x| labels.iter().any(|t| t == x)), "{labels:?}");
    }
}
