// The JSON API (docs/serve.md) and the share link: nothing here draws.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

// GET (no body) or POST (JSON body) to the API; throws an Error with the server's message.
async function api(path, body) {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new Error(data.error || `${response.status}`);
  return data;
}

function analyse(game, position) {
  return api(`/api/games/${encodeURIComponent(game)}/analyse`, { position });
}

// The page's address for a game and position: both in the fragment, so nothing is sent.
function shareUrl(game, position) {
  const query = new URLSearchParams({ game, position });
  return `${location.origin}${location.pathname}#${query}`;
}

// The game and position a shared address names, or null.
function sharedState() {
  const query = new URLSearchParams(location.hash.slice(1));
  const game = query.get('game');
  return game ? { game, position: query.get('position') } : null;
}

// Element helper: el('div', {class: 'x', onclick: f}, child, 'text', …).
function el(tag, attributes = {}, ...children) {
  const node = tag.startsWith('svg:') ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function valueText(value) {
  return value === null || value === undefined ? '?' : String(value);
}

// What a position is worth, for the history: its value, or who wins where a game has no
// Grundy value (minimax games, misère play).
function worthText(value, winner) {
  if (value !== null && value !== undefined) return `value ${value}`;
  return winner === 'First' ? 'to move wins' : 'to move loses';
}

// What a move leaves, for its label and hover: the value, or whether it is a winning (best)
// move where the game has no Grundy value.
function leavesText(move) {
  if (move.value !== null && move.value !== undefined) return `leaves value ${move.value}`;
  return move.winning ? 'a winning move' : 'not a winning move';
}
