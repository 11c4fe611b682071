// tournament.js: the tournament page /tournament/ID: standings with every tie-break column
// (Art. 27), the cross-table, pairings by round with results; read again every
// TOURNAMENT_REFRESH_MS. "Projector view" (or ?view=projector) shows the standings alone, large.
import {call, request, on} from './conn.js';
import {el, $, header, say, playerLink, link, idFromPath, notFound, eventOver} from './ui.js';

const TOURNAMENT_REFRESH_MS = 5000;
const id = idFromPath();

// A round of the cross-table as the CSV export and `tengen td crosstable` write it
// (docs/tiebreaks.md): the opponent's number, + - = (? while it has no result), / for a game
// played or ! for one not played (the pairing's `forfeit`: a forfeit not won at the board, a
// double loss), the colour, the handicap if any: "3+/w", "12-/b2", "5+!w", "5-!b". It wrote
// a forfeit "5+!/w", a double loss "5-/w" and a game lost by warnings (B+F, played) "5-!/b".
// p.result: "B+..." or "W+..." (the winner first), "0", "double_loss", null while unplayed.
function roundField(num, p, col) {
	const r = p.result;
	const sign = !r ? '?' : r === '0' ? '=' : r === 'double_loss' ? '-' : r[0] === col ? '+' : '-';
	return `${num}${sign}${p.forfeit ? '!' : '/'}${col.toLowerCase()}${p.handicap > 0 ? p.handicap : ''}`;
}

// A pairing's result, or while it has none what its game is doing (the pairing's `phase` and
// `paused`: it read "no result yet" for a game not begun and one in play alike).
function resultText(p) {
	if (!p.result) {
		if (p.paused) return 'paused';
		return {scheduled: 'not begun', playing: 'in play', counting: 'counting'}[p.phase] || 'no result yet';
	}
	return {double_loss: 'double loss', '0': 'draw'}[p.result] || p.result;
}

function standings(st) {
	const rows = st.standings;
	const tbs = rows.length ? Object.keys(rows[0].tiebreaks || {}) : [];
	const main = st.score && st.score !== 'PTS';
	$('#standings thead').replaceChildren(el('tr', {}, el('th', {}, '#'), el('th', {}, 'Player'), el('th', {}, 'Points'),
		main ? el('th', {}, st.score) : null, el('th', {}, 'W'), el('th', {}, 'D'), el('th', {}, 'L'), el('th', {}, 'Byes'),
		el('th', {}, 'Warnings'), ...tbs.filter((t) => t !== 'WARN').map((t) => el('th', {}, t))));
	$('#standings tbody').replaceChildren(...rows.map((r) => el('tr', {'data-player': r.player},
		el('td', {}, r.rank), el('td', {}, playerLink(r.player)), el('td', {class: 'points'}, r.points),
		main ? el('td', {}, r.score) : null, el('td', {}, r.wins), el('td', {}, r.draws), el('td', {}, r.losses),
		el('td', {}, r.byes), el('td', {}, r.warnings), // WARN, a tie-break, is this count: one column
		...tbs.filter((t) => t !== 'WARN').map((t) => el('td', {}, r.tiebreaks[t])))));
}

function crosstable(st, rounds) {
	const order = st.standings.map((r) => r.player), pos = new Map(order.map((p, i) => [p, i + 1]));
	$('#crosstable thead').replaceChildren(el('tr', {}, el('th', {}, '#'), el('th', {}, 'Player'),
		...rounds.map((r) => el('th', {}, 'R' + r.round)), el('th', {}, 'Points')));
	$('#crosstable tbody').replaceChildren(...st.standings.map((s, i) => el('tr', {'data-player': s.player},
		el('td', {}, i + 1), el('td', {}, playerLink(s.player)),
		...rounds.map((r) => {
			if ((r.byes || []).includes(s.player)) return el('td', {}, 'bye');
			// the round's last game of the player: a knockout's replay of a draw comes after
			// it; a void game is no game, as in the CSV
			const p = r.pairings.filter((x) => x.black === s.player || x.white === s.player).pop();
			if (!p || p.result === 'Void') return el('td', {}, '–');
			const col = p.black === s.player ? 'B' : 'W', opp = col === 'B' ? p.white : p.black;
			return el('td', {title: `${s.player} vs ${opp}: ${resultText(p)}`},
				link('/game/' + p.game, roundField(pos.get(opp) || '?', p, col)));
		}),
		el('td', {}, s.points))));
}

function pairings(rounds) {
	const row = (p) => el('tr', {'data-game': p.game},
		el('td', {}, link('/game/' + p.game, '#' + p.game)), el('td', {}, playerLink(p.black)), el('td', {}, '–'),
		el('td', {}, playerLink(p.white)), el('td', {}, p.handicap > 1 ? `H${p.handicap}` : ''),
		el('td', {class: 'result', 'data-phase': p.result ? 'ended' : p.phase || ''}, resultText(p)));
	const bye = (b) => el('tr', {}, el('td', {}), el('td', {}, playerLink(b)), el('td', {}, 'bye'));
	$('#rounds').replaceChildren(...rounds.slice().reverse().map((r) => el('div', {class: 'round', 'data-round': r.round},
		el('h4', {}, 'Round ' + r.round),
		el('table', {}, el('thead', {}, el('tr', {}, el('th', {}, 'Game'), el('th', {}, 'Black'), el('th', {}),
			el('th', {}, 'White'), el('th', {}, 'Handicap'), el('th', {}, 'Result'))),
		el('tbody', {}, ...r.pairings.map(row), ...(r.byes || []).map(bye))))));
}

async function load() {
	const t = (await call('tournament.get', {tournament: id})).tournament;
	document.title = `tengen: ${t.name}`;
	$('#name').textContent = t.name;
	const s = t.settings || {};
	$('#info').textContent = `${t.system.replace(/_/g, ' ')}, ${t.players ?? (t.field || []).length} players, `
		+ (t.round ? `round ${t.round} of ${s.rounds ?? '?'}` : `not started (${s.rounds ?? '?'} round${s.rounds === 1 ? '' : 's'})`)
		+ `, ${s.size}×${s.size}, ${s.rules && s.rules.ruleset === 'prediction' ? 'prediction rules (no komi: the players\' predictions set each game\'s bar)' : 'komi ' + s.komi}` + (t.director ? `, director ${t.director}` : '');
	const rounds = [];
	for (let r = 1; r <= t.round; r++) rounds.push(await call('tournament.pairings', {tournament: id, round: r}));
	const st = await call('tournament.standings', {tournament: id});
	standings(st);
	crosstable(st, rounds);
	pairings(rounds);
	// the last round played out: say it is over (it read "round 5 of 5" like one in play)
	const over = eventOver(s.rounds, t.round, rounds.length ? rounds[rounds.length - 1].pairings : null);
	if (over) $('#info').textContent += ', finished';
	$('#info').dataset.finished = over ? 'yes' : 'no';
	$('#updated').textContent = 'updated ' + new Date().toLocaleTimeString([], {hour12: false}); // 24 h, as the other times
}

async function main() {
	if (new URLSearchParams(location.search).get('view') === 'projector') document.body.classList.add('projector');
	$('#projector').addEventListener('click', () => {
		document.body.classList.add('projector');
		history.replaceState(null, '', '?view=projector');
	});
	// Escape, or the small button in the corner, leaves the projector view (its header and
	// other buttons are hidden)
	const leave = () => {
		document.body.classList.remove('projector');
		history.replaceState(null, '', location.pathname);
	};
	$('#leave-projector').addEventListener('click', leave);
	document.addEventListener('keydown', (ev) => {
		if (ev.key === 'Escape' && document.body.classList.contains('projector')) leave();
	});
	await header();
	// no such tournament: say so, and no empty tables (it showed the protocol's own error)
	const got = id > 0 ? await request('tournament.get', {tournament: id}) : null;
	if (!got || !got.ok) {
		notFound($('#name'), id > 0 ? `No tournament ${id}` : 'No such tournament', 'main > :not(#name)');
		say(id > 0 ? got.error.message : 'A tournament\'s address is /tournament/NUMBER.', 'error');
		return;
	}
	// A round of this event paired with an online game of mine starting now: to it at once, as
	// the lobby goes (a player waiting on this page lost twice their delay to the lateness
	// rule, Art. 22.2, and the page showed the old round for up to TOURNAMENT_REFRESH_MS).
	// A later start, or a board event's game (no start time): the new round shown at once.
	on('game.start', (e) => {
		if (e.tournament !== id) return;
		if (e.start_at && e.start_at * 1000 <= Date.now() + TOURNAMENT_REFRESH_MS) location.href = '/game/' + e.game;
		else load().catch((err) => say(err.message, 'error'));
	});
	await load();
	setInterval(() => load().catch((e) => say(e.message, 'error')), TOURNAMENT_REFRESH_MS);
}

main().catch((e) => say(e.message, 'error'));
