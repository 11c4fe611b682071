// player.js: the player page /player/NAME: profile, rating history as an SVG chart, games.
import {request} from './conn.js';
import {el, $, header, say, fmtTime, link, playerLink, isAccountName, REASONS, notFound} from './ui.js';

const name = decodeURIComponent(location.pathname.split('/')[2] || '');
const SVGNS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, text) {
	const e = document.createElementNS(SVGNS, tag);
	for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
	if (text !== undefined) e.textContent = text;
	return e;
}

// The ratings after each rated game (history: oldest first) as a line over game numbers.
function chart(history) {
	const w = 600, h = 220, pad = 40;
	const s = svg('svg', {viewBox: `0 0 ${w} ${h}`, class: 'chart', width: w, height: h});
	if (!history.length) { s.append(svg('text', {x: pad, y: h / 2}, 'No rated games yet.')); return s; }
	const pts = [history[0].rating_before, ...history.map((x) => x.rating)];
	let lo = Math.min(...pts), hi = Math.max(...pts);
	if (hi - lo < 50) { lo -= 25; hi += 25; }
	const X = (i) => pad + (w - 2 * pad) * (pts.length === 1 ? 0 : i / (pts.length - 1));
	const Y = (r) => h - pad - (h - 2 * pad) * (r - lo) / (hi - lo);
	s.append(svg('line', {x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, class: 'axis'}));
	s.append(svg('line', {x1: pad, y1: pad, x2: pad, y2: h - pad, class: 'axis'}));
	s.append(svg('text', {x: 2, y: Y(hi) + 4}, Math.round(hi)), svg('text', {x: 2, y: Y(lo) + 4}, Math.round(lo)));
	s.append(svg('text', {x: w / 2, y: h - 8, 'text-anchor': 'middle'}, 'rated games'));
	// the x axis by date: the first game's day at the left, the last's at the right (the axis
	// had no labels); the start point is the rating before the first game
	const day = (i) => fmtTime(history[i].at).slice(0, 10);
	s.append(svg('text', {x: X(0), y: h - pad + 14, class: 'xlabel', 'text-anchor': 'start'}, day(0)));
	if (history.length > 1)
		s.append(svg('text', {x: X(pts.length - 1), y: h - pad + 14, class: 'xlabel', 'text-anchor': 'end'},
			day(history.length - 1)));
	s.append(svg('polyline', {points: pts.map((r, i) => `${X(i)},${Y(r)}`).join(' '), class: 'line'}));
	pts.forEach((r, i) => {
		const c = svg('circle', {cx: X(i), cy: Y(r), r: 3, 'data-rating': Math.round(r)});
		c.append(svg('title', {}, `${Math.round(r)}` + (i ? ` after game ${history[i - 1].game}` : ' at the start')));
		s.append(c);
	});
	return s;
}

// "won: ", "lost: ", "draw: " or "" for this player's game g (the result alone did not say:
// "B+3.5" beside the colour)
function won(g) {
	const m = /^([BW])\+/.exec(g.result || '');
	if (m) return m[1] === g.color ? 'won: ' : 'lost: ';
	return g.result === '0' ? 'draw: ' : '';
}

async function main() {
	document.title = `tengen: ${name}`;
	await header();
	if (!isAccountName(name)) { // an entrant's name, or a typo: no such account (not the server's field error)
		notFound($('#name'), `No player ${name}`, 'main > :not(#name)');
		say('Only players with accounts have a page; a tournament\'s entrants without one are listed on its page.', 'error');
		return;
	}
	const r = await request('player', {name});
	if (!r.ok) { // no such player: say so, and no empty sections
		notFound($('#name'), `No player ${name}`, 'main > :not(#name)');
		say(r.error.message, 'error');
		return;
	}
	const p = r.player;
	$('#name').textContent = p.name;
	$('#profile').textContent = `Rank ${p.rank || '–'}, rating ${Math.round(p.rating)} ± ${Math.round(2 * p.rd)}`
		+ (p.declared_rank ? `, declared ${p.declared_rank}` : '') + `, ${p.games || 0} rated game${p.games === 1 ? '' : 's'}, role ${p.role}.`;
	$('#chart').replaceChildren(chart(r.history || []));
	// a declined or lapsed challenge was never a game: not listed among them
	const played = (r.recent_games || []).filter((g) => g.reason !== 'declined' && g.reason !== 'expired');
	$('#games tbody').replaceChildren(...played.map((g) => el('tr', {},
		el('td', {}, link('/game/' + g.id, '#' + g.id)), el('td', {}, g.color),
		el('td', {}, playerLink(g.opponent)),
		el('td', {class: 'outcome'}, `${won(g)}${g.result || ''} ${g.reason ? REASONS[g.reason] || g.reason : ''}`), el('td', {}, g.rated ? 'yes' : 'no'),
		el('td', {}, fmtTime(g.ended_at)))));
	$('#tournaments').replaceChildren(...(r.tournaments || []).map((t) =>
		el('li', {}, typeof t === 'object' ? link('/tournament/' + (t.id ?? t.tournament), t.name || ('#' + (t.id ?? t.tournament))) : String(t))),
		...((r.tournaments || []).length ? [] : [el('li', {}, 'None yet.')]));
}

main().catch((e) => say(e.message, 'error'));
