// conn.js: the tengen protocol over a WebSocket (docs/protocol.md): one message is one
// request, reply or event. request() answers a Promise of the reply; on() subscribes to events.
// The login is sent over the socket only; the name and password are kept in this tab's
// sessionStorage (never in a URL) so that the next page of the same tab logs in again.

const listeners = new Map(); // event name ("*": every event) -> [fn]
const waiting = new Map();   // request id -> {resolve}
let ws = null, nextId = 1, opened = null, me = null;
const stateFns = [];
// After the socket drops (a server restart, a network cut) the page connects again: after
// RECONNECT_FIRST_MS, doubling up to RECONNECT_MAX_MS; then it says hello, logs in again and
// emits a 'reconnect' event, on which pages read their state again (docs/protocol.md, "What a
// client does on reconnect").
const RECONNECT_FIRST_MS = 500, RECONNECT_MAX_MS = 8000;
let retryMs = RECONNECT_FIRST_MS, closing = false;

export function wsUrl() {
	return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
}

function emit(name, msg) {
	for (const fn of listeners.get(name) || []) fn(msg);
	for (const fn of listeners.get('*') || []) fn(msg);
}

// s: 'open', 'closed' (lost: reconnecting), 'reconnected' or 'unreachable' (the first
// connection did not open: trying again).
function setState(s) {
	for (const fn of stateFns) fn(s);
}

// Open the socket; first: resolve/reject are the first connect()'s. Later opens (after a drop)
// log in again and emit 'reconnect'.
function open(first, resolve, reject) {
	ws = new WebSocket(wsUrl());
	ws.onopen = async () => {
		try {
			await request('hello', {protocol: 1, client: 'tengen-web'});
			const saved = savedLogin();
			if (saved) await login(saved.name, saved.password).catch(() => forget());
			retryMs = RECONNECT_FIRST_MS;
			setState(first ? 'open' : 'reconnected');
			if (first) resolve(); else emit('reconnect', {});
		} catch (e) { if (first) reject(e); }
	};
	ws.onmessage = (m) => {
		let msg;
		try { msg = JSON.parse(m.data); } catch { return; }
		if (msg.event) { emit(msg.event, msg); return; }
		const w = waiting.get(msg.id);
		if (w) { waiting.delete(msg.id); w.resolve(msg); }
		else if (msg.ok === false) emit('error', msg);
	};
	const sock = ws;
	let wasOpen = false;
	sock.addEventListener('open', () => { wasOpen = true; });
	sock.onclose = () => {
		for (const w of waiting.values()) w.resolve(notConnected());
		waiting.clear();
		if (closing) return;
		// The page's first connection never opened (the server is restarting, or at its
		// limit): try again as after a drop; the first connect() resolves when one opens.
		const again = first && !wasOpen;
		setState(again ? 'unreachable' : 'closed');
		setTimeout(() => (again ? open(true, resolve, reject) : open(false)), retryMs);
		retryMs = Math.min(2 * retryMs, RECONNECT_MAX_MS);
	};
}

window.addEventListener('pagehide', () => { closing = true; }); /* leaving: no reconnect */

function notConnected() {
	return {ok: false, error: {code: 'closed', message: 'not connected to the server: reconnecting'}};
}

// Connect (once); resolves when hello was answered.
export function connect() {
	if (opened) return opened;
	opened = new Promise((resolve, reject) => open(true, resolve, reject));
	return opened;
}

// Send {cmd, id, ...fields}; resolves to the reply object (ok or not). While the socket is
// down: at once, not ok (code "closed").
export function request(cmd, fields = {}) {
	if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.resolve(notConnected());
	const id = nextId++;
	return new Promise((resolve) => {
		waiting.set(id, {resolve});
		ws.send(JSON.stringify({cmd, id, ...fields}));
	});
}

// request() that throws an Error with the server's message when the reply is not ok.
export async function call(cmd, fields = {}) {
	const r = await request(cmd, fields);
	if (!r.ok) throw new Error(r.error ? r.error.message : 'error');
	return r;
}

export function on(name, fn) {
	if (!listeners.has(name)) listeners.set(name, []);
	listeners.get(name).push(fn);
}

export function onState(fn) { stateFns.push(fn); }

export function player() { return me; }

function savedLogin() {
	try { return JSON.parse(sessionStorage.getItem('tengen.login')); } catch { return null; }
}

function forget() { sessionStorage.removeItem('tengen.login'); }

export async function login(name, password) {
	const r = await call('login', {name, password});
	me = r.player;
	sessionStorage.setItem('tengen.login', JSON.stringify({name, password}));
	emit('login', r);
	return r;
}

// A new account (rank: a declared rank such as "5k", or '' for none), then its login.
export async function register(name, password, rank = '') {
	await call('register', rank ? {name, password, rank} : {name, password});
	return login(name, password);
}

export async function logout() {
	await request('logout');
	forget();
	me = null;
	emit('logout', {});
}
