// board.js: a Go board drawn as SVG, and the little of the rules a viewer needs to step
// through a record (placing a stone, captures: Chinese Rules 2002, Art. 3-4) and to mark a
// dead chain (Art. 8). Vertices are GTP's ("D4": column letter without I, row from the
// bottom). Each stone carries data-vertex and data-color (docs/protocol.md, "Web").

const SVGNS = 'http://www.w3.org/2000/svg';
const COLS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

export function vertexOf(size, x, y) { return COLS[x] + (size - y); } // x, y from top left
export function pointOf(size, v) {
	if (!v || v.toLowerCase() === 'pass') return null;
	const x = COLS.indexOf(v[0].toUpperCase()), row = parseInt(v.slice(1), 10);
	if (x < 0 || !(row >= 1 && row <= size)) return null;
	return [x, size - row];
}

// A position: size and a grid of '.', 'B', 'W' (rows from the top).
export class Position {
	constructor(size) {
		this.size = size;
		this.grid = Array.from({length: size}, () => Array(size).fill('.'));
	}
	static fromDiagram(rows) { // the game object's board: '.', 'X', 'O'
		const p = new Position(rows.length);
		rows.forEach((r, y) => [...r].forEach((c, x) => { p.grid[y][x] = c === 'X' ? 'B' : c === 'O' ? 'W' : '.'; }));
		return p;
	}
	clone() { const p = new Position(this.size); p.grid = this.grid.map((r) => r.slice()); return p; }
	at(x, y) { return this.grid[y][x]; }
	neighbours(x, y) {
		return [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]].filter(([a, b]) => a >= 0 && b >= 0 && a < this.size && b < this.size);
	}
	// The chain at x, y and whether it has a liberty.
	chain(x, y) {
		const c = this.grid[y][x], seen = new Set([x + ',' + y]), stones = [[x, y]];
		let libs = 0;
		for (let i = 0; i < stones.length; i++) {
			for (const [a, b] of this.neighbours(...stones[i])) {
				const k = a + ',' + b;
				if (seen.has(k)) continue;
				if (this.grid[b][a] === c) { seen.add(k); stones.push([a, b]); }
				else if (this.grid[b][a] === '.') { seen.add(k); libs++; }
			}
		}
		return {stones, libs};
	}
	// Play color at vertex v (a pass does nothing): opponents' chains without liberties go
	// (Chinese Rules 2002, Art. 4; a suicide is forfeited by the server, and the record shows
	// it as a pass). Returns the captured vertices.
	play(color, v) { return this.playFull(color, v).taken; }
	// The same, and under the prediction rules (opts.prediction; seed 000, Art. 4): if only
	// the opponent has chains without liberties they go, if only the mover the mover's chain
	// goes (suicide is legal), if both the mover chose (opts.own: its own chain; else the
	// opponent's, which the server does by default) and the other side's live on. Returns
	// {taken: the opponent's stones removed, lost: the mover's}.
	playFull(color, v, opts = {}) {
		const p = pointOf(this.size, v);
		if (!p) return {taken: [], lost: []};
		const [x, y] = p, other = color === 'B' ? 'W' : 'B', taken = [], lost = [];
		this.grid[y][x] = color;
		const dead = [], seen = new Set();
		for (const [a, b] of this.neighbours(x, y)) {
			if (this.grid[b][a] !== other || seen.has(a + ',' + b)) continue;
			const ch = this.chain(a, b);
			for (const [s, t] of ch.stones) seen.add(s + ',' + t);
			if (!ch.libs) dead.push(ch);
		}
		const mine = opts.prediction ? this.chain(x, y) : null;
		const removeOwn = mine && !mine.libs && (!dead.length || opts.own);
		const drop = (ch, out) => { for (const [s, t] of ch.stones) { this.grid[t][s] = '.'; out.push(vertexOf(this.size, s, t)); } };
		if (removeOwn) drop(mine, lost);
		else for (const ch of dead) drop(ch, taken);
		return {taken, lost};
	}
	remove(vs) { for (const v of vs) { const p = pointOf(this.size, v); if (p) this.grid[p[1]][p[0]] = '.'; } }
	// The territories once the dead stones (vertices) are off the board: a Map of vertex to
	// 'B' or 'W' for each point of an empty region that only one colour's stones border
	// (Art. 8-9; the dead stones' points included). Points bordered by both are dame.
	territory(dead) {
		const p = this.clone();
		p.remove(dead || []);
		const out = new Map(), seen = new Set();
		for (let y = 0; y < p.size; y++) {
			for (let x = 0; x < p.size; x++) {
				if (p.grid[y][x] !== '.' || seen.has(x + ',' + y)) continue;
				const region = [[x, y]], borders = new Set();
				seen.add(x + ',' + y);
				for (let i = 0; i < region.length; i++) {
					for (const [a, b] of p.neighbours(...region[i])) {
						const c = p.grid[b][a], k = a + ',' + b;
						if (c !== '.') borders.add(c);
						else if (!seen.has(k)) { seen.add(k); region.push([a, b]); }
					}
				}
				if (borders.size !== 1) continue;
				const owner = [...borders][0];
				for (const [a, b] of region) out.set(vertexOf(p.size, a, b), owner);
			}
		}
		return out;
	}
}

function svg(tag, attrs) {
	const e = document.createElementNS(SVGNS, tag);
	for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
	return e;
}

function stars(size) {
	if (size < 7) return [];
	const e = size >= 13 ? 3 : 2, m = (size - 1) / 2, f = size - 1 - e, pts = [[e, e], [e, f], [f, e], [f, f]];
	if (size % 2 && size >= 9) pts.push([m, m]);
	if (size % 2 && size >= 15) pts.push([e, m], [f, m], [m, e], [m, f]);
	return pts;
}

function territoryMark(cx, cy, owner, v) {
	return svg('rect', {x: cx - 5, y: cy - 5, width: 10, height: 10, class: 'territory ' + (owner === 'B' ? 'black' : 'white'),
		'data-territory': owner, 'data-at': v});
}

// What a point holds, in words (the keyboard cursor's label for a screen reader).
function pointWords(pos, v, opts) {
	const p = pointOf(pos.size, v), c = p ? pos.at(p[0], p[1]) : '.';
	const what = c === 'B' ? 'black stone' : c === 'W' ? 'white stone' : 'empty';
	return `${v}: ${what}` + (opts.dead && opts.dead.has(v) ? ', marked dead' : '') + (opts.last === v ? ', the last move' : '');
}

// The keyboard's way onto a board that takes clicks (opts.onclick): the board takes focus
// (Tab), the arrow keys move a cursor over the points (Home/End: the row's ends), Enter or
// Space does what a click there would. The cursor starts on the last move; once moved, it is
// kept across redraws (host.dataset.cursor), as is the focus; its point is in the board's
// aria-label. WCAG 2.1.1: without it a keyboard-only player could pass and resign but not
// play a move or mark a dead stone.
function keyboard(host, s, pos, opts, at, cell) {
	const n = pos.size;
	let cur = pointOf(n, host.dataset.cursor) || pointOf(n, opts.last) || [(n - 1) >> 1, (n - 1) >> 1];
	const mark = svg('rect', {width: cell - 4, height: cell - 4, rx: 4, class: 'cursor', 'aria-hidden': 'true'});
	const place = (moved) => {
		const v = vertexOf(n, cur[0], cur[1]);
		if (moved) host.dataset.cursor = v; // until the keys move it, it follows the last move
		mark.setAttribute('x', at(cur[0]) - cell / 2 + 2);
		mark.setAttribute('y', at(cur[1]) - cell / 2 + 2);
		mark.dataset.cursor = v;
		s.setAttribute('aria-label', `${n}x${n} board, at ${pointWords(pos, v, opts)}. Arrow keys move, Enter plays or marks.`);
	};
	s.setAttribute('tabindex', '0');
	s.setAttribute('role', 'application');
	s.append(mark);
	place();
	s.addEventListener('keydown', (ev) => {
		if (ev.altKey || ev.ctrlKey || ev.metaKey) return; // the browser's (Alt+← is back)
		if (ev.repeat && (ev.key === 'Enter' || ev.key === ' ')) { // a held key: once, no scrolling
			ev.preventDefault();
			return;
		}
		const step = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[ev.key];
		if (step) cur = [Math.max(0, Math.min(n - 1, cur[0] + step[0])), Math.max(0, Math.min(n - 1, cur[1] + step[1]))];
		else if (ev.key === 'Home') cur = [0, cur[1]];
		else if (ev.key === 'End') cur = [n - 1, cur[1]];
		else if (ev.key === 'Enter' || ev.key === ' ') opts.onclick(vertexOf(n, cur[0], cur[1]));
		else return;
		ev.preventDefault();
		ev.stopPropagation(); // the page's own arrow keys step through the moves
		place(true);
	});
}

// Draw pos into the element `host` (replacing its content). opts: last (vertex of the last
// move), dead (Set of vertices marked dead), theirs (Set of vertices the opponent marks dead:
// a square, so that both claims show at once in the count), territory (Map of vertex to 'B'
// or 'W': a small square of that colour, a counted game's final board), onclick(vertex): the
// board then also works from the keyboard (keyboard above), unless keys is false.
export function drawBoard(host, pos, opts = {}) {
	const n = pos.size, cell = 30, pad = 30, w = pad * 2 + cell * (n - 1);
	const s = svg('svg', {viewBox: `0 0 ${w} ${w}`, class: 'board', role: 'img', 'aria-label': `${n}x${n} board`});
	s.append(svg('rect', {x: 0, y: 0, width: w, height: w, class: 'wood'}));
	const at = (i) => pad + i * cell;
	for (let i = 0; i < n; i++) {
		s.append(svg('line', {x1: at(0), y1: at(i), x2: at(n - 1), y2: at(i), class: 'grid'}));
		s.append(svg('line', {x1: at(i), y1: at(0), x2: at(i), y2: at(n - 1), class: 'grid'}));
		for (const [x, y, t] of [[at(i), 14, COLS[i]], [at(i), w - 8, COLS[i]], [12, at(i) + 4, n - i], [w - 12, at(i) + 4, n - i]]) {
			const c = svg('text', {x, y, class: 'coord', 'text-anchor': 'middle'});
			c.textContent = t;
			s.append(c);
		}
	}
	for (const [x, y] of stars(n)) s.append(svg('circle', {cx: at(x), cy: at(y), r: 3, class: 'star'}));
	for (let y = 0; y < n; y++) {
		for (let x = 0; x < n; x++) {
			const v = vertexOf(n, x, y), c = pos.at(x, y);
			if (c === '.') {
				const hit = svg('rect', {x: at(x) - cell / 2, y: at(y) - cell / 2, width: cell, height: cell, class: 'point', 'data-point': v});
				if (opts.onclick) hit.addEventListener('click', () => opts.onclick(v));
				s.append(hit);
				if (opts.territory && opts.territory.has(v)) s.append(territoryMark(at(x), at(y), opts.territory.get(v), v));
				continue;
			}
			const st = svg('circle', {cx: at(x), cy: at(y), r: cell / 2 - 1, class: 'stone ' + (c === 'B' ? 'black' : 'white'),
				'data-vertex': v, 'data-color': c});
			if (opts.dead && opts.dead.has(v)) st.classList.add('dead');
			if (opts.onclick) st.addEventListener('click', () => opts.onclick(v));
			s.append(st);
			if (opts.dead && opts.dead.has(v)) s.append(svg('path', {d: `M${at(x) - 7} ${at(y) - 7}L${at(x) + 7} ${at(y) + 7}M${at(x) + 7} ${at(y) - 7}L${at(x) - 7} ${at(y) + 7}`, class: 'deadmark'}));
			if (opts.theirs && opts.theirs.has(v)) s.append(svg('rect', {x: at(x) - 9, y: at(y) - 9, width: 18, height: 18, class: 'theirmark', 'data-theirs': v}));
			if (opts.territory && opts.territory.has(v)) s.append(territoryMark(at(x), at(y), opts.territory.get(v), v));
			if (opts.last === v) s.append(svg('circle', {cx: at(x), cy: at(y), r: cell / 5, class: 'last ' + (c === 'B' ? 'on-black' : 'on-white'), 'data-last': v}));
		}
	}
	const keys = opts.onclick && opts.keys !== false;
	if (keys) keyboard(host, s, pos, opts, at, cell);
	const focused = host.contains(document.activeElement); // a redraw keeps the focus
	host.replaceChildren(s);
	if (focused && keys) s.focus({preventScroll: true});
	return s;
}
