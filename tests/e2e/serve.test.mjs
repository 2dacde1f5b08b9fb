// End-to-end tests of `sprague serve` in headless Chromium (scripts/e2e.sh runs them): edit a
// wall board and check the shown values against `sprague solve`, hover a move, play a game
// to the end against the engine, undo, share, the other views, the results view. Screenshots
// go to tests/e2e/screenshots/ (gitignored).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const sprague = process.env.SPRAGUE || join(root, 'target/release/sprague');
const views = process.env.SERVE_VIEWS || join(root, 'target/release/examples/serve_views');
const shots = join(root, 'tests/e2e/screenshots');
const work = mkdtempSync(join(tmpdir(), 'sprague-e2e-'));
let browser, server, demo;

// Starts a server binary with ARGS and resolves with its base URL (printed on stderr).
function start(binary, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    child.stderr.on('data', (chunk) => {
      text += chunk;
      const found = text.match(/http:\/\/[^\s]+?\//);
      if (found) resolve({ child, url: found[0] });
    });
    child.on('exit', (code) => reject(new Error(`${binary} exited with ${code}: ${text}`)));
  });
}

// `sprague solve wall --format json` of a position without walls.
function solve(position) {
  return JSON.parse(execFileSync(sprague, ['solve', 'wall', '--format', 'json'], { input: position }).toString());
}

async function page(url, width = 1600, height = 1000) {
  const p = await browser.newPage({ viewport: { width, height } });
  p.errors = [];
  p.on('pageerror', (error) => p.errors.push(error.message));
  p.on('console', (m) => m.type() === 'error' && !m.text().includes('404') && console.error(`console: ${m.text()}`));
  await p.goto(url);
  await p.waitForSelector('.board, .heaps, svg.graph, pre.text');
  return p;
}

// Closes a page that raised no script error.
async function close(p) {
  await p.close();
  assert.deepEqual(p.errors, [], 'script errors on the page');
}

// Waits until the page shows the analysis of a position other than `old`.
async function changed(p, old) {
  try {
    await p.waitForFunction((previous) => document.getElementById('position-text').value !== previous, old, { timeout: 10000 });
  } catch (error) {
    const state = await p.evaluate(() => ({ text: document.getElementById('position-text').value, rows: document.getElementById('rows').value, cols: document.getElementById('cols').value, error: document.getElementById('error').textContent }));
    throw new Error(`no new position after ${JSON.stringify(old)}: ${JSON.stringify(state)}`);
  }
  return p.inputValue('#position-text');
}

// The shown value, the green cells (0-based) and the position text.
async function shown(p) {
  const value = Number(await p.textContent('#value'));
  const winning = await p.$$eval('.cell.win', (cells) => cells.map((c) => c.dataset.cell.split(',').map(Number)));
  return { value, winning, position: await p.inputValue('#position-text') };
}

before(async () => {
  mkdirSync(shots, { recursive: true });
  execFileSync(sprague, ['verify', 'grundy', '--max', '12', '-q', '--out', join(work, 'runs/grundy')]);
  execFileSync(sprague, ['report', '--results', join(work, 'runs'), '--out', join(work, 'report')]);
  // Names a URL must escape ('#', '?', '%', a space), and a report with a script link.
  const plot = readdirSync(join(work, 'report'), { recursive: true }).find((f) => f.endsWith('.svg'));
  mkdirSync(join(work, 'report/odd dir'));
  copyFileSync(join(work, 'report', plot), join(work, 'report/odd dir/f g#1?%.svg'));
  writeFileSync(join(work, 'report/odd dir/q?x.csv'), 'a,b\n1,2\n');
  writeFileSync(join(work, 'report/odd dir/links.md'), '# Odd names\n\n![plot](f%20g%231%3F%25.svg) [the csv](q%3Fx.csv) [evil](javascript:alert(1))\n');
  appendFileSync(join(work, 'report/report.md'), '\n[odd names](odd%20dir/links.md)\n');
  server = await start(sprague, ['serve', '--port', '0', '--results', join(work, 'report')]);
  demo = await start(views, ['0']);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
});

after(async () => {
  await browser?.close();
  server?.child.kill();
  demo?.child.kill();
  rmSync(work, { recursive: true, force: true });
});

test('an edited board shows the value and winning moves sprague solve gives', async () => {
  const p = await page(server.url);
  let position = await p.inputValue('#position-text');
  assert.equal(position, '4 5\nX....\n...X.\n.....\n.....\n', 'the example');
  await p.fill('#rows', '6');
  await p.press('#rows', 'Tab');
  position = await changed(p, position);
  await p.fill('#cols', '7');
  await p.press('#cols', 'Tab');
  position = await changed(p, position);
  for (const cell of ['0,6', '2,2', '3,5', '5,0', '1,3', '2,2']) {
    await p.click(`.cell[data-cell="${cell}"]`);
    position = await changed(p, position);
    const now = await shown(p);
    const solved = solve(now.position);
    assert.equal(now.value, solved.grundy, now.position);
    assert.deepEqual(now.winning, solved.winning_moves, now.position);
  }
  assert.match(position, /^6 7\n/);
  const cells = await p.$$eval('.cell', (all) => all.length);
  assert.equal(cells, 42);
  await p.hover('.cell[data-cell="2,3"]');
  await p.waitForSelector('.overlay.part');
  assert.equal(await p.$$eval('.cell.built', (c) => c.length), 6 + 7 - 1, 'the cross of walls');
  assert.match(await p.textContent('#detail'), /splits its region into 4/);
  await p.screenshot({ path: join(shots, 'hover.png') });
  await close(p);
});

test('a game against the engine is played to the end, then undone', async () => {
  const p = await page(`${server.url}#game=wall&position=${encodeURIComponent('5 6\n..X...\n......\n....X.\n.X....\n......\n')}`);
  assert.equal(Number(await p.textContent('#value')), solve('5 6\n..X...\n......\n....X.\n.X....\n......\n').grundy);
  await p.click('#mode-play');
  for (let turn = 0; turn < 40; turn++) {
    const banner = await p.textContent('#banner');
    if (/wins/.test(banner)) break;
    if (banner === 'Your move') {
      const before = await p.inputValue('#position-text');
      await p.click('.cell:not(.wall):not(.marked)');
      await changed(p, before);
    }
    await p.waitForFunction(() => document.getElementById('banner').textContent !== 'Engine to move');
  }
  const banner = await p.textContent('#banner');
  assert.match(banner, /^(You win!|The engine wins)$/);
  assert.equal(await p.$$eval('.cell:not(.wall):not(.marked)', (c) => c.length), 0, 'no move left');
  const history = await p.$$eval('#history li', (items) => items.map((li) => li.textContent));
  assert.ok(history.length >= 3, history.join('\n'));
  // The engine moved to value 0 whenever it could (it moves after a position of value ≠ 0).
  history.forEach((line, k) => {
    if (line.startsWith('engine') && !history[k - 1].endsWith('value 0')) assert.match(line, /value 0$/, history.join('\n'));
  });
  await p.screenshot({ path: join(shots, 'game-over.png') });
  const moves = history.length;
  await p.click('#undo');
  await p.waitForFunction((n) => document.querySelectorAll('#history li').length < n, moves);
  assert.equal(await p.textContent('#banner'), 'Your move');
  await close(p);
});

test('a shared 20×20 board loads with its value and every move drawn', async () => {
  const rows = Array.from({ length: 20 }, (_, r) => Array.from({ length: 20 }, (_, c) => ((r * 7 + c * 3) % 11 === 0 ? 'X' : '.')).join(''));
  const position = `20 20\n${rows.join('\n')}\n`;
  const p = await page(`${server.url}#game=wall&position=${encodeURIComponent(position)}`, 1920, 1080);
  await p.waitForFunction(() => document.querySelectorAll('.cell').length === 400);
  const now = await shown(p);
  const solved = solve(position);
  assert.equal(now.position, position);
  assert.equal(now.value, solved.grundy);
  assert.deepEqual(now.winning, solved.winning_moves);
  const numbered = await p.$$eval('.cell:not(.marked)', (cells) => cells.filter((c) => /^\d+$/.test(c.textContent)).length);
  assert.equal(numbered, 400 - (position.match(/X/g) || []).length, 'every move shows its value');
  await p.screenshot({ path: join(shots, 'board-20x20.png') });
  await p.click('#share');
  const url = await p.inputValue('#share-url');
  const again = await page(url);
  assert.equal(await again.inputValue('#position-text'), position, 'the share link loads the position');
  await close(again);
  await close(p);
});

test('a malformed position shows the server\'s message, then a board loads from a file', async () => {
  const p = await page(server.url);
  await p.click('#text-tools summary');
  await p.fill('#position-text', '2 2\n..\n.a\n');
  await p.click('#analyse');
  await p.waitForSelector('#error:not([hidden])');
  assert.equal(await p.textContent('#error'), "position:3:2: 'a' is not '.', 'X' or '#'");
  await p.fill('#position-text', '2 2\n..\n..\n');
  await p.click('#analyse');
  await p.waitForFunction(() => document.getElementById('error').hidden);
  assert.equal(await p.textContent('#value'), '0');
  const board = '3 4\n.X..\n....\n..X.\n';
  await p.setInputFiles('#file', { name: 'board.txt', mimeType: 'text/plain', buffer: Buffer.from(board) });
  await changed(p, '2 2\n..\n..\n');
  assert.equal(await p.inputValue('#position-text'), board, 'loaded from a file');
  assert.equal(Number(await p.textContent('#value')), solve(board).grundy);
  await close(p);
});

test('heaps, graph and text views draw the demo games and play their moves', async () => {
  const p = await page(demo.url);
  for (const [game, selector, shot] of [['demo-heaps', '.heap', 'heaps'], ['demo-graph', 'svg.graph circle', 'graph'], ['demo-text', 'pre.text', 'text']]) {
    await p.selectOption('#game', game);
    await p.waitForSelector(selector);
    const before = await p.inputValue('#position-text');
    const value = Number(await p.textContent('#value'));
    await p.click('#mode-play');
    await p.uncheck('#engine-replies');
    const winning = await p.$$('.move.win');
    assert.equal(winning.length > 0, value !== 0, `${game}: winning moves exactly when the value is not 0`);
    await p.screenshot({ path: join(shots, `${shot}.png`) });
    await (winning[0] || (await p.$('.move'))).click();
    await changed(p, before);
    if (winning.length) assert.equal(await p.textContent('#winner'), 'The player to move loses', game);
  }
  assert.equal(await p.$$eval('.heap', (h) => h.length), 0, 'the heaps view is gone');
  await close(p);
});

// The server's own analysis of a position of `game` (what the page must show).
async function analysed(game, position) {
  const response = await fetch(`${server.url}api/games/${game}/analyse`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ position }) });
  assert.equal(response.status, 200, `${game}: ${await response.clone().text()}`);
  return response.json();
}

test('every other game is drawn from its example and played to the end against the engine', async () => {
  const games = await (await fetch(`${server.url}api/games`)).json();
  const drawn = { heaps: '.heap', graph: 'svg.graph circle', text: 'pre.text' };
  const others = games.filter((g) => g.view !== 'board');
  assert.ok(others.length >= 14, others.map((g) => g.name).join(' '));
  const p = await page(server.url);
  for (const game of others) {
    const expected = await analysed(game.name, game.example);
    await p.selectOption('#game', game.name);
    await p.waitForFunction((text) => document.getElementById('position-text').value === text, expected.position);
    await p.waitForSelector(drawn[game.view]);
    assert.equal(await p.textContent('#value'), expected.value === null ? '?' : String(expected.value), game.name);
    assert.equal(await p.textContent('#winner'), expected.winner === 'First' ? 'The player to move wins' : 'The player to move loses', game.name);
    assert.equal(await p.$$eval('.move', (m) => m.length), expected.moves.length, game.name);
    assert.equal(await p.$$eval('.move.win', (m) => m.length), expected.moves.filter((m) => m.winning).length, game.name);
    assert.equal(await p.isVisible('#value-box'), game.grundy, `${game.name}: the value box only where there are values`);
    await p.hover('.move');
    assert.doesNotMatch(await p.textContent('#detail'), /undefined|NaN/, `${game.name}: the hovered move's details`);
    await p.screenshot({ path: join(shots, `game-${game.name}.png`) });
    // Play: you take a winning move when there is one, else the last move listed (the largest
    // take, the furthest advance: games end); the engine, asked at once, a winning move when it
    // has one.
    await p.click('#mode-play');
    await p.uncheck('#engine-replies');
    let banner = '';
    for (let turn = 0; turn < 200; turn++) {
      banner = await p.textContent('#banner');
      if (/win|No moves/.test(banner)) break;
      const before = await p.inputValue('#position-text');
      if (banner === 'Your move') await p.click((await p.$('.move.win')) ? '.move.win' : '.move:last-child');
      else await p.click('#engine-move');
      await changed(p, before);
    }
    assert.match(banner, /^(You win!|The engine wins)$/, `${game.name}: the game ended`);
    const history = await p.$$eval('#history li', (items) => items.map((li) => li.textContent));
    // The start keeps its worth when play begins (it once lost the winner: "to move loses").
    const start = game.grundy ? `value ${expected.value}` : expected.winner === 'First' ? 'to move wins' : 'to move loses';
    assert.ok(history[0].startsWith('start') && history[0].endsWith(start), `${game.name}: the start\n${history.join('\n')}`);
    // Who won is the server's word on the last position (misère: the player to move wins).
    const last = await analysed(game.name, await p.inputValue('#position-text'));
    const youMove = history[history.length - 1].startsWith('engine');
    assert.equal(banner, youMove === (last.winner === 'First') ? 'You win!' : 'The engine wins', `${game.name}\n${history.join('\n')}`);
    // The engine left a lost position whenever it could (value 0, or "to move loses").
    const [won, lost] = game.grundy ? [/value [1-9]\d*$/, /value 0$/] : [/to move wins$/, /to move loses$/];
    history.forEach((line, k) => {
      if (line.startsWith('engine') && won.test(history[k - 1])) assert.match(line, lost, `${game.name}\n${history.join('\n')}`);
    });
  }
  await close(p);
});

test('the results view shows the report\'s tables and plots', async () => {
  const p = await page(server.url);
  await p.click('#tab-results');
  await p.waitForSelector('#results img');
  assert.match(await p.textContent('#results h1'), /^Runs under /);
  await p.click('#results a.report-link');
  await p.waitForSelector('#results table');
  assert.ok((await p.$$('#results table tr')).length > 3);
  await p.waitForSelector('#results img');
  const loaded = await p.$$eval('#results img', (imgs) => Promise.all(imgs.map((img) => img.decode().then(() => img.naturalWidth))));
  assert.ok(loaded.length > 0 && loaded.every((w) => w > 0), `plots: ${loaded}`);
  await p.screenshot({ path: join(shots, 'results.png'), fullPage: false });
  await close(p);
});

test('the results view escapes file names and shows a script link as text', async () => {
  const p = await page(server.url);
  await p.click('#tab-results');
  await p.waitForSelector('#results img[alt="odd dir/f g#1?%.svg"]');
  const width = await p.$eval('#results img[alt="odd dir/f g#1?%.svg"]', (img) => img.decode().then(() => img.naturalWidth));
  assert.ok(width > 0, 'the plot with an odd name loads');
  await p.click('#results a.report-link:text("odd names")');
  await p.waitForSelector('#results h1:text("Odd names")');
  const width2 = await p.$eval('#results img', (img) => img.decode().then(() => img.naturalWidth));
  assert.ok(width2 > 0, 'the plot the report links loads');
  const csv = await p.$eval('#results a:text("the csv")', (a) => fetch(a.href).then((r) => r.text()));
  assert.equal(csv, 'a,b\n1,2\n');
  assert.equal(await p.$$eval('#results a[href^="javascript"]', (links) => links.length), 0);
  assert.equal(await p.textContent('#results span.refused-link'), 'evil');
  await close(p);
});
