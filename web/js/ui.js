// ui.js: small DOM helpers and the page header (navigation, login form) every page shares.
import {connect, login, register, logout, player, on, onState} from './conn.js';

const STATUS_PASSING_MS = 5000; // a passing note ("Reconnected") stays this long

// el('div', {class: 'x', onclick: fn}, child...): an element; strings become text.
export function el(tag, attrs = {}, ...kids) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs)) {
		if (v === null || v === undefined || v === false) continue;
		if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
		else if (k === 'text') e.textContent = v;
		else e.setAttribute(k, v === true ? '' : v);
	}
	for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k.nodeType ? k : String(k));
	return e;
}

export function $(sel) { return document.querySelector(sel); }

export function link(href, text) { return el('a', {href}, text); }

// The page's number from /KIND/N (strictly: "/game/1x" is none), or NaN.
export function idFromPath() {
	const t = location.pathname.split('/')[2] || '';
	return /^[1-9][0-9]{0,15}$/.test(t) ? Number(t) : NaN;
}

// A page whose game, tournament or player is not there: `heading` (an element) says `text`,
// the window's title too, a link leads back to the lobby, and the elements `hide` selects (the
// page's empty parts, whose buttons would act on nothing) are hidden.
export function notFound(heading, text, hide) {
	heading.textContent = text;
	document.title = 'tengen: ' + text;
	for (const e of document.querySelectorAll(hide)) e.hidden = true;
	heading.after(el('p', {}, link('/', 'Back to the lobby')));
}
// An account's name (docs/protocol.md, register): 1-32 of A-Z a-z 0-9 _ . -. Other names on
// a page are a director's entrants without an account ("Doe John"), who have no player page.
export function isAccountName(name) { return /^[A-Za-z0-9_.-]{1,32}$/.test(name || ''); }
// A player's name, linked to their page when they have one (an entrant's link led to a page
// saying "No player Doe John" with the server's field error).
export function playerLink(name) {
	if (!isAccountName(name)) return el('span', {class: 'entrant', title: 'entered by the director: no account, no player page'}, name || '–');
	return link('/player/' + encodeURIComponent(name), name);
}

// How a game ended (the `reason` of a result), in words: the game and player pages.
export const REASONS = {
	resignation: 'by resignation', time: 'on time (Art. 12)', score: 'by counting (Art. 9)',
	warnings: 'two warnings (Art. 24.2)', illegal: 'an illegal move lost the game (the rules\' illegal: lose, or a repeated position under the prediction rules)',
	lateness: 'lateness forfeit (Art. 22.1)', double_forfeit: 'double forfeit: both lose (Art. 17.5, 23.1)',
	adjudicated: "the director's decision (Art. 23)", cycle: 'a cycle voided the game (Art. 20.3)',
	declined: 'the challenge was declined', expired: 'the challenge lapsed unanswered',
};

// Show a message in the page's status line (kind: 'info' or 'error').
export function say(text, kind = 'info') {
	const s = $('#status');
	if (!s) return;
	s.textContent = text;
	s.className = kind;
	delete s.dataset.game; // a game's notice (game.start below) is replaced
}

// "2026-12-02 23:05" in the viewer's own time zone, as the other times on the pages are (it
// was UTC, unmarked, beside local ones).
export function fmtTime(unix) {
	if (!unix) return '';
	const d = new Date(unix * 1000), two = (n) => String(n).padStart(2, '0');
	return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

// A time control in words: "byo-yomi 10 min + 3×30 s" (docs/protocol.md, "Time controls").
export function timeText(t) {
	const m = (s) => (s % 60 ? `${s} s` : `${s / 60} min`);
	switch (t && t.system) {
	case 'byoyomi': return `byo-yomi ${m(t.main_s)} + ${t.periods}×${m(t.period_s)}`;
	case 'canadian': return `Canadian ${m(t.main_s)} + ${t.stones} stones in ${m(t.period_s)}`;
	case 'fischer': return `Fischer ${m(t.main_s)} + ${m(t.increment_s)} a move`;
	case 'absolute': return `${m(t.main_s)} absolute`;
	default: return 'no clock';
	}
}

// Is an event of `planned` rounds, at round `round`, over: its last round paired and every
// game of it (`last`: that round's pairings) with a result? (The tournament page and the
// lobby say "finished".)
export function eventOver(planned, round, last) {
	return Boolean(planned && round >= planned && last && last.every((p) => p.result));
}

// The header: the site's name, links, the login/register form or who is logged in.
export async function header() {
	const h = $('header');
	const box = el('span', {id: 'account'});
	h.append(el('a', {href: '/', class: 'brand'}, 'tengen'), el('nav', {}, link('/', 'Lobby')),
		box, el('span', {id: 'conn', class: 'closed'}, '●'));
	let unreachable = false;
	onState((s) => {
		const cls = s === 'reconnected' ? 'open' : s === 'unreachable' ? 'closed' : s;
		$('#conn').className = cls;
		$('#conn').title = cls;
		if (s === 'closed') say('The connection to the server was lost: reconnecting…', 'error');
		if (s === 'unreachable') say('Cannot reach the server: trying again…', 'error');
		const passing = (text) => { // said, then gone (it stood for good)
			say(text);
			setTimeout(() => { if ($('#status') && $('#status').textContent === text) say(''); }, STATUS_PASSING_MS);
		};
		if (s === 'reconnected') passing('Reconnected to the server.');
		if (s === 'open' && unreachable) passing('Connected to the server.');
		unreachable = s === 'unreachable';
	});
	const draw = () => {
		box.replaceChildren();
		const p = player();
		if (p) {
			box.append('Logged in as ', playerLink(p.name), ' ',
				el('button', {id: 'logout', onclick: () => logout().catch((e) => say(e.message, 'error'))}, 'Log out'));
			return;
		}
		const name = el('input', {id: 'login-name', placeholder: 'name', autocomplete: 'username', size: 10});
		const pw = el('input', {id: 'login-password', type: 'password', placeholder: 'password', autocomplete: 'current-password', size: 10});
		// a new account's declared rank (30k-9d) sets its starting rating; optional
		const rank = el('input', {id: 'login-rank', placeholder: 'rank (new)', size: 7,
			title: 'For Register: your rank, 30k to 9d (e.g. 5k, 2d); it sets your starting rating. Optional.'});
		const form = el('form', {id: 'login-form', onsubmit: (ev) => {
			ev.preventDefault();
			login(name.value, pw.value).then(() => say('')).catch((e) => say(e.message, 'error'));
		}}, name, pw, el('button', {type: 'submit', id: 'login'}, 'Log in'),
		// a new account's two: they wrap together on a narrow screen
		el('span', {class: 'new-account'}, rank,
			el('button', {type: 'button', id: 'register', onclick: () =>
				register(name.value, pw.value, rank.value.trim()).then(() => say('')).catch((e) => say(e.message, 'error'))}, 'Register')));
		box.append(form);
	};
	on('login', draw);
	on('logout', draw);
	// A game of mine began, or was paired to begin at its start time, while I am on another
	// page (the lobby goes there by itself): say so, with the way there; its clock may be
	// running (Art. 22.4). It said "has started" from the pairing on, and after the game's end.
	on('game.start', (e) => {
		if (location.pathname === '/' || location.pathname === `/game/${e.game}`) return;
		const s = $('#status');
		if (!s) return;
		s.className = 'info';
		s.dataset.game = e.game;
		const later = e.start_at && e.start_at * 1000 > Date.now();
		s.replaceChildren(later ? `Your game ${e.game} is paired: it starts at ${fmtTime(e.start_at).slice(11)} (your clock runs from then): `
			: `Your game ${e.game} has started: `, link(`/game/${e.game}`, 'go to it'));
	});
	on('game.end', (e) => {
		const s = $('#status');
		if (s && s.dataset.game === String(e.game)) { delete s.dataset.game; say(''); }
	});
	draw();
	try {
		await connect();
	} catch (e) {
		say(e.message, 'error');
		throw e;
	}
	draw();
}
