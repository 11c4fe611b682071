// conn.js: the tengen protocol over a WebSocket (docs/protocol.md): one message is one
// request, reply or event. request() answers a Promise of the reply; on() subscribes to events.
// The login is sent over the socket only; the name and password are kept in this tab's
// sessionStorage (never in a URL) so that the next page of the same tab logs in again.

const listeners = new Map(); // event name ("*": every event) -> [fn]
const waiting = new Map();   // request id -> {resolve}
let ws = null, nextId = 1, opened = null, me = null;
const stateFns = [];

export function wsUrl() {
	return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
}

function emit(name, msg) {
	for (const fn of listeners.get(name) || []) fn(msg);
	for (const fn of listeners.get('*') || []) fn(msg);
}

function setState(s) {
	for (const fn of stateFns) fn(s);
}

// Connect (once); resolves when hello was answered.
export function connect() {
	if (opened) return opened;
	opened = new Promise((resolve, reject) => {
		ws = new WebSocket(wsUrl());
		ws.onopen = async () => {
			setState('open');
			try {
				await request('hello', {protocol: 1, client: 'tengen-web'});
				const saved = savedLogin();
				if (saved) await login(saved.name, saved.password).catch(() => forget());
				resolve();
			} catch (e) { reject(e); }
		};
		ws.onmessage = (m) => {
			let msg;
			try { msg = JSON.parse(m.data); } catch { return; }
			if (msg.event) { emit(msg.event, msg); return; }
			const w = waiting.get(msg.id);
			if (w) { waiting.delete(msg.id); w.resolve(msg); }
			else if (msg.ok === false) emit('error', msg);
		};
		ws.onclose = () => {
			setState('closed');
			for (const w of waiting.values()) w.resolve({ok: false, error: {code: 'closed', message: 'connection closed'}});
			waiting.clear();
		};
		ws.onerror = () => reject(new Error('cannot connect to ' + wsUrl()));
	});
	return opened;
}

// Send {cmd, id, ...fields}; resolves to the reply object (ok or not).
export function request(cmd, fields = {}) {
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

export async function register(name, password) {
	await call('register', {name, password});
	return login(name, password);
}

export async function logout() {
	await request('logout');
	forget();
	me = null;
	emit('logout', {});
}
