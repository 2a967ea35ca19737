import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Request, type Route } from 'playwright-core';
import { guardedFetch, ResponseTooLargeError } from '../net/guardedFetch.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import { isHttpUrl } from './router.js';

/** The Chromium the Stagehand agent drives. */
export interface BrowserConfig {
  executablePath: string;
  /** Browsers this process runs at once; further calls wait for one to close (default 4). */
  maxBrowsers?: number;
}

const DEFAULT_MAX_BROWSERS = 4;

const OFF = new Set(['off', 'none', 'false', '0', 'no']);

/**
 * The agent's browser from the environment: `WEFT_BROWSER_PATH` (a Chromium executable; `off`
 * keeps the agent in text mode), by default `CHROMIUM_PATH`, else `/usr/bin/chromium`, when that file
 * exists. Null: no browser, the agent reads pages as text.
 */
export function browserFromEnv(env: NodeJS.ProcessEnv = process.env): BrowserConfig | null {
  const max = Number(env.WEFT_BROWSER_MAX);
  const limit = Number.isInteger(max) && max > 0 ? { maxBrowsers: max } : {};
  const explicit = env.WEFT_BROWSER_PATH?.trim();
  if (explicit) return OFF.has(explicit.toLowerCase()) ? null : { executablePath: explicit, ...limit };
  for (const candidate of [env.CHROMIUM_PATH?.trim(), '/usr/bin/chromium']) {
    if (candidate && existsSync(candidate)) return { executablePath: candidate, ...limit };
  }
  return null;
}

/** Browsers running in this process, and the calls waiting for one to close. */
let running = 0;
const waiting: Array<() => void> = [];

/** A place for one more browser (WEFT_BROWSER_MAX at once); a cancelled call stops waiting. */
function acquireBrowser(max: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  if (running < max) {
    running++;
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const go = () => {
      signal?.removeEventListener('abort', onAbort);
      running++;
      resolve();
    };
    const onAbort = () => {
      const at = waiting.indexOf(go);
      if (at >= 0) waiting.splice(at, 1);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('The call was cancelled'));
    };
    waiting.push(go);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Browsers running in this process and calls waiting for one (tests, metrics). */
export function browserSlots(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

function releaseBrowser(): void {
  running--;
  waiting.shift()?.();
}

/** A marker switch on the browser's command line (Chromium ignores it): `--weft-stagehand-agent=<pid of this process>`. */
export const BROWSER_MARKER = '--weft-stagehand-agent';
/** A switch naming one session's browser (`--weft-browser-session=<uuid>`): the process a close that hangs kills. */
const SESSION_MARKER = '--weft-browser-session';
/** Chromium's start: not a page's read, so not the page's time limit (a loaded machine starts it slowly). */
const LAUNCH_TIMEOUT_MS = 60_000;
/** How long closing the browser may take before its processes are killed. */
const CLOSE_TIMEOUT_MS = 5_000;

export interface BrowserLimits {
  /** Bytes one response may have. */
  responseBytes: number;
  /** Bytes all of a call's responses may have together. */
  totalBytes: number;
  /** A request's, a navigation's and a page read's time limit (a page that does not answer a read in time closes the browser). */
  timeoutMs: number;
  /** A click's, typing's or selection's time limit. */
  actionTimeoutMs: number;
}

/** A navigation the page answered with a download (an attachment or a type the browser would save). */
export class DownloadRefusedError extends Error {
  constructor(url: string, type: string) {
    super(`Downloads are refused: ${url} answers ${type || 'an attachment'}`);
    this.name = 'DownloadRefusedError';
  }
}

/** A page that did not answer a read (its title, its elements, its text) within the time limit: its scripts keep it busy. The browser is closed. */
export class PageTimeoutError extends Error {
  constructor(limitMs: number, what: string) {
    super(`The page did not answer within the browser's time limit of ${limitMs / 1000} s (${what}): a script of the page keeps it busy; the browser was closed`);
    this.name = 'PageTimeoutError';
  }
}

/**
 * The browser's environment: PATH, HOME (a directory of the call's own) and LANG when set, nothing
 * else of this process's (its database URL, its keys).
 */
export function browserEnv(home: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { PATH: env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: home, ...(env.LANG ? { LANG: env.LANG } : {}) };
}

/** An action that failed on an element: the element as the page view listed it. */
export class ActionError extends Error {
  constructor(
    message: string,
    readonly element: string | undefined,
  ) {
    super(message);
    this.name = 'ActionError';
  }
}

/** What a top-level navigation came to, as the request handler saw it. */
type Outcome = { kind: 'page'; status: number; statusText: string } | { kind: 'redirect' } | { kind: 'error'; error: Error };

/** The page as the model reads it. */
export interface PageView {
  url: string;
  title: string;
  text: string;
  /** `[n] role "name" …`, the numbers the model names targets by. */
  elements: string[];
  /** Requests of the page the outbound policy refused (latest last). */
  refused: string[];
}

/** A navigation's result: the page reached and the status its document was answered with. */
export interface Navigation {
  url: string;
  title: string;
  status: number;
  statusText: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** A settled page: no request in flight or started for this long. */
const QUIET_MS = 250;
/** How long an action waits for the page to settle (requests, redirects) before it is read anyway. */
const SETTLE_MS = 5_000;
const REF = 'data-weft-ref';
const DROPPED_REQUEST_HEADERS = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'keep-alive', 'proxy-authorization', 'proxy-connection', 'transfer-encoding', 'upgrade']);
const DROPPED_RESPONSE_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);
const DISPLAYABLE = /^(text\/|image\/|application\/(xhtml\+xml|xml|json|javascript|ecmascript)|application\/[\w.-]+\+(xml|json))/i;

/**
 * Reads the page in the browser: its visible text (cut at `limit` characters) and its interactive
 * elements, each numbered through the `data-weft-ref` attribute (a string: the service's types know no DOM).
 */
const VIEW_SCRIPT = `(limit) => {
  const REF = ${JSON.stringify(REF)};
  for (const el of document.querySelectorAll('[' + REF + ']')) el.removeAttribute(REF);
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [role=combobox], [role=textbox], [contenteditable=""], [contenteditable=true], [onclick]';
  const clean = (s, n) => (s || '').replace(/\\s+/g, ' ').trim().slice(0, n);
  const visible = (el) => {
    if (el.getClientRects().length === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const elements = [];
  let n = 0;
  for (const el of document.querySelectorAll(selector)) {
    if (!visible(el)) continue;
    n += 1;
    el.setAttribute(REF, String(n));
    const tag = el.tagName.toLowerCase();
    const type = tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : '';
    const role = el.getAttribute('role') || (tag === 'a' ? 'link' : tag === 'select' ? 'select' : tag === 'textarea' ? 'textbox' : tag === 'input' ? (['submit', 'button', 'reset'].includes(type) ? 'button' : type === 'checkbox' || type === 'radio' ? type : 'textbox') : tag);
    const labels = el.labels ? Array.from(el.labels).map((l) => l.innerText).join(' ') : '';
    const name = clean(el.getAttribute('aria-label') || labels || (['input', 'select', 'textarea'].includes(tag) ? '' : el.innerText) || el.getAttribute('title') || el.getAttribute('alt') || (type === 'submit' || type === 'button' ? el.value : '') || el.getAttribute('placeholder') || el.getAttribute('name') || '', 80);
    const parts = ['[' + n + '] ' + role + (name ? ' "' + name.replace(/"/g, "'") + '"' : '')];
    if (type && role === 'textbox' && type !== 'text') parts.push('type=' + type);
    if (el.getAttribute('name')) parts.push('name=' + clean(el.getAttribute('name'), 40));
    if (el.getAttribute('placeholder')) parts.push('placeholder="' + clean(el.getAttribute('placeholder'), 60) + '"');
    if ((tag === 'input' || tag === 'textarea') && !['submit', 'button', 'reset', 'checkbox', 'radio', 'password'].includes(type) && el.value) parts.push('value="' + clean(el.value, 60) + '"');
    if (type === 'checkbox' || type === 'radio') parts.push(el.checked ? 'checked' : 'unchecked');
    if (tag === 'select') parts.push('options: ' + Array.from(el.options).slice(0, 30).map((o) => (o.selected ? '*' : '') + clean(o.label || o.value, 40)).join(' | '));
    if (tag === 'a') parts.push('-> ' + clean(el.getAttribute('href'), 120));
    if (el.disabled) parts.push('disabled');
    elements.push({ ref: n, line: parts.join(' '), name: name.toLowerCase() });
    if (n >= 300) break;
  }
  const text = (document.body ? document.body.innerText : document.documentElement.innerText || '').replace(/\\n{3,}/g, '\\n\\n').trim().slice(0, limit);
  return { title: document.title, text, elements };
}`;

/** A response held for a document request still to come. */
interface Held {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A frame's visible text, cut at `limit` characters. */
const FRAME_TEXT_SCRIPT = `(limit) => ((document.body ? document.body.innerText : (document.documentElement && document.documentElement.innerText)) || '').replace(/\\n{3,}/g, '\\n\\n').trim().slice(0, limit)`;

interface ViewElement {
  ref: number;
  line: string;
  name: string;
}

/**
 * One agent call's browser: a headless Chromium of its own with one context, where every request a
 * page makes (documents, redirects' next hops, scripts' fetches, images, frames, popups) is fetched
 * by this process through the outbound guard and answered to the page (`context.route`), WebSockets
 * and service workers are refused, downloads are refused and anything the routing would not see
 * goes to a proxy that closes every connection. Closed at the end of the call and when its signal aborts.
 */
export class BrowserSession {
  private readonly abort = new AbortController();
  private inFlight = 0;
  /** Top-level documents being fetched, and when the last one was answered. */
  private documentsInFlight = 0;
  private lastDocument = 0;
  private lastActivity = Date.now();
  private bytes = 0;
  private redirecting = false;
  private hops = 0;
  private outcome: Outcome | null = null;
  private closed = false;
  private closing: Promise<void> | undefined;
  private elements: ViewElement[] = [];
  private readonly refused: string[] = [];
  /** Answers of kept-method redirects' last hops, by URL, for the page's GET of it. */
  private readonly held = new Map<string, Held>();
  /** Why the browser was closed when a page did not answer in time. */
  private timedOut: PageTimeoutError | undefined;

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    private readonly blackhole: net.Server,
    private readonly home: string,
    private readonly policy: AddressPolicy,
    private readonly limits: BrowserLimits,
    private readonly marker: string,
  ) {}

  static async open(config: BrowserConfig, policy: AddressPolicy, limits: BrowserLimits, signal: AbortSignal | undefined): Promise<BrowserSession> {
    await acquireBrowser(config.maxBrowsers ?? DEFAULT_MAX_BROWSERS, signal);
    let blackhole: net.Server | undefined;
    let browser: Browser | undefined;
    let session: BrowserSession | undefined;
    let home: string | undefined;
    const marker = `${SESSION_MARKER}=${randomUUID()}`;
    try {
      home = mkdtempSync(path.join(os.tmpdir(), 'weft-browser-home-'));
      blackhole = await listenBlackhole();
      const port = (blackhole.address() as net.AddressInfo).port;
      browser = await chromium.launch({
        executablePath: config.executablePath,
        headless: true,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: Math.max(limits.timeoutMs, LAUNCH_TIMEOUT_MS),
        env: browserEnv(home),
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-dev-shm-usage',
          '--dns-prefetch-disable',
          '--disable-quic',
          // Memory bounds: a page's JavaScript heap, and renderer processes shared past two.
          '--js-flags=--max-old-space-size=512',
          '--renderer-process-limit=2',
          // What the routing does not see (a fulfilled redirect's next hop, favicons, prefetches) goes
          // to a proxy that closes every connection; loopback is not exempt; WebRTC and QUIC send no UDP.
          `--proxy-server=http://127.0.0.1:${port}`,
          '--proxy-bypass-list=<-loopback>',
          '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
          `${BROWSER_MARKER}=${process.pid}`,
          marker,
        ],
      });
      const context = await browser.newContext({ acceptDownloads: false, serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
      const opened = new BrowserSession(browser, context, blackhole, home, policy, limits, marker);
      session = opened;
      context.setDefaultTimeout(limits.actionTimeoutMs);
      context.setDefaultNavigationTimeout(limits.timeoutMs);
      context.on('page', (page) => page.on('dialog', (dialog) => void dialog.accept().catch(() => undefined)));
      await context.route(() => true, (route, request) => opened.handle(route, request));
      await context.routeWebSocket(() => true, (ws) => {
        opened.refused.push(`${ws.url()} (WebSockets are not allowed)`);
        void ws.close({ code: 1008, reason: 'WebSockets are not allowed' }).catch(() => undefined);
      });
      await context.newPage();
      if (signal) {
        if (signal.aborted) {
          await opened.close();
          signal.throwIfAborted();
        }
        signal.addEventListener('abort', () => void opened.close(), { once: true });
      }
      return opened;
    } catch (err) {
      if (session) await session.close();
      else {
        if (browser) await closeOrKill(browser.close(), marker);
        blackhole?.close();
        if (home) rmSync(home, { recursive: true, force: true });
        releaseBrowser();
      }
      throw err;
    }
  }

  /** The page the agent works in: the newest open one (a popup the page opened takes over). */
  private get page(): Page {
    const pages = this.context.pages();
    const page = pages[pages.length - 1];
    if (!page) throw new Error('The browser has no page open');
    return page;
  }

  /** Why the browser was closed when a page did not answer a read in time (the call fails with it). */
  get timeout(): PageTimeoutError | undefined {
    return this.timedOut;
  }

  /**
   * A call into the page that has no time limit of its own (an evaluation, a title, a count), raced
   * against the time limit: a page busy for ever (`while (true) {}`) would hold the call and its
   * browser. On time out the browser is closed and PageTimeoutError thrown.
   */
  private async bounded<T>(what: string, call: Promise<T>): Promise<T> {
    if (this.timedOut) throw this.timedOut;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new PageTimeoutError(this.limits.timeoutMs, what)), this.limits.timeoutMs);
    });
    try {
      return await Promise.race([call, limit]);
    } catch (err) {
      if (err instanceof PageTimeoutError) {
        this.timedOut = err;
        await this.close();
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private touch(): void {
    this.lastActivity = Date.now();
  }

  /** Every request of every page: fetched here through the outbound guard, then answered to the page. */
  private async handle(route: Route, request: Request): Promise<void> {
    const url = request.url();
    const top = isTopNavigation(request);
    const navigation = request.isNavigationRequest();
    if (top) {
      this.redirecting = false;
      this.documentsInFlight++;
    }
    this.inFlight++;
    this.touch();
    try {
      if (this.closed) throw new Error('The browser is closing');
      if (!isHttpUrl(url)) throw new Error(`Not an http(s) URL: ${url}`);
      const held = navigation && request.method() === 'GET' ? this.takeHeld(url) : undefined;
      if (held) {
        if (top) this.pageReached(held.status, held.statusText);
        await route.fulfill({ status: held.status, headers: held.headers, body: held.body });
        return;
      }
      let hop = { url, method: request.method(), headers: forwardedHeaders(await request.allHeaders()), body: request.postDataBuffer() ?? undefined };
      let followed = 0;
      let res: Response;
      for (;;) {
        res = await guardedFetch(
          hop.url,
          {
            method: hop.method,
            headers: hop.headers,
            ...(hop.body ? { body: hop.body } : {}),
            timeoutMs: this.limits.timeoutMs,
            maxBodyBytes: this.limits.responseBytes,
            // A document's redirect goes back to the page (below) so that its next hop is routed too.
            maxRedirects: navigation ? 0 : MAX_REDIRECTS,
            signal: this.abort.signal,
          },
          this.policy,
        );
        const location = res.headers.get('location');
        if (!navigation || !REDIRECTS.has(res.status) || !location) break;
        const next = new URL(location, hop.url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`Redirect to a non-http(s) URL refused: ${next.protocol}`);
        if ((top && ++this.hops > MAX_REDIRECTS) || ++followed > MAX_REDIRECTS) throw new Error(`Too many redirects (more than ${MAX_REDIRECTS})`);
        // 307 and 308 keep the method and the body (the Fetch standard): a form's POST goes on to the
        // next hop from here, each hop through the guard; 301, 302 and 303 go on as a GET, from the page.
        if ((res.status === 307 || res.status === 308) && hop.method !== 'GET' && hop.method !== 'HEAD') {
          hop = { ...hop, url: next.toString(), headers: await this.redirectedHeaders(hop.headers, new URL(hop.url), next) };
          continue;
        }
        // Chromium would follow a fulfilled redirect past the routing: the page is sent on instead.
        await this.sendOn(route, top, next.toString());
        return;
      }
      const type = res.headers.get('content-type') ?? '';
      if (navigation && (/^\s*attachment/i.test(res.headers.get('content-disposition') ?? '') || (type !== '' && !DISPLAYABLE.test(type)))) throw new DownloadRefusedError(hop.url, type);
      const body = decoded(Buffer.from(await res.arrayBuffer()), res.headers.get('content-encoding'), this.limits.responseBytes);
      this.bytes += body.length;
      if (this.bytes > this.limits.totalBytes) throw new ResponseTooLargeError(this.limits.totalBytes);
      if (hop.url !== url) {
        // The answer of a kept-method redirect's last hop: held for that URL, which the page is sent on to.
        this.held.set(withoutFragment(hop.url), { status: res.status, statusText: res.statusText, headers: responseHeaders(res.headers), body });
        await this.sendOn(route, top, hop.url);
        return;
      }
      if (top) this.pageReached(res.status, res.statusText);
      await route.fulfill({ status: res.status, headers: responseHeaders(res.headers), body });
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      if (top) this.outcome = { kind: 'error', error };
      else if (!this.closed) this.refused.push(`${url} (${error.message})`);
      await route.abort(error.name === 'OutboundRefusedError' ? 'blockedbyclient' : 'failed').catch(() => undefined);
    } finally {
      this.inFlight--;
      if (top) {
        this.documentsInFlight--;
        this.lastDocument = Date.now();
      }
      this.touch();
    }
  }

  private pageReached(status: number, statusText: string): void {
    this.outcome = { kind: 'page', status, statusText };
    this.hops = 0;
  }

  /** Answers a document's request with a page that goes on to `next` (its request is routed and checked again). */
  private async sendOn(route: Route, top: boolean, next: string): Promise<void> {
    if (top) {
      this.redirecting = true;
      this.outcome = { kind: 'redirect' };
    }
    await route.fulfill({ status: 200, contentType: 'text/html', body: redirectPage(next) });
  }

  /** The answer held for a document's GET (a kept-method redirect's last hop), taken once. */
  private takeHeld(url: string): Held | undefined {
    const key = withoutFragment(url);
    const held = this.held.get(key);
    this.held.delete(key);
    return held;
  }

  /**
   * The headers of a kept-method redirect's next hop: to another origin no Authorization, the
   * context's SameSite=None cookies of that URL instead of the first one's (a cross-site POST carries
   * no others), and an Origin of `null` (the Fetch standard's tainted origin).
   */
  private async redirectedHeaders(headers: Record<string, string>, from: URL, next: URL): Promise<Record<string, string>> {
    if (from.origin === next.origin) return headers;
    const kept: Record<string, string> = {};
    for (const [key, value] of Object.entries(headers)) {
      const name = key.toLowerCase();
      if (name !== 'authorization' && name !== 'cookie') kept[key] = name === 'origin' ? 'null' : value;
    }
    const cookies = (await this.context.cookies(next.toString())).filter((c) => c.sameSite === 'None');
    if (cookies.length) kept.cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    return kept;
  }

  /**
   * Waits for the page to settle: a document loading or a redirect pending is waited for up to the
   * navigation time limit; then no request in flight or started for QUIET_MS, at most SETTLE_MS after
   * the start or the last document (a page that polls for ever is read anyway). The quiet time counts
   * from the start too: a request the action's own script starts (a form's submit handler fetching)
   * reaches this side a moment after the action returns, and must not find the page already settled.
   */
  private async settle(): Promise<void> {
    const start = Date.now();
    const hardEnd = start + this.limits.timeoutMs;
    while (!this.closed) {
      const now = Date.now();
      if (this.redirecting || this.documentsInFlight > 0) {
        if (now >= hardEnd) break;
      } else if (this.inFlight === 0 && now - Math.max(this.lastActivity, start) >= QUIET_MS) break;
      else if (now >= Math.max(start, this.lastDocument) + SETTLE_MS) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await this.page.waitForLoadState('load', { timeout: Math.max(1, Math.min(SETTLE_MS, hardEnd - Date.now())) }).catch(() => undefined);
  }

  /** Opens `url` in the page, following redirects hop by hop; throws what stopped it (the guard's refusal, a size or time limit, a download). */
  async navigate(url: string): Promise<Navigation> {
    this.outcome = null;
    this.hops = 0;
    let failure: unknown;
    try {
      await this.page.goto(url, { waitUntil: 'domcontentloaded' });
    } catch (err) {
      failure = err;
    }
    await this.settle();
    this.abortedCheck();
    const outcome = this.outcome as Outcome | null;
    if (outcome?.kind === 'error') throw outcome.error;
    if (outcome?.kind === 'page') return { url: this.page.url(), title: await this.pageTitle(), status: outcome.status, statusText: outcome.statusText };
    if (outcome?.kind === 'redirect') throw new Error('The redirect did not finish in time');
    // No document was asked for: a move within the page (a #fragment of the page open).
    if (!failure) return { url: this.page.url(), title: await this.pageTitle(), status: 200, statusText: 'OK' };
    throw failure instanceof Error ? new Error(failure.message.split('\n')[0]) : new Error('The page did not load');
  }

  private abortedCheck(): void {
    if (this.timedOut) throw this.timedOut;
    if (this.closed) throw new Error('The browser was closed (the call was cancelled)');
  }

  /** The page's URL and title now. */
  url(): string {
    return this.page.url();
  }

  async pageTitle(): Promise<string> {
    return (await this.bounded('reading its title', this.page.title().catch(() => ''))).trim();
  }

  /** The element a model names: its number from the last read (`3`, `[3]`), its name as listed, or a CSS selector. */
  private async target(target: unknown): Promise<{ locator: Locator; label: string }> {
    const given = typeof target === 'number' ? String(target) : typeof target === 'string' ? target.trim() : '';
    if (!given) throw new Error('target is required: the number of an element from the page view');
    const page = this.page;
    const numbered = /^\[?(\d+)\]?$/.exec(given);
    const byName = numbered ? undefined : this.elements.find((e) => e.name === given.toLowerCase());
    const ref = numbered ? Number(numbered[1]) : byName?.ref;
    if (ref !== undefined) {
      const locator = page.locator(`[${REF}="${ref}"]`);
      if ((await this.bounded('finding an element', locator.count())) === 0) throw new Error(`No element [${ref}] on the page now; read the page again`);
      return { locator: locator.first(), label: this.elements.find((e) => e.ref === ref)?.line ?? `[${ref}]` };
    }
    // Not a selector either: no element.
    const count = await this.bounded('finding an element', page.locator(given).count().catch(() => 0));
    if (count === 0) throw new Error(`No element matches "${given}"; name an element by its number from the page view`);
    return { locator: page.locator(given).first(), label: given };
  }

  /** Runs an action on an element, then waits for the page to settle; a failure names the element (`ActionError`). */
  private async acted<T>(label: string | undefined, run: () => Promise<T>): Promise<T> {
    this.outcome = null;
    this.hops = 0;
    try {
      const value = await run();
      await this.settle();
      this.abortedCheck();
      const outcome = this.outcome as Outcome | null;
      if (outcome?.kind === 'error') throw new Error(`The page it opened could not be loaded: ${outcome.error.message}`);
      return value;
    } catch (err) {
      if (this.timedOut) throw this.timedOut;
      throw new ActionError((err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '', label);
    }
  }

  async click(target: unknown): Promise<string> {
    const { locator, label } = await this.target(target);
    return this.acted(label, async () => {
      await locator.click();
      return label;
    });
  }

  async type(target: unknown, text: string): Promise<string> {
    const { locator, label } = await this.target(target);
    return this.acted(label, async () => {
      await locator.fill(text);
      return label;
    });
  }

  async press(key: string, target: unknown): Promise<string | undefined> {
    if (!key.trim()) throw new Error('key is required (Enter, Tab, ArrowDown, …)');
    const element = target === undefined || target === null || target === '' ? undefined : await this.target(target);
    return this.acted(element?.label, async () => {
      if (element) await element.locator.press(key);
      else await this.bounded('pressing a key', this.page.keyboard.press(key));
      return element?.label;
    });
  }

  async select(target: unknown, value: string): Promise<string> {
    const { locator, label } = await this.target(target);
    return this.acted(label, async () => {
      const picked = await locator.selectOption(value).catch(() => locator.selectOption({ label: value }));
      if (picked.length === 0) throw new Error(`No option "${value}"`);
      return label;
    });
  }

  /** The page now: visible text (at most `textLimit` characters) and its interactive elements, numbered. */
  async view(textLimit: number): Promise<PageView> {
    const page = this.page;
    let read: { title: string; text: string; elements: ViewElement[] } | undefined;
    // A page that moves on by itself while it is read (a timed redirect) is read again once it has loaded.
    for (let attempt = 1; !read; attempt++) {
      try {
        read = (await this.bounded('reading its text and elements', page.evaluate(`(${VIEW_SCRIPT})(${textLimit})`))) as { title: string; text: string; elements: ViewElement[] };
      } catch (err) {
        if (attempt >= 3 || this.closed || page.isClosed() || err instanceof PageTimeoutError) throw err;
        await page.waitForLoadState('domcontentloaded', { timeout: this.limits.timeoutMs }).catch(() => undefined);
      }
    }
    this.elements = read.elements;
    const text = await this.withFrames(page, read.text, textLimit);
    return { url: page.url(), title: read.title.trim(), text, elements: read.elements.map((e) => e.line), refused: this.refused.slice(-10) };
  }

  /**
   * The page's text followed by its visible frames' (same-origin or not, nested too), each under
   * `[Frame <url>]`, all of it within `limit` characters. A frame that goes away or moves on while
   * it is read is left out; one that keeps its page busy closes the browser as the page would.
   */
  private async withFrames(page: Page, text: string, limit: number): Promise<string> {
    let out = text;
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) continue;
      const header = `${out ? '\n\n' : ''}[Frame ${frame.url()}]\n`;
      const room = limit - out.length - header.length;
      if (room <= 0) break;
      let frameText: string;
      try {
        const element = await this.bounded('finding a frame', frame.frameElement());
        const visible = await this.bounded('finding a frame', element.isVisible());
        await element.dispose().catch(() => undefined);
        if (!visible) continue;
        frameText = (await this.bounded('reading a frame’s text', frame.evaluate(`(${FRAME_TEXT_SCRIPT})(${room})`))) as string;
      } catch (err) {
        if (err instanceof PageTimeoutError || this.closed) throw err;
        continue;
      }
      if (frameText) out += header + frameText;
    }
    return out;
  }

  /**
   * Closes the context and the browser (its processes end) and the requests in flight. A page known
   * stuck in a script skips the context's graceful close; a close that takes longer than
   * CLOSE_TIMEOUT_MS kills the browser's processes.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      this.abort.abort();
      const closing = (async () => {
        if (!this.timedOut) await this.context.close().catch(() => undefined);
        await this.browser.close();
      })();
      await closeOrKill(closing, this.marker);
      this.blackhole.close();
      rmSync(this.home, { recursive: true, force: true });
      releaseBrowser();
    })();
    return this.closing;
  }
}

/** Waits for a browser's close, at most CLOSE_TIMEOUT_MS; then kills its processes and waits for them (as long again) to be gone. */
async function closeOrKill(closing: Promise<void>, marker: string): Promise<void> {
  const done = closing.then(
    () => true,
    () => true,
  );
  let timer: NodeJS.Timeout | undefined;
  const late = () => new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_TIMEOUT_MS)));
  try {
    if (await Promise.race([done, late()])) return;
    clearTimeout(timer);
    killBrowser(marker);
    await Promise.race([done, late()]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Kills the browser whose command line carries `marker`, with its process group (Playwright starts
 * it detached: its renderers and utilities are in its group). Linux's /proc; elsewhere nothing.
 */
function killBrowser(marker: string): void {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) continue;
    } catch {
      continue; // gone meanwhile
    }
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // not a group leader, or gone
      }
    }
  }
}

function isTopNavigation(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    return false;
  }
}

function withoutFragment(url: string): string {
  const at = url.indexOf('#');
  return at < 0 ? url : url.slice(0, at);
}

function forwardedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !k.startsWith(':') && !DROPPED_REQUEST_HEADERS.has(k.toLowerCase())));
}

function responseHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    if (!DROPPED_RESPONSE_HEADERS.has(key) && key !== 'set-cookie') out[key] = value;
  });
  const cookies = headers.getSetCookie();
  // Playwright splits set-cookie at newlines.
  if (cookies.length) out['set-cookie'] = cookies.join('\n');
  return out;
}

/** A body the server compressed although no encoding was asked for, decoded within the limit. */
function decoded(body: Buffer, encoding: string | null, limit: number): Buffer {
  const e = (encoding ?? '').trim().toLowerCase();
  if (!e || e === 'identity') return body;
  try {
    if (e === 'gzip' || e === 'x-gzip') return zlib.gunzipSync(body, { maxOutputLength: limit });
    if (e === 'deflate') return zlib.inflateSync(body, { maxOutputLength: limit });
    if (e === 'br') return zlib.brotliDecompressSync(body, { maxOutputLength: limit });
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ResponseTooLargeError(limit);
    throw err;
  }
  return body;
}

/** The page a document's redirect is answered with: it goes on to the next hop, which is routed (and checked) again. */
function redirectPage(next: string): string {
  const target = JSON.stringify(next).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><title></title><script>location.replace(${target})</script></head><body></body></html>`;
}

/** A proxy that closes every connection: where Chromium's traffic goes when the routing does not answer it. */
function listenBlackhole(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.destroy());
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
