// tengen's pages in headless Chromium (run by tests/web/run.sh): a real tengend with --http
// and the repository's web/; players log in and play by clicking, a spectator watches the
// board and the clocks, a tournament page shows standings as results come in. Screenshots of
// each page go to $TENGEN_SHOTS.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, existsSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import net from 'node:net';
import {chromium} from 'playwright-core';

const TENGEND = process.env.TENGEND || './server/tengend';
const SHOTS = process.env.TENGEN_SHOTS || '.';
const MAX_OBSERVERS = 3; // tengend's --max-observers here: the full-game test fills it
const WAIT = 20000; // ms: generous, the suite runs beside the rest of make check -j2 on 2 cores
let dir, daemon, base, tcpPort, browser;

async function waitFile(path) {
	for (let i = 0; i < 300 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 50));
	return parseInt(readFileSync(path, 'utf8'), 10);
}

// A TCP client of the JSON-lines protocol, for the director's side.
function tcpClient(port) {
	const sock = net.connect(port, '127.0.0.1');
	sock.on('error', () => {}); // a restart (the last test) resets it
	let buf = '', id = 1;
	const waiting = new Map(), events = [];
	sock.on('data', (d) => {
		buf += d;
		let nl;
		while ((nl = buf.indexOf('\n')) >= 0) {
			const m = JSON.parse(buf.slice(0, nl));
			buf = buf.slice(nl + 1);
			if (m.event) events.push(m);
			else if (waiting.has(m.id)) { waiting.get(m.id)(m); waiting.delete(m.id); }
		}
	});
	// the first event named `name` for which pred holds (polled; WAIT at most)
	const event = async (name, pred = () => true) => {
		for (let t = 0; t < WAIT; t += 50) {
			const e = events.find((m) => m.event === name && pred(m));
			if (e) return e;
			await new Promise((r) => setTimeout(r, 50));
		}
		throw new Error(`no ${name} event`);
	};
	const req = (cmd, f = {}) => new Promise((res) => {
		const n = id++;
		waiting.set(n, res);
		sock.write(JSON.stringify({cmd, id: n, ...f}) + '\n');
	});
	const ok = async (cmd, f) => {
		const r = await req(cmd, f);
		assert.ok(r.ok, `${cmd}: ${JSON.stringify(r)}`);
		return r;
	};
	return {req, ok, event, close: () => sock.end()};
}

// Start tengend on the test's database: new ports and --create the first time, the same ports
// again after a stop (the restart test).
function startDaemon(tcp, http) {
	daemon = spawn(TENGEND, ['--listen', `127.0.0.1:${tcp}`, '--port-file', join(dir, 'port'), '--http', `127.0.0.1:${http}`,
		'--http-port-file', join(dir, 'http.port'), '--web-root', process.env.TENGEN_WEB_ROOT, '--db', join(dir, 't.db'),
		...(tcp ? [] : ['--create']), '--pwhash-cost', 'fast', '--max-observers', String(MAX_OBSERVERS)],
		{stdio: ['ignore', 'ignore', 'pipe']});
	daemon.stderr.on('data', (d) => { daemon.log = (daemon.log || '') + d; });
}

async function stopDaemon() {
	const exited = new Promise((r) => daemon.on('exit', (code) => r(code)));
	daemon.kill('SIGTERM');
	const code = await exited;
	assert.equal(code, 0, 'tengend stopped uncleanly:\n' + (daemon.log || '').slice(-2000));
}

before(async () => {
	dir = mkdtempSync(join(tmpdir(), 'tengen-web-'));
	startDaemon(0, 0);
	tcpPort = await waitFile(join(dir, 'port'));
	base = `http://127.0.0.1:${await waitFile(join(dir, 'http.port'))}`;
	browser = await chromium.launch({executablePath: process.env.CHROMIUM || '/usr/bin/chromium'});
});

after(async () => {
	if (browser) await browser.close();
	if (daemon) await stopDaemon();
	rmSync(dir, {recursive: true, force: true});
});

async function newPlayer(name, rank = '') {
	const ctx = await browser.newContext({viewport: {width: 1200, height: 800}, acceptDownloads: true});
	const page = await ctx.newPage();
	page.on('pageerror', (e) => { throw new Error(`${name}'s page: ${e.message}`); });
	await page.goto(base + '/');
	// the page's connection first: a click before it is open is answered "not connected" (a
	// cold browser once took longer than the click)
	await page.waitForSelector('#conn.open', {timeout: WAIT});
	await page.fill('#login-name', name);
	await page.fill('#login-password', name + '-password');
	if (rank) await page.fill('#login-rank', rank);
	await page.click('#register');
	await page.waitForSelector('#logout', {timeout: WAIT});
	return page;
}

// Click vertex v on page's board (an empty point) and wait until the stone is drawn on `watch`.
async function click(page, v, color, watchers) {
	await page.click(`[data-point="${v}"]`);
	for (const w of watchers) await w.waitForSelector(`[data-vertex="${v}"][data-color="${color}"]`, {timeout: WAIT});
}

test('two players play a game to the end by clicking; a spectator watches', async () => {
	const alice = await newPlayer('alice', '3k'); // a declared rank at registration
	const bob = await newPlayer('bob');
	await alice.screenshot({path: join(SHOTS, 'lobby.png')});
	// nobody has played: the leaderboard says so (it ranked every account at the starting rating)
	await alice.waitForFunction(() => /No rated games yet/.test(document.querySelector('#leaderboard').textContent), null, {timeout: WAIT});
	// bob challenges alice, who declines: bob is told
	await bob.fill('#ch-opponent', 'alice');
	await bob.click('#ch-send');
	await alice.waitForSelector('[data-challenge] button.decline', {timeout: WAIT});
	await alice.click('[data-challenge] button.decline');
	await bob.waitForFunction(() => /declined by alice/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	assert.equal(await alice.locator('[data-challenge]').count(), 0);
	// alice challenges bob and takes it back (a sent challenge had no button): bob's offer goes
	await alice.fill('#ch-opponent', 'bob');
	await alice.click('#ch-send');
	await bob.waitForSelector('[data-challenge] button.accept', {timeout: WAIT});
	await alice.waitForSelector('[data-challenge].sent button.withdraw', {timeout: WAIT});
	assert.match(await alice.textContent('[data-challenge].sent'), /komi 7\.5/); // its terms
	await alice.click('[data-challenge].sent button.withdraw');
	await bob.waitForFunction(() => !document.querySelector('[data-challenge]'), null, {timeout: WAIT});
	await alice.waitForFunction(() => /withdrawn/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	// alice challenges bob: 9x9, byo-yomi 1 min + 3x10 s, alice Black
	await alice.fill('#ch-opponent', 'bob');
	await alice.selectOption('#ch-size', '9');
	await alice.selectOption('#ch-time', 'byoyomi-60-3-10');
	await alice.selectOption('#ch-color', 'black');
	await alice.click('#ch-send');
	await bob.waitForSelector('[data-challenge] button.accept', {timeout: WAIT});
	await bob.screenshot({path: join(SHOTS, 'lobby-challenge.png')});
	// the spectator: not logged in, in a context of its own, on the challenge's page before it
	// is accepted (the page stayed "pending", with the challenger as Black, to the game's end)
	const challenged = await bob.getAttribute('[data-challenge]', 'data-challenge');
	const spec = await (await browser.newContext({viewport: {width: 1200, height: 800}, acceptDownloads: true})).newPage();
	await spec.goto(`${base}/game/${challenged}`);
	await spec.waitForSelector('#phase[data-phase="pending"]', {timeout: WAIT});
	await Promise.all([bob.waitForURL(/\/game\/\d+$/, {timeout: WAIT}), bob.click('[data-challenge] button.accept')]);
	await alice.waitForURL(/\/game\/\d+$/, {timeout: WAIT}); // game.start takes alice there
	const gameUrl = bob.url();
	assert.equal(alice.url(), gameUrl);
	for (const p of [alice, bob]) await p.waitForSelector('svg.board', {timeout: WAIT});

	assert.equal(gameUrl, `${base}/game/${challenged}`);
	await spec.waitForSelector('#phase[data-phase="playing"]', {timeout: WAIT});
	await spec.waitForSelector('svg.board [data-point="E5"]', {timeout: WAIT});
	assert.equal(await spec.locator('[data-clock="B"]').count(), 1);

	// Black's clock runs before the first move: the spectator sees it go down
	const c0 = await spec.textContent('[data-clock="B"]');
	await spec.waitForFunction((t) => document.querySelector('[data-clock="B"]').textContent !== t, c0, {timeout: WAIT});
	assert.ok(await spec.locator('[data-clock="B"].running').count() === 1, 'Black\'s clock is not the running one');

	// the lobby lists the live game with its players and move number
	const lobby = await (await browser.newContext({viewport: {width: 1200, height: 800}})).newPage();
	await lobby.goto(base + '/');
	const gid = gameUrl.split('/').pop();
	await lobby.waitForSelector(`#live-games [data-game="${gid}"]`, {timeout: WAIT});
	assert.match(await lobby.textContent(`#live-games [data-game="${gid}"]`), /alice.*bob/);
	await lobby.screenshot({path: join(SHOTS, 'lobby-live.png')});
	await lobby.context().close();

	const all = [alice, bob, spec];
	// a capture: White's E6 is taken by E7
	await click(alice, 'E5', 'B', all);
	assert.equal(await spec.getAttribute('[data-last]', 'data-last'), 'E5');
	// now White's clock runs for the spectator, and goes down
	await spec.waitForSelector('[data-clock="W"].running', {timeout: WAIT});
	const w0 = await spec.textContent('[data-clock="W"]');
	await spec.waitForFunction((t) => document.querySelector('[data-clock="W"]').textContent !== t, w0, {timeout: WAIT});
	await click(bob, 'E6', 'W', all);
	await click(alice, 'D6', 'B', all);
	await click(bob, 'A1', 'W', all);
	await click(alice, 'F6', 'B', all);
	// bob plays B1 from the keyboard: the board takes the focus, the cursor starts on the last
	// move (F6), the arrow keys move it (not the move list's step), Enter plays (a keyboard-only
	// player could pass and resign, not play a move)
	await bob.focus('svg.board');
	for (const k of ['ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown'])
		await bob.keyboard.press(k);
	assert.match(await bob.getAttribute('svg.board', 'aria-label'), /at B1: empty/);
	assert.match(await bob.textContent('#step-label'), /move 5 of 5/);
	await bob.keyboard.press('Enter');
	for (const w of all) await w.waitForSelector('[data-vertex="B1"][data-color="W"]', {timeout: WAIT});
	assert.ok(await bob.evaluate(() => document.activeElement && document.activeElement.matches('svg.board')), 'the redraw lost the focus');
	await click(alice, 'E7', 'B', all);
	for (const p of all) {
		await p.waitForFunction(() => !document.querySelector('[data-vertex="E6"]'), null, {timeout: WAIT});
		assert.equal(await p.textContent('#captures-B'), '1');
	}
	await spec.screenshot({path: join(SHOTS, 'game-spectator.png')});
	// a click on a stone is refused by the page, not sent (Art. 19 would forfeit the turn)
	await bob.click('[data-vertex="E5"]');
	await bob.waitForFunction(() => /occupied/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	assert.equal(await spec.locator('#moves li').count(), 7);
	// a suicide (E6, inside Black's four stones) is refused by the page, not sent (Art. 19)
	await bob.click('[data-point="E6"]');
	await bob.waitForFunction(() => /E6 would be suicide/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	assert.equal(await spec.locator('#moves li').count(), 7);
	// a click out of turn is refused by the page, not sent (no warning)
	await alice.click('[data-point="G3"]');
	await alice.waitForSelector('#status.error', {timeout: WAIT});
	assert.equal(await alice.textContent('#warnings-B'), '0');
	// two passes open counting
	await bob.click('#pass');
	await spec.waitForFunction(() => document.querySelectorAll('#moves li').length === 8, null, {timeout: WAIT});
	// the opponent's pass is said, with what a second pass does (it was only a list entry)
	await alice.waitForFunction(() => /White passes: a pass from you too ends play/.test(document.querySelector('#notes').textContent), null, {timeout: WAIT});
	// ... and still after a reload (the notes came from the events only)
	await alice.reload();
	await alice.waitForFunction(() => /White passes: a pass from you too ends play/.test(document.querySelector('#notes').textContent), null, {timeout: WAIT});
	await alice.waitForSelector('#pass:not([disabled])', {timeout: WAIT});
	await alice.click('#pass');
	for (const p of all) await p.waitForSelector('#phase[data-phase="counting"]', {timeout: WAIT});
	// the second pass is said as such (it told Black "a pass from you too ends play" after it)
	await bob.waitForFunction(() => /Black passes: two passes in a row end play/.test(document.querySelector('#notes').textContent), null, {timeout: WAIT});
	// a game being counted stays in the lobby's live games (it dropped out at the two passes)
	const counting = await (await browser.newContext({viewport: {width: 1200, height: 800}})).newPage();
	await counting.goto(base + '/');
	await counting.waitForSelector(`#live-games [data-game="${challenged}"]`, {timeout: WAIT});
	assert.match(await counting.textContent(`#live-games [data-game="${challenged}"]`), /counting/);
	await counting.context().close();
	// a byo-yomi clock read part way through a period (5 s of 20 left, 2 periods): 6 s later
	// the next period is a whole one, 19 s left (it showed 0:04, the part-period again)
	assert.equal(await spec.evaluate(async () => (await import('/js/clock.js')).clockText({main_ms: 0, periods: 2, period_ms: 5000}, 6000, 20000)), '0:19 (1×)');
	// nothing to agree with before the opponent's claim (the button did nothing, silently)
	assert.equal(await bob.isDisabled('#accept-claim'), true);
	// Black marks White's two stones dead (one click marks the chain), White agrees
	await alice.click('[data-vertex="A1"]');
	await alice.waitForSelector('[data-vertex="B1"].dead', {timeout: WAIT});
	await alice.screenshot({path: join(SHOTS, 'game-counting.png')});
	await alice.click('#submit-dead');
	await bob.waitForFunction(() => document.querySelector('#their-claim').textContent.includes('A1'), null, {timeout: WAIT});
	// a reload in the count keeps what the notes said: counting, and Black's claim
	await bob.reload();
	await bob.waitForFunction(() => /Two passes: counting/.test(document.querySelector('#notes').textContent)
		&& /Black marks these stones dead: A1 B1|Black marks these stones dead: B1 A1/.test(document.querySelector('#notes').textContent), null, {timeout: WAIT});
	// and the claims' time (--counting-timeout-s, 300 s by default: what is left of it)
	assert.match(await bob.textContent('#notes'), /Claims within (\d+ s|5 min): then a player who has not claimed accepts the other's claim/);
	// the spectator sees Black's claim on the board (it was only named in the notes)
	await spec.waitForSelector('[data-vertex="A1"].dead', {timeout: WAIT});
	assert.equal(await spec.locator('.stone.dead').count(), 2);
	// the opponent's claim is drawn on the board too (it was only a list of vertices)
	await bob.waitForSelector('[data-theirs="A1"]', {timeout: WAIT});
	assert.equal(await bob.locator('[data-theirs]').count(), 2);
	await bob.screenshot({path: join(SHOTS, 'game-their-claim.png')});
	await bob.click('#accept-claim');
	for (const p of all) await p.waitForSelector('#phase[data-phase="ended"]', {timeout: WAIT});
	// the counting's "Claim sent: waiting for your opponent." does not outlive the game
	await alice.waitForFunction(() => document.querySelector('#status').textContent === '', null, {timeout: WAIT});
	const result = await spec.textContent('#result');
	assert.match(result, /^B\+\d/, 'result: ' + result);
	// the final board shows the territories: White's two dead stones' points are Black's, and
	// no point is White's (Black's wall around the centre, White's only stones dead)
	await spec.waitForSelector('[data-territory="B"][data-at="A1"]', {timeout: WAIT});
	assert.equal(await spec.locator('[data-territory="W"]').count(), 0);
	assert.match(result, /counting/);
	await spec.screenshot({path: join(SHOTS, 'game-ended.png')});

	// step through the finished game
	await spec.click('#first');
	assert.equal(await spec.locator('[data-vertex]').count(), 0);
	await spec.click('#next');
	assert.equal(await spec.locator('[data-vertex]').count(), 1);
	assert.equal(await spec.getAttribute('[data-vertex="E5"]', 'data-color'), 'B');
	for (let i = 0; i < 5; i++) await spec.click('#next');
	assert.equal(await spec.locator('[data-vertex="E6"]').count(), 1, 'E6 stands before move 7');
	await spec.click('#next');
	assert.equal(await spec.locator('[data-vertex="E6"]').count(), 0, 'E6 is captured by move 7');
	await spec.screenshot({path: join(SHOTS, 'game-stepping.png')});
	// the SGF download
	const [dl] = await Promise.all([spec.waitForEvent('download', {timeout: WAIT}), spec.click('#sgf')]);
	const sgf = readFileSync(await dl.path(), 'utf8');
	assert.match(sgf, /SZ\[9\]/);
	assert.match(sgf, /;B\[ee\]/);
	assert.match(sgf, /RE\[B\+/);
	// GNU Go reads it (when installed): the same final position
	if (existsSync('/usr/games/gnugo')) {
		const g = spawnSync('/usr/games/gnugo', ['--mode', 'gtp', '--infile', await dl.path()], {input: 'showboard\nquit\n', encoding: 'utf8'});
		assert.equal(g.status, 0, g.stderr);
		// its board: Black's E5 D6 F6 E7, White's A1 B1 (dead, still on the board), E6 taken
		assert.match(g.stdout, / 7 \. \. \+ \. X \. \+ \. \. 7/);
		assert.match(g.stdout, / 6 \. \. \. X \. X \. \. \. 6/);
		assert.match(g.stdout, / 1 O O \. \. \. \. \. \. \. 1/);
		assert.match(g.stdout, /BLACK \(X\) has captured 1 stones/);
	}

	// the player page: the rating moved after the rated game
	await alice.goto(base + '/player/alice');
	await alice.waitForSelector('#chart svg circle:nth-of-type(2)', {timeout: WAIT});
	// the x axis says when: the game's day (it had no labels)
	assert.match(await alice.textContent('#chart .xlabel'), /^\d{4}-\d\d-\d\d$/);
	assert.match(await alice.textContent('#games tbody'), /bob/);
	assert.match(await alice.textContent('#games .outcome'), /^won: B\+/); // it said B+ beside the colour
	assert.match(await alice.textContent('#profile'), /declared 3k/); // the rank given at registration
	await alice.screenshot({path: join(SHOTS, 'player.png')});
	// the game's time in the viewer's own zone (it was UTC, unmarked): a page in Tokyo (UTC+9)
	const tokyo = await (await browser.newContext({timezoneId: 'Asia/Tokyo'})).newPage();
	await tokyo.goto(base + '/player/alice');
	await tokyo.waitForSelector('#games tbody tr', {timeout: WAIT});
	const shown = (await tokyo.textContent('#games tbody tr td:last-child')).trim();
	const q = tcpClient(tcpPort);
	const ended = (await q.ok('player', {name: 'alice'})).recent_games[0].ended_at;
	q.close();
	const t = new Date((ended + 9 * 3600) * 1000).toISOString(); // Tokyo's wall clock, no DST
	assert.equal(shown, `${t.slice(0, 10)} ${t.slice(11, 16)}`);
	await tokyo.context().close();
});

test('a tournament page shows standings and updates as results are entered', async () => {
	// players and a director over TCP (the director's commands have no page)
	const names = ['carol', 'dave', 'erin'];
	const cs = [];
	for (const n of names) {
		const c = tcpClient(tcpPort);
		await c.ok('register', {name: n, password: n + '-password'});
		cs.push(c);
	}
	const td = tcpClient(tcpPort);
	await td.ok('register', {name: 'tess', password: 'tess-password'});
	const g = spawnSync(TENGEND, ['grant', 'tess', 'td', '--db', join(dir, 't.db')], {encoding: 'utf8'});
	assert.equal(g.status, 0, g.stderr);
	await td.ok('login', {name: 'tess', password: 'tess-password'});
	const t = (await td.ok('tournament.create', {name: 'Web Cup', system: 'round_robin', size: 9})).tournament;
	for (const n of names) await td.ok('tournament.register', {tournament: t, player: n});
	const round = await td.ok('tournament.start_round', {tournament: t});

	const ctx = await browser.newContext({viewport: {width: 1200, height: 900}});
	const page = await ctx.newPage();
	page.on('pageerror', (e) => { throw new Error(`tournament page: ${e.message}`); });
	await page.goto(`${base}/tournament/${t}`);
	for (const n of names) await page.waitForSelector(`#standings [data-player="${n}"]`, {timeout: WAIT});
	assert.match(await page.textContent('#rounds'), /Round 1/);
	const game = round.pairings[0];
	// a game without a result says what it is doing (it read "no result yet" for a game not
	// begun and one in play alike)
	assert.equal(await page.textContent(`#rounds [data-game="${game.game}"] .result`), 'in play');
	// a player who opens the page of their scheduled game reports present (join): the web
	// page never did, and the first move then cost twice the time since the start (Art. 22.2)
	await td.ok('observe', {game: game.game});
	const pctx = await browser.newContext({viewport: {width: 1200, height: 900}});
	const pp = await pctx.newPage();
	pp.on('pageerror', (e) => { throw new Error(`player's page: ${e.message}`); });
	await pp.goto(base + '/');
	await pp.waitForSelector('#conn.open', {timeout: WAIT});
	await pp.fill('#login-name', game.white);
	await pp.fill('#login-password', game.white + '-password');
	await pp.click('#login');
	await pp.waitForSelector('#logout', {timeout: WAIT});
	await pp.goto(`${base}/game/${game.game}`);
	await pp.waitForSelector('svg.board', {timeout: WAIT});
	await td.event('game.join', (e) => e.game === game.game && e.color === 'W');
	await pctx.close();
	// a director's warning, explained on the game's page (Art. 23, 24)
	const gp = await ctx.newPage();
	await gp.goto(`${base}/game/${game.game}`);
	await gp.waitForSelector('svg.board', {timeout: WAIT});
	// the game's tournament by its name, linked (it read "tournament 1")
	await gp.waitForSelector(`#info a[href="/tournament/${t}"]`, {timeout: WAIT});
	assert.equal(await gp.textContent(`#info a[href="/tournament/${t}"]`), 'Web Cup');
	assert.match(await gp.textContent('#info'), /round 1 of Web Cup/);
	await td.ok('tournament.warn', {game: game.game, color: 'B', reason: 'phone rang'});
	await gp.waitForFunction(() => /Art\. 23\): phone rang/.test(document.querySelector('#notes').textContent), null, {timeout: WAIT});
	// the count comes with the game's state, read again after the event (a round trip later)
	await gp.waitForFunction(() => document.querySelector('#warnings-B').textContent === '1', null, {timeout: WAIT});
	assert.match(await gp.textContent('#notes'), /one point at the count \(Art\. 24\.1\)/);
	await gp.screenshot({path: join(SHOTS, 'game-warning.png')});
	// a reload keeps the warning in the notes (the events are gone; the count is in the game)
	await gp.reload();
	await gp.waitForFunction(() => /Black has 1 warning: each moves one point/.test(document.querySelector('#notes').textContent), null, {timeout: WAIT});
	// ... and what it was for (the game's warning_log; it said only the count)
	assert.match(await gp.textContent('#notes'), /Black: director's warning \(Art\. 23\): phone rang/);
	// a result entered while the page is open: it shows by itself
	await td.ok('tournament.result', {game: game.game, result: 'B+R'});
	await page.waitForFunction((b) => document.querySelector(`#standings [data-player="${b}"] .points`).textContent === '2',
		game.black, {timeout: WAIT});
	assert.equal(await page.textContent(`#standings [data-player="${game.white}"] .points`), '0');
	assert.match(await page.textContent(`#rounds [data-game="${game.game}"] .result`), /^B\+/);
	assert.ok((await page.locator('#standings thead th').allTextContents()).includes('SOS') ||
		(await page.locator('#standings thead th').count()) >= 8, 'the tie-break columns');
	assert.match(await page.textContent(`#crosstable [data-player="${game.black}"]`), /\+\/b/);
	// each game's field in the cross-table is the CSV export's, as `tengen td crosstable`
	// prints it (docs/tiebreaks.md): a forfeit read "1+!/w" on the page, "1+!w" in the CSV
	const sameAsCsv = async (pg, tour) => {
		const [head, ...rows] = (await td.ok('tournament.export', {tournament: tour, format: 'csv'})).data.trim().split('\r\n')
			.map((l) => l.split(','));
		let games = 0;
		for (const f of rows) {
			const cells = await pg.locator(`#crosstable [data-player="${f[head.indexOf('Name')]}"] td`).allTextContents();
			for (let r = 1; head.includes('R' + r); r++) {
				const want = f[head.indexOf('R' + r)];
				if (!/^\d/.test(want)) continue; // a bye or no game: the page says it in words
				assert.equal(cells[1 + r], want, `${f[head.indexOf('Name')]}'s round ${r}`);
				games++;
			}
		}
		return games;
	};
	assert.equal(await sameAsCsv(page, t), 2);
	await page.screenshot({path: join(SHOTS, 'tournament.png'), fullPage: true});
	await page.click('#projector');
	assert.ok(await page.evaluate(() => document.body.classList.contains('projector')));
	assert.ok(await page.isHidden('#crosstable-section'));
	assert.ok(await page.isVisible('#rounds .round[data-round="1"]')); // the round in play's pairings
	await page.screenshot({path: join(SHOTS, 'tournament-projector.png')});
	// a way out that a mouse finds (only Esc left it)
	await page.click('#leave-projector');
	assert.ok(!(await page.evaluate(() => document.body.classList.contains('projector'))));
	assert.ok(await page.isVisible('#pairings-section'));
	assert.ok(await page.isHidden('#leave-projector'));
	// a two-player round robin played out: the lobby says "finished" (it read "1 of 1", like
	// a round in play), and "2 of 3" for the cup (its second round in play)
	const final = (await td.ok('tournament.create', {name: 'Web Final', system: 'round_robin', size: 9})).tournament;
	for (const n of names.slice(0, 2)) await td.ok('tournament.register', {tournament: final, player: n});
	const fr = await td.ok('tournament.start_round', {tournament: final, start_at: Date.now() / 1000 + 600});
	// a scheduled game's page says when it starts (it said "scheduled" and showed full clocks)
	await page.goto(`${base}/game/${fr.pairings[0].game}`);
	await page.waitForFunction(() => /scheduled: starts at \d\d:\d\d, Black's clock runs from then/.test(document.querySelector('#phase').textContent), null, {timeout: WAIT});
	await page.goto(`${base}/tournament/${final}`);
	await page.waitForSelector(`#rounds [data-game="${fr.pairings[0].game}"] .result`, {timeout: WAIT});
	assert.equal(await page.textContent(`#rounds [data-game="${fr.pairings[0].game}"] .result`), 'not begun');
	await td.ok('tournament.result', {game: fr.pairings[0].game, result: 'W+F'});
	await page.goto(`${base}/tournament/${final}`);
	await page.waitForFunction((b) => /!/.test(document.querySelector(`#crosstable [data-player="${b}"]`)?.textContent || ''),
		fr.pairings[0].black, {timeout: WAIT});
	assert.equal(await sameAsCsv(page, final), 2);
	assert.match(await page.textContent(`#crosstable [data-player="${fr.pairings[0].white}"]`), /[12]\+!w/);
	// ... and a game lost by warnings, "B+F" as well but played (Art. 24.2): "/" (it read "!/")
	const r2 = await td.ok('tournament.start_round', {tournament: t});
	await td.ok('tournament.result', {game: r2.pairings[0].game, result: 'B+F', reason: 'warnings'});
	await page.goto(`${base}/tournament/${t}`);
	await page.waitForFunction((b) => /\d\+\/b/.test(document.querySelector(`#crosstable [data-player="${b}"] td:nth-child(4)`)?.textContent || ''),
		r2.pairings[0].black, {timeout: WAIT});
	assert.equal(await sameAsCsv(page, t), 4);
	// a phone (390 px wide): no page is wider than the screen (the lobby was 414 px, this
	// tournament page 558, a player's rating chart a fixed 600), and the colour dots show
	const phone = await (await browser.newContext({viewport: {width: 390, height: 844}})).newPage();
	phone.on('pageerror', (e) => { throw new Error(`phone page: ${e.message}`); });
	for (const [path, ready] of [['/', '#login-name'], [`/tournament/${t}`, '#standings [data-player]'],
		[`/player/${game.black}`, 'svg.chart'], [`/game/${game.game}`, 'svg.board']]) {
		await phone.goto(base + path);
		await phone.waitForSelector(ready, {timeout: WAIT});
		const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
		assert.ok(wide <= 390, `${path} is ${wide} px wide on a 390 px phone`);
		if (path !== '/') continue;
		// the header logged out: three lines at most (it took four and a half, 145 px, a
		// fifth of the screen), a new account's rank and button on one line
		const head = await phone.evaluate(() => document.querySelector('header').getBoundingClientRect().height);
		assert.ok(head <= 110, `the header is ${head} px high on a phone`);
		const [rk, rg] = await Promise.all(['#login-rank', '#register'].map((q) => phone.locator(q).boundingBox()));
		assert.ok(Math.abs(rk.y - rg.y) < rk.height, `rank ${JSON.stringify(rk)} and Register ${JSON.stringify(rg)} on one line`);
		// the leaderboard: the players of the rated game, not the director who never played
		await phone.waitForSelector(`#leaderboard [data-player="${game.black}"]`, {timeout: WAIT});
		assert.equal(await phone.locator('#leaderboard [data-player="tess"]').count(), 0);
		await phone.waitForFunction((f) => /finished/.test(document.querySelector(`#tournaments [data-tournament="${f}"]`)?.textContent || ''),
			final, {timeout: WAIT});
		assert.match(await phone.textContent(`#tournaments [data-tournament="${t}"]`), /2 of 3/);
	}
	// a game that is not there says so (the title read "game NaN" for /game/abc)
	await phone.goto(base + '/game/abc');
	await phone.waitForSelector('#status.error', {timeout: WAIT});
	assert.equal(await phone.textContent('#title'), 'No such game');
	assert.doesNotMatch(await phone.title(), /NaN/);
	await phone.goto(base + '/game/987654');
	await phone.waitForFunction(() => document.querySelector('#title').textContent === 'No game 987654', null, {timeout: WAIT});
	for (const [path, title] of [['/tournament/abc', 'No such tournament'], ['/tournament/9999', 'No tournament 9999'],
		['/player/nobody', 'No player nobody']]) { // they showed empty tables, or the protocol's words
		await phone.goto(base + path);
		await phone.waitForFunction((t) => document.querySelector('#name').textContent === t, title, {timeout: WAIT});
	}
	// an entrant's name (no account) has no page: said so, not the server's field error (the
	// tournament page linked entrants there)
	await phone.goto(base + '/player/Doe%20John');
	await phone.waitForFunction(() => document.querySelector('#name').textContent === 'No player Doe John', null, {timeout: WAIT});
	assert.match(await phone.textContent('#status'), /Only players with accounts have a page/);
	assert.doesNotMatch(await phone.textContent('#status'), /field 'name'/);
	await phone.goto(`${base}/game/${game.game}`);
	await phone.waitForSelector('svg.board', {timeout: WAIT});
	const dot = await phone.locator('.swatch').first().boundingBox();
	assert.ok(dot && dot.width >= 10, 'the colour dot: ' + JSON.stringify(dot));
	assert.ok(Math.abs(dot.width - dot.height) <= 1, 'the colour dot is round: ' + JSON.stringify(dot)); // an oval in its cell
	await phone.screenshot({path: join(SHOTS, 'phone-game.png'), fullPage: true});
	for (const c of [...cs, td]) c.close();
});

test('a simple ko retake is refused by the page, not sent (it would cost a warning)', async () => {
	const nora = await newPlayer('nora');
	const otto = tcpClient(tcpPort);
	await otto.ok('register', {name: 'otto', password: 'otto-password'});
	await otto.ok('login', {name: 'otto', password: 'otto-password'});
	const game = (await otto.ok('challenge', {opponent: 'nora', size: 9, color: 'white', rated: false})).game;
	// lobby noise; a 3-stone challenge at komi 0.5, whose page gives the komi counted with
	const hcp = (await otto.ok('challenge', {opponent: 'nora', size: 9, color: 'white', rated: false, handicap: 3, komi: 0.5})).game;
	await nora.goto(`${base}/game/${game}`);
	await nora.waitForSelector('svg.board', {timeout: WAIT});
	const acc = tcpClient(tcpPort);
	await acc.ok('login', {name: 'nora', password: 'nora-password'});
	await acc.ok('accept', {game});
	acc.close();
	await nora.waitForSelector('#phase[data-phase="playing"]', {timeout: WAIT});
	// Black (the page) H3 G2 J2 H1, White G3 F2 G1, then White's H2 takes G2: a ko
	const black = ['H3', 'G2', 'J2', 'H1'], white = ['G3', 'F2', 'G1', 'H2'];
	for (let i = 0; i < 4; i++) {
		await click(nora, black[i], 'B', [nora]);
		await otto.ok('play', {game, vertex: white[i], number: 2 * i + 2});
		await nora.waitForSelector(`[data-vertex="${white[i]}"][data-color="W"]`, {timeout: WAIT});
	}
	await nora.waitForFunction(() => !document.querySelector('[data-vertex="G2"]'), null, {timeout: WAIT});
	await nora.click('[data-point="G2"]');
	await nora.waitForFunction(() => /G2 retakes the ko at once/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	const g = (await otto.ok('game', {game})).game;
	assert.equal(g.moves.length, 8, 'the retake was sent');
	assert.equal(g.warnings.B, 0);
	// elsewhere is fine, and then the ko may be taken back
	await click(nora, 'C3', 'B', [nora]);
	await otto.ok('play', {game, vertex: 'C7', number: 10});
	await nora.waitForSelector('[data-vertex="C7"][data-color="W"]', {timeout: WAIT});
	await click(nora, 'G2', 'B', [nora]);
	await nora.waitForFunction(() => !document.querySelector('[data-vertex="H2"]'), null, {timeout: WAIT});
	// the handicap challenge: komi 3.5, as KM (it said komi 0.5)
	await nora.goto(`${base}/game/${hcp}`);
	await nora.waitForFunction(() => /komi 3\.5 \(0\.5 \+ 3 for the handicap stones\), handicap 3/.test(document.querySelector('#info').textContent), null, {timeout: WAIT});
	otto.close();
	await nora.context().close();
});

test('a prediction-rules game from the page: the opening placed by clicks, a sealed prediction, an own removal replayed', async () => {
	// rosa (the page) is the first player: she places stones 1 (White) and 4 (Black), seals
	// W+5 against sven's W+3 and so takes White (seed 000, Art. 5.2-5.3; docs/rules.md §5)
	const rosa = await newPlayer('rosa');
	const sven = tcpClient(tcpPort);
	await sven.ok('register', {name: 'sven', password: 'sven-password'});
	await sven.ok('login', {name: 'sven', password: 'sven-password'});
	const game = (await sven.ok('challenge', {opponent: 'rosa', size: 5, rated: false, rules: {ruleset: 'prediction'}, first: 'opponent'})).game;
	const acc = tcpClient(tcpPort);
	await acc.ok('login', {name: 'rosa', password: 'rosa-password'});
	await acc.ok('accept', {game});
	acc.close();
	// the lobby goes to the game by itself (game.start)
	await rosa.waitForURL(`**/game/${game}`, {timeout: WAIT});
	await rosa.waitForSelector('#phase[data-phase="opening"]', {timeout: WAIT});
	const text = (sel) => rosa.$eval(sel, (e) => e.textContent);
	assert.match(await text('#you'), /You are the first player: you place stones 1 \(White\) and 4 \(Black\)/);
	assert.match(await text('#black'), /rosa \(first player\)/);
	assert.match(await text('#white'), /sven \(second player\)/);
	assert.match(await text('#info'), /prediction rules: no komi/);
	assert.match(await text('#phase'), /opening: rosa places White, stone 1 of 4/);
	// the lobby lists it by first and second player (its black and white are null: "null – null")
	await rosa.goto(base + '/');
	await rosa.waitForFunction((g) => /rosa – sven, prediction rules \(opening/.test(document.querySelector(`#my-games [data-game="${g}"]`)?.textContent || '')
		&& /rosa.*\(1st\).*sven.*\(2nd\)/.test(document.querySelector(`#live-games [data-game="${g}"]`)?.textContent || ''), game, {timeout: WAIT});
	await rosa.goto(`${base}/game/${game}`);
	await rosa.waitForSelector('#phase[data-phase="opening"]', {timeout: WAIT});
	// the opening: C5 (rosa, White), A5 and A4 (sven), B4 (rosa, Black); out of turn is said
	await click(rosa, 'C5', 'W', [rosa]);
	await rosa.click('[data-point="E5"]');
	await rosa.waitForFunction(() => /It is sven's placement/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	await sven.ok('play', {game, vertex: 'A5'});
	await sven.ok('play', {game, vertex: 'A4'});
	await rosa.waitForSelector('[data-vertex="A4"][data-color="W"]', {timeout: WAIT});
	await click(rosa, 'B4', 'B', [rosa]);
	await rosa.waitForSelector('#phase[data-phase="predicting"]', {timeout: WAIT});
	await rosa.waitForSelector('#predict-controls:not([hidden])', {timeout: WAIT});
	assert.match(await text('#phase'), /predicting: rosa \(first\) to seal, sven \(second\) to seal/);
	// a margin the rules do not take is said here, and nothing is sent
	await rosa.fill('#predict-margin', '5.3');
	await rosa.click('#predict');
	await rosa.waitForFunction(() => /steps of 0\.5/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	assert.equal((await sven.ok('game', {game})).game.sealed.first, false);
	await rosa.selectOption('#predict-color', 'W');
	await rosa.fill('#predict-margin', '5');
	await rosa.click('#predict');
	await rosa.waitForFunction(() => /Prediction sealed/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	await rosa.waitForSelector('#predict-controls[hidden]', {state: 'attached', timeout: WAIT});
	await rosa.waitForFunction(() => /rosa \(first\) has sealed/.test(document.querySelector('#phase').textContent), null, {timeout: WAIT});
	await sven.ok('predict', {game, color: 'W', margin: 3});
	await rosa.waitForSelector('#phase[data-phase="playing"]', {timeout: WAIT});
	await rosa.waitForFunction(() => /Predictions: rosa \(first\) W\+5, sven \(second\) W\+3\. Bar W\+4: rosa takes White/.test(document.querySelector('#notes').textContent), null, {timeout: WAIT});
	assert.match(await text('#white'), /^rosa$/);
	assert.match(await text('#black'), /^sven$/);
	assert.match(await text('#info'), /prediction rules: rosa \(first\) W\+5, sven \(second\) W\+3, bar W\+4 \(komi -4\)/);
	assert.match(await text('#you'), /You play White/);
	// play, White first: then Black's B5 leaves both sides without liberties and Black
	// removes its own chain (B5 A5 B4), White's C5 C4 live on (Art. 4.3)
	const white = ['C4', 'B3', 'E1', 'E2'], black = ['D5', 'D4', 'C3'];
	for (let i = 0; i < 4; i++) {
		await click(rosa, white[i], 'W', [rosa]);
		if (i < 3) {
			await sven.ok('play', {game, vertex: black[i], number: 6 + 2 * i});
			await rosa.waitForSelector(`[data-vertex="${black[i]}"][data-color="B"]`, {timeout: WAIT});
		}
	}
	assert.equal((await sven.ok('play', {game, vertex: 'B5', remove: 'own', number: 12})).move.removed, 'own');
	const ownRemoved = async () => {
		await rosa.waitForFunction(() => !document.querySelector('[data-vertex="B5"]') && !document.querySelector('[data-vertex="A5"]')
			&& !document.querySelector('[data-vertex="B4"]'), null, {timeout: WAIT});
		for (const v of ['C5', 'C4']) assert.ok(await rosa.$(`[data-vertex="${v}"][data-color="W"]`), `${v} is gone`);
		assert.equal(await text('#captures-W'), '3');
		assert.equal(await text('#captures-B'), '0');
	};
	await ownRemoved(); // live, from game.move
	await rosa.screenshot({path: join(SHOTS, 'prediction.png')});
	// the record replayed from the game object (a new page), and stepped back and forth
	await rosa.goto(`${base}/game/${game}`);
	await rosa.waitForSelector('#phase[data-phase="playing"]', {timeout: WAIT});
	await ownRemoved();
	// the predictions are still said (the note of them went with the old page)
	assert.match(await text('#info'), /rosa \(first\) W\+5, sven \(second\) W\+3, bar W\+4/);
	await rosa.click('#prev');
	await rosa.waitForSelector('[data-vertex="A5"][data-color="B"]', {timeout: WAIT});
	await rosa.click('#next');
	await ownRemoved();
	sven.close();
	await rosa.context().close();
});

test('a game with as many observers as the server takes shows its board, not live, and says so', async () => {
	const pat = tcpClient(tcpPort), quinn = tcpClient(tcpPort);
	await pat.ok('register', {name: 'pat', password: 'pat-password'});
	await pat.ok('login', {name: 'pat', password: 'pat-password'});
	await quinn.ok('register', {name: 'quinn', password: 'quinn-password'});
	await quinn.ok('login', {name: 'quinn', password: 'quinn-password'});
	const game = (await pat.ok('challenge', {opponent: 'quinn', size: 9, color: 'black', rated: false})).game;
	await quinn.ok('accept', {game});
	await pat.ok('play', {game, vertex: 'E5'});
	const watchers = [];
	for (let i = 0; i < MAX_OBSERVERS; i++) {
		watchers.push(tcpClient(tcpPort));
		await watchers[i].ok('observe', {game});
	}
	const late = await (await browser.newContext({viewport: {width: 1200, height: 800}})).newPage();
	await late.goto(`${base}/game/${game}`);
	await late.waitForSelector('[data-vertex="E5"][data-color="B"]', {timeout: WAIT});
	await late.waitForFunction(() => /the most one game takes .*not live; reload the page/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	// a place comes free: a reload watches live
	await watchers[0].ok('unobserve', {game});
	await late.reload();
	await late.waitForSelector('[data-vertex="E5"][data-color="B"]', {timeout: WAIT});
	await quinn.ok('play', {game, vertex: 'C3'});
	await late.waitForSelector('[data-vertex="C3"][data-color="W"]', {timeout: WAIT});
	await late.context().close();
	for (const c of [pat, quinn, ...watchers]) c.close();
});

test('pages reconnect by themselves after a server restart; a logout keeps the board live', async () => {
	const ivy = tcpClient(tcpPort), jon = tcpClient(tcpPort);
	for (const [c, n] of [[ivy, 'ivy'], [jon, 'jon']]) {
		await c.ok('register', {name: n, password: n + '-password'});
		await c.ok('login', {name: n, password: n + '-password'});
	}
	const game = (await ivy.ok('challenge', {opponent: 'jon', size: 9, color: 'black', rated: false,
		time: {system: 'absolute', main_s: 600}})).game;
	await jon.ok('accept', {game});
	const kim = await newPlayer('kim'), lee = await newPlayer('lee'); // two spectators, logged in
	for (const p of [kim, lee]) {
		await p.goto(`${base}/game/${game}`);
		await p.waitForSelector('svg.board', {timeout: WAIT});
	}
	await ivy.ok('play', {game, vertex: 'E5'});
	for (const p of [kim, lee]) await p.waitForSelector('[data-vertex="E5"][data-color="B"]', {timeout: WAIT});
	// a logout ends the connection's observations: the page observes again (it froze before)
	await kim.click('#logout');
	await kim.waitForSelector('#login-form', {timeout: WAIT});
	await jon.ok('play', {game, vertex: 'C3'});
	await kim.waitForSelector('[data-vertex="C3"][data-color="W"]', {timeout: WAIT});
	// Black's clock has counted down a second or two on lee's page when the server goes
	const secs = (t) => t.split(':').reduce((a, x) => a * 60 + Number(x), 0);
	const atMove = await lee.textContent('[data-clock="B"]');
	await lee.waitForFunction((t) => document.querySelector('[data-clock="B"]').textContent !== t, atMove, {timeout: WAIT});
	const beforeStop = secs(await lee.textContent('[data-clock="B"]'));
	// the server restarts on the same ports: the pages say so, connect again, log in again
	// (lee), observe again and show the moves made after (they stayed dead before)
	ivy.close();
	jon.close();
	await stopDaemon();
	for (const p of [kim, lee])
		await p.waitForFunction(() => /reconnecting/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	// while it is down the clock stands where it was: it jumped back up to its value at the
	// last move, time the player no longer has (a clean stop charges the turn's used part)
	const down = secs(await lee.textContent('[data-clock="B"]'));
	assert.ok(down <= beforeStop, `Black's clock went from ${beforeStop} s up to ${down} s when the server went down`);
	assert.equal(await lee.locator('[data-clock="B"].running').count(), 0);
	// a page opened while the server is down (here its files come from the web root, as a
	// cache or a proxy would give them): its first connection fails, and it keeps trying.
	// Chromium takes a page the test fulfils for a public one and blocks its WebSocket to
	// loopback (local network access checks), which a page tengend served is not: a browser
	// without those checks, for this page alone.
	const lnaBrowser = await chromium.launch({executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--disable-features=LocalNetworkAccessChecks']});
	const early = await (await lnaBrowser.newContext()).newPage();
	early.on('pageerror', (e) => { throw new Error(`the early page: ${e.message}`); });
	await early.route(`${base}/**`, (route) => {
		const path = new URL(route.request().url()).pathname;
		const file = join(process.env.TENGEN_WEB_ROOT, path === '/' ? 'index.html' : path);
		const type = path.endsWith('.js') ? 'text/javascript' : path.endsWith('.css') ? 'text/css' :
			path.endsWith('.svg') ? 'image/svg+xml' : 'text/html';
		return existsSync(file) ? route.fulfill({body: readFileSync(file), contentType: type}) : route.fulfill({status: 404});
	});
	await early.goto(base + '/');
	await early.waitForFunction(() => /Cannot reach the server/.test(document.querySelector('#status').textContent), null, {timeout: WAIT});
	for (const f of ['port', 'http.port']) rmSync(join(dir, f), {force: true});
	startDaemon(tcpPort, new URL(base).port);
	await waitFile(join(dir, 'http.port'));
	for (const p of [kim, lee])
		await p.waitForFunction(() => /Reconnected/.test(document.querySelector('#status').textContent), null, {timeout: 3 * WAIT});
	await lee.waitForSelector('#logout', {timeout: WAIT});
	await early.waitForFunction(() => /Connected to the server/.test(document.querySelector('#status').textContent), null, {timeout: 3 * WAIT});
	assert.equal(await early.getAttribute('#conn', 'class'), 'open');
	// and it works: a login over the connection it made
	await early.fill('#login-name', 'ivy');
	await early.fill('#login-password', 'ivy-password');
	await early.click('#login');
	await early.waitForSelector('#logout', {timeout: WAIT});
	// ivy is to move in her game: the lobby says so (her clock runs from this login)
	await early.waitForFunction((g) => new RegExp(`Your move in game ${g}`).test(document.querySelector('#status').textContent)
		&& /your move/.test(document.querySelector(`#my-games [data-game="${g}"]`)?.textContent || ''), game, {timeout: WAIT});
	await lnaBrowser.close();
	const ivy2 = tcpClient(tcpPort);
	await ivy2.ok('login', {name: 'ivy', password: 'ivy-password'});
	await ivy2.ok('play', {game, vertex: 'G7'});
	for (const p of [kim, lee]) await p.waitForSelector('[data-vertex="G7"][data-color="B"]', {timeout: WAIT});
	assert.equal(await lee.getAttribute('#conn', 'class'), 'open');
	// "Reconnected to the server." passes (it stood for good, stale beside later news)
	await kim.waitForFunction(() => document.querySelector('#status').textContent === '', null, {timeout: WAIT});
	ivy2.close();
});
