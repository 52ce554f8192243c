// @ts-check
// One websocket that stays connected: it says hello on every (re)connect, reconnects by
// itself with backoff, and reports its state ("connecting", "open", "waiting", "offline",
// "failed", "closed") so the page can show it. It also keeps the stream's place: the last
// event `seq` seen goes into every hello after the first (`last_seq`), and an event already
// seen is not passed on again.

import { t } from "./i18n.js";

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const MAX_BACKOFF_MS = 10000;
const PING_EVERY_MS = 15000;
const SILENCE_LIMIT_MS = 40000;

/** The websocket URL for a path on this page's own server. */
export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/**
 * Where a stream of numbered events has got to. Room and tournament events carry a `seq`;
 * a `welcome` sets the place (it is the whole picture as of its seq), any other numbered
 * frame is new only when its seq is past the place. Frames without a seq always pass.
 */
export class SeqTracker {
  constructor() {
    this.lastSeq = null;
  }

  /** Whether the frame is to be handled (false: seen already), moving the place on. */
  admit(frame) {
    const seq = frame?.seq;
    if (typeof seq !== "number") return true;
    if (frame.type === "welcome") {
      this.lastSeq = seq;
      return true;
    }
    if (this.lastSeq !== null && seq <= this.lastSeq) return false;
    this.lastSeq = seq;
    return true;
  }

  /** The hello frame with the place in it (`last_seq`), once there is one. */
  hello(frame) {
    return this.lastSeq === null ? frame : { ...frame, last_seq: this.lastSeq };
  }
}

/**
 * @typedef {object} ConnectionOptions
 * @property {() => object} hello
 * @property {(frame: any) => void} onFrame
 * @property {(state: string, detail?: any) => void} [onState]
 * @property {string} [url]
 * @property {any} [WebSocket] a WebSocket class (the tests pass a fake one)
 * @property {number} [pingMs]
 */

export class Connection {
  /**
   * path: e.g. "/ws/rooms/ab12"; hello(): the hello frame to send on each connect (the
   * connection adds `last_seq`); onFrame(frame), for frames not seen before; onState(state,
   * detail). `url` and `WebSocket` may be given (the tests pass a fake one); by default the
   * path is on this page's own server and the socket is the browser's. `pingMs`: how often
   * to ping (a quiet socket, such as the notifications', may ping less).
   * @param {string} path
   * @param {ConnectionOptions} options
   */
  constructor(path, { hello, onFrame, onState, url, WebSocket: Socket, pingMs }) {
    this.url = url ?? socketUrl(path);
    this.Socket = Socket ?? globalThis.WebSocket;
    this.hello = hello;
    this.onFrame = onFrame;
    this.onState = onState ?? (() => {});
    this.pingMs = pingMs ?? PING_EVERY_MS;
    this.seq = new SeqTracker();
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.lastHeard = 0;
    this.stopped = false;
    this.online = () => this.reconnectNow();
    globalThis.addEventListener?.("online", this.online);
  }

  get open() {
    return this.ws?.readyState === this.Socket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.setState("connecting");
    const ws = new this.Socket(this.url);
    this.ws = ws;
    ws.onopen = () => this.opened(ws);
    ws.onmessage = (event) => this.received(ws, event);
    ws.onclose = (event) => this.closed(ws, event);
    ws.onerror = () => {}; // a close event always follows, and is where we act
  }

  opened(ws) {
    if (ws !== this.ws) return;
    this.lastHeard = Date.now();
    ws.send(JSON.stringify(this.seq.hello(this.hello())));
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.heartbeat(ws), this.pingMs);
    this.setState("open");
  }

  received(ws, event) {
    if (ws !== this.ws) return;
    this.lastHeard = Date.now();
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    if (frame?.type === "welcome") this.attempt = 0;
    if (frame?.type !== "pong" && this.seq.admit(frame)) this.onFrame(frame);
  }

  heartbeat(ws) {
    if (ws !== this.ws || ws.readyState !== this.Socket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) return ws.close(4000, "silent");
    ws.send(JSON.stringify({ type: "ping" }));
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    this.ws = null;
    if (this.stopped) return this.setState("closed");
    if (event.code === 1008) {
      this.stopped = true;
      return this.setState("failed", event.reason || "the server refused this connection");
    }
    // 1012: the server is restarting; come straight back (another process will answer).
    const delay = event.code === 1012 ? 0 : this.backoff();
    this.attempt += 1;
    this.setState(globalThis.navigator?.onLine === false ? "offline" : "waiting", delay);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  backoff() {
    const base = BACKOFF_MS[this.attempt] ?? MAX_BACKOFF_MS;
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  /** Send a frame now; false when not connected (the caller keeps it to send later). */
  send(frame) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Drop the socket and connect again at once (used to resync after a surprise). */
  reconnectNow() {
    if (this.stopped) return;
    this.attempt = 0;
    const ws = this.ws;
    this.ws = null;
    clearInterval(this.pinger);
    if (ws) {
      ws.onclose = null;
      ws.close(1000, "resync");
    }
    this.connect();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    globalThis.removeEventListener?.("online", this.online);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000, "bye");
    this.setState("closed");
  }

  setState(state, detail) {
    this.state = state;
    this.onState(state, detail);
  }
}

/** Show a connection's state in the top bar. */
export function showConnection(state, detail) {
  const el = document.getElementById("conn");
  if (!el) return;
  el.hidden = state === "closed";
  el.dataset.state = state;
  el.textContent =
    state === "closed" ? "" : t(`conn.${state}`, { n: Math.ceil((detail ?? 0) / 1000) });
}
