// The board view: a grid of cells; each free cell shows the value its move leaves (winning
// moves green). Hovering a move shows the walls it builds and the rectangles it leaves.
'use strict';

const GAP = 2;

// The side of a cell in pixels: the board fits the stage and the window's height.
function cellSize(stage, rows, cols) {
  const width = Math.max(stage.clientWidth - 8, 240);
  const height = Math.max(window.innerHeight - 260, 240);
  return Math.max(22, Math.min(96, Math.floor(Math.min(width / cols, height / rows)) - GAP));
}

// A rectangle {top, left, rows, cols} drawn over the board with a label.
function overlay(size, rect, kind, label) {
  const step = size + GAP;
  const style = `left:${rect.left * step}px;top:${rect.top * step}px;width:${rect.cols * step - GAP}px;height:${rect.rows * step - GAP}px`;
  return el('div', { class: `overlay ${kind}`, style }, el('span', { class: 'tag' }, label));
}

// Draws `analysis` (View board) into `stage`. options: onCell(row, col, move|null),
// onHover(move|null), last: [row, col] of the move that led here (or null).
function drawBoard(stage, analysis, options) {
  const { rows, cols, cells, regions } = analysis.drawing;
  const size = cellSize(stage, rows, cols);
  const style = `grid-template-columns:repeat(${cols},${size}px);grid-auto-rows:${size}px;font-size:${Math.max(11, Math.round(size * 0.42))}px`;
  const board = el('div', { class: 'board', style });
  const byCell = new Map(analysis.moves.filter((m) => m.detail && m.detail.cell).map((m) => [m.detail.cell.join(','), m]));
  const grid = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = drawCell(cells[r][c], byCell.get(`${r},${c}`), r, c, options);
      if (options.last && options.last[0] === r && options.last[1] === c) cell.classList.add('last');
      grid.push(cell);
      board.append(cell);
    }
  }
  const whole = regions.length === 1 && regions[0].rows === rows && regions[0].cols === cols;
  if (!whole) regions.forEach((region) => board.append(overlay(size, region, 'region', `${region.value}`)));
  board.addEventListener('mouseover', (event) => {
    const target = event.target.closest('.cell');
    const move = target && byCell.get(target.dataset.cell);
    preview(board, grid, cols, size, move || null);
    options.onHover(move || null);
  });
  board.addEventListener('mouseleave', () => {
    preview(board, grid, cols, size, null);
    options.onHover(null);
  });
  stage.replaceChildren(board);
}

function drawCell(kind, move, r, c, options) {
  const classes = ['cell', kind === '#' ? 'wall' : kind === 'X' ? 'marked' : '', move && move.winning ? 'win' : ''];
  const text = kind === 'X' ? '✕' : move ? valueText(move.value) : '';
  const title = move ? `move ${move.name}: leaves value ${valueText(move.value)}` : kind === 'X' ? 'marked X (no move here)' : 'wall';
  return el('div', { class: classes.join(' ').trim(), 'data-cell': `${r},${c}`, title, onclick: () => options.onCell(r, c, move || null) }, text);
}

// Marks the walls `move` builds and outlines the rectangles it leaves (none: clears).
function preview(board, grid, cols, size, move) {
  board.querySelectorAll('.overlay.part').forEach((node) => node.remove());
  grid.forEach((cell) => cell.classList.remove('built', 'picked'));
  if (!move || !move.detail.walls) return;
  move.detail.walls.forEach(([r, c]) => grid[r * cols + c].classList.add('built'));
  const [r, c] = move.detail.cell;
  grid[r * cols + c].classList.add('picked');
  (move.detail.parts || []).forEach((part) => board.append(overlay(size, part, 'part', `g = ${part.value}`)));
}

// The position text of a board drawing with cell (r, c) toggled between '.' and 'X' (walls
// stay), or resized to rows × cols (new cells free).
function editedBoard(drawing, toggle, rows = drawing.rows, cols = drawing.cols) {
  const lines = [];
  for (let r = 0; r < rows; r++) {
    let line = '';
    for (let c = 0; c < cols; c++) {
      let cell = r < drawing.rows && c < drawing.cols ? drawing.cells[r][c] : '.';
      if (toggle && toggle[0] === r && toggle[1] === c && cell !== '#') cell = cell === 'X' ? '.' : 'X';
      line += cell;
    }
    lines.push(line);
  }
  return `${rows} ${cols}\n${lines.join('\n')}\n`;
}
