import { WEBHOOK_PROVIDERS } from '../blocks/webhook.block.js';
import { text } from '../paramValues.js';
import type { ScheduleFields } from './scheduleSpec.js';

export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number][0];

/** How a webhook call is answered: 200 at once, or with the Response block's status, headers and body. */
export type WebhookResponseMode = 'immediate' | 'response';

/** The webhook a deployed workflow listens on. */
export interface WebhookTrigger {
  blockId: string;
  /** The path after /api/webhooks/trigger/ (leading and trailing slashes removed). */
  path: string;
  provider: WebhookProvider;
  /** Token, signing secret or app secret, as the provider uses it; empty: not checked. */
  secret: string;
  /** WhatsApp's hub.verify_token (the GET subscription handshake); defaults to the secret. */
  verifyToken: string;
  responseMode: WebhookResponseMode;
}

/** The schedule a deployed workflow runs on. */
export interface ScheduleTrigger {
  blockId: string;
  fields: ScheduleFields;
}

/** A block of a workflow state as the trigger and deploy checks read it. */
export interface StateBlock {
  id: string;
  type: string;
  name: string;
  enabled?: boolean;
  advancedMode?: boolean;
  subBlocks?: Record<string, { value?: unknown } | undefined>;
  data?: Record<string, unknown>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the blocks of a state given as JSON (entries that are not blocks are left out). */
export function readStateBlocks(blocks: Record<string, unknown>): Record<string, StateBlock> {
  const out: Record<string, StateBlock> = {};
  for (const [key, b] of Object.entries(blocks)) {
    if (!isRecord(b) || typeof b.type !== 'string') continue;
    const subBlocks: Record<string, { value?: unknown }> = {};
    if (isRecord(b.subBlocks)) for (const [id, sub] of Object.entries(b.subBlocks)) if (isRecord(sub)) subBlocks[id] = { value: sub.value };
    out[key] = {
      id: typeof b.id === 'string' ? b.id : key,
      type: b.type,
      name: typeof b.name === 'string' ? b.name : key,
      enabled: b.enabled !== false,
      advancedMode: b.advancedMode === true,
      subBlocks,
      ...(isRecord(b.data) ? { data: b.data } : {}),
    };
  }
  return out;
}

/** A path as stored: no leading or trailing slashes. */
export function normalizeWebhookPath(path: string): string {
  return path.trim().replace(/^\/+|\/+$/g, '');
}

/**
 * Why a webhook path cannot be used, or undefined. A `.` or `..` segment is refused: browsers and
 * HTTP clients resolve them away before sending (`a/../b` goes out as `b`), so the URL called would
 * not be the one the form shows and the deploy registered.
 */
export function webhookPathError(path: string): string | undefined {
  if (path === '') return 'Webhook Path is required';
  if (path.length > 200) return 'Webhook Path must be at most 200 characters';
  const dots = path.split('/').find((segment) => segment === '.' || segment === '..');
  if (dots !== undefined) return `Webhook Path "${path}" cannot have a "${dots}" segment: browsers and HTTP clients remove "." and ".." from a URL, so calls would not reach it`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._~-]*(\/[A-Za-z0-9._~-]+)*$/.test(path)) return 'Webhook Path may use letters, digits, ".", "_", "~", "-" and "/" between segments';
  return undefined;
}

function value(block: StateBlock, id: string): unknown {
  return block.subBlocks?.[id]?.value;
}

function record(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') {
    try {
      const parsed: unknown = JSON.parse(v);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function responseMode(v: unknown): WebhookResponseMode {
  return text(v) === 'response' ? 'response' : 'immediate';
}

const SCHEDULE_KEYS: Array<keyof ScheduleFields> = [
  'scheduleType', 'minutesInterval', 'minutesStartingAt', 'hourlyMinute', 'dailyTime', 'weeklyDay',
  'weeklyDayTime', 'monthlyDay', 'monthlyTime', 'cronExpression', 'timezone',
];

/** The webhook a webhook block listens on: its provider and webhookConfig {path, secret | token | signingSecret, verifyToken, responseMode}. */
function blockWebhook(block: StateBlock): WebhookTrigger {
  const config = record(value(block, 'webhookConfig'));
  const providerText = text(value(block, 'webhookProvider')) || 'generic';
  const provider = WEBHOOK_PROVIDERS.find(([id]) => id === providerText)?.[0] ?? 'generic';
  const secret = text(config.secret) || text(config.token) || text(config.signingSecret);
  return {
    blockId: block.id,
    path: normalizeWebhookPath(text(config.path)),
    provider,
    secret,
    verifyToken: text(config.verifyToken) || secret,
    responseMode: responseMode(config.responseMode),
  };
}

/**
 * Every webhook a deployed workflow listens on, each on its own path and starting its runs at its
 * own block: the starter's when its startWorkflow is webhook (webhookPath/webhookSecret/
 * webhookResponseMode, generic provider), then each enabled webhook block.
 */
export function webhookTriggers(given: Record<string, unknown>): WebhookTrigger[] {
  const all = Object.values(readStateBlocks(given)).filter((b) => b.enabled !== false);
  const out: WebhookTrigger[] = [];
  const starter = all.find((b) => b.type === 'starter');
  if (starter && text(value(starter, 'startWorkflow')) === 'webhook') {
    const secret = text(value(starter, 'webhookSecret'));
    out.push({
      blockId: starter.id,
      path: normalizeWebhookPath(text(value(starter, 'webhookPath'))),
      provider: 'generic',
      secret,
      verifyToken: secret,
      responseMode: responseMode(value(starter, 'webhookResponseMode')),
    });
  }
  for (const block of all) if (block.type === 'webhook') out.push(blockWebhook(block));
  return out;
}

/**
 * The blocks that ask for a schedule: the starter when its startWorkflow is schedule, then each
 * enabled schedule block. Each gets a Temporal Schedule of its own when the workflow is deployed.
 */
export function scheduleTriggerBlocks(given: Record<string, unknown>): StateBlock[] {
  const all = Object.values(readStateBlocks(given)).filter((b) => b.enabled !== false);
  const starter = all.find((b) => b.type === 'starter');
  const fromStarter = starter && text(value(starter, 'startWorkflow')) === 'schedule' ? [starter] : [];
  return [...fromStarter, ...all.filter((b) => b.type === 'schedule')];
}

/** Every schedule a deployed workflow runs on (see scheduleTriggerBlocks), each with its block's schedule fields. */
export function scheduleTriggers(given: Record<string, unknown>): ScheduleTrigger[] {
  return scheduleTriggerBlocks(given).map((b) => ({ blockId: b.id, fields: Object.fromEntries(SCHEDULE_KEYS.map((k) => [k, value(b, k)])) }));
}

/** The first webhook (see webhookTriggers) and the first schedule (see scheduleTriggers) a workflow starts by when deployed. */
export function deploymentTriggers(given: Record<string, unknown>): { webhook?: WebhookTrigger; schedule?: ScheduleTrigger } {
  const out: { webhook?: WebhookTrigger; schedule?: ScheduleTrigger } = {};
  const webhook = webhookTriggers(given)[0];
  if (webhook) out.webhook = webhook;
  const schedule = scheduleTriggers(given)[0];
  if (schedule) out.schedule = schedule;
  return out;
}
