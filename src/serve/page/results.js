// The results view: report.md of `--results DIR` (headings, paragraphs, lists, tables and its
// SVG plots), then any plot the report does not show.
'use strict';

// The API's URL of a file of the results directory: each segment of its path percent-encoded,
// so that a name holding '#', '?', '%' or a space names that file.
function resultsUrl(path) {
  return `/api/results/${path.split('/').map(encodeURIComponent).join('/')}`;
}

// A link or image target of a report as the path it names: its percent escapes decoded (the
// markdown of `we%20ird/f.md`), left as it is where they do not decode.
function targetPath(target) {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

// Shows `report` (a path under the results directory; the top report.md when not given).
async function showResults(main, report) {
  main.replaceChildren(el('p', { class: 'hint' }, 'Loading results…'));
  try {
    const listing = await api('/api/results');
    const parts = [];
    // Directories the server could not list in full: what lies under them is missing here.
    for (const u of listing.unwalked || []) parts.push(el('p', { class: 'unwalked' }, `${u.dir}: ${u.error}; the files under it are not shown`));
    let shown = new Set();
    const path = report || listing.report;
    if (report && report !== listing.report) parts.push(el('p', {}, el('a', { href: '#', onclick: (event) => { event.preventDefault(); showResults(main); } }, '← all results')));
    if (path) {
      const base = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
      const response = await fetch(resultsUrl(path));
      const rendered = renderMarkdown(await response.text(), base);
      shown = rendered.images;
      parts.push(...rendered.nodes);
    } else {
      parts.push(el('p', {}, 'No report.md here: run `sprague report --out DIR` and serve DIR.'));
    }
    const plots = report ? [] : listing.files.filter((f) => f.path.endsWith('.svg') && !shown.has(f.path));
    if (plots.length) parts.push(el('h2', {}, 'Other plots'), ...plots.map((f) => el('figure', {}, el('img', { src: resultsUrl(f.path), alt: f.path }), el('figcaption', {}, f.path))));
    main.replaceChildren(...parts);
  } catch (error) {
    main.replaceChildren(el('p', { id: 'results-error' }, `No results to show: ${error.message}`));
  }
}

// Inline markdown: `code`, **bold**, ![alt](src) images (paths relative to `base`), [text](link).
function inline(text, base, images) {
  const nodes = [];
  const pattern = /(!?)\[([^\]]*)\]\(([^)]+)\)|`([^`]+)`|\*\*([^*]+)\*\*/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    nodes.push(text.slice(at, match.index));
    if (match[3] && match[1]) {
      const path = base + targetPath(match[3]);
      images.add(path);
      nodes.push(el('img', { src: resultsUrl(path), alt: match[2] }));
    } else if (match[3]) {
      nodes.push(link(match[2], match[3], base));
    } else if (match[4]) nodes.push(el('code', {}, match[4]));
    else nodes.push(el('b', {}, match[5]));
    at = match.index + match[0].length;
  }
  nodes.push(text.slice(at));
  return nodes;
}

// A link: to another report of the tree (shown here), to a file of it, or elsewhere (http,
// https or mailto only: a `javascript:` or `data:` target of a report is shown as text).
function link(text, target, base) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    return /^(https?|mailto):/i.test(target) ? el('a', { href: target }, text) : el('span', { class: 'refused-link', title: `not followed: ${target}` }, text);
  }
  const path = base + targetPath(target);
  if (!path.endsWith('.md')) return el('a', { href: resultsUrl(path) }, text);
  return el('a', { href: '#', class: 'report-link', onclick: (event) => { event.preventDefault(); showResults($('results'), path); } }, text);
}

function cellsOf(line) {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

// The blocks of a markdown text as elements; `images`: the plots it showed.
function renderMarkdown(text, base) {
  const images = new Set();
  const nodes = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    if (heading) nodes.push(el(`h${heading[1].length}`, {}, inline(heading[2], base, images)));
    else if (line.trim().startsWith('|')) {
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith('|')) rows.push(cellsOf(lines[i++]));
      i--;
      const body = rows.filter((row, k) => k > 0 && !row.every((c) => /^:?-+:?$/.test(c)));
      nodes.push(el('table', {}, el('thead', {}, el('tr', {}, rows[0].map((c) => el('th', {}, inline(c, base, images))))),
        el('tbody', {}, body.map((row) => el('tr', {}, row.map((c) => el('td', {}, inline(c, base, images))))))));
    } else if (/^\s*[-*]\s+/.test(line)) {
      const items = [];
      while (i < lines.length && /^\s*[-*]\s+/.test(lines[i])) items.push(el('li', {}, inline(lines[i++].replace(/^\s*[-*]\s+/, ''), base, images)));
      i--;
      nodes.push(el('ul', {}, items));
    } else if (line.trim().startsWith('```')) {
      const code = [];
      while (++i < lines.length && !lines[i].trim().startsWith('```')) code.push(lines[i]);
      nodes.push(el('pre', {}, code.join('\n')));
    } else if (line.trim()) nodes.push(el('p', {}, inline(line, base, images)));
  }
  return { nodes, images };
}
