//! SVG plots of the report (plotters, SVG backend; text is SVG `<text>`, so no font files).

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A plotting failure, as text.
pub type PlotResult<T> = std::result::Result<T, Box<dyn std::error::Error>>;

pub(crate) const FONT: &str = "sans-serif";
/// Width of one legend column beside a chart, and of the legend at least.
const LEGEND_COLUMN: u32 = 80;
const LEGEND_WIDTH: u32 = 130;
/// Vertical distance of legend entries, and the first entry's.
const LEGEND_STEP: i32 = 18;
const LEGEND_TOP: i32 = 40;

/// Entries per legend column in a chart `height` pixels high.
fn legend_rows(height: u32) -> usize {
    ((height as i32 - LEGEND_TOP - 10) / LEGEND_STEP).max(1) as usize
}

/// Width of a legend of `entries` entries in a chart `height` pixels high: enough columns that
/// every entry stays on the canvas.
fn legend_width(entries: usize, height: u32) -> u32 {
    let columns = entries.div_ceil(legend_rows(height)).max(1) as u32;
    (columns * LEGEND_COLUMN).max(LEGEND_WIDTH)
}
/// A colour key lists every value below this (the committed 20×20 map: 0 to 18), else five
/// evenly spaced ones.
const MAX_KEY: u32 = 32;
/// Blocks per side of a [`block_heat_map`] at most (the block grows with the table).
pub const MAX_BLOCKS: usize = 50;

/// The values a colour key of values 0..=`max` shows: all of them when they are few, else five
/// evenly spaced (so that a huge value makes a short key, not billions of entries).
fn key_values(max: u32) -> Vec<u32> {
    if max < MAX_KEY {
        return (0..=max).collect();
    }
    five_values(max)
}

/// 0, max/4, max/2, 3max/4 and max.
fn five_values(max: u32) -> Vec<u32> {
    (0..=4u64).map(|k| (u64::from(max) * k / 4) as u32).collect()
}
/// Series longer than this are drawn without a dot per point.
const MAX_DOTS: usize = 200;

/// One named line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// The colour of series `i` of `n` (hues evenly spaced from red to purple).
fn colour(i: usize, n: usize) -> RGBColor {
    let rgba = HSLColor(0.85 * i as f64 / n.max(1) as f64, 0.75, 0.42).to_rgba();
    RGBColor(rgba.0, rgba.1, rgba.2)
}

/// Draws one sample line and label per entry, top to bottom and in as many columns as the
/// height of `area` needs.
fn legend<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, entries: &[(String, RGBColor)]) -> PlotResult<()>
where
    DB::ErrorType: 'static,
{
    let rows = legend_rows(area.dim_in_pixel().1);
    for (i, (label, colour)) in entries.iter().enumerate() {
        let (x, y) = (8 + LEGEND_COLUMN as i32 * (i / rows) as i32, LEGEND_TOP + LEGEND_STEP * (i % rows) as i32);
        area.draw(&PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3)))?;
        let style = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(label.clone(), (x + 26, y), style))?;
    }
    Ok(())
}

/// A line chart with a point at every value; a legend beside it when there is more than one
/// series. Axes span the data.
pub fn line_chart(title: &str, x_desc: &str, y_desc: &str, series: &[Series]) -> PlotResult<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 600)).into_drawing_area();
        root.fill(&WHITE)?;
        let legend_width = legend_width(series.len(), 600);
        let (plot, side) = if series.len() > 1 { root.split_horizontally(960 - legend_width) } else { (root.clone(), root.clone()) };
        let all = series.iter().flat_map(|s| s.points.iter());
        let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0.0f64);
        for &(x, y) in all {
            (x0, x1, y1) = (x0.min(x), x1.max(x), y1.max(y));
        }
        if x0 > x1 {
            (x0, x1) = (0.0, 1.0);
        }
        let pad = ((x1 - x0) * 0.03).max(0.5);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, (FONT, 22))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(x0 - pad..x1 + pad, 0.0..(y1 * 1.08).max(1e-9))?;
        chart.configure_mesh().x_desc(x_desc).y_desc(y_desc).label_style((FONT, 13)).draw()?;
        let mut entries = Vec::new();
        for (i, s) in series.iter().enumerate() {
            let c = colour(i, series.len());
            chart.draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))?;
            // Long series are drawn as lines only, so that the file stays small.
            let dots = if s.points.len() <= MAX_DOTS { &s.points[..] } else { &[] };
            chart.draw_series(dots.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
            entries.push((s.label.clone(), c));
        }
        if series.len() > 1 {
            legend(&side, &entries)?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// One panel of [`histograms`]: a size's label and the share of its patterns per Grundy value.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub label: String,
    pub shares: Vec<(u32, f64)>,
}

/// Small multiples: one bar chart per panel on a `grid` (rows, cols), with a common y scale.
pub fn histograms(title: &str, grid: (usize, usize), panels: &[Panel]) -> PlotResult<String> {
    let max_g = panels.iter().flat_map(|p| p.shares.iter().map(|s| s.0)).max().unwrap_or(0);
    let max_share = panels.iter().flat_map(|p| p.shares.iter().map(|s| s.1)).fold(0.0, f64::max);
    let (width, height) = (40 + 240 * grid.1 as u32, 60 + 200 * grid.0 as u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let body = root.titled(title, (FONT, 24))?;
        for (area, panel) in body.split_evenly(grid).iter().zip(panels) {
            let mut chart = ChartBuilder::on(area)
                .caption(&panel.label, (FONT, 14))
                .margin(6)
                .x_label_area_size(32)
                .y_label_area_size(44)
                .build_cartesian_2d((0..max_g).into_segmented(), 0.0..(max_share * 1.05).max(1e-9))?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_desc("Grundy value")
                .y_desc("share of patterns")
                .label_style((FONT, 10))
                .axis_desc_style((FONT, 11))
                .draw()?;
            chart.draw_series(panel.shares.iter().map(|&(g, share)| {
                Rectangle::new([(SegmentValue::Exact(g), 0.0), (SegmentValue::Exact(g + 1), share)], BLUE.mix(0.7).filled())
            }))?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// A heat map of `values[r][c]` (row r + 1, column c + 1) with each value written in its cell
/// and a key of the colours beside it.
pub fn heat_map(title: &str, x_desc: &str, y_desc: &str, values: &[Vec<u32>]) -> PlotResult<String> {
    let rows = values.len() as u32;
    let cols = values.iter().map(Vec::len).max().unwrap_or(0) as u32;
    let max = values.iter().flatten().copied().max().unwrap_or(0);
    let shade = |v: u32| {
        // Light yellow → teal → dark blue.
        const STOPS: [(f64, f64, f64); 3] = [(255.0, 247.0, 188.0), (65.0, 182.0, 196.0), (37.0, 52.0, 148.0)];
        let t = if max == 0 { 0.0 } else { 2.0 * f64::from(v) / f64::from(max) };
        let (a, b, t) = if t <= 1.0 { (STOPS[0], STOPS[1], t) } else { (STOPS[1], STOPS[2], t - 1.0) };
        let mix = |x: f64, y: f64| (x + (y - x) * t).round() as u8;
        RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    };
    let ink = |v: u32| -> &'static RGBColor { if max > 0 && 2 * u64::from(v) > u64::from(max) { &WHITE } else { &BLACK } };
    with_legend_column(|plot, side| {
        let mut chart = map_chart(plot, title).build_cartesian_2d((1..cols).into_segmented(), (1..rows).into_segmented())?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_labels(cols as usize)
            .y_labels(rows as usize)
            .label_style((FONT, 12))
            .draw()?;
        let cells = values.iter().enumerate().flat_map(|(r, row)| row.iter().enumerate().map(move |(c, &v)| (r as u32 + 1, c as u32 + 1, v)));
        let cells: Vec<_> = cells.collect();
        chart.draw_series(cells.iter().map(|&(r, c, v)| {
            Rectangle::new([(SegmentValue::Exact(c), SegmentValue::Exact(r)), (SegmentValue::Exact(c + 1), SegmentValue::Exact(r + 1))], shade(v).filled())
        }))?;
        chart.draw_series(cells.iter().map(|&(r, c, v)| {
            let style = TextStyle::from((FONT, 11).into_font()).color(ink(v)).pos(Pos::new(HPos::Center, VPos::Center));
            Text::new(v.to_string(), (SegmentValue::CenterOf(c), SegmentValue::CenterOf(r)), style)
        }))?;
        let key: Vec<(String, RGBColor)> = key_values(max).into_iter().map(|v| (format!("Grundy {v}"), shade(v))).collect();
        legend(side, &key)
    })
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// A 900×760 SVG: `draw` fills the plot area and the legend column beside it.
fn with_legend_column(draw: impl FnOnce(&Area, &Area) -> PlotResult<()>) -> PlotResult<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 760)).into_drawing_area();
        root.fill(&WHITE)?;
        let (plot, side) = root.split_horizontally(900 - LEGEND_WIDTH);
        draw(&plot, &side)?;
        root.present()?;
    }
    Ok(svg)
}

/// The chart of a map: caption and label areas.
fn map_chart<'a, 'b>(plot: &'a Area<'b>, title: &'a str) -> ChartBuilder<'a, 'a, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(plot);
    builder.caption(title, (FONT, 22)).margin(12).x_label_area_size(45).y_label_area_size(50);
    builder
}

/// A heat map of the `cells` (row, column, value; 1-based) of a table drawn as blocks of
/// cells, each coloured by its largest value (a table too large for one rectangle per cell;
/// blocks grow with the table so that at most [`MAX_BLOCKS`] are drawn across and down, and
/// cells missing from a block count as 0), with the cells in `marks` circled in red and a key of
/// a few colours beside it.
pub fn block_heat_map(title: &str, x_desc: &str, y_desc: &str, cells: &[(usize, usize, u32)], marks: &[(usize, usize)]) -> PlotResult<String> {
    let cells: Vec<(usize, usize, u32)> = cells.iter().copied().filter(|&(r, c, _)| r >= 1 && c >= 1).collect();
    let (rows, cols) = (cells.iter().map(|c| c.0).max().unwrap_or(0), cells.iter().map(|c| c.1).max().unwrap_or(0));
    let block = rows.max(cols).div_ceil(MAX_BLOCKS).max(1);
    let (down, across) = (rows.div_ceil(block), cols.div_ceil(block));
    let mut tops = vec![0u32; down * across];
    for &(r, c, v) in &cells {
        let top = &mut tops[(r - 1) / block * across + (c - 1) / block];
        *top = (*top).max(v);
    }
    let max = tops.iter().copied().max().unwrap_or(0).max(1);
    let shade = |v: u32| {
        let t = f64::from(v) / f64::from(max);
        let mix = |x: f64, y: f64| (x + (y - x) * t).round() as u8;
        RGBColor(mix(255.0, 37.0), mix(247.0, 52.0), mix(188.0, 148.0))
    };
    with_legend_column(|plot, side| {
        let mut chart = map_chart(plot, title).build_cartesian_2d(0.5..cols as f64 + 0.5, rows as f64 + 0.5..0.5)?;
        chart.configure_mesh().disable_mesh().x_desc(x_desc).y_desc(y_desc).label_style((FONT, 12)).draw()?;
        let corner = |r: usize, c: usize| (c.min(cols) as f64 + 0.5, r.min(rows) as f64 + 0.5);
        let blocks = tops.iter().enumerate().map(|(at, &top)| {
            let (r0, c0) = (at / across * block, at % across * block);
            Rectangle::new([corner(r0, c0), corner(r0 + block, c0 + block)], shade(top).filled())
        });
        chart.draw_series(blocks)?;
        chart.draw_series(marks.iter().map(|&(r, c)| Circle::new((c as f64, r as f64), 4, RED.stroke_width(2))))?;
        let mut key: Vec<(String, RGBColor)> = five_values(max).into_iter().map(|v| (format!("Grundy {v}"), shade(v))).collect();
        key.push(("value 0".into(), RED));
        legend(side, &key)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_carry_their_titles_and_legends() {
        let series = |label: &str| Series { label: label.into(), points: vec![(1.0, 0.5), (2.0, 0.25)] };
        let one = line_chart("One line", "x axis", "y axis", &[series("a")]).unwrap();
        assert!(one.starts_with("<svg") && one.contains("One line") && one.contains("x axis"));
        assert!(!one.contains(">a</text>"));
        let two = line_chart("Two lines", "x", "y", &[series("first"), series("second")]).unwrap();
        assert!(two.contains("first") && two.contains("second"));
        let panels = [Panel { label: "2x2".into(), shares: vec![(0, 0.25), (2, 0.75)] }];
        assert!(histograms("Bars", (1, 1), &panels).unwrap().contains("Bars"));
        let heat = heat_map("Heat", "cols", "rows", &[vec![1, 1], vec![1, 0]]).unwrap();
        assert!(heat.contains("Heat") && heat.contains("Grundy 1"));
        let big: Vec<(usize, usize, u32)> = (1..=100).flat_map(|r| (1..=100).map(move |c| (r, c, ((r * c) % 97) as u32))).collect();
        let blocks = block_heat_map("Blocks", "cols", "rows", &big, &[(2, 2)]).unwrap();
        assert!(blocks.contains("Blocks") && blocks.contains("value 0") && blocks.len() < 300_000, "{} bytes", blocks.len());
    }

    /// A huge value or a far cell keeps the key short and the SVG small (they used to ask for a
    /// key entry per value, 128 GB, and a cell grid of 20000×20000).
    #[test]
    fn huge_values_and_sides_draw_small_maps() {
        let heat = heat_map("Heat", "cols", "rows", &[vec![1, 4_000_000_000], vec![0, 1]]).unwrap();
        assert_eq!(heat.matches("Grundy ").count(), 5, "a five-entry key");
        assert!(heat.contains("Grundy 4000000000") && heat.len() < 100_000, "{} bytes", heat.len());
        let far = block_heat_map("Far", "cols", "rows", &[(1, 1, 1), (20_000, 20_000, u32::MAX)], &[]).unwrap();
        assert_eq!(far.matches("Grundy ").count(), 5);
        assert!(far.len() < 1_000_000, "{} bytes", far.len());
        assert_eq!(key_values(3), [0, 1, 2, 3]);
        assert_eq!(key_values(u32::MAX), [0, u32::MAX / 4, u32::MAX / 2, (u64::from(u32::MAX) * 3 / 4) as u32, u32::MAX]);
    }

    /// The (x, y) of every `<text>` whose content is `label`.
    fn text_positions(svg: &str, label: &str) -> Vec<(f64, f64)> {
        svg.match_indices("<text")
            .filter_map(|(at, _)| {
                let rest = &svg[at..];
                let (tag, after) = rest.split_at(rest.find('>')?);
                let content = after[1..after.find("</text>")?].trim();
                let attr = |name: &str| -> f64 {
                    let start = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                    tag[start..start + tag[start..].find('"').unwrap()].parse().unwrap()
                };
                (content == label).then(|| (attr("x"), attr("y")))
            })
            .collect()
    }

    #[test]
    fn a_long_legend_stays_on_the_canvas() {
        let series: Vec<Series> = (1..=36)
            .map(|i| Series { label: format!("{}x{}", (i - 1) / 6 + 1, (i - 1) % 6 + 1), points: vec![(1.0, i as f64)] })
            .collect();
        let svg = line_chart("Many lines", "x", "y", &series).unwrap();
        for s in &series {
            let at = text_positions(&svg, &s.label);
            assert_eq!(at.len(), 1, "{}", s.label);
            let (x, y) = at[0];
            assert!((0.0..950.0).contains(&x) && (20.0..590.0).contains(&y), "{} at ({x}, {y})", s.label);
        }
    }
}
