// game.js: the game page /game/ID: the live board (observe), clocks, moves, warnings, the
// result, the SGF, stepping through the record, and playing when the viewer is a player.
import {call, request, on, onState, player} from './conn.js';
import {el, $, header, say, playerLink, REASONS, idFromPath, notFound, fmtTime, timeText} from './ui.js';
import {Position, drawBoard, pointOf, vertexOf} from './board.js';
import {Clocks} from './clock.js';

const id = idFromPath();
const FORFEIT = {
	occupied: 'played on an occupied point: the turn is forfeited (Chinese Rules 2002, Art. 19)',
	suicide: 'suicide is forbidden: the turn is forfeited (Art. 5, 19)',
	superko: 'the move repeated a position: the turn is forfeited (Art. 18.3)',
	time: 'the last byo-yomi period ran out: the turn is forfeited (Art. 22.5)',
};
const WARNING = {
	not_your_turn: 'moved out of turn: the move is void and a warning is given (Art. 17.2)',
	superko: 'retook a ko or repeated a position: a warning is given (Art. 18.3)',
};

let game = null;          // the game object
let start = null;         // the position before move 1 (handicap stones)
let history = [];         // positions after each move; history[k-1] after move k
let captures = [];        // [B, W] stones captured after each move
let view = 0;             // the move shown (0: the start); follows the last when `live`
let live = true;
let dead = new Set();     // my dead-stone claim being made
let theirClaim = null;    // the opponent's claim (vertices)
let sgfText = null;
let clocks;
let joined = false;       // this page reported its player present (join)
let heldTimer = 0;        // reloads the game when a clock held after a restart would run
let resumedAt = 0;        // moves recorded when play last resumed after differing claims: a
                          // pass before it does not pair with one after (Art. 21.4)
const HELD_RELOAD_SLACK_MS = 100; // ... this long after, so that it runs by then

function myColor() {
	const me = player();
	if (!me || !game) return null;
	return game.black === me.name ? 'B' : game.white === me.name ? 'W' : null;
}

// The prediction rules (seed 000; docs/rules.md §5): a free four-stone opening, then sealed
// predictions decide the colours and the bar that replaces komi. Until they are shown the
// game has no black and white, only a first and a second player.
function prediction() { return !!game && game.ruleset === 'prediction'; }
function beforeColours() { return prediction() && !game.black && !game.white; }
function myRole() {
	const me = player();
	if (!me || !prediction()) return null;
	return game.first === me.name ? 'first' : game.second === me.name ? 'second' : null;
}
// The opening's placements (Art. 5.2): the first player White, the second Black, the second
// White, the first Black; the name of whoever places stone k (1-4).
function placer(k) { return k === 1 || k === 4 ? game.first : game.second; }
// The colour this viewer would put down now: in the opening the due colour if the placement
// is theirs, else their colour; null if neither.
function myMoveColor() {
	if (prediction() && game.phase === 'opening') {
		const me = player();
		return me && placer(game.moves.length + 1) === me.name ? game.to_move : null;
	}
	return myColor();
}
// The clock that runs: in the opening the placer's (clocks.B is the first player's until the
// predictions, clocks.W the second's), none while predicting, else the side to move's.
function runningClock() {
	if (game.paused || game.held_ms) return null;
	if (prediction() && game.phase === 'opening') return placer(game.moves.length + 1) === game.first ? 'B' : 'W';
	return game.phase === 'playing' ? game.to_move : null;
}
// Whose clock runs first: Black's, or White's after fixed handicap stones (Black places free
// ones on its own clock).
function firstClock() { return game.handicap >= 2 && game.handicap_placement !== 'free' ? 'White' : 'Black'; }
function barText(bar) { return bar ? `${bar.color}+${bar.margin}` : '?'; }
const COLOUR = {B: 'Black', W: 'White'};

// The handicap stones from the record's AB[] (the game object's moves do not hold them).
function startPosition(size, sgf) {
	const p = new Position(size);
	const m = sgf && sgf.match(/AB((?:\[[a-z]{2}\])+)/);
	if (m) for (const [, c] of m[1].matchAll(/\[([a-z]{2})\]/g)) p.grid[c.charCodeAt(1) - 97][c.charCodeAt(0) - 97] = 'B';
	return p;
}

function replay() {
	history = [];
	captures = [];
	let p = start, cap = [0, 0];
	for (const mv of game.moves) {
		p = p.clone();
		const {taken, lost} = p.playFull(mv.color, mv.vertex, {prediction: prediction(), own: mv.removed === 'own'});
		cap = credit(cap, mv.color, taken.length, lost.length);
		history.push(p);
		captures.push(cap);
	}
}

// The captures [Black's, White's] after a move of `color` that took `taken` of the opponent's
// stones and lost `lost` of its own (seed 000, Art. 4.2-4.3: they count for the opponent).
function credit(cap, color, taken, lost) {
	return color === 'B' ? [cap[0] + taken, cap[1] + lost] : [cap[0] + lost, cap[1] + taken];
}

function shownPosition() {
	if (view === game.moves.length && game.board) return Position.fromDiagram(game.board);
	return view ? history[view - 1] : start;
}

function lastVertex() {
	const mv = game.moves[view - 1];
	return mv && mv.vertex !== 'pass' ? mv.vertex : null;
}

function render() {
	const mine = myColor(), role = myRole();
	const counting = game.phase === 'counting' && mine && view === game.moves.length;
	// the opening's placements are played as moves, by whoever's placement is due
	const placing = game.phase === 'opening' && role && view === game.moves.length && !game.paused;
	const playing = (game.phase === 'playing' && mine || placing) && view === game.moves.length && !game.paused;
	// a player looking at an earlier move who clicks is told why nothing happens
	const back = (mine || role) && ['playing', 'counting', 'opening'].includes(game.phase) && view !== game.moves.length;
	// a spectator in the count sees both claims: Black's as crosses, White's as squares (they
	// were only named in the notes)
	const watching = !mine && game.phase === 'counting' && game.claims && view === game.moves.length;
	drawBoard($('#board'), shownPosition(), {
		last: lastVertex(), dead: counting ? dead : watching ? new Set(game.claims.B || []) : game.dead ? new Set(game.dead) : null,
		theirs: counting && theirClaim ? new Set(theirClaim) : watching ? new Set(game.claims.W || []) : null,
		// a counted game's final board shows whose each point is (it showed the dead stones'
		// marks only, beside "Black 46, White 35")
		territory: game.phase === 'ended' && game.score && Array.isArray(game.dead) && view === game.moves.length
			? shownPosition().territory(game.dead) : null,
		onclick: counting ? toggleDead : playing ? playAt
			: back ? () => say(`You are looking at move ${view}: go to the last move (→ or >|) to play.`) : null,
		// the keyboard's cursor only where Enter does something: looking back, ← and → step
		keys: counting || playing,
	});
	const cap = view ? captures[view - 1] : [0, 0];
	// before the predictions the rows are the first and second player, not colours
	for (const sw of document.querySelectorAll('.players .swatch')) sw.hidden = beforeColours();
	$('#captures-B').textContent = cap[0];
	$('#captures-W').textContent = cap[1];
	$('#warnings-B').textContent = game.warnings ? game.warnings.B : 0;
	$('#warnings-W').textContent = game.warnings ? game.warnings.W : 0;
	$('#phase').textContent = game.paused ? 'paused' : prediction() && game.phase === 'opening'
		? `opening: ${placer(game.moves.length + 1)} places ${COLOUR[game.to_move]}, stone ${game.moves.length + 1} of 4 (Art. 5.2)`
		: prediction() && game.phase === 'predicting'
			? `predicting: ${game.first} (first) ${game.sealed.first ? 'has sealed' : 'to seal'}, ${game.second} (second) ${game.sealed.second ? 'has sealed' : 'to seal'} (Art. 5.3)`
			: game.phase + (game.to_move ? `, ${game.to_move === 'B' ? 'Black' : 'White'} to move` : '')
		+ (game.phase === 'scheduled' && game.start_at ? `: starts at ${fmtTime(game.start_at).slice(11)}, ${firstClock()}'s clock runs from then (Art. 22.4)` : '')
		+ (game.held_ms ? ` (after the server's restart, the clock waits for ${game.to_move === 'B' ? game.black : game.white} to reconnect)` : '');
	$('#phase').dataset.phase = game.phase;
	$('#result').textContent = game.result !== null && game.result !== undefined
		? `${game.result}${game.reason ? ', ' + reasonText() : ''}`
		  + (game.score ? ` (Black ${game.score.black}, White ${game.score.white}, ${game.score.bar ? 'bar ' + barText(game.score.bar) : 'komi ' + game.score.komi})` : '')
		: game.phase === 'ended' ? (REASONS[game.reason] || '') : '';
	$('#step-label').textContent = `move ${view} of ${game.moves.length}`;
	$('#step').max = game.moves.length;
	$('#step').value = view;
	const list = $('#moves');
	if (list.children.length !== game.moves.length) {
		list.replaceChildren(...game.moves.map((m) => el('li', {'data-number': m.number, onclick: () => stepTo(m.number)},
			`${m.color} ${m.vertex}`)));
	}
	for (const li of list.children) li.classList.toggle('current', +li.dataset.number === view);
	const inGame = ['playing', 'counting'].includes(game.phase) || prediction() && ['opening', 'predicting'].includes(game.phase);
	$('#play-controls').hidden = !((mine || role) && inGame);
	$('#pass').disabled = !playing || game.phase !== 'playing' || game.to_move !== mine; // no pass in the opening (Art. 5.2)
	$('#resign').disabled = !(mine || role) || !inGame;
	// the sealed prediction (Art. 5.3): once each, while predicting
	$('#predict-controls').hidden = !(role && game.phase === 'predicting' && !game.sealed[role]);
	$('#predict-margin').max = game.size * game.size;
	$('#play-hint').hidden = game.phase === 'predicting';
	$('#counting-controls').hidden = !counting;
	// agreeing needs the opponent's claim (it did nothing, silently, before one came)
	$('#accept-claim').disabled = !theirClaim;
	$('#accept-claim').title = theirClaim ? '' : 'your opponent has not named dead stones yet';
	$('#their-claim').textContent = theirClaim ? `Your opponent marks dead (blue squares): ${theirClaim.join(' ') || 'none'}`
		: watching && (game.claims.B || game.claims.W) ? 'Marked dead: by Black, red crosses; by White, blue squares.' : '';
	$('#you').textContent = mine ? `You ${game.phase === 'ended' ? 'played' : 'play'} ${mine === 'B' ? 'Black' : 'White'}.`
		: role === 'first' ? 'You are the first player: you place stones 1 (White) and 4 (Black), then seal a prediction; the predictions decide the colours.'
		: role === 'second' ? 'You are the second player: you place stones 2 (Black) and 3 (White), then seal a prediction; the predictions decide the colours.'
		: '';
}

// The reason in words; a prediction game's differ: an illegal move there is a repeated
// position (Art. 5.4), and time before the colours ran out in the prediction stage (Art. 5.3(3)).
function reasonText() {
	if (prediction() && game.reason === 'illegal') return 'a move repeated an earlier position (seed 000, Art. 5.4)';
	if (prediction() && game.reason === 'time' && !game.predictions)
		return 'time ran out before the colours were decided: the winner is recorded as White (seed 000, Art. 5.3)';
	return REASONS[game.reason] || game.reason;
}

function stepTo(k) {
	if (!game) return;
	view = Math.max(0, Math.min(game.moves.length, k));
	live = view === game.moves.length;
	render();
}

// A page with no game: none of a game's parts (their buttons threw errors with no game).
function noGame(title) {
	$('#board').replaceChildren();
	notFound($('#title'), title, 'aside > :not(#title)');
}

// A byo-yomi period's full length in ms (the time control's), or 0.
function periodMs() {
	return game && game.time && game.time.system === 'byoyomi' ? game.time.period_s * 1000 : 0;
}

function warningText(color, reason, byDirector) {
	const who = color === 'B' ? 'Black' : 'White';
	return byDirector ? `${who}: director's warning (Art. 23): ${reason}` : `${who}: ${WARNING[reason] || reason}`;
}

// The claims' time (the server's --counting-timeout-s), said once with the count: after it a
// player who has not claimed accepts the other's claim (docs/rules.md, Art. 8 and 21.4).
function claimTime(ms) {
	if (typeof ms !== 'number') return '';
	const s = Math.round(ms / 1000);
	return ` Claims within ${s >= 120 ? `${Math.round(s / 60)} min` : `${s} s`}: then a player who has not claimed accepts the other's claim.`;
}

function explain(text) {
	$('#notes').prepend(el('li', {class: 'warning'}, text));
}

const tournamentNames = new Map(); // tournament id -> its name (a game's page asks once)

async function tournamentName(t) {
	if (!tournamentNames.has(t)) {
		const r = await request('tournament.get', {tournament: t});
		if (!r.ok) return `tournament ${t}`;
		tournamentNames.set(t, r.tournament.name);
	}
	return tournamentNames.get(t);
}

async function load() {
	let r = game && game.phase === 'ended' ? await request('game', {game: id}) : await request('observe', {game: id});
	if (!r.ok && r.error && r.error.code === 'conflict') r = await request('game', {game: id}); // over: not observable
	// the game has as many observers as the server takes (--max-observers): the board as it
	// stands, not live
	const full = !r.ok && r.error && r.error.code === 'rate_limited' ? r.error.message : null;
	if (full) r = await request('game', {game: id});
	if (!r.ok) {
		if (r.error.code === 'not_found') noGame(`No game ${id}`);
		say(r.error.message, 'error');
		return;
	}
	const first = !game;
	game = r.game;
	if (full) say(`${full}: the board is shown as it stood when the page loaded, not live; reload the page to try again.`, 'error');
	$('#title').textContent = `Game ${id}`;
	// a page opened (or reloaded) after warnings were given: the events are gone; what each
	// was for is in the game's warning_log, the counts in its warnings
	if (first) for (const w of game.warning_log || []) explain(warningText(w.color, w.reason, w.by_director));
	if (first && game.warnings)
		for (const c of ['B', 'W'])
			if (game.warnings[c]) explain(`${c === 'B' ? 'Black' : 'White'} ${game.phase === 'ended' ? 'had' : 'has'} ${game.warnings[c]} warning${game.warnings[c] > 1 ? 's' : ''}`
				+ (game.warnings[c] >= 2 ? ': the second lost the game (Art. 24.2)' : game.phase === 'ended' ? ' (Art. 24.1)' : ': each moves one point at the count (Art. 24.1)'));
	// ... and a pass just played, or the count under way with the claims so far (the notes
	// the events wrote are gone); a pass before play last resumed does not pair (Art. 21.4)
	if (first && game.phase === 'playing') {
		resumedAt = game.moves.length - (game.passes || 0);
		const last = game.moves[game.moves.length - 1];
		if (game.passes && last) explain(`${last.color === 'B' ? 'Black' : 'White'} passes`
			+ (myColor() && last.color !== myColor() ? ': a pass from you too ends play and starts the count (Art. 8).' : '.'));
	}
	if (first && game.phase === 'counting') {
		explain('Two passes: counting. Mark the dead stones and agree (Art. 8, 21.4).' + claimTime(game.claim_ms));
		for (const c of ['B', 'W'])
			if (game.claims && game.claims[c]) explain(`${c === 'B' ? 'Black' : 'White'} marks these stones dead: ${game.claims[c].join(' ') || 'none'}`);
	}
	if (sgfText === null || !start) {
		const s = await request('sgf', {game: id});
		sgfText = s.ok ? s.sgf : '';
		start = startPosition(game.size, sgfText);
	}
	replay();
	if (live) view = game.moves.length;
	const tname = game.tournament ? await tournamentName(game.tournament) : null; // before the info is rewritten
	if (beforeColours()) { // clocks.B is the first player's, clocks.W the second's
		$('#black').replaceChildren(playerLink(game.first), ' (first player)');
		$('#white').replaceChildren(playerLink(game.second), ' (second player)');
	} else {
		$('#black').replaceChildren(playerLink(game.black));
		$('#white').replaceChildren(playerLink(game.white));
	}
	// the komi counted with (the server's effective_komi: with n >= 2 handicap stones Black gives
	// back n points, docs/rules.md Art. 11), as the SGF's KM and the count say; the base komi
	// alone read as the game's
	// the two predictions stay shown (the notes that said them are gone after a reload)
	const said = game.predictions ? `${game.first} (first) ${barText(game.predictions.first)}, ${game.second} (second) ${barText(game.predictions.second)}, ` : '';
	const komi = prediction() ? (game.bar ? `prediction rules: ${said}bar ${barText(game.bar)} (komi ${game.komi})`
		: 'prediction rules: no komi, the two sealed predictions set the bar (Art. 5.3)')
		: game.effective_komi !== game.komi && typeof game.effective_komi === 'number'
			? `komi ${game.effective_komi} (${game.komi} + ${game.effective_komi - game.komi} for the handicap stones)` : `komi ${game.komi}`;
	$('#info').textContent = `${game.size}×${game.size}, ${komi}` + (game.handicap ? `, handicap ${game.handicap}` : '')
		+ `, ${timeText(game.time)}`
		+ `, ${game.rated ? 'rated' : 'free'}` + (game.nigiri ? (game.phase === 'ended' ? ', colours never drawn (the challenger is listed first)'
			: ', colours by nigiri at accept (the challenger is listed first)')
			: game.phase === 'pending' ? ', a challenge not yet accepted: the challenger is listed as Black until the colours are settled at accept' : '')
		+ (game.tournament ? ', round ' + game.round + ' of ' : '');
	// the tournament by its name (it read "tournament 1"), linked to its page
	if (game.tournament) $('#info').append(el('a', {href: '/tournament/' + game.tournament}, tname));
	// after a restart the clock of the player to move waits for them (held_ms, Art. 14)
	clocks.set(game.clocks, runningClock(), periodMs());
	clearTimeout(heldTimer);
	if (game.held_ms) heldTimer = setTimeout(load, game.held_ms + HELD_RELOAD_SLACK_MS);
	// the claims so far (a reload in the count): the opponent's to agree with, mine as sent
	const mine = myColor();
	if (game.phase === 'counting' && game.claims && mine) {
		theirClaim = game.claims[mine === 'B' ? 'W' : 'B'];
		if (game.claims[mine] && dead.size === 0) dead = new Set(game.claims[mine]);
	}
	render();
	joinIfMine();
}

// A player opening the page of their online scheduled game reports present (`join`): lateness
// runs until then and is charged twice (Art. 22.2), so not joining cost the first move double.
// A board event's game (no start_at) begins on the server when both join: not from a look.
async function joinIfMine() {
	if (joined || !myColor() || !game.start_at || !(game.phase === 'scheduled' || game.phase === 'playing')) return;
	joined = true;
	const r = await request('join', {game: id});
	if (!r.ok) { joined = false; return; }
	if (Math.round(r.late_ms / 1000) >= 1) // as said below: "0 s" late is none
		explain(`You joined ${Math.round(r.late_ms / 1000)} s after the start: twice that is taken from your main time (Art. 22.2).`);
}

// A move the server would punish, caught before it is sent (the server still judges every
// move): under the Chinese rules a suicide (Art. 19: the turn forfeited) and a simple ko retake
// (Art. 18.3: the turn forfeited and a warning); under the prediction rules (suicide legal,
// own chain removed) any earlier whole-board position (Art. 5.4: the game lost). Null if none.
function refusedHere(v, [x, y]) {
	const n = game.moves.length, now = n ? history[n - 1] : start;
	if (!now || view !== n || game.phase !== 'playing') return null;
	const after = now.clone(), color = myColor(), pred = prediction();
	after.playFull(color, v, {prediction: pred});
	if (!pred && !after.chain(x, y).libs) return `${v} would be suicide: the server would forfeit your turn (Art. 19).`;
	const same = (q) => q && q.grid.every((row, j) => row.every((c, i) => c === after.grid[j][i]));
	if (pred) {
		if (same(start) || history.some(same))
			return `${v} would repeat an earlier position: under the prediction rules that loses the game (Art. 5.4).`;
	} else if (same(n >= 2 ? history[n - 2] : n === 1 ? start : null)) {
		return `${v} retakes the ko at once: play elsewhere first. The server would forfeit your turn and give a warning (Art. 18.3).`;
	}
	return null;
}

let moveInFlight = false;  // a play request is on its way (a double click sends one)

async function playAt(v) {
	if (!game.to_move || game.to_move !== myMoveColor()) {
		say(game.phase === 'opening' ? `It is ${placer(game.moves.length + 1)}'s placement.` : 'It is not your turn.', 'error');
		return;
	}
	const p = pointOf(game.size, v);
	if (p && shownPosition().at(p[0], p[1]) !== '.') { say(`${v} is occupied.`, 'error'); return; } // Art. 19 would forfeit the turn
	const why = p && refusedHere(v, p);
	if (why) { say(why, 'error'); return; }
	if (moveInFlight) return;
	moveInFlight = true;
	const r = await request('play', {game: id, vertex: v, number: game.moves.length + 1});
	moveInFlight = false;
	if (!r.ok) say(r.error.message, 'error'); else say('');
}

function toggleDead(v) {
	const pos = shownPosition(), p = pointOf(game.size, v);
	if (!p || pos.at(p[0], p[1]) === '.') return;
	const chain = pos.chain(p[0], p[1]).stones.map(([a, b]) => vertexOf(game.size, a, b));
	const on = !dead.has(v);
	for (const s of chain) on ? dead.add(s) : dead.delete(s);
	render();
}

function onMove(e) {
	if (e.game !== id || !game) return;
	if (game.moves.length >= e.number) return; // had it already
	const own = e.removed === 'own'; // seed 000, Art. 4.3: the mover removed its own chains
	game.moves.push({number: e.number, color: e.color, vertex: e.vertex, ...(own ? {removed: 'own'} : {})});
	const p = (history.length ? history[history.length - 1] : start).clone();
	p.playFull(e.color, e.vertex, {prediction: prediction(), own});
	p.remove(e.captures || []);
	const last = captures.length ? captures[captures.length - 1] : [0, 0];
	const n = (e.captures || []).length;
	history.push(p);
	captures.push(own ? credit(last, e.color, 0, n) : credit(last, e.color, n, 0));
	game.board = null; // the replayed position is the board now
	game.to_move = e.color === 'B' ? 'W' : 'B';
	// the fourth stone of a prediction game's opening opens the predictions (Art. 5.2-5.3)
	if (prediction() && game.phase === 'opening' && game.moves.length >= 4) {
		game.phase = 'predicting'; // until load() has the game: no fifth placement meanwhile
		render();
		load();
		return;
	}
	if (e.forfeited) explain(`${e.color === 'B' ? 'Black' : 'White'}: ${FORFEIT[e.forfeited] || 'turn forfeited: ' + e.forfeited}`);
	else if (e.vertex === 'pass') { // a pass is easy to miss on the board
		const before = game.moves[game.moves.length - 2];
		const second = before && before.vertex === 'pass' && before.color !== e.color && before.number > resumedAt;
		explain(`${e.color === 'B' ? 'Black' : 'White'} passes` + (second ? ': two passes in a row end play (Art. 8).'
			: myColor() && e.color !== myColor() ? ': a pass from you too ends play and starts the count (Art. 8).' : '.'));
	}
	say(''); // "It is not your turn." and the like are over
	if (live) view = game.moves.length;
	clocks.set(e.clocks, runningClock(), periodMs());
	render();
}

function refresh(e) {
	if (e.game !== id) return;
	load();
}

async function main() {
	if (!(id > 0)) { // /game/abc: say so (the title read "game NaN")
		await header();
		noGame('No such game');
		say('A game\'s address is /game/NUMBER.', 'error');
		return;
	}
	document.title = `tengen: game ${id}`;
	clocks = new Clocks(document.body);
	await header();
	on('game.move', onMove);
	on('game.warning', (e) => {
		if (e.game !== id) return;
		const who = e.color === 'B' ? 'Black' : 'White';
		explain(warningText(e.color, e.reason, e.by_director));
		if (e.warnings >= 2) explain(`${who}: a second warning loses the game (Art. 24.2)`);
		else explain(`${who}: each warning moves one point at the count (Art. 24.1)`);
		refresh(e);
	});
	on('game.counting', (e) => { if (e.game === id) { dead = new Set(); theirClaim = null; explain('Two passes: counting. Mark the dead stones and agree (Art. 8, 21.4).' + claimTime(e.claim_ms)); refresh(e); } });
	on('game.dead', (e) => {
		if (e.game !== id) return;
		if (e.color !== myColor()) theirClaim = e.stones;
		if (game && game.phase === 'counting') game.claims = {...(game.claims || {}), [e.color]: e.stones};
		explain(`${e.color === 'B' ? 'Black' : 'White'} marks these stones dead: ${e.stones.join(' ') || 'none'}`);
		render();
	});
	on('game.resume', (e) => {
		if (e.game !== id) return;
		if (!e.reason && !e.by) resumedAt = game ? game.moves.length : 0; // the claims differed
		explain(e.reason === 'returned' ? `${e.by} is back after the server's restart: their clock runs again (Art. 14).`
			: e.by ? `Resumed by ${e.by} (Art. 14).` : 'The claims differ: play resumes (Art. 21.4).');
		if (e.reason !== 'returned') say(''); // "Claim sent: waiting…" is over
		refresh(e);
	});
	for (const ev of ['game.end', 'game.begin', 'game.paused', 'game.join', 'game.start']) on(ev, refresh);
	// the prediction rules: a player sealed (the value stays hidden), then both are shown
	on('game.sealed', (e) => { if (e.game === id) { explain(`${e.player} has sealed a prediction (Art. 5.3).`); refresh(e); } });
	on('game.predictions', (e) => {
		if (e.game !== id) return;
		const p = e.predictions;
		explain(`Predictions: ${game.first} (first) ${barText(p.first)}, ${game.second} (second) ${barText(p.second)}. `
			+ `Bar ${barText(e.bar)}: ${e.white} takes White, ${e.black} Black; White plays first (Art. 5.3).`);
		refresh(e);
	});
	$('#predict').addEventListener('click', async () => {
		const margin = Number($('#predict-margin').value);
		if (!($('#predict-margin').value.trim() !== '' && margin >= 0 && margin * 2 === Math.round(margin * 2))) {
			say('A prediction is a number of points, 0 or more, in steps of 0.5 (Art. 5.3).', 'error');
			return;
		}
		const r = await request('predict', {game: id, color: $('#predict-color').value, margin});
		if (!r.ok) say(r.error.message, 'error');
		else say('Prediction sealed: your opponent sees it only when both are in.');
	});
	// a challenge accepted while this page watched it (observers get its state, not
	// game.start): the colours, the phase and the clocks (it stayed "pending" to the end)
	on('game.state', (e) => { if (e.game && e.game.id === id) load(); });
	// "Claim sent: waiting…" is over (not "Agreed: the game is counted.", which it cleared)
	on('game.end', (e) => { if (e.game === id && /waiting for your opponent/.test($('#status').textContent)) say(''); });
	on('login', () => { if (game) { render(); joinIfMine(); } });
	// no clock runs while the server is down (Art. 14): stop counting down until it is back
	onState((st) => { if (st === 'closed') clocks.freeze(); });
	// A logout ends the connection's observations (docs/protocol.md): observe again, as anyone
	// may. After a reconnect the page's state is read again, which observes anew.
	on('logout', () => { if (game) { render(); load(); } });
	on('reconnect', () => load());
	$('#pass').addEventListener('click', () => playAt('pass'));
	$('#resign').addEventListener('click', async () => {
		if (!confirm('Resign this game?')) return;
		const r = await request('resign', {game: id});
		if (!r.ok) say(r.error.message, 'error');
	});
	$('#submit-dead').addEventListener('click', async () => {
		const r = await request('dead', {game: id, stones: [...dead]});
		if (!r.ok) say(r.error.message, 'error'); else say(r.ended ? 'Agreed: the game is counted.' : r.resumed ? 'The claims differed: play resumes.' : 'Claim sent: waiting for your opponent.');
	});
	$('#accept-claim').addEventListener('click', () => { if (theirClaim) { dead = new Set(theirClaim); render(); $('#submit-dead').click(); } });
	$('#first').addEventListener('click', () => stepTo(0));
	$('#prev').addEventListener('click', () => stepTo(view - 1));
	$('#next').addEventListener('click', () => stepTo(view + 1));
	$('#last').addEventListener('click', () => stepTo(game.moves.length));
	$('#step').addEventListener('input', (ev) => stepTo(+ev.target.value));
	document.addEventListener('keydown', (ev) => {
		// Alt+← and the like are the browser's (back, forward)
		if (ev.target.tagName === 'INPUT' || !game || ev.altKey || ev.ctrlKey || ev.metaKey) return;
		if (ev.key === 'ArrowLeft') stepTo(view - 1);
		if (ev.key === 'ArrowRight') stepTo(view + 1);
	});
	$('#sgf').addEventListener('click', async () => {
		if (!game) return;
		const s = await call('sgf', {game: id});
		const a = el('a', {href: URL.createObjectURL(new Blob([s.sgf], {type: 'application/x-go-sgf'})), download: `tengen-${id}.sgf`});
		document.body.append(a);
		a.click();
		a.remove();
	});
	await load();
}

main().catch((e) => say(e.message, 'error'));
