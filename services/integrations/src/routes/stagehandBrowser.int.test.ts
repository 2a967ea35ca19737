import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@weft/platform';
import { createAnthropicFake, createFakeServer, createOpenAIFake, type FakeModelServer, type FakeServer, type OpenAIFake, type RecordedRequest } from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import { modelConfigFromEnv } from '../models/config.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import { createRouter } from './router.js';
import { STAGEHAND_AGENT_MAX_STEPS, stagehandRoutes } from './stagehand.routes.js';
import { BROWSER_MARKER, browserFromEnv, browserSlots, BrowserSession } from './stagehandBrowser.js';

/**
 * The Stagehand agent in a real browser (Debian's Chromium, CHROMIUM_PATH): the model's tool calls are
 * scripted on the Anthropic fake, the pages are the test's own fake server on 127.0.0.1 (the only
 * address the policy allows), and an "internal" server on 127.0.0.2 stands for what a page must not reach.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ALLOW_FAKES: AddressPolicy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
const context: CallContext = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'u1' };
const logger = createLogger('integrations', 'silent');
const refusal = (host: string) => `Outbound request refused: ${host} is a loopback, private, link-local or reserved address`;

let site: FakeServer;
/** Another origin (another port of 127.0.0.1): cross-origin frames and redirects. */
let other: FakeServer;
let anthropic: FakeModelServer;
let openai: OpenAIFake;
let internal: http.Server;
let internalUrl: string;
/** Connections the internal server accepted: none may come from the browser. */
let internalHits = 0;
let routes: ReturnType<typeof createRouter>;

const agent = (body: Record<string, unknown>, signal?: AbortSignal) => routes.handle({ method: 'POST', path: '/tools/stagehand/agent', query: {}, body: { apiKey: 'sk-ant-browser', ...body }, context, envVars: {}, ...(signal ? { signal } : {}) });
const html = (body: string, title = 'Page') => ({ text: `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`, headers: { 'content-type': 'text/html' } });
const bodyOf = (req: RecordedRequest | undefined) => JSON.stringify(req?.body);

/** Processes of the browsers this test process started (the marker on the command line) and all their children. */
function browserProcesses(): number[] {
  const table = new Map<number, { ppid: number; cmd: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      table.set(Number(entry), { ppid: Number(ppid), cmd: readFileSync(`/proc/${entry}/cmdline`, 'utf8') });
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set([...table].filter(([, p]) => p.cmd.includes(`${BROWSER_MARKER}=${process.pid}`)).map(([pid]) => pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of table) {
      if (!tree.has(pid) && tree.has(p.ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}
/** A process's environment, by variable. */
function environOf(pid: number): Map<string, string> {
  const vars = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(vars.map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)]));
}
const alive = (pids: number[]) => pids.filter((pid) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '));

beforeAll(async () => {
  site = await createFakeServer();
  other = await createFakeServer();
  anthropic = await createAnthropicFake();
  openai = await createOpenAIFake();
  internal = http.createServer((_req, res) => res.end('internal secret'));
  internal.on('connection', () => internalHits++);
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.2', resolve));
  internalUrl = `http://127.0.0.2:${(internal.address() as AddressInfo).port}`;
  const models = { config: modelConfigFromEnv({ WEFT_ANTHROPIC_BASE_URL: anthropic.url, WEFT_OPENAI_BASE_URL: openai.baseUrl }), logger };
  routes = createRouter(stagehandRoutes({ policy: ALLOW_FAKES, models, browser: { executablePath: CHROMIUM } }), logger);
});
afterAll(async () => {
  await site?.close();
  await other?.close();
  await anthropic?.close();
  await openai?.close();
  await new Promise((resolve) => internal?.close(resolve));
});
beforeEach(() => {
  site.reset();
  other.reset();
  anthropic.reset();
  openai.reset();
  internalHits = 0;
});
afterEach(() => {
  // Every call closes its browser before it answers.
  expect(browserProcesses()).toEqual([]);
});

describe('the operator’s browser setting', () => {
  it('WEFT_BROWSER_PATH, else CHROMIUM_PATH or /usr/bin/chromium when the file exists; off keeps the text mode', () => {
    expect(browserFromEnv({ WEFT_BROWSER_PATH: '/opt/chrome/chrome' })).toEqual({ executablePath: '/opt/chrome/chrome' });
    expect(browserFromEnv({ WEFT_BROWSER_PATH: 'off', CHROMIUM_PATH: CHROMIUM })).toBeNull();
    expect(browserFromEnv({ CHROMIUM_PATH: CHROMIUM })).toEqual({ executablePath: CHROMIUM });
    expect(browserFromEnv({ CHROMIUM_PATH: CHROMIUM, WEFT_BROWSER_MAX: '2' })).toEqual({ executablePath: CHROMIUM, maxBrowsers: 2 });
    expect(browserFromEnv({ CHROMIUM_PATH: '/nowhere/chromium' })).toEqual(existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : null);
  });

  it('a browser that does not start is a clear error naming the setting', async () => {
    const broken = createRouter(stagehandRoutes({ policy: ALLOW_FAKES, models: { config: modelConfigFromEnv({}), logger }, browser: { executablePath: '/nowhere/chromium' } }), logger);
    const res = await broken.handle({ method: 'POST', path: '/tools/stagehand/agent', query: {}, body: { task: 't', startUrl: `${site.url}/x`, apiKey: 'k' }, context, envVars: {} });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ error: expect.stringMatching(/^Could not start the browser at \/nowhere\/chromium \(WEFT_BROWSER_PATH\): /), agentResult: { success: false, completed: false, actions: [] }, structuredOutput: null });
    expect(site.requests).toEqual([]);
  });
});

describe('POST /api/tools/stagehand/agent in a browser', () => {
  it('fills a form its script builds, picks an option, submits with Enter and reads the result the script renders; structured output', async () => {
    // Nothing of the form or the result is in the HTML: the text mode would read an empty page.
    site.on(
      'GET',
      '/search',
      html(
        `<div id="app"></div><script>
          document.getElementById('app').innerHTML = '<form id="f"><label for="q">Product</label><input id="q" name="q"><select id="size" aria-label="Size"><option value="s">Small</option><option value="l">Large</option></select><button>Search</button></form><p id="out"></p>';
          document.getElementById('f').addEventListener('submit', async (e) => {
            e.preventDefault();
            const q = encodeURIComponent(document.getElementById('q').value);
            const size = document.getElementById('size').value;
            const res = await fetch('/api/search?q=' + q + '&size=' + size);
            const found = await res.json();
            document.getElementById('out').textContent = 'Found: ' + found.name + ' (' + found.size + ') costs ' + found.price + ' EUR';
          });
        </script>`,
        'Search',
      ),
    );
    site.on('GET', '/api/search', (req) => ({ json: { name: req.query.q, size: req.query.size === 'l' ? 'large' : 'small', price: 12 } }));
    anthropic.reply(
      { content: 'Type the product.', toolCalls: [{ name: 'type', arguments: { target: '1', text: '%product%' }, id: 'toolu_1' }] },
      { toolCalls: [{ name: 'select', arguments: { target: 'Size', value: 'Large' }, id: 'toolu_2' }] },
      { toolCalls: [{ name: 'press', arguments: { key: 'Enter', target: '1' }, id: 'toolu_3' }] },
      { toolCalls: [{ name: 'done', arguments: { success: true, message: 'Widget costs 12 EUR', output: { price: 12 } }, id: 'toolu_4' }] },
    );
    const outputSchema = { type: 'object', properties: { price: { type: 'number' } } };
    const res = await agent({ task: 'Find the price of %product%', startUrl: `${site.url}/search`, variables: [{ id: 'r1', cells: { Key: 'product', Value: 'Widget' } }], outputSchema });
    expect(res).toEqual({
      status: 200,
      body: {
        agentResult: {
          success: true,
          completed: true,
          message: 'Widget costs 12 EUR',
          actions: [
            { type: 'goto', url: `${site.url}/search`, title: 'Search' },
            { type: 'type', target: '1', text: '%product%', element: '[1] textbox "Product" name=q', url: `${site.url}/search`, reasoning: 'Type the product.' },
            { type: 'select', target: 'Size', value: 'Large', element: '[2] select "Size" options: *Small | Large', url: `${site.url}/search` },
            // The element as read holds the typed value: the log keeps its %key%.
            { type: 'press', target: '1', key: 'Enter', element: '[1] textbox "Product" name=q value="%product%"', url: `${site.url}/search` },
          ],
        },
        structuredOutput: { price: 12 },
      },
    });
    expect(site.received('GET', '/api/search')[0]?.query).toEqual({ q: 'Widget', size: 'l' });
    const requests = anthropic.chatRequests();
    expect(requests).toHaveLength(4);
    const first = requests[0]?.body as { tools: Array<{ name: string; input_schema: unknown }> };
    expect(first.tools.map((t) => t.name)).toEqual(['navigate', 'click', 'type', 'press', 'select', 'read_page', 'done']);
    expect(first.tools[6]?.input_schema).toMatchObject({ properties: { output: outputSchema } });
    expect(bodyOf(requests[0])).toContain('Find the price of Widget');
    expect(bodyOf(requests[0])).toContain('[1] textbox \\"Product\\" name=q');
    expect(bodyOf(requests[0])).toContain('[3] button \\"Search\\"');
    expect(bodyOf(requests[3])).toContain('Found: Widget (large) costs 12 EUR');

    // The text mode (no browser) reads the same page without its script: no form to fill.
    const textMode = createRouter(stagehandRoutes({ policy: ALLOW_FAKES, models: { config: modelConfigFromEnv({ WEFT_ANTHROPIC_BASE_URL: anthropic.url }), logger }, browser: null }), logger);
    anthropic.reply({ toolCalls: [{ name: 'done', arguments: { success: false, message: 'No form' } }] });
    await textMode.handle({ method: 'POST', path: '/tools/stagehand/agent', query: {}, body: { task: 'Find the price', startUrl: `${site.url}/search`, apiKey: 'k' }, context, envVars: {} });
    expect(bodyOf(anthropic.chatRequests()[4])).not.toContain('Product');
  });

  it('clicks a button by its name that navigates, and reads the page it opens; a #fragment of it loads nothing', async () => {
    site.on('GET', '/product', html(`<h1>Widget</h1><button onclick="location.assign('/details')">Show details</button>`, 'Product'));
    site.on('GET', '/details', html('<p>Warranty: 2 years</p>', 'Details'));
    anthropic.reply(
      { toolCalls: [{ name: 'click', arguments: { target: 'Show details' }, id: 'toolu_1' }] },
      { toolCalls: [{ name: 'navigate', arguments: { url: `${site.url}/details#warranty` }, id: 'toolu_2' }] },
      { toolCalls: [{ name: 'done', arguments: { success: true, message: 'Two years' }, id: 'toolu_3' }] },
    );
    const res = await agent({ task: 'How long is the warranty?', startUrl: `${site.url}/product` });
    expect(res.body).toEqual({
      agentResult: {
        success: true,
        completed: true,
        message: 'Two years',
        actions: [
          { type: 'goto', url: `${site.url}/product`, title: 'Product' },
          { type: 'click', target: 'Show details', element: '[1] button "Show details"', url: `${site.url}/details` },
          // A move within the page loads nothing.
          { type: 'goto', url: `${site.url}/details#warranty`, title: 'Details' },
        ],
      },
      structuredOutput: null,
    });
    expect(bodyOf(anthropic.chatRequests()[1])).toContain('Warranty: 2 years');
    expect(site.requests.map((r) => r.path)).toEqual(['/product', '/details']);
  });

  it('a target that is not on the page is an error the model reads; the agent goes on', async () => {
    site.on('GET', '/empty', html('<p>Nothing to click</p>', 'Empty'));
    anthropic.reply(
      { toolCalls: [{ name: 'click', arguments: { target: '7' }, id: 'toolu_1' }] },
      { toolCalls: [{ name: 'done', arguments: { success: false, message: 'No button' }, id: 'toolu_2' }] },
    );
    const res = await agent({ task: 'Click it', startUrl: `${site.url}/empty` });
    expect(res.body).toMatchObject({ agentResult: { success: false, completed: true, actions: [{ type: 'goto' }, { type: 'click', target: '7', error: 'No element [7] on the page now; read the page again' }] } });
    expect(bodyOf(anthropic.chatRequests()[1])).toContain('The click failed: No element [7] on the page now');
  });

  it(`stops after ${STAGEHAND_AGENT_MAX_STEPS} model turns, and the browser it ran is closed when it answers`, async () => {
    site.on('GET', '/loop', html('<p>Still here</p>', 'Loop'));
    let during: number[] = [];
    anthropic.fallback(() => {
      during = browserProcesses();
      return { toolCalls: [{ name: 'read_page', arguments: {} }] };
    });
    const res = await agent({ task: 'loop', startUrl: `${site.url}/loop` });
    expect(res.body).toMatchObject({ agentResult: { success: false, completed: false, message: `The agent did not finish within ${STAGEHAND_AGENT_MAX_STEPS} steps` }, structuredOutput: null });
    expect((res.body as { agentResult: { actions: unknown[] } }).agentResult.actions).toHaveLength(1 + STAGEHAND_AGENT_MAX_STEPS);
    expect(anthropic.chatRequests()).toHaveLength(STAGEHAND_AGENT_MAX_STEPS);
    // The browser and its children (renderers, utilities) were running during the call, and are gone.
    expect(during.length).toBeGreaterThan(1);
    expect(alive(during)).toEqual([]);
  });

  it('a cancelled call closes its browser at once, its page still loading', async () => {
    site.on('GET', '/slow', { hang: true });
    const abort = new AbortController();
    const answer = agent({ task: 't', startUrl: `${site.url}/slow` }, abort.signal);
    await expect.poll(() => site.received('GET', '/slow').length).toBe(1);
    const during = browserProcesses();
    expect(during.length).toBeGreaterThan(0);
    abort.abort();
    await answer;
    await expect.poll(() => site.received('GET', '/slow')[0]?.abandoned).toBe(true);
    expect(alive(during)).toEqual([]);
    expect(anthropic.chatRequests()).toEqual([]);
  });

  it('runs at most WEFT_BROWSER_MAX browsers at once: a further call waits for one to close, and may be cancelled while it waits', async () => {
    const one = createRouter(stagehandRoutes({ policy: ALLOW_FAKES, models: { config: modelConfigFromEnv({ WEFT_ANTHROPIC_BASE_URL: anthropic.url }), logger }, browser: { executablePath: CHROMIUM, maxBrowsers: 1 } }), logger);
    const call = (startUrl: string, signal: AbortSignal) => one.handle({ method: 'POST', path: '/tools/stagehand/agent', query: {}, body: { task: 't', startUrl, apiKey: 'k' }, context, envVars: {}, signal });
    site.on('GET', '/slow', { hang: true });
    site.on('GET', '/quick', html('<p>Quick</p>', 'Quick'));
    anthropic.reply({ toolCalls: [{ name: 'done', arguments: { success: true, message: 'Quick one' } }] });
    const first = new AbortController();
    const holding = call(`${site.url}/slow`, first.signal);
    await expect.poll(() => site.received('GET', '/slow').length).toBe(1);
    const gaveUp = new AbortController();
    const cancelled = call(`${site.url}/quick`, gaveUp.signal);
    const next = call(`${site.url}/quick`, new AbortController().signal);
    await expect.poll(() => browserSlots()).toEqual({ running: 1, waiting: 2 });
    gaveUp.abort();
    expect((await cancelled).body).toMatchObject({ agentResult: { success: false, completed: false, actions: [] } });
    expect(browserSlots()).toEqual({ running: 1, waiting: 1 });
    expect(site.received('GET', '/quick')).toEqual([]);
    first.abort();
    await holding;
    expect((await next).body).toMatchObject({ agentResult: { success: true, message: 'Quick one' } });
    expect(browserSlots()).toEqual({ running: 0, waiting: 0 });
  });
});

describe('the browser’s process', () => {
  it('gets PATH, LANG and a HOME of its own (gone after the call), none of the service’s variables (its database URL, its keys)', async () => {
    const saved = { DATABASE_URL: process.env.DATABASE_URL, WEFT_TEST_SECRET_KEY: process.env.WEFT_TEST_SECRET_KEY };
    process.env.DATABASE_URL = 'postgres://weft:db-password-in-env@db.invalid/weft';
    process.env.WEFT_TEST_SECRET_KEY = 'sk-secret-in-env';
    site.on('GET', '/env', html('<p>Env</p>', 'Env'));
    const environs: Array<Map<string, string>> = [];
    anthropic.fallback(() => {
      const marked = browserProcesses().filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${BROWSER_MARKER}=${process.pid}`));
      for (const pid of marked) environs.push(environOf(pid));
      return { toolCalls: [{ name: 'done', arguments: { success: true, message: 'ok' } }] };
    });
    try {
      const res = await agent({ task: 't', startUrl: `${site.url}/env` });
      expect(res.status).toBe(200);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(environs.length).toBeGreaterThan(0);
    for (const env of environs) {
      const values = [...env.values()].join('\n');
      expect(values).not.toContain('db-password-in-env');
      expect(values).not.toContain('sk-secret-in-env');
      expect(env.has('DATABASE_URL')).toBe(false);
      expect(env.has('WEFT_TEST_SECRET_KEY')).toBe(false);
      expect(env.get('PATH')).toBe(process.env.PATH);
      if (process.env.LANG) expect(env.get('LANG')).toBe(process.env.LANG);
      expect(env.get('HOME')).toMatch(/weft-browser-home-/);
      expect(env.get('HOME')).not.toBe(process.env.HOME);
      expect(existsSync(env.get('HOME') ?? '')).toBe(false);
    }
  });

  it('runs with its memory bounds: a page’s JavaScript heap and two renderer processes at most', async () => {
    site.on('GET', '/flags', html('<p>Flags</p>', 'Flags'));
    let cmd = '';
    anthropic.fallback(() => {
      const marked = browserProcesses().find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${BROWSER_MARKER}=${process.pid}`));
      cmd = marked ? readFileSync(`/proc/${marked}/cmdline`, 'utf8').split('\0').join(' ') : '';
      return { toolCalls: [{ name: 'done', arguments: { success: true, message: 'ok' } }] };
    });
    await agent({ task: 't', startUrl: `${site.url}/flags` });
    expect(cmd).toContain('--js-flags=--max-old-space-size=512');
    expect(cmd).toContain('--renderer-process-limit=2');
  });
});

describe('a page that keeps the browser busy', () => {
  // The time limit of every read, a navigation's too: one no read of these two-line pages comes near
  // on a loaded machine (a shorter one fails a healthy read there), so only the busy loop reaches it.
  const LIMIT_MS = 10_000;
  const quick = () => createRouter(stagehandRoutes({ policy: ALLOW_FAKES, models: { config: modelConfigFromEnv({ WEFT_ANTHROPIC_BASE_URL: anthropic.url }), logger }, browser: { executablePath: CHROMIUM }, browserLimits: { timeoutMs: LIMIT_MS, actionTimeoutMs: LIMIT_MS } }), logger);
  const timedOut = new RegExp(`^The page did not answer within the browser's time limit of ${LIMIT_MS / 1000} s \\((reading its title|reading its text and elements)\\): a script of the page keeps it busy; the browser was closed$`);

  it('a start page busy for ever after it loads fails the call at the limit, naming it; its browser is closed', async () => {
    site.on('GET', '/busy', html(`<p>Busy</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));</script>`, 'Busy'));
    const res = await quick().handle({ method: 'POST', path: '/tools/stagehand/agent', query: {}, body: { task: 't', startUrl: `${site.url}/busy`, apiKey: 'k' }, context, envVars: {} });
    expect(res.body).toMatchObject({ error: expect.stringMatching(timedOut), agentResult: { success: false, completed: false, message: expect.stringMatching(timedOut), actions: [] }, structuredOutput: null });
    expect(res.status).toBe(504);
    expect(anthropic.chatRequests()).toEqual([]);
    expect(browserSlots()).toEqual({ running: 0, waiting: 0 });
  });

  it('a button that starts a busy loop fails the call naming the limit when the page is read after the click', async () => {
    site.on('GET', '/button', html(`<button onclick="for (;;) {}">Spin</button>`, 'Button'));
    let during: number[] = [];
    anthropic.reply(() => {
      during = browserProcesses();
      return { toolCalls: [{ name: 'click', arguments: { target: '1' }, id: 'toolu_1' }] };
    });
    anthropic.fallback(() => ({ toolCalls: [{ name: 'done', arguments: { success: true, message: 'never asked' } }] }));
    const res = await quick().handle({ method: 'POST', path: '/tools/stagehand/agent', query: {}, body: { task: 't', startUrl: `${site.url}/button`, apiKey: 'k' }, context, envVars: {} });
    expect(res.body).toMatchObject({ error: expect.stringMatching(timedOut), agentResult: { success: false, completed: false } });
    expect(res.status).toBe(504);
    expect(anthropic.chatRequests()).toHaveLength(1);
    // The browser and its children were running when the model was asked, and are gone.
    expect(during.length).toBeGreaterThan(0);
    expect(alive(during)).toEqual([]);
  });
});

describe('the action log', () => {
  it('keeps %key% in the URLs the agent opens and in their errors; the pages get the values', async () => {
    site.on('GET', '/home', html('<p>Home</p>', 'Home'));
    site.on('GET', '/account', html('<p>Your account</p>', 'Account'));
    anthropic.reply(
      { toolCalls: [{ name: 'navigate', arguments: { url: `${site.url}/account?token=%token%` }, id: 'toolu_1' }] },
      { toolCalls: [{ name: 'read_page', arguments: {}, id: 'toolu_2' }] },
      { toolCalls: [{ name: 'navigate', arguments: { url: `${site.url}/missing?token=%token%` }, id: 'toolu_3' }] },
      { toolCalls: [{ name: 'done', arguments: { success: true, message: 'Seen' }, id: 'toolu_4' }] },
    );
    const res = await agent({ task: 'Open the account', startUrl: `${site.url}/home`, variables: [{ id: 'r1', cells: { Key: 'token', Value: 's3cret-t0ken' } }] });
    expect(res.body).toEqual({
      agentResult: {
        success: true,
        completed: true,
        message: 'Seen',
        actions: [
          { type: 'goto', url: `${site.url}/home`, title: 'Home' },
          { type: 'goto', url: `${site.url}/account?token=%token%`, title: 'Account' },
          { type: 'read_page', url: `${site.url}/account?token=%token%`, title: 'Account' },
          { type: 'goto', url: `${site.url}/missing?token=%token%`, error: `Failed to load ${site.url}/missing?token=%token%: HTTP error 404: Not Found` },
        ],
      },
      structuredOutput: null,
    });
    expect(JSON.stringify(res.body)).not.toContain('s3cret-t0ken');
    expect(bodyOf(anthropic.chatRequests()[3])).toContain(`Could not open ${site.url}/missing?token=%token%: Failed to load ${site.url}/missing?token=%token%: HTTP error 404`);
    // The pages were opened with the value.
    expect(site.received('GET', '/account')[0]?.query).toEqual({ token: 's3cret-t0ken' });
    expect(site.received('GET', '/missing')[0]?.query).toEqual({ token: 's3cret-t0ken' });
  });
});

describe('the browser’s outbound policy', () => {
  it('a page’s fetch, image, WebSocket, worker’s fetch and redirected fetch to a private address are refused, a redirect past the guard’s limit goes nowhere; the model reads what was refused', async () => {
    site.on('GET', '/hop', { status: 302, headers: { location: `${internalUrl}/after-hop` } });
    // Five redirects the guard follows, then one it hands to the page: Chromium follows that one past
    // the routing, into the proxy that closes every connection.
    for (let i = 1; i <= 5; i++) site.on('GET', `/chain${i}`, { status: 302, headers: { location: `/chain${i + 1}` } });
    site.on('GET', '/chain6', { status: 302, headers: { location: `${internalUrl}/after-chain` } });
    site.on(
      'GET',
      '/evil',
      html(
        `<p id="status">loading</p><img src="${internalUrl}/pixel.png"><script>
          const ws = new WebSocket('${internalUrl.replace('http', 'ws')}/socket');
          new Worker(URL.createObjectURL(new Blob(["fetch('${internalUrl}/from-worker').catch(() => {})"], { type: 'text/javascript' })));
          Promise.allSettled([fetch('${internalUrl}/secret').then((r) => r.text()), fetch('/hop').then((r) => r.text()), fetch('/chain1').then((r) => r.text())]).then((all) => {
            document.getElementById('status').textContent = all.map((r) => r.status + ':' + (r.value || '')).join(' ');
          });
        </script>`,
        'Evil',
      ),
    );
    anthropic.reply({ toolCalls: [{ name: 'read_page', arguments: {}, id: 'toolu_1' }] }, { toolCalls: [{ name: 'done', arguments: { success: false, message: 'Blocked' }, id: 'toolu_2' }] });
    const res = await agent({ task: 'Read the secret', startUrl: `${site.url}/evil` });
    expect(res.status).toBe(200);
    const view = bodyOf(anthropic.chatRequests()[1]);
    expect(view).toContain('rejected: rejected: rejected:');
    expect(site.received('GET', '/chain6')).toHaveLength(1);
    expect(view).not.toContain('internal secret');
    expect(view).toContain(`${internalUrl}/secret (${refusal('127.0.0.2')})`);
    expect(view).toContain(`${internalUrl}/pixel.png (${refusal('127.0.0.2')})`);
    expect(view).toContain(`${site.url}/hop (${refusal('127.0.0.2')})`);
    expect(view).toContain(`${internalUrl}/from-worker (${refusal('127.0.0.2')})`);
    expect(view).toContain(`${internalUrl.replace('http', 'ws')}/socket (WebSockets are not allowed)`);
    expect(internalHits).toBe(0);
  });

  it('a start page redirecting to the metadata address fails the call; a page the agent opens or a link it clicks that redirects to it is an error the model reads', async () => {
    site.on('GET', '/to-metadata', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } });
    site.on('GET', '/to-internal', { status: 301, headers: { location: `${internalUrl}/admin` } });
    site.on('GET', '/start', html('<a href="/to-internal">Admin</a>', 'Start'));
    const failed = await agent({ task: 'x', startUrl: `${site.url}/to-metadata` });
    expect(failed).toEqual({ status: 400, body: { error: refusal('169.254.169.254'), agentResult: { success: false, completed: false, message: refusal('169.254.169.254'), actions: [] }, structuredOutput: null } });
    expect(anthropic.chatRequests()).toEqual([]);

    anthropic.reply(
      { toolCalls: [{ name: 'click', arguments: { target: '1' }, id: 'toolu_1' }] },
      { toolCalls: [{ name: 'navigate', arguments: { url: `${site.url}/to-metadata` }, id: 'toolu_2' }] },
      { toolCalls: [{ name: 'done', arguments: { success: false, message: 'Refused' }, id: 'toolu_3' }] },
    );
    const res = await agent({ task: 'Open the admin page', startUrl: `${site.url}/start` });
    expect(res.body).toEqual({
      agentResult: {
        success: false,
        completed: true,
        message: 'Refused',
        actions: [
          { type: 'goto', url: `${site.url}/start`, title: 'Start' },
          { type: 'click', target: '1', element: '[1] link "Admin" -> /to-internal', error: `The page it opened could not be loaded: ${refusal('127.0.0.2')}` },
          { type: 'goto', url: `${site.url}/to-metadata`, error: refusal('169.254.169.254') },
        ],
      },
      structuredOutput: null,
    });
    expect(bodyOf(anthropic.chatRequests()[1])).toContain(`The click failed: The page it opened could not be loaded: ${refusal('127.0.0.2')}`);
    expect(bodyOf(anthropic.chatRequests()[2])).toContain(`Could not open ${site.url}/to-metadata: ${refusal('169.254.169.254')}`);
    expect(internalHits).toBe(0);
    expect(site.requests.map((r) => r.path)).toEqual(['/to-metadata', '/start', '/to-internal', '/to-metadata']);
  });

  it('downloads are refused, and a page over 5 MB fails to load naming the limit', async () => {
    site.on('GET', '/start', html('<p>Files</p>', 'Files'));
    site.on('GET', '/report.zip', { text: 'PK', headers: { 'content-type': 'application/zip' } });
    site.on('GET', '/export', { text: 'a,b', headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="export.csv"' } });
    site.on('GET', '/huge', { text: `<html><body>${'x'.repeat(5 * 1024 * 1024)}</body></html>`, headers: { 'content-type': 'text/html' } });
    anthropic.reply(
      { toolCalls: [{ name: 'navigate', arguments: { url: `${site.url}/report.zip` }, id: 'toolu_1' }, { name: 'navigate', arguments: { url: `${site.url}/export` }, id: 'toolu_2' }, { name: 'goto', arguments: { url: `${site.url}/huge` }, id: 'toolu_3' }] },
      { toolCalls: [{ name: 'done', arguments: { success: false, message: 'No files' }, id: 'toolu_4' }] },
    );
    const res = await agent({ task: 'Download', startUrl: `${site.url}/start` });
    expect((res.body as { agentResult: { actions: unknown[] } }).agentResult.actions).toEqual([
      { type: 'goto', url: `${site.url}/start`, title: 'Files' },
      { type: 'goto', url: `${site.url}/report.zip`, error: `Failed to load ${site.url}/report.zip: Downloads are refused: ${site.url}/report.zip answers application/zip` },
      { type: 'goto', url: `${site.url}/export`, error: `Failed to load ${site.url}/export: Downloads are refused: ${site.url}/export answers text/csv` },
      { type: 'goto', url: `${site.url}/huge`, error: `Failed to load ${site.url}/huge: the page is larger than 5 MB` },
    ]);
  });
});

describe('a posted form’s redirects', () => {
  it('307 and 308 go on with the method and the body, each hop through the guard, to another origin too; 301, 302 and 303 go on as a GET; a 307 to a private address is refused', async () => {
    site.on('GET', '/form', {
      ...html(
        `<form method="post" action="/submit"><input name="item" aria-label="Item"><button>Send</button></form>
        <form method="post" action="/p301"><input type="hidden" name="note" value="n301"><button>Send 301</button></form>
        <form method="post" action="/p302"><input type="hidden" name="note" value="n302"><button>Send 302</button></form>
        <form method="post" action="/p303"><input type="hidden" name="note" value="n303"><button>Send 303</button></form>
        <form method="post" action="/inside"><input type="hidden" name="note" value="nope"><button>Send inside</button></form>`,
        'Form',
      ),
      headers: { 'content-type': 'text/html', 'set-cookie': 'sid=form-session; Path=/' },
    });
    site.on('POST', '/submit', { status: 307, headers: { location: '/moved' } });
    site.on('POST', '/moved', { status: 308, headers: { location: `${other.url}/final` } });
    other.on('POST', '/final', (req) => html(`<p>Received ${req.method} ${req.text}</p>`, 'Final'));
    for (const status of [301, 302, 303]) site.on('POST', `/p${status}`, { status, headers: { location: `/result?from=${status}` } });
    site.on('GET', '/result', (req) => html(`<p>Result by ${req.method} from ${req.query.from}</p>`, 'Result'));
    site.on('POST', '/inside', { status: 307, headers: { location: `${internalUrl}/admin` } });
    const again = { name: 'navigate', arguments: { url: `${site.url}/form` } };
    anthropic.reply(
      { toolCalls: [{ name: 'type', arguments: { target: 'Item', text: 'Widget' }, id: 'toolu_1' }, { name: 'click', arguments: { target: 'Send' }, id: 'toolu_2' }] },
      { toolCalls: [{ ...again, id: 'toolu_3' }, { name: 'click', arguments: { target: 'Send 301' }, id: 'toolu_4' }] },
      { toolCalls: [{ ...again, id: 'toolu_5' }, { name: 'click', arguments: { target: 'Send 302' }, id: 'toolu_6' }] },
      { toolCalls: [{ ...again, id: 'toolu_7' }, { name: 'click', arguments: { target: 'Send 303' }, id: 'toolu_8' }] },
      { toolCalls: [{ ...again, id: 'toolu_9' }, { name: 'click', arguments: { target: 'Send inside' }, id: 'toolu_10' }] },
      { toolCalls: [{ name: 'done', arguments: { success: true, message: 'Sent' }, id: 'toolu_11' }] },
    );
    const res = await agent({ task: 'Send the forms', startUrl: `${site.url}/form` });
    const actions = (res.body as { agentResult: { actions: Array<Record<string, unknown>> } }).agentResult.actions;
    expect(actions.filter((a) => a.type === 'click').map((a) => a.error ?? a.url)).toEqual([
      `${other.url}/final`,
      `${site.url}/result?from=301`,
      `${site.url}/result?from=302`,
      `${site.url}/result?from=303`,
      `The page it opened could not be loaded: ${refusal('127.0.0.2')}`,
    ]);
    // The form's POST, with its body, at every hop of the 307 and the 308; the last answer is the page read.
    for (const hop of [site.received('POST', '/submit')[0], site.received('POST', '/moved')[0], other.received('POST', '/final')[0]]) {
      expect(hop?.body).toEqual({ item: 'Widget' });
      expect(hop?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    }
    expect(site.received('POST', '/moved')[0]?.headers.cookie).toBe('sid=form-session');
    expect(other.received('GET', '/final')).toEqual([]);
    expect(bodyOf(anthropic.chatRequests()[1])).toContain('Received POST item=Widget');
    // 301, 302 and 303: a GET of the next hop, no body.
    expect(site.received('GET', '/result').map((r) => [r.query.from, r.text])).toEqual([['301', ''], ['302', ''], ['303', '']]);
    expect(site.received('POST', '/result')).toEqual([]);
    expect(bodyOf(anthropic.chatRequests()[3])).toContain('Result by GET from 302');
    expect(internalHits).toBe(0);
  });
});

describe('variables’ values the pages carry on', () => {
  it('a redirect, a submitted form and a page title carrying a value are logged with its %key%; the pages get the value', async () => {
    const token = 'Sup3r s3cret/1';
    site.on('GET', '/login', (req) => ({ status: 302, headers: { location: `/welcome/${encodeURIComponent(req.query.token ?? '')}` } }));
    site.on('GET', '/welcome/:session', (req) => html(`<p>Signed in</p><form action="/find"><input name="q" aria-label="Query"><button>Find</button></form>`, `Welcome ${decodeURIComponent(req.path.split('/')[2] ?? '')}`));
    site.on('GET', '/find', (req) => html(`<p>Found ${req.query.q}</p>`, 'Found'));
    site.on('GET', '/start', html('<p>Start</p>', 'Start'));
    anthropic.reply(
      { content: 'Sign in.', toolCalls: [{ name: 'navigate', arguments: { url: `${site.url}/login?token=%token%` }, id: 'toolu_1' }] },
      { toolCalls: [{ name: 'type', arguments: { target: 'Query', text: '%token%' }, id: 'toolu_2' }, { name: 'press', arguments: { key: 'Enter', target: 'Query' }, id: 'toolu_3' }] },
      { toolCalls: [{ name: 'read_page', arguments: {}, id: 'toolu_4' }] },
      { toolCalls: [{ name: 'done', arguments: { success: true, message: 'Found it' }, id: 'toolu_5' }] },
    );
    const res = await agent({ task: 'Sign in and search', startUrl: `${site.url}/start`, variables: [{ id: 'r1', cells: { Key: 'token', Value: token } }] });
    expect(res.body).toEqual({
      agentResult: {
        success: true,
        completed: true,
        message: 'Found it',
        actions: [
          { type: 'goto', url: `${site.url}/start`, title: 'Start' },
          { type: 'goto', url: `${site.url}/welcome/%token%`, title: 'Welcome %token%', reasoning: 'Sign in.' },
          { type: 'type', target: 'Query', text: '%token%', element: '[1] textbox "Query" name=q', url: `${site.url}/welcome/%token%` },
          { type: 'press', target: 'Query', key: 'Enter', element: '[1] textbox "Query" name=q value="%token%"', url: `${site.url}/find?q=%token%` },
          { type: 'read_page', url: `${site.url}/find?q=%token%`, title: 'Found' },
        ],
      },
      structuredOutput: null,
    });
    const answer = JSON.stringify(res.body);
    for (const form of [token, encodeURIComponent(token), encodeURI(token), 'Sup3r+s3cret']) expect(answer).not.toContain(form);
    // The pages got the value.
    expect(site.received('GET', '/login')[0]?.query).toEqual({ token });
    expect(site.received('GET', '/find')[0]?.query).toEqual({ q: token });
    expect(bodyOf(anthropic.chatRequests()[2])).toContain(`Found ${token}`);
  });
});

describe('POST /api/tools/stagehand/extract in a browser', () => {
  const extract = (body: Record<string, unknown>, router = routes) => router.handle({ method: 'POST', path: '/tools/stagehand/extract', query: {}, body: { instruction: 'Get the facts', schema: { type: 'object' }, apiKey: 'sk-extract', ...body }, context, envVars: {} });
  const prompt = (at: number) => JSON.stringify((openai.chatRequests()[at]?.body as { messages: unknown }).messages);

  it('reads the page its script renders and its same- and cross-origin frames’ text (each frame through the guard); a hidden or refused frame adds nothing; no browser: the text mode', async () => {
    site.on(
      'GET',
      '/app',
      html(
        `<div id="app">Loading</div>
        <iframe src="/frame-same"></iframe>
        <iframe src="${other.url}/frame-cross"></iframe>
        <iframe src="/frame-hidden" style="display:none"></iframe>
        <iframe src="${internalUrl}/frame"></iframe>
        <script>fetch('/api/price').then((r) => r.json()).then((p) => { document.getElementById('app').textContent = 'Price: ' + p.price + ' EUR'; });</script>`,
        'App',
      ),
    );
    site.on('GET', '/api/price', { json: { price: 42 } });
    site.on('GET', '/frame-same', html('<p>Shipping: 3 days</p>', 'Same'));
    site.on('GET', '/frame-hidden', html('<p>Tracking pixel</p>', 'Hidden'));
    other.on('GET', '/frame-cross', html(`<p>Warranty: 2 years</p><iframe src="${other.url}/frame-nested"></iframe>`, 'Cross'));
    other.on('GET', '/frame-nested', html('<p>Returns: 30 days</p>', 'Nested'));
    openai.reply({ content: JSON.stringify({ price: 42 }) });
    const res = await extract({ url: `${site.url}/app` });
    expect(res).toEqual({ status: 200, body: { data: { price: 42 } } });
    const read = prompt(0);
    expect(read).toContain(`Page ${site.url}/app (App)`);
    expect(read).toContain('Price: 42 EUR');
    expect(read).toContain(`[Frame ${site.url}/frame-same]\\nShipping: 3 days`);
    expect(read).toContain(`[Frame ${other.url}/frame-cross]\\nWarranty: 2 years`);
    expect(read).toContain(`[Frame ${other.url}/frame-nested]\\nReturns: 30 days`);
    expect(read).not.toContain('Tracking pixel');
    expect(read).not.toContain('internal secret');
    expect(read).not.toContain('Loading');
    expect(internalHits).toBe(0);
    expect(other.received('GET', '/frame-cross')).toHaveLength(1);
    expect(browserSlots()).toEqual({ running: 0, waiting: 0 });

    // Without a browser the same page is read as fetched: no script, no frame.
    const textMode = createRouter(stagehandRoutes({ policy: ALLOW_FAKES, models: { config: modelConfigFromEnv({ WEFT_OPENAI_BASE_URL: openai.baseUrl }), logger }, browser: null }), logger);
    openai.reply({ content: '{}' });
    expect((await extract({ url: `${site.url}/app` }, textMode)).status).toBe(200);
    expect(prompt(1)).toContain('Loading');
    expect(prompt(1)).not.toContain('Price: 42 EUR');
    expect(prompt(1)).not.toContain('Shipping');
  });

  it('a page that does not load answers as in the text mode: a refused redirect 400, an HTTP error and a download 502, over 5 MB 413; the model is not asked', async () => {
    site.on('GET', '/to-metadata', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } });
    site.on('GET', '/report.zip', { text: 'PK', headers: { 'content-type': 'application/zip' } });
    site.on('GET', '/huge', { text: `<html><body>${'x'.repeat(5 * 1024 * 1024)}</body></html>`, headers: { 'content-type': 'text/html' } });
    expect(await extract({ url: `${site.url}/to-metadata` })).toEqual({ status: 400, body: { success: false, error: refusal('169.254.169.254') } });
    expect(await extract({ url: `${site.url}/gone` })).toEqual({ status: 502, body: { success: false, error: `Failed to load ${site.url}/gone: HTTP error 404: Not Found` } });
    expect(await extract({ url: `${site.url}/report.zip` })).toEqual({ status: 502, body: { success: false, error: `Failed to load ${site.url}/report.zip: Downloads are refused: ${site.url}/report.zip answers application/zip` } });
    expect(await extract({ url: `${site.url}/huge` })).toEqual({ status: 413, body: { success: false, error: `Failed to load ${site.url}/huge: the page is larger than 5 MB` } });
    expect(openai.chatRequests()).toEqual([]);
    expect(browserSlots()).toEqual({ running: 0, waiting: 0 });
  });
});

describe('a page’s frames in the page view', () => {
  it('the agent reads its frames’ text, and the page and its frames together keep within the text limit', async () => {
    site.on('GET', '/framed', html(`<p>${'Main text. '.repeat(10)}</p><iframe src="${other.url}/inner"></iframe>`, 'Framed'));
    other.on('GET', '/inner', html(`<p>Inner start ${'inner words '.repeat(50)}</p>`, 'Inner'));
    anthropic.reply({ toolCalls: [{ name: 'done', arguments: { success: true, message: 'Read' }, id: 'toolu_1' }] });
    await agent({ task: 'Read the frame', startUrl: `${site.url}/framed` });
    expect(bodyOf(anthropic.chatRequests()[0])).toContain(`[Frame ${other.url}/inner]\\nInner start inner words`);

    const session = await BrowserSession.open({ executablePath: CHROMIUM }, ALLOW_FAKES, { responseBytes: 5 * 1024 * 1024, totalBytes: 50 * 1024 * 1024, timeoutMs: 30_000, actionTimeoutMs: 10_000 }, undefined);
    try {
      await session.navigate(`${site.url}/framed`);
      const whole = await session.view(10_000);
      expect(whole.text).toContain(`[Frame ${other.url}/inner]\nInner start`);
      const bounded = await session.view(200);
      expect(bounded.text.length).toBeLessThanOrEqual(200);
      expect(bounded.text).toContain(`[Frame ${other.url}/inner]\nInner start`);
      expect(whole.text.startsWith(bounded.text)).toBe(true);
      // A page whose own text fills the limit leaves no room for its frames.
      expect((await session.view(50)).text).not.toContain('[Frame');
    } finally {
      await session.close();
    }
  });
});
