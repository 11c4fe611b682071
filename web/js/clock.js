// clock.js: game clocks (docs/protocol.md, "Clock objects"; Chinese Rules 2002, Art. 12, 22):
// shown from the server's clock state and counted down here between messages, for the player
// to move only. Each clock element carries data-clock="B"|"W".

function fmt(ms) {
	ms = Math.max(0, ms);
	const s = Math.ceil(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
	return (h ? h + ':' + String(m).padStart(2, '0') : String(m)) + ':' + String(r).padStart(2, '0');
}

// The clock c (a clock object) after `used` ms of running: main time first, then byo-yomi
// periods or the Canadian block. `period` is a byo-yomi period's full length in ms (the time
// control's period_s): c.period_ms is what is left of the current one, which may be less (a
// page opened, or a clock read again, part way through a period). Returns the text to show.
export function clockText(c, used, period) {
	if (!c) return '–';
	let main = c.main_ms - used;
	if (c.periods !== undefined) { // byo-yomi
		const full = period || c.period_ms;
		if (main > 0) return fmt(main) + ` (${c.periods}×${fmt(full)})`;
		let over = -main, periods = c.periods, left = c.period_ms - over;
		while (left <= 0 && periods > 1) { periods--; left += full; } // the next period is whole
		return `${fmt(left)} (${periods}×)`; // the period running
	}
	if (c.stones !== undefined) { // Canadian
		if (main > 0) return fmt(main) + ` + ${fmt(c.period_ms)}/${c.stones}`;
		return `${fmt(c.period_ms + main)}/${c.stones}`;
	}
	return fmt(main);
}

// A pair of clocks in the elements with data-clock B and W under `root`.
export class Clocks {
	constructor(root) {
		this.root = root;
		this.clocks = null;
		this.running = null;
		this.since = 0;
		this.timer = setInterval(() => this.show(), 200);
	}
	// The server's clocks as of now, the colour whose clock runs (null: none) and a byo-yomi
	// period's full length in ms (the time control's; kept from the last call that gave it).
	set(clocks, running, period) {
		this.clocks = clocks;
		this.running = clocks ? running : null; // no clocks: nothing runs
		if (period) this.period = period;
		this.since = performance.now();
		this.frozenAt = 0;
		this.show();
	}
	// Stop counting down where the clocks stand (the server gone: no clock runs while it is
	// down, Art. 14), showing the time already counted as used until the next set(). Setting
	// the server's last clocks again instead showed the running clock seconds higher than the
	// time its player has left (a clean stop charges the part of the turn used).
	freeze() {
		if (this.running && !this.frozenAt) this.frozenAt = performance.now();
		this.show();
	}
	show() {
		for (const col of ['B', 'W']) {
			const e = this.root.querySelector(`[data-clock="${col}"]`);
			if (!e) continue;
			const c = this.clocks ? this.clocks[col] : null;
			const used = col === this.running ? (this.frozenAt || performance.now()) - this.since : 0;
			e.textContent = this.clocks ? clockText(c, used, this.period) : 'no clock';
			e.classList.toggle('running', col === this.running && !this.frozenAt);
		}
	}
}
