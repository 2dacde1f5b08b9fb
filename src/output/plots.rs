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

/// Width of a canvas at least `width` pixels wide on which `title`, set in [`FONT`] at `size`
/// pixels, fits with a margin each side (sans-serif text averages under 0.6 em a character;
/// a narrow canvas, one small panel, used to clip its title).
pub(crate) fn fitting_title(width: u32, title: &str, size: u32) -> u32 {
    let text = (title.chars().count() as f64 * f64::from(size) * 0.6).ceil() as u32;
    width.max(text + 40)
}

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
/// A map writes each value in its cell when it has at most this many cells a side.
const MAX_WRITTEN: usize = 30;
/// Width in pixels of a map's plot area, roughly (what sizes the rings of marked cells).
const MAP_PIXELS: f64 = 690.0;

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

/// A tick label with no more decimals than the value needs: "15000", "0.25", "-3".
pub(crate) fn tick(v: &f64) -> String {
    // Adding 0.0 turns -0 into 0.
    format!("{}", (v * 1e6).round() / 1e6 + 0.0)
}

/// The tick label of a whole number (a row or column), none between them.
pub(crate) fn whole_tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        tick(&v.round())
    } else {
        String::new()
    }
}

/// How a legend entry shows its colour: a line (a series), a filled square (a colour of a
/// map's scale) or a ring (the marked cells of a map).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mark {
    Line,
    Swatch,
    Ring,
}

/// One legend entry: its label, colour and mark.
pub(crate) type Entry = (String, RGBColor, Mark);

/// Draws `mark` in `colour` at the left of a legend entry centred on (`x`, `y`).
fn draw_mark<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, (x, y): (i32, i32), colour: RGBColor, mark: Mark) -> PlotResult<()>
where
    DB::ErrorType: 'static,
{
    match mark {
        Mark::Line => area.draw(&PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3)))?,
        Mark::Swatch => {
            area.draw(&Rectangle::new([(x, y - 6), (x + 20, y + 6)], colour.filled()))?;
            area.draw(&Rectangle::new([(x, y - 6), (x + 20, y + 6)], BLACK.mix(0.4).stroke_width(1)))?;
        }
        Mark::Ring => area.draw(&Circle::new((x + 10, y), 6, colour.stroke_width(2)))?,
    }
    Ok(())
}

/// Draws one mark and label per entry, top to bottom and in as many columns as the height of
/// `area` needs.
pub(crate) fn legend<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, entries: &[Entry]) -> PlotResult<()>
where
    DB::ErrorType: 'static,
{
    let rows = legend_rows(area.dim_in_pixel().1);
    for (i, (label, colour, mark)) in entries.iter().enumerate() {
        let (x, y) = (8 + LEGEND_COLUMN as i32 * (i / rows) as i32, LEGEND_TOP + LEGEND_STEP * (i % rows) as i32);
        draw_mark(area, (x, y), *colour, *mark)?;
        let style = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(label.clone(), (x + 26, y), style))?;
    }
    Ok(())
}

/// The series, each line drawn by an earlier one (e.g. a size and its transpose) folded into
/// that one, whose label then names both: "5x7 = 7x5".
fn merge_identical(series: &[Series]) -> Vec<Series> {
    let mut merged: Vec<Series> = Vec::new();
    for s in series {
        match merged.iter_mut().find(|m| m.points == s.points) {
            Some(m) => m.label = format!("{} = {}", m.label, s.label),
            None => merged.push(s.clone()),
        }
    }
    merged
}

/// The x range and the top of the y range of `series` (x padded, y from 0 with room above).
fn extent(series: &[Series]) -> (std::ops::Range<f64>, f64) {
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0.0f64);
    for &(x, y) in series.iter().flat_map(|s| s.points.iter()) {
        (x0, x1, y1) = (x0.min(x), x1.max(x), y1.max(y));
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    let pad = ((x1 - x0) * 0.03).max(0.5);
    (x0 - pad..x1 + pad, (y1 * 1.08).max(1e-9))
}

/// A line chart with a point at every value; a legend beside it when there is more than one
/// series (lines that coincide are drawn once, under both labels). Axes span the data.
pub fn line_chart(title: &str, x_desc: &str, y_desc: &str, series: &[Series]) -> PlotResult<String> {
    let with_legend = series.len() > 1;
    let series = merge_identical(series);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 600)).into_drawing_area();
        root.fill(&WHITE)?;
        let legend_width = legend_width(series.len(), 600);
        let (plot, side) = if with_legend { root.split_horizontally(960 - legend_width) } else { (root.clone(), root.clone()) };
        let (x_range, y1) = extent(&series);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, (FONT, 22))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(75)
            .build_cartesian_2d(x_range, 0.0..y1)?;
        chart.configure_mesh().x_desc(x_desc).y_desc(y_desc).x_label_formatter(&tick).y_label_formatter(&tick).label_style((FONT, 13)).draw()?;
        let mut entries = Vec::new();
        for (i, s) in series.iter().enumerate() {
            let c = colour(i, series.len());
            chart.draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))?;
            // Long series are drawn as lines only, so that the file stays small.
            let dots = if s.points.len() <= MAX_DOTS { &s.points[..] } else { &[] };
            chart.draw_series(dots.iter().map(|&p| Circle::new(p, 3, c.filled())))?;
            entries.push((s.label.clone(), c, Mark::Line));
        }
        if with_legend {
            legend(&side, &entries)?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// One panel of [`histograms`]: a size's label and the share of its patterns per value.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub label: String,
    pub shares: Vec<(u32, f64)>,
}

/// Small multiples: one bar chart per panel on a `grid` (rows, cols), with a common y scale;
/// the value (`x_desc`) across, the share (`y_desc`) up.
pub fn histograms(title: &str, x_desc: &str, y_desc: &str, grid: (usize, usize), panels: &[Panel]) -> PlotResult<String> {
    let max_g = panels.iter().flat_map(|p| p.shares.iter().map(|s| s.0)).max().unwrap_or(0);
    let max_share = panels.iter().flat_map(|p| p.shares.iter().map(|s| s.1)).fold(0.0, f64::max);
    let (width, height) = (fitting_title(40 + 240 * grid.1 as u32, title, 24), 60 + 200 * grid.0 as u32);
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
                .build_cartesian_2d((0..max_g.max(1)).into_segmented(), 0.0..(max_share * 1.05).max(1e-9))?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_desc(x_desc)
                .y_desc(y_desc)
                .y_label_formatter(&tick)
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

/// A heat map of `values[r][c]` (row r + 1, column c + 1): [`block_heat_map`] of its cells with
/// every 0 circled.
pub fn heat_map(title: &str, x_desc: &str, y_desc: &str, values: &[Vec<u32>]) -> PlotResult<String> {
    let cells: Vec<(usize, usize, u32)> = values.iter().enumerate().flat_map(|(r, row)| row.iter().enumerate().map(move |(c, &v)| (r + 1, c + 1, v))).collect();
    let zeros: Vec<(usize, usize)> = cells.iter().filter(|cell| cell.2 == 0).map(|&(r, c, _)| (r, c)).collect();
    block_heat_map(title, x_desc, y_desc, &cells, &zeros)
}

/// The colour of value `v` on a scale up to `max`: white for 0, then yellow → green → blue →
/// dark blue, on a square-root scale so that the small values stay apart.
fn shade(v: u32, max: u32) -> RGBColor {
    const STOPS: [(f64, f64, f64); 4] = [(250.0, 225.0, 110.0), (120.0, 198.0, 121.0), (34.0, 145.0, 190.0), (37.0, 52.0, 148.0)];
    if v == 0 {
        return WHITE;
    }
    let t = (f64::from(v) / f64::from(max.max(v))).sqrt() * (STOPS.len() - 1) as f64;
    let at = (t.floor() as usize).min(STOPS.len() - 2);
    let (a, b, t) = (STOPS[at], STOPS[at + 1], t - at as f64);
    let mix = |x: f64, y: f64| (x + (y - x) * t).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Text colour that reads on `background`: white on dark colours, else black.
fn ink(background: RGBColor) -> &'static RGBColor {
    let luminance = 0.299 * f64::from(background.0) + 0.587 * f64::from(background.1) + 0.114 * f64::from(background.2);
    if luminance < 140.0 {
        &WHITE
    } else {
        &BLACK
    }
}

/// The key of a map of values up to `max`: a swatch per value of [`key_values`], and the ring
/// of the marked cells when there are any.
fn map_key(max: u32, marked: bool) -> Vec<Entry> {
    let mut key: Vec<Entry> = key_values(max).into_iter().map(|v| (format!("Grundy {v}"), shade(v, max), Mark::Swatch)).collect();
    if marked {
        key.push(("value 0 (circled)".into(), RED, Mark::Ring));
    }
    key
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type MapChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>;

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

/// The chart of a map of `rows` × `cols` cells: caption, whole-number axes, row 1 at the top
/// (like the board and report.md's table).
fn map_chart<'a, 'b>(plot: &'a Area<'b>, title: &str, (x_desc, y_desc): (&str, &str), (rows, cols): (usize, usize)) -> PlotResult<MapChart<'a, 'b>> {
    let mut chart = ChartBuilder::on(plot)
        .caption(title, (FONT, 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(50)
        .build_cartesian_2d(0.5..cols as f64 + 0.5, rows as f64 + 0.5..0.5)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(cols.clamp(1, 20))
        .y_labels(rows.clamp(1, 20))
        .x_label_formatter(&whole_tick)
        .y_label_formatter(&whole_tick)
        .label_style((FONT, 12))
        .draw()?;
    Ok(chart)
}

/// A table's cells (row, column, value; 1-based) gathered into square blocks of `block` cells a
/// side, each holding its largest value (cells missing from a block count as 0).
struct Blocks {
    rows: usize,
    cols: usize,
    block: usize,
    across: usize,
    tops: Vec<u32>,
}

impl Blocks {
    /// Blocks that grow with the table so that at most [`MAX_BLOCKS`] go across and down.
    fn of(cells: &[(usize, usize, u32)]) -> Blocks {
        let (rows, cols) = (cells.iter().map(|c| c.0).max().unwrap_or(0), cells.iter().map(|c| c.1).max().unwrap_or(0));
        let block = rows.max(cols).div_ceil(MAX_BLOCKS).max(1);
        let (down, across) = (rows.div_ceil(block), cols.div_ceil(block));
        let mut tops = vec![0u32; down * across];
        for &(r, c, v) in cells {
            let top = &mut tops[(r - 1) / block * across + (c - 1) / block];
            *top = (*top).max(v);
        }
        Blocks { rows, cols, block, across, tops }
    }

    /// The largest value (at least 1, the top of the colour scale).
    fn max(&self) -> u32 {
        self.tops.iter().copied().max().unwrap_or(0).max(1)
    }

    /// A filled rectangle per block.
    fn rectangles(&self) -> impl Iterator<Item = Rectangle<(f64, f64)>> + '_ {
        let (max, block, across) = (self.max(), self.block, self.across);
        let corner = move |r: usize, c: usize| (c.min(self.cols) as f64 + 0.5, r.min(self.rows) as f64 + 0.5);
        self.tops.iter().enumerate().map(move |(at, &top)| {
            let (r0, c0) = (at / across * block, at % across * block);
            Rectangle::new([corner(r0, c0), corner(r0 + block, c0 + block)], shade(top, max).filled())
        })
    }

    /// Whether each cell is a block of its own, small enough to carry its value.
    fn written(&self) -> bool {
        self.block == 1 && self.rows.max(self.cols) <= MAX_WRITTEN
    }
}

/// The value of each cell, written in its centre.
fn cell_texts(cells: &[(usize, usize, u32)], max: u32) -> impl Iterator<Item = Text<'static, (f64, f64), String>> + '_ {
    cells.iter().map(move |&(r, c, v)| {
        let style = TextStyle::from((FONT, 11).into_font()).color(ink(shade(v, max))).pos(Pos::new(HPos::Center, VPos::Center));
        Text::new(v.to_string(), (c as f64, r as f64), style)
    })
}

/// The radius of the ring around a marked cell of a map `cols` cells wide: most of the cell,
/// a few pixels at least.
fn ring_radius(cols: usize) -> i32 {
    (MAP_PIXELS * 0.4 / cols.max(1) as f64).clamp(4.0, 16.0) as i32
}

/// A heat map of the `cells` (row, column, value; 1-based) of a table, row 1 at the top: one
/// rectangle per cell, each value written in it, when the table is small; else blocks of cells,
/// each coloured by its largest value (blocks grow with the table so that at most
/// [`MAX_BLOCKS`] are drawn across and down, and cells missing from a block count as 0). The
/// cells in `marks` are circled in red; a key of the colours is beside the map.
pub fn block_heat_map(title: &str, x_desc: &str, y_desc: &str, cells: &[(usize, usize, u32)], marks: &[(usize, usize)]) -> PlotResult<String> {
    let cells: Vec<(usize, usize, u32)> = cells.iter().copied().filter(|&(r, c, _)| r >= 1 && c >= 1).collect();
    let blocks = Blocks::of(&cells);
    let max = blocks.max();
    with_legend_column(|plot, side| {
        let mut chart = map_chart(plot, title, (x_desc, y_desc), (blocks.rows, blocks.cols))?;
        chart.draw_series(blocks.rectangles())?;
        let written = if blocks.written() { &cells[..] } else { &[] };
        chart.draw_series(cell_texts(written, max))?;
        let radius = ring_radius(blocks.cols);
        chart.draw_series(marks.iter().map(|&(r, c)| Circle::new((c as f64, r as f64), radius, RED.stroke_width(2))))?;
        legend(side, &map_key(max, !marks.is_empty()))
    })
}

/// Every `<text>` of an SVG: its content, its x and y, its text-anchor and font size.
#[cfg(test)]
pub(crate) fn texts(svg: &str) -> Vec<(String, f64, f64, String, f64)> {
    svg.match_indices("<text")
        .filter_map(|(at, _)| {
            let rest = &svg[at..];
            let (tag, after) = rest.split_at(rest.find('>')?);
            let content = after[1..after.find("</text>")?].trim().to_string();
            let attr = |name: &str| -> Option<&str> {
                let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
                Some(&tag[start..start + tag[start..].find('"')?])
            };
            let number = |name: &str| attr(name).and_then(|v| v.parse().ok()).unwrap_or(0.0);
            Some((content, number("x"), number("y"), attr("text-anchor").unwrap_or("start").to_string(), number("font-size")))
        })
        .collect()
}

/// The (x, y) of every `<text>` whose content is `label`.
#[cfg(test)]
pub(crate) fn text_positions(svg: &str, label: &str) -> Vec<(f64, f64)> {
    texts(svg).into_iter().filter(|t| t.0 == label).map(|t| (t.1, t.2)).collect()
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
        let bars = histograms("Bars", "claimed nim-sum", "share of positions", (1, 1), &panels).unwrap();
        assert!(bars.contains("Bars") && bars.contains("claimed nim-sum") && !bars.contains("Grundy value"));
        let heat = heat_map("Heat", "cols", "rows", &[vec![1, 1], vec![1, 0]]).unwrap();
        assert!(heat.contains("Heat") && heat.contains("Grundy 1"));
        let big: Vec<(usize, usize, u32)> = (1..=100).flat_map(|r| (1..=100).map(move |c| (r, c, ((r * c) % 97) as u32))).collect();
        let blocks = block_heat_map("Blocks", "cols", "rows", &big, &[(2, 2)]).unwrap();
        assert!(blocks.contains("Blocks") && blocks.contains("value 0") && blocks.len() < 300_000, "{} bytes", blocks.len());
    }

    /// A one-panel chart is as wide as its title (a one-size run's title used to be clipped at
    /// 280 px), and a size whose only value is 0 still shows its bar (an empty range drew none).
    #[test]
    fn one_panel_fits_its_title_and_shows_a_lone_zero() {
        let title = "divisor: claimed value distribution per size (numbers, decade)";
        let panels = [Panel { label: "numbers 1".into(), shares: vec![(0, 1.0)] }];
        let svg = histograms(title, "Grundy value", "share", (1, 1), &panels).unwrap();
        let width = |svg: &str| svg.split("width=\"").nth(1).and_then(|w| w.split('"').next()).and_then(|w| w.parse::<u32>().ok()).unwrap();
        assert!(f64::from(width(&svg)) > title.chars().count() as f64 * 24.0 * 0.5, "{} px", width(&svg));
        let bar = svg.split("<rect").skip(1).find(|r| r.contains("fill=\"#0000FF\"")).expect("a bar");
        assert!(!bar.contains("width=\"0\""), "the bar of value 0 has a width: {bar}");
        let lines = [super::super::panels::LinePanel { label: "H = 1".into(), series: vec![Series { label: "W = 3".into(), points: vec![(0.0, 1.0), (3.0, 0.0)] }] }];
        let long = "Mean Grundy value against the number of X cells, one panel only";
        assert!(f64::from(width(&super::super::panels::line_panels(long, "x", "y", &lines, 1).unwrap())) > long.chars().count() as f64 * 24.0 * 0.5);
        assert_eq!(fitting_title(500, "ab", 24), 500);
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

    fn text_positions(svg: &str, label: &str) -> Vec<(f64, f64)> {
        super::text_positions(svg, label)
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

    #[test]
    fn ticks_carry_no_needless_decimals() {
        let said: Vec<String> = [15000.0, 0.1, 0.30000000000000004, -0.0, 2.5, 4e9].iter().map(tick).collect();
        assert_eq!(said, ["15000", "0.1", "0.3", "0", "2.5", "4000000000"]);
        assert_eq!([whole_tick(&3.0), whole_tick(&2.5)], ["3", ""]);
    }

    /// The y axis title stays clear of the widest tick label (it used to overlap "15000.0").
    #[test]
    fn the_y_title_clears_the_tick_labels() {
        let points: Vec<(f64, f64)> = (0..=760).map(|h| (f64::from(h), f64::from(h) * 37.0)).collect();
        let svg = line_chart("Start", "height h", "width", &[Series { label: "p".into(), points }]).unwrap();
        assert!(!svg.contains("15000.0") && svg.contains("15000"), "ticks without decimals");
        let all = texts(&svg);
        let title = all.iter().find(|t| t.0 == "width").expect("the y title");
        let right_of_title = title.1 + title.4;
        for (label, x, _, _, size) in all.iter().filter(|t| t.3 == "end" && t.0.parse::<f64>().is_ok()) {
            let left = x - 0.62 * size * label.len() as f64;
            assert!(left > right_of_title, "{label} reaches x = {left}, the title x = {right_of_title}");
        }
    }

    #[test]
    fn identical_lines_are_drawn_once_under_both_labels() {
        let line = |label: &str, k: f64| Series { label: label.into(), points: vec![(1.0, k), (2.0, 2.0 * k)] };
        let svg = line_chart("Census", "x", "y", &[line("4x8", 0.1), line("5x7", 0.2), line("7x5", 0.2)]).unwrap();
        assert!(svg.contains("5x7 = 7x5") && svg.contains("4x8"), "joined label");
        assert_eq!(text_positions(&svg, "7x5").len(), 0, "no label of its own");
    }

    /// Row 1 is at the top of both maps, like the board and report.md's table.
    #[test]
    fn maps_put_row_one_at_the_top() {
        let heat = heat_map("Heat", "cols", "rows", &[vec![7, 8], vec![9, 6]]).unwrap();
        let y = |label: &str| text_positions(&heat, label)[0].1;
        assert!(y("7") < y("9") && y("8") < y("6"), "row 1 above row 2");
        let cells: Vec<(usize, usize, u32)> = (1..=100).flat_map(|r| (1..=100).map(move |c| (r, c, 1))).collect();
        let blocks = block_heat_map("Blocks", "cols", "rows", &cells, &[(10, 10), (90, 10)]).unwrap();
        let rings: Vec<&str> = blocks.split("<circle").skip(1).filter(|c| c.contains("stroke=\"#FF0000\"")).collect();
        let cy = |ring: &str| ring.split("cy=\"").nth(1).and_then(|r| r.split('"').next()).and_then(|v| v.parse::<f64>().ok()).unwrap();
        assert!(cy(rings[0]) < cy(rings[1]), "row 10 above row 90");
    }

    /// A small map circles its zeros as the large one does, white on a scale whose small values
    /// differ (0 and 1 used to be nearly the same pale yellow), and writes no ".0" ticks.
    #[test]
    fn small_maps_mark_zeros_and_tell_small_values_apart() {
        let heat = heat_map("Heat", "cols", "rows", &[vec![1, 0, 2], vec![0, 3, 18]]).unwrap();
        assert_eq!(heat.matches("stroke=\"#FF0000\"").count(), 2 + 1, "two rings and the key's");
        assert!(heat.contains("value 0 (circled)") && !heat.contains(".0<") && !heat.contains(".0\n"));
        let distance = |a: RGBColor, b: RGBColor| [a.0.abs_diff(b.0), a.1.abs_diff(b.1), a.2.abs_diff(b.2)].iter().map(|&d| u32::from(d)).sum::<u32>();
        for v in 0..18 {
            assert!(distance(shade(v, 18), shade(v + 1, 18)) >= 12, "{v} and {} look alike", v + 1);
        }
        assert_eq!(shade(0, 18), WHITE);
        assert!(!heat_map("No zero", "c", "r", &[vec![1, 2]]).unwrap().contains("circled"), "no ring in the key without a zero");
    }
}
