// lobby.js: the lobby /: live games, tournaments, the leaderboard; logged in: challenge a
// player, accept or decline challenges, one's own games. Lists are read again every
// LOBBY_REFRESH_MS (the protocol has no lobby events).
import {call, request, on, player} from './conn.js';
import {el, $, header, say, playerLink, link, timeText, eventOver} from './ui.js';
import {clockText} from './clock.js';

const LOBBY_REFRESH_MS = 5000;
const LIVE_GAMES_MAX = 20;
let ranks = new Map();
let leaving = false;
const myTurn = new Set(); // my live games where I am to move (game.state at login)

// To game id's page (once: the accept's reply and game.start both lead there).
function toGame(id) {
	if (leaving) return;
	leaving = true;
	location.href = '/game/' + id;
}

// "byoyomi-600-3-30" and the like (the form's values) as a time control object.
function timeControl(v) {
	const [system, ...n] = v.split('-').map((x, i) => (i ? Number(x) : x));
	if (system === 'byoyomi') return {system, main_s: n[0], periods: n[1], period_s: n[2]};
	if (system === 'absolute') return {system, main_s: n[0]};
	if (system === 'fischer') return {system, main_s: n[0], increment_s: n[1]};
	if (system === 'canadian') return {system, main_s: n[0], stones: n[1], period_s: n[2]};
	return {system: 'none'};
}


function named(name) {
	return el('span', {}, playerLink(name), ranks.has(name) ? ` (${ranks.get(name)})` : '');
}

async function leaderboard() {
	const r = await call('players', {sort: 'rating', limit: 50});
	ranks = new Map(r.players.map((p) => [p.name, p.rank || '?']));
	// only players with rated games: an account that never played (a director, a newcomer) has
	// the starting rating and was ranked above everyone who had lost a game
	const rated = r.players.filter((p) => p.games > 0);
	$('#leaderboard tbody').replaceChildren(...rated.map((p, i) => el('tr', {'data-player': p.name},
		el('td', {}, i + 1), el('td', {}, playerLink(p.name)), el('td', {}, p.rank || '–'),
		el('td', {}, Math.round(p.rating)), el('td', {}, p.games))),
		...(rated.length ? [] : [el('tr', {}, el('td', {colspan: 5}, 'No rated games yet.'))]));
}

async function liveGames() {
	// the games being counted too (they dropped out of the list at the two passes)
	const lists = await Promise.all(['playing', 'counting'].map((phase) => call('games', {phase, limit: LIVE_GAMES_MAX})));
	const games = lists.flatMap((r) => r.games).sort((a, b) => b.id - a.id).slice(0, LIVE_GAMES_MAX);
	const rows = await Promise.all(games.map(async (g) => {
		const d = await request('game', {game: g.id});
		const full = d.ok ? d.game : null;
		const clocks = full && full.clocks ? `${clockText(full.clocks.B, 0)} / ${clockText(full.clocks.W, 0)}` : '–';
		return el('tr', {'data-game': g.id}, el('td', {}, link('/game/' + g.id, '#' + g.id)), el('td', {}, g.first ? [named(g.first), ' (1st)'] : named(g.black)),
			el('td', {}, g.second ? [named(g.second), ' (2nd)'] : named(g.white)), el('td', {}, `${g.size}×${g.size}`),
			el('td', {}, (full ? full.moves.length : '') + (g.phase === 'counting' ? ' (counting)' : '')), el('td', {}, clocks));
	}));
	$('#live-games tbody').replaceChildren(...rows, ...(rows.length ? [] : [el('tr', {}, el('td', {colspan: 6}, 'No game in play.'))]));
}

// Is t over: its last round paired and every game of it with a result (as the tournament page
// says "finished"; it read "5 of 5" like a round in play)?
async function finished(t) {
	const rounds = t.settings && t.settings.rounds;
	if (!eventOver(rounds, t.round, [])) return false; // not at its last round: no need to ask
	const r = await request('tournament.pairings', {tournament: t.id, round: t.round});
	return r.ok && eventOver(rounds, t.round, r.pairings);
}

async function tournaments() {
	const r = await call('tournament.list');
	const over = await Promise.all(r.tournaments.map(finished));
	$('#tournaments tbody').replaceChildren(...r.tournaments.map((t, i) => el('tr', {'data-tournament': t.id},
		el('td', {}, link('/tournament/' + t.id, t.name)), el('td', {}, t.system.replace(/_/g, ' ')), el('td', {}, t.players),
		el('td', {}, over[i] ? 'finished' : t.round ? `${t.round} of ${t.settings && t.settings.rounds ? t.settings.rounds : '?'}`
			: 'not started'))),
		...(r.tournaments.length ? [] : [el('tr', {}, el('td', {colspan: 4}, 'No tournament yet.'))]));
}

async function refresh() {
	try {
		await Promise.all([leaderboard().then(liveGames), tournaments(), myGames()]);
	} catch (e) { say(e.message, 'error'); }
}

// ---- playing ----

function challengeItem(game, from, settings) {
	// a prediction-rules game has no komi and no colours yet: its first player instead
	const terms = settings.rules && settings.rules.ruleset === 'prediction'
		? `prediction rules, first player: ${{me: from, opponent: 'you'}[settings.first] || 'by nigiri'}`
		: `komi ${settings.komi}` + (settings.handicap > 0 ? `, handicap ${settings.handicap}` : '');
	const takes = settings.rules && settings.rules.ruleset === 'prediction' ? ''
		: settings.color === 'nigiri' ? ', colours by nigiri' : `, they take ${settings.color}`;
	const li = el('li', {'data-challenge': game}, `${from} challenges you: ${settings.size}×${settings.size}, ${terms}, `
		+ `${timeText(settings.time)}, ${settings.rated ? 'rated' : 'free'}${takes} `,
	el('button', {class: 'accept', onclick: async () => {
		const r = await request('accept', {game});
		if (!r.ok) say(r.error.message, 'error'); else toGame(game);
	}}, 'Accept'), ' ',
	el('button', {class: 'decline', onclick: async () => {
		const r = await request('decline', {game});
		if (!r.ok) say(r.error.message, 'error'); else li.remove();
	}}, 'Decline'));
	return li;
}

// A challenge of mine, waiting: its terms, and a way to take it back (`decline` by the
// challenger withdraws it; there was none).
function sentItem(c) {
	const s = c.settings;
	const li = el('li', {'data-challenge': c.game, class: 'sent'}, `You challenged ${c.to} (game ${c.game}): ${s.size}×${s.size}, `
		+ `${s.rules && s.rules.ruleset === 'prediction' ? 'prediction rules' : 'komi ' + s.komi}, ${timeText(s.time)}, `
		+ `${s.rated ? 'rated' : 'free'}; waiting. `,
	el('button', {class: 'withdraw', onclick: async () => {
		const r = await request('decline', {game: c.game});
		if (!r.ok) say(r.error.message, 'error'); else { li.remove(); say(`Challenge ${c.game} withdrawn.`); }
	}}, 'Withdraw'));
	return li;
}

async function pending() {
	const r = await request('challenges', {limit: 100});
	if (!r.ok) return;
	$('#challenges').replaceChildren(...r.challenges.map((c) => c.direction === 'received'
		? challengeItem(c.game, c.from, c.settings)
		: sentItem(c)));
}

// A listed game's players: Black – White, or a prediction game's first – second player until
// the predictions decide the colours (black and white are null then).
function players(g) {
	return g.first ? `${g.first} – ${g.second}, prediction rules` : `${g.black} – ${g.white}`;
}

async function myGames() {
	const me = player();
	if (!me) return;
	const lists = await Promise.all(['playing', 'counting', 'scheduled'].map((phase) => call('games', {player: me.name, phase, limit: 20})));
	$('#my-games').replaceChildren(...lists.flatMap((r) => r.games).map((g) =>
		el('li', {'data-game': g.id}, link('/game/' + g.id, `#${g.id} ${players(g)} (${g.phase}`
			+ (myTurn.has(g.id) ? ', your move' : '') + ')'))));
}

function loggedIn() {
	$('#play-panel').hidden = !player();
	if (player()) { pending(); myGames(); }
}

async function main() {
	await header();
	on('login', loggedIn);
	on('logout', loggedIn);
	on('challenge', (e) => $('#challenges').append(challengeItem(e.game, e.from, e.settings)));
	on('challenge.declined', (e) => {
		const me = player();
		if (!me || e.by !== me.name) say(`Game ${e.game}: the challenge was declined by ${e.by}.`); // not my own withdrawal
		pending();
	});
	on('challenge.expired', () => pending());
	on('game.start', (e) => toGame(e.game));
	// at login, each live game of mine: the ones where I am to move, and my clock runs (after
	// a server's restart it waited for this login), are said, not only listed
	on('game.state', (e) => {
		const g = e.game, me = player();
		if (!g || !me || g.phase !== 'playing' || !g.to_move) return;
		if ((g.to_move === 'B' ? g.black : g.white) !== me.name) return;
		myTurn.add(g.id);
		say(`Your move in game ${g.id} (${g.black} – ${g.white}): your clock is running.`);
		myGames();
	});
	$('#challenge-form').addEventListener('submit', async (ev) => {
		ev.preventDefault();
		// an empty komi box is the server's default (7.5), not 0
		const komi = $('#ch-komi').value.trim();
		const r = await request('challenge', {opponent: $('#ch-opponent').value.trim(), size: +$('#ch-size').value,
			...(komi === '' ? {} : {komi: +komi}), time: timeControl($('#ch-time').value), color: $('#ch-color').value,
			rated: $('#ch-rated').checked});
		if (!r.ok) { say(r.error.message, 'error'); return; }
		say(`Challenge sent (game ${r.game}): waiting for ${$('#ch-opponent').value}.`);
		pending();
	});
	loggedIn();
	await refresh();
	setInterval(refresh, LOBBY_REFRESH_MS);
}

main().catch((e) => say(e.message, 'error'));
