// The other views: heaps as rows of tokens, a graph drawn in layers with its tokens, text;
// the list of moves every view but the board shows, and a move's detail in words.
'use strict';

const MAX_TOKENS = 40;

function drawHeaps(stage, analysis) {
  const heaps = analysis.drawing.heaps || [];
  const rows = heaps.map((n, i) => {
    const tokens = Array.from({ length: Math.min(n, MAX_TOKENS) }, () => el('span', { class: 'token' }));
    const more = n > MAX_TOKENS ? el('span', { class: 'hint' }, `+${n - MAX_TOKENS}`) : null;
    return el('div', { class: 'heap' }, el('span', { class: 'name' }, `heap ${i + 1}`), tokens, more, el('span', { class: 'count' }, n));
  });
  stage.replaceChildren(el('div', { class: 'heaps' }, rows.length ? rows : el('p', { class: 'hint' }, 'no heaps')));
}

function drawText(stage, analysis) {
  stage.replaceChildren(el('pre', { class: 'text' }, analysis.drawing.text ?? analysis.position));
}

// Layers by longest path from the sources (cycles, if any, fall back to input order).
function layers(nodes, edges) {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const layer = nodes.map(() => 0);
  for (let round = 0; round < nodes.length; round++) {
    let changed = false;
    for (const [from, to] of edges) {
      const [a, b] = [index.get(from), index.get(to)];
      if (a !== undefined && b !== undefined && layer[b] < layer[a] + 1) { layer[b] = layer[a] + 1; changed = true; }
    }
    if (!changed) break;
  }
  return layer.map((l) => Math.min(l, nodes.length));
}

function drawGraph(stage, analysis) {
  const { nodes = [], edges = [], tokens = [] } = analysis.drawing;
  const layer = layers(nodes, edges);
  const byLayer = [];
  nodes.forEach((node, i) => (byLayer[layer[i]] = byLayer[layer[i]] || []).push(i));
  const [dx, dy, r] = [110, 100, 30];
  const widest = Math.max(1, ...byLayer.map((l) => (l ? l.length : 0)));
  const place = [];
  byLayer.forEach((ids, depth) => ids && ids.forEach((i, k) => (place[i] = [60 + (k + (widest - ids.length) / 2) * dx, 50 + depth * dy])));
  const svg = el('svg:svg', { class: 'graph', width: widest * dx + 40, height: byLayer.length * dy + 20 });
  svg.append(el('svg:defs', {}, el('svg:marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto' }, el('svg:path', { d: 'M0,0 L10,5 L0,10 z', fill: '#5b6270' }))));
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  for (const [from, to] of edges) {
    const [a, b] = [place[index.get(from)], place[index.get(to)]];
    if (!a || !b) continue;
    const [len, ux, uy] = [Math.hypot(b[0] - a[0], b[1] - a[1]) || 1, b[0] - a[0], b[1] - a[1]];
    svg.append(el('svg:line', { x1: a[0] + (ux / len) * r, y1: a[1] + (uy / len) * r, x2: b[0] - (ux / len) * r, y2: b[1] - (uy / len) * r, stroke: '#5b6270', 'stroke-width': 2, 'marker-end': 'url(#arrow)' }));
  }
  const count = new Map();
  tokens.forEach((t) => count.set(t, (count.get(t) || 0) + 1));
  nodes.forEach((node, i) => {
    const [x, y] = place[i];
    const held = count.get(node.id) || 0;
    svg.append(el('svg:circle', { cx: x, cy: y, r, fill: held ? '#1f5fbf' : '#ffffff', stroke: '#16181d', 'stroke-width': 2 }));
    svg.append(el('svg:text', { x, y: y + 7, 'text-anchor': 'middle', 'font-size': 20, 'font-weight': 700, fill: held ? '#ffffff' : '#16181d' }, held > 1 ? `${node.label} ×${held}` : node.label));
  });
  stage.replaceChildren(svg);
}

// Every move as a button (`name → value`), winning moves green.
function drawMoveList(container, analysis, onPlay, onHover) {
  const buttons = analysis.moves.map((move) => {
    const label = move.value === null ? move.name : `${move.name} → ${valueText(move.value)}`;
    const button = el('button', { class: `move${move.winning ? ' win' : ''}`, title: leavesText(move), onclick: () => onPlay(move) }, label);
    button.addEventListener('mouseenter', () => onHover(move));
    button.addEventListener('mouseleave', () => onHover(null));
    return button;
  });
  const title = el('h2', {}, analysis.moves.length ? `Moves (${analysis.moves.length})` : 'No moves left');
  container.replaceChildren(title, el('div', { class: 'move-list' }, buttons));
}

// The hover panel: what a move does (the wall's walls and parts; any other fields as text).
function describeMove(move) {
  if (!move) return [];
  const out = [el('p', {}, el('b', {}, `Move ${move.name}`), move.value === null ? ': ' : ' ', el('b', { class: move.winning ? 'v0' : '' }, leavesText(move)), move.winning && move.value !== null ? ' — winning' : '')];
  const { walls, cell, ...rest } = move.detail || {};
  // The wall's parts are rectangles with values; other games' parts are shown as they are.
  const parts = walls ? rest.parts : null;
  if (parts) delete rest.parts;
  if (walls) out.push(el('p', {}, `builds ${walls.length} wall cell${walls.length === 1 ? '' : 's'}`));
  if (parts) {
    const names = parts.map((p) => el('span', {}, `${p.rows}×${p.cols} at (${p.top + 1}, ${p.left + 1}): g = ${p.value}`));
    out.push(el('div', { class: 'parts' }, parts.length ? `splits its region into ${parts.length}: ` : 'leaves its region empty', names));
  }
  for (const [key, value] of Object.entries(rest)) out.push(el('p', {}, `${key}: ${JSON.stringify(value)}`));
  return out;
}
