import { MIN_SECRET_LENGTH, type FormSearch, formSearch, getBlock, renameKeys, replaceSpans, secretForms } from '@weft/catalog';

/**
 * What the run log shows for a secret typed into a password field (an API key, an SMTP password, a
 * bot token): the same marker the tool runtime writes over secrets in tool results and errors.
 */
export const SECRET_MASK = '[REDACTED]';

/** Environment values shorter than this are not searched in the log (the tool runtime's redaction rule). */
export const MIN_MASKED_LENGTH = MIN_SECRET_LENGTH;

/** Keys of a webhook trigger's configuration that hold its token, signing secret or verify token. */
const WEBHOOK_SECRET_KEY = /secret|token/i;
/** A value made only of `{{KEY}}` references: the log shows it as written (it names, never holds, the secret). */
const ONLY_ENV_REFERENCES = /^\s*(\{\{[A-Za-z0-9_.-]+\}\}\s*)+$/;

interface SecretFields {
  /** Password fields (`password: true` in the catalogue). */
  passwords: ReadonlySet<string>;
  /** Webhook configuration fields (their secret keys are masked). */
  webhookConfigs: ReadonlySet<string>;
  /** Tool-input fields (an agent's tools, each with the fields of its own block type). */
  toolInputs: ReadonlySet<string>;
}

const byType = new Map<string, SecretFields>();

function secretFieldsOf(blockType: string): SecretFields {
  let found = byType.get(blockType);
  if (!found) {
    const subBlocks = getBlock(blockType)?.subBlocks ?? [];
    const ids = (test: (t: (typeof subBlocks)[number]) => boolean) => new Set(subBlocks.filter(test).map((s) => s.id));
    found = { passwords: ids((s) => s.password === true), webhookConfigs: ids((s) => s.type === 'webhook-config'), toolInputs: ids((s) => s.type === 'tool-input') };
    byType.set(blockType, found);
  }
  return found;
}

const isBlank = (v: unknown) => v === undefined || v === null || v === '';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A password field's value as the log shows it: blank and `{{KEY}}` references as written, anything else masked. */
function maskedSecret(value: unknown): unknown {
  if (isBlank(value)) return value;
  return typeof value === 'string' && ONLY_ENV_REFERENCES.test(value) ? value : SECRET_MASK;
}

function maskWebhookConfig(config: unknown): unknown {
  if (!isRecord(config)) return config;
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, WEBHOOK_SECRET_KEY.test(k) ? maskedSecret(v) : v]));
}

/** An agent's tools: each tool block entry's params masked by that block type's fields. */
function maskToolEntries(tools: unknown): unknown {
  if (!Array.isArray(tools)) return tools;
  return tools.map((entry: unknown) => {
    if (!isRecord(entry) || typeof entry.type !== 'string' || !isRecord(entry.params)) return entry;
    return { ...entry, params: maskSecretFields(entry.type, entry.params) };
  });
}

/**
 * A block's form values (before references are resolved) with what the log must not show replaced:
 * password fields typed in directly (or filled from a block reference) become SECRET_MASK, a webhook
 * configuration's secret and token keys too, and an agent's tools are masked by their own block
 * types. Values that are only `{{KEY}}` references stay as written. The tool still gets the values.
 */
export function maskSecretFields(blockType: string, values: Record<string, unknown>): Record<string, unknown> {
  const fields = secretFieldsOf(blockType);
  if (fields.passwords.size === 0 && fields.webhookConfigs.size === 0 && fields.toolInputs.size === 0) return values;
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => {
      if (fields.passwords.has(k)) return [k, maskedSecret(v)];
      if (fields.webhookConfigs.has(k)) return [k, maskWebhookConfig(v)];
      if (fields.toolInputs.has(k)) return [k, maskToolEntries(v)];
      return [k, v];
    }),
  );
}

/**
 * What a log must not show (`logMasks`): [text, what shows instead] pairs, longest text first, and
 * whether two keys masked alike merge (masks made without the secret forms, as runs recorded before
 * patch `secret-forms` did) or stay apart (`renameKeys`: `{{KEY}} (2)`), and whether texts that
 * overlap are masked whole (`whole`: behind patch `secret-overlap`).
 */
export interface LogMasks {
  readonly pairs: ReadonlyArray<readonly [string, string]>;
  readonly mergeKeys: boolean;
  readonly whole: boolean;
}

/**
 * What a log must not show, longest text first (a value inside a longer one is replaced by the
 * longer one's marker): the run's environment values as `{{KEY}}`, the block's own secrets (its
 * password fields' values) as SECRET_MASK. With `allForms` (workflow code: behind patch
 * `secret-forms`, SECRET_FORMS_PATCH) each in every form the tool runtime redacts (secretForms:
 * percent-, form- and JSON-escaped, a long random-looking one lower-cased; a URL or a body an error
 * echoes), and two keys masked alike are kept apart (`renameKeys`); without it (runs recorded before
 * the patch replay as they ran) each as given only, and keys masked alike merge. Keys are masked
 * either way. Texts shorter than MIN_MASKED_LENGTH are left alone. With `whole` (workflow code:
 * behind patch `secret-overlap`; never without allForms) texts that overlap are masked as one
 * stretch showing each one's marker once, in order (`{{A}}{{B}}`), so no tail of either is left;
 * without it the longest text is replaced first and then the next, as runs recorded before ran.
 */
export function logMasks(envVars: Record<string, string>, secrets: readonly string[] = [], allForms = true, whole = allForms): LogMasks {
  const pairs = new Map<string, string>();
  const put = (value: unknown, shown: string) => {
    if (typeof value !== 'string' || value.length < MIN_MASKED_LENGTH) return;
    for (const form of allForms ? secretForms(value) : [value]) if (!pairs.has(form)) pairs.set(form, shown);
  };
  for (const s of secrets) put(s, SECRET_MASK);
  for (const [k, v] of Object.entries(envVars)) put(v, `{{${k}}}`);
  return { pairs: [...pairs].sort((a, b) => b[0].length - a[0].length), mergeKeys: !allForms, whole };
}

const searches = new WeakMap<LogMasks['pairs'], FormSearch>();

/** Every occurrence of the pairs' texts replaced, ones that overlap as one stretch with each marker once (patch secret-overlap). */
function replaceWhole(text: string, pairs: LogMasks['pairs']): string {
  let search = searches.get(pairs);
  if (!search) {
    search = formSearch(pairs.map(([value]) => value));
    searches.set(pairs, search);
  }
  return replaceSpans(text, search.spans(text, false), (span) => [...new Set(span.forms.map((i) => pairs[i]?.[1] ?? SECRET_MASK))].join(''));
}

function replaceIn(text: string, pairs: LogMasks['pairs'], whole: boolean): string {
  if (whole) return replaceWhole(text, pairs);
  // Before patch secret-overlap: the longest text first, then each next in what is left.
  let out = text;
  for (const [value, shown] of pairs) if (out.includes(value)) out = out.split(value).join(shown);
  return out;
}

function maskWalk(value: unknown, pairs: LogMasks['pairs'], merging: boolean, whole: boolean): unknown {
  if (typeof value === 'string') return replaceIn(value, pairs, whole);
  if (Array.isArray(value)) return value.map((v) => maskWalk(v, pairs, merging, whole));
  if (!isRecord(value)) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, maskWalk(v, pairs, merging, whole)] as const);
  // Before patch secret-forms two keys masked alike merged (the last one kept): runs recorded then replay so.
  return merging ? Object.fromEntries(entries.map(([k, v]) => [replaceIn(k, pairs, whole), v])) : renameKeys(entries, (k) => replaceIn(k, pairs, whole));
}

/**
 * A log value (a block's input or output) with every masked text in it (`logMasks`) replaced,
 * wherever it came from (a child's input, a loop item, an output that echoed it). Answers `value`
 * itself when none was found.
 */
export function maskLogValue(value: unknown, masks: LogMasks): unknown {
  if (value === undefined || value === null || masks.pairs.length === 0) return value;
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  // JSON escapes a string character by character, so a text inside any string of `value` shows in
  // the JSON text in its escaped form.
  const found = masks.pairs.filter(([v]) => json.includes(JSON.stringify(v).slice(1, -1)));
  return found.length === 0 ? value : maskWalk(value, found, masks.mergeKeys, masks.whole);
}

/** A text (an error message) with every masked text in it replaced. */
export function maskLogText(text: string, masks: LogMasks): string {
  return replaceIn(text, masks.pairs, masks.whole);
}

/** `maskLogValue` with the run's environment only (`allForms` and `whole` as in logMasks: the patches' answers in workflow code). */
export function maskEnvValues(value: unknown, envVars: Record<string, string>, allForms: boolean, whole = allForms): unknown {
  return maskLogValue(value, logMasks(envVars, [], allForms, whole));
}

/** `maskLogText` with the run's environment only. */
export function maskEnvText(text: string, envVars: Record<string, string>, allForms: boolean, whole = allForms): string {
  return maskLogText(text, logMasks(envVars, [], allForms, whole));
}

/**
 * The values a block's password fields resolved to (and its agent tools' and webhook configuration's
 * secrets): the log writes SECRET_MASK over them wherever they show (an error quoting a typed key).
 */
export function secretValues(blockType: string, params: Record<string, unknown>): string[] {
  const fields = secretFieldsOf(blockType);
  const out: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (fields.passwords.has(k) && typeof v === 'string') {
      out.push(v);
    } else if (fields.webhookConfigs.has(k) && isRecord(v)) {
      for (const [ck, cv] of Object.entries(v)) if (WEBHOOK_SECRET_KEY.test(ck) && typeof cv === 'string') out.push(cv);
    } else if (fields.toolInputs.has(k) && Array.isArray(v)) {
      const entries: unknown[] = v;
      for (const entry of entries) if (isRecord(entry) && typeof entry.type === 'string' && isRecord(entry.params)) out.push(...secretValues(entry.type, entry.params));
    }
  }
  return out;
}

/** A value that only names a secret (`{{KEY}}`, a `<block.path>`): not a secret's text itself. */
const NAMES_A_VALUE = /\{\{|^\s*<[^<>]+>\s*$/;

const byState = new WeakMap<object, string[]>();

/**
 * The secrets typed into a state's blocks (password fields, agent tools' keys, webhook secrets):
 * masked in every block's log, wherever they flow (a webhook's `Authorization` header in the
 * trigger's input, an error of another block quoting a key). Computed once per state.
 */
export function stateSecrets(state: { blocks: Record<string, { type: string; subBlocks: Record<string, { value: unknown }> }> }): string[] {
  let found = byState.get(state);
  if (!found) {
    const all = Object.values(state.blocks).flatMap((b) => secretValues(b.type, Object.fromEntries(Object.entries(b.subBlocks).map(([k, sb]) => [k, sb.value]))));
    found = [...new Set(all.filter((v) => !NAMES_A_VALUE.test(v)))];
    byState.set(state, found);
  }
  return found;
}
