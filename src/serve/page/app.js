// The page's controller: the game picker, editing, playing against the engine, the history
// and the share link. Every position shown is the server's analysis of it.
'use strict';

const S = { games: [], info: null, analysis: null, mode: 'edit', history: [], request: 0 };
const $ = (id) => document.getElementById(id);

async function init() {
  try {
    S.games = await api('/api/games');
  } catch (error) {
    return showError(`The server did not list its games: ${error.message}`);
  }
  $('game').replaceChildren(...S.games.map((g) => el('option', { value: g.name }, g.title)));
  $('game').addEventListener('change', () => pickGame($('game').value));
  $('mode-edit').addEventListener('click', () => setMode('edit'));
  $('mode-play').addEventListener('click', () => setMode('play'));
  $('tab-play').addEventListener('click', () => setTab('play'));
  $('tab-results').addEventListener('click', () => setTab('results'));
  $('analyse').addEventListener('click', () => load($('position-text').value, { start: true }));
  $('file').addEventListener('change', loadFile);
  $('rows').addEventListener('change', resize);
  $('cols').addEventListener('change', resize);
  $('clear').addEventListener('click', () => S.analysis && load(editedBoard({ rows: 0, cols: 0, cells: [] }, null, S.analysis.drawing.rows, S.analysis.drawing.cols), { start: true }));
  $('engine-move').addEventListener('click', engineMove);
  $('undo').addEventListener('click', undo);
  $('share').addEventListener('click', share);
  window.addEventListener('hashchange', followHash);
  window.addEventListener('resize', () => S.analysis && render());
  if (S.games.length === 0) return showError('This server shows no games.');
  const shared = sharedState();
  const known = shared && S.games.some((g) => g.name === shared.game);
  pickGame(known ? shared.game : S.games[0].name, known ? shared.position : null);
}

function pickGame(name, position) {
  S.info = S.games.find((g) => g.name === name);
  $('game').value = name;
  const board = S.info.view === 'board';
  $('size-tools').hidden = !board;
  $('text-tools').open = !board;
  $('edit-hint').textContent = board ? 'Click a cell to toggle X. Each free cell shows the value its move leaves.' : S.info.format;
  S.mode = 'edit';
  load(position || S.info.example, { start: true });
}

// The history's entry of an analysed position reached `by` the start, you or the engine: its
// value, and its winner for the games that have no value.
function historyEntry(analysis, by) {
  return { position: analysis.position, value: analysis.value, winner: analysis.winner, by };
}

// Analyses `position` and shows it. how: {start} begins a new history, {move, by} adds a move.
async function load(position, how = {}) {
  const request = ++S.request;
  try {
    const analysis = await analyse(S.info.name, position);
    if (request !== S.request) return null;
    const moveCell = how.move && how.move.detail ? how.move.detail.cell : null;
    if (how.start) S.history = [historyEntry(analysis, 'start')];
    if (how.move) S.history.push({ ...historyEntry(analysis, how.by), name: how.move.name, cell: moveCell });
    S.analysis = analysis;
    showError(null);
    render();
    return analysis;
  } catch (error) {
    if (request === S.request) showError(error.message);
    return null;
  }
}

function render() {
  const a = S.analysis;
  $('value').textContent = valueText(a.value);
  $('value-box').hidden = !S.info.grundy;
  $('winner').className = a.winner === 'First' ? 'first' : 'second';
  $('winner').textContent = a.winner === 'First' ? 'The player to move wins' : 'The player to move loses';
  renderBanner();
  const stage = $('stage');
  const last = S.history.length > 1 ? S.history[S.history.length - 1].cell : null;
  const hover = (move) => $('detail').replaceChildren(...describeMove(move));
  hover(null);
  if (S.info.view === 'board') {
    drawBoard(stage, a, { onCell, onHover: hover, last });
    const winning = a.moves.filter((m) => m.winning).map((m) => m.name);
    $('moves').replaceChildren(el('p', { class: 'hint', id: 'winning' }, a.moves.length === 0 ? 'No moves left.' : winning.length ? `Winning moves (row column): ${winning.join(', ')}` : 'No winning move: every move leaves a non-zero value.'));
    // A size being typed is left alone (an answer arriving meanwhile would undo the typing).
    if (document.activeElement !== $('rows')) $('rows').value = a.drawing.rows;
    if (document.activeElement !== $('cols')) $('cols').value = a.drawing.cols;
  } else {
    ({ heaps: drawHeaps, graph: drawGraph, text: drawText })[S.info.view](stage, a);
    drawMoveList($('moves'), a, (move) => onMove(move), hover);
  }
  $('position-text').value = a.position;
  $('mode-edit').classList.toggle('active', S.mode === 'edit');
  $('mode-play').classList.toggle('active', S.mode === 'play');
  $('edit-tools').hidden = S.mode !== 'edit';
  $('play-tools').hidden = S.mode !== 'play';
  $('undo').disabled = S.history.length < 2;
  renderHistory();
  window.history.replaceState(null, '', shareUrl(S.info.name, a.position));
}

// In play: whose turn it is, or who won once no move is left.
function renderBanner() {
  const banner = $('banner');
  banner.hidden = S.mode !== 'play';
  const lastBy = S.history[S.history.length - 1].by;
  $('winner').hidden = S.mode === 'play' && S.analysis.moves.length === 0;
  if (S.analysis.moves.length > 0) {
    banner.textContent = lastBy === 'you' ? 'Engine to move' : 'Your move';
    return;
  }
  // No move left: the analysis says who wins (the player to move loses under normal play,
  // wins under misère play).
  const toMoveWins = S.analysis.winner === 'First';
  if (lastBy === 'start') banner.textContent = `No moves: the player to move ${toMoveWins ? 'wins' : 'loses'}`;
  else banner.textContent = (lastBy === 'engine') === toMoveWins ? 'You win!' : 'The engine wins';
}

function renderHistory() {
  const items = S.history.map((h, k) => {
    const what = h.by === 'start' ? 'start' : `${h.by === 'you' ? 'you' : 'engine'}: ${h.name}`;
    const item = el('li', { class: k === S.history.length - 1 ? 'current' : '', onclick: () => goBack(k) }, `${what} → `, el('span', { class: h.value === 0 ? 'v0' : '' }, worthText(h.value, h.winner)));
    return item;
  });
  $('history').replaceChildren(...items);
}

function onCell(r, c, move) {
  if (S.mode === 'edit' && S.info.view === 'board') load(editedBoard(S.analysis.drawing, [r, c]), { start: true });
  else if (move) onMove(move);
}

function onMove(move) {
  if (S.mode === 'edit') setMode('play');
  play(move, 'you');
}

async function play(move, by) {
  const analysis = await load(move.position, { move, by });
  if (analysis && by === 'you' && $('engine-replies').checked && analysis.moves.length) setTimeout(engineMove, 400);
}

// The engine plays a winning move when there is one, else the first move.
function engineMove() {
  const moves = S.analysis ? S.analysis.moves : [];
  if (S.mode !== 'play' || moves.length === 0) return;
  play(moves.find((m) => m.winning) || moves[0], 'engine');
}

function setMode(mode) {
  S.mode = mode;
  if (S.analysis) {
    S.history = [historyEntry(S.analysis, 'start')];
    render();
  }
}

// Takes back the last move of yours (and the engine's reply to it).
function undo() {
  if (S.history.length > 1 && S.history[S.history.length - 1].by === 'engine') S.history.pop();
  if (S.history.length > 1) S.history.pop();
  goBack(S.history.length - 1);
}

function goBack(k) {
  S.history = S.history.slice(0, k + 1);
  load(S.history[k].position);
}

function resize() {
  const rows = Number($('rows').value);
  const cols = Number($('cols').value);
  if (Number.isInteger(rows) && Number.isInteger(cols) && rows > 0 && cols > 0) load(editedBoard(S.analysis.drawing, null, rows, cols), { start: true });
}

function loadFile(event) {
  const file = event.target.files[0];
  if (file) file.text().then((text) => load(text, { start: true }));
  event.target.value = '';
}

function share() {
  const url = shareUrl(S.info.name, S.analysis.position);
  $('share-url').hidden = false;
  $('share-url').value = url;
  $('share-url').select();
  if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
}

function followHash() {
  const shared = sharedState();
  if (!shared || (S.analysis && shared.game === S.info.name && shared.position === S.analysis.position)) return;
  if (S.games.some((g) => g.name === shared.game)) pickGame(shared.game, shared.position);
}

function setTab(tab) {
  $('play').hidden = tab !== 'play';
  $('results').hidden = tab !== 'results';
  $('tab-play').classList.toggle('active', tab === 'play');
  $('tab-results').classList.toggle('active', tab === 'results');
  if (tab === 'results') showResults($('results'));
}

function showError(message) {
  $('error').hidden = !message;
  $('error').textContent = message || '';
}

init();
