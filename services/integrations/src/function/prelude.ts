/**
 * JavaScript evaluated inside each call's QuickJS context before the user's code (plain JavaScript,
 * in the sandbox). It is a function of the host's four primitives — `timerStart(id, ms, repeat)`,
 * `timerStop(id)`, `hostFetch(requestJson, bytes?)` (a binary body as an ArrayBuffer; answering
 * `{meta, req}`: status, headers, … as JSON text and the request's number) and `hostBody(req, kind)`
 * (the body, once: `'bytes'` an ArrayBuffer, `'text'` its UTF-8 decoding as `{text, nul}`) — that
 * defines `setTimeout`, `setInterval`,
 * `clearTimeout`, `clearInterval`, `fetch` and `Headers` on the global object and returns `fire(id)`,
 * which the host calls when a timer is due. The primitives stay in its closure: user code never
 * sees them, and what it may patch later (JSON, Map, …) was captured here first.
 */
export const SANDBOX_PRELUDE = String.raw`
(function (timerStart, timerStop, hostFetch, hostBody) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const keys = Object.keys;
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  const split = String.prototype.split;
  const join = Array.prototype.join;
  const swap = (text, from, to) => apply(join, apply(split, text, [from]), [to]);
  const Bytes = Uint8Array;
  const ArrayBufferType = ArrayBuffer;
  const isView = ArrayBuffer.isView;
  const sliceBuffer = ArrayBuffer.prototype.slice;
  const PromiseType = Promise;
  const then = Promise.prototype.then;
  const promiseResolve = Promise.resolve;
  const promiseReject = Promise.reject;
  const resolved = (value) => apply(promiseResolve, PromiseType, [value]);
  const rejected = (err) => apply(promiseReject, PromiseType, [err]);
  // Undoes the host's escape of a body holding NULs (QuickJS strings are taken up to the first NUL):
  // every \u0001 starts a pair, so the pairs are found left to right without ambiguity.
  const withNuls = (text) => swap(swap(text, '\u0001\u0001', '\u0000'), '\u0001\u0002', '\u0001');
  const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });

  const timers = new Map();
  let lastTimer = 0;
  function schedule(kind, repeat, callback, delay, args) {
    if (typeof callback !== 'function') throw new TypeError('The callback of ' + kind + ' must be a function');
    const id = ++lastTimer;
    const ms = Number(delay);
    timerStart(id, ms > 0 ? ms : 0, repeat);
    timers.set(id, { callback, args, repeat });
    return id;
  }
  function clear(id) {
    const key = Number(id);
    if (timers.delete(key)) timerStop(key);
  }
  define('setTimeout', function setTimeout(callback, delay, ...args) { return schedule('setTimeout', false, callback, delay, args); });
  define('setInterval', function setInterval(callback, delay, ...args) { return schedule('setInterval', true, callback, delay, args); });
  define('clearTimeout', function clearTimeout(id) { clear(id); });
  define('clearInterval', function clearInterval(id) { clear(id); });

  const lists = new WeakMap();
  const list = (headers) => {
    const map = lists.get(headers);
    if (!map) throw new TypeError('Illegal invocation');
    return map;
  };
  class Headers {
    constructor(init) {
      lists.set(this, new Map());
      if (init instanceof Headers) init.forEach((value, name) => this.append(name, value));
      else if (isArray(init)) for (const pair of init) this.append(pair[0], pair[1]);
      else if (init !== undefined && init !== null && typeof init === 'object') for (const name of keys(init)) this.append(name, init[name]);
    }
    append(name, value) {
      const map = list(this);
      const key = String(name).toLowerCase();
      const text = String(value);
      map.set(key, map.has(key) ? map.get(key) + ', ' + text : text);
    }
    set(name, value) { list(this).set(String(name).toLowerCase(), String(value)); }
    get(name) {
      const value = list(this).get(String(name).toLowerCase());
      return value === undefined ? null : value;
    }
    has(name) { return list(this).has(String(name).toLowerCase()); }
    delete(name) { list(this).delete(String(name).toLowerCase()); }
    forEach(fn, thisArg) { for (const [name, value] of list(this)) fn.call(thisArg, value, name, this); }
    entries() { return list(this).entries(); }
    keys() { return list(this).keys(); }
    values() { return list(this).values(); }
    [Symbol.iterator]() { return list(this).entries(); }
  }
  define('Headers', Headers);

  function respond(answer) {
    const r = parse(answer.meta);
    const req = answer.req;
    let used = false;
    // The body is read once, as on the web platform: a second read rejects.
    const take = (kind) => {
      if (used) return rejected(new TypeError('Body has already been consumed'));
      used = true;
      try {
        return resolved(hostBody(req, kind));
      } catch (err) {
        return rejected(err);
      }
    };
    // The host's buffer lies outside the call's heap: the copy made here counts against its memory limit.
    const arrayBuffer = () => apply(then, take('bytes'), [(b) => apply(sliceBuffer, b, [0])]);
    const text = () => apply(then, take('text'), [(t) => (t.nul ? withNuls(t.text) : t.text)]);
    return {
      ok: r.status >= 200 && r.status <= 299,
      status: r.status,
      statusText: r.statusText,
      url: r.url,
      redirected: r.redirected,
      headers: new Headers(r.headers),
      get bodyUsed() { return used; },
      text,
      json: () => apply(then, text(), [(body) => parse(body)]),
      arrayBuffer,
      bytes: () => apply(then, arrayBuffer(), [(b) => new Bytes(b)]),
    };
  }
  /** A request body as the host takes it: text, or an ArrayBuffer holding exactly the bytes of the one (or the view) given. */
  function bodyOf(body) {
    if (body === undefined || body === null) return {};
    if (typeof body === 'string') return { text: body };
    if (body instanceof ArrayBufferType) return { bytes: apply(sliceBuffer, body, [0]) };
    if (isView(body)) return { bytes: apply(sliceBuffer, body.buffer, [body.byteOffset, body.byteOffset + body.byteLength]) };
    throw new TypeError('fetch body must be a string, an ArrayBuffer or a typed array (use JSON.stringify for JSON)');
  }
  define('fetch', function fetch(resource, options) {
    try {
      const init = options === undefined || options === null ? {} : options;
      const url = typeof resource === 'string' ? resource : resource && typeof resource.url === 'string' ? resource.url : String(resource);
      const method = init.method === undefined ? 'GET' : String(init.method).toUpperCase();
      const body = bodyOf(init.body);
      const headers = [];
      new Headers(init.headers).forEach((value, name) => headers.push([name, value]));
      const request = { url, method, headers };
      if (body.text !== undefined) request.body = body.text;
      return apply(then, hostFetch(stringify(request), body.bytes), [respond]);
    } catch (err) {
      return rejected(err);
    }
  });

  return function fire(id) {
    const timer = timers.get(id);
    if (!timer) return;
    if (!timer.repeat) timers.delete(id);
    timer.callback.apply(undefined, timer.args);
  };
})
`;
