import { z } from 'zod';
import { AppError, isCodedError, type Logger } from '@weft/platform';
import { blockReferenceIn, replaceEnvReferences } from '@weft/catalog';
import type { CallContext } from '@weft/contracts';
import { ToolError } from '../../tools/serviceTool.js';
import { createToolIO } from '../../tools/runtime/executeTool.js';
import { errorMessage, forLog, redaction, type Redaction } from '../../tools/runtime/errors.js';
import type { AddressPolicy } from '../../net/addressPolicy.js';
import type { BaseUrls } from '../../tools/runtime/baseUrls.js';
import type { CredentialSource, RouteRequest } from '../../tools/runtime/types.js';
import { json, objectBody, type Route } from '../router.js';
import { decodeCursor, type SelectorPage } from './paging.js';
import { findSelected } from './lookup.js';
import { providerClient } from './provider.js';
import { resolveSelector, type ResolvedSelector } from './selectorKinds.js';

const body = z.object({
  workflowId: z.string({ error: 'workflowId is required' }).trim().min(1, 'workflowId is required'),
  blockType: z.string({ error: 'blockType is required' }).trim().min(1, 'blockType is required'),
  fieldId: z.string({ error: 'fieldId is required' }).trim().min(1, 'fieldId is required'),
  values: z.record(z.string(), z.unknown(), { error: 'values must be an object of field values' }).optional(),
  search: z.string({ error: 'search must be a string' }).max(200, 'search must be at most 200 characters').optional(),
  cursor: z.string({ error: 'cursor must be a string' }).max(4096, 'cursor is not a nextCursor this list answered').optional(),
  selectedId: z.string({ error: 'selectedId must be a string' }).max(1024, 'selectedId must be at most 1024 characters').optional(),
});
type SelectorQuery = z.infer<typeof body>;

export interface SelectorRouteDeps {
  policy: AddressPolicy;
  baseUrls: BaseUrls;
  /** Where a credential's token comes from: the tool runtime's registry source, with its ownership check. */
  credentials: CredentialSource;
  logger: Logger;
}

function parse(raw: unknown): SelectorQuery {
  const parsed = body.safeParse(objectBody(raw));
  if (!parsed.success) throw new AppError('validation', parsed.error.issues[0]?.message ?? 'body is not a selector list request');
  return parsed.data;
}

/** The block's field values the server reads: strings only (anything else is ignored). */
function stringValues(values: Record<string, unknown> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v.trim()]] : [])));
}

/**
 * A field value as a tool would get it: `{{KEY}}` replaced from the caller's environment variables (an
 * unknown one is a 400 naming it). A block reference (`<block.output>`) is only known in a run: 400.
 */
function resolved(field: string, value: string, envVars: Record<string, string>): string {
  const out = replaceEnvReferences(value, (key) => {
    const v = envVars[key];
    if (v === undefined) throw new AppError('validation', `${field} uses {{${key}}}, which is not one of your environment variables`);
    return v;
  });
  const ref = blockReferenceIn(out);
  if (ref) throw new AppError('validation', `${field} refers to ${ref}, which is only known when the workflow runs; enter it directly to list choices`);
  return out.trim();
}

/** A field's title in the block's form (for messages that point at it). */
function titleOf(sel: ResolvedSelector, id: string, fallback: string): string {
  return sel.block.subBlocks.find((s) => s.id === id)?.title ?? fallback;
}

/**
 * A credential's access token through the tool runtime's source: the registry answers only the acting
 * user's own credentials (another's is `Credential … not found`, 404), refreshing a due token. Its
 * refusals keep their status; anything else is a 503 that names no secret.
 */
async function credentialToken(credentials: CredentialSource, context: CallContext, credentialId: string): Promise<string> {
  try {
    return await credentials.accessToken(context, credentialId);
  } catch (err) {
    if (isCodedError(err) && err.code !== 'internal') throw new AppError(err.code, err.message);
    throw new AppError('unavailable', 'The account’s token could not be read; try again');
  }
}

/** The account a listing uses: Slack's bot token when the block uses one, else the selected credential. */
type Account = { token: string } | { credentialId: string };

function accountOf(sel: ResolvedSelector, values: Record<string, string>, envVars: Record<string, string>): Account {
  if (sel.kind === 'slack-channels' && values.authMethod === 'bot_token') {
    const token = resolved('botToken', values.botToken ?? '', envVars);
    if (!token) throw new AppError('validation', `Enter a bot token in "${titleOf(sel, 'botToken', 'Bot Token')}" first`);
    return { token };
  }
  const credentialId = values.credential ?? '';
  if (!credentialId) throw new AppError('validation', `Select an account in "${titleOf(sel, 'credential', 'Account')}" first`);
  return { credentialId };
}

/** The inputs a lister needs beyond the account (the first given of each one's fields), each required. */
function inputsOf(sel: ResolvedSelector, values: Record<string, string>, envVars: Record<string, string>): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, fields] of Object.entries(sel.lister.needs ?? {})) {
    const field = fields.find((f) => values[f]);
    const value = field ? resolved(field, values[field] ?? '', envVars) : '';
    if (!value) throw new AppError('validation', `${name} is required to list ${sel.lister.what}`);
    inputs[name] = value;
  }
  return inputs;
}

/** An error with every secret's text (the token, the caller's environment values) cut out of its message. */
function withoutSecrets(err: unknown, secrets: Redaction): unknown {
  if (!(err instanceof Error)) return err;
  const message = secrets.text(err.message);
  if (message === err.message) return err;
  if (err instanceof ToolError) return new ToolError(message, err.status);
  if (isCodedError(err)) return new AppError(err.code, message);
  return new Error(message);
}

/** One listing; `secrets` gets the token once it is known. */
async function listChoices(req: RouteRequest, deps: SelectorRouteDeps, secrets: Redaction): Promise<SelectorPage> {
  const q = parse(req.body);
  const own = req.context.workflowId;
  if (!own) throw new AppError('validation', 'workflowId is required and must be provided in execution context');
  if (q.workflowId !== own) throw new AppError('validation', `workflowId (${q.workflowId}) is not the workflow this call runs for (${own})`);
  const sel = resolveSelector(q.blockType, q.fieldId);
  const position = decodeCursor(q.cursor);
  const values = stringValues(q.values);
  const account = accountOf(sel, values, req.envVars);
  const inputs = inputsOf(sel, values, req.envVars);
  const token = 'token' in account ? account.token : await credentialToken(deps.credentials, req.context, account.credentialId);
  secrets.add(token);
  const io = createToolIO(deps, req, `selectors:${sel.kind}`, req.signal);
  const search = q.search?.trim() || undefined;
  const client = providerClient(sel.lister.provider, io, token);
  try {
    const page = await sel.lister.list({ client, search, position, inputs });
    if (q.selectedId === undefined) return page;
    const fromStart = search === undefined && position.page === undefined && position.skip === 0;
    // The name is a nicety: a provider refusing the lookup leaves the list answered, the choice unnamed.
    const selected = await findSelected(sel.lister, { client, inputs }, q.selectedId, { page, fromStart }).catch((err: unknown) => {
      if (!(err instanceof ToolError) || req.signal?.aborted) throw err;
      deps.logger.warn({ kind: sel.kind, error: forLog(secrets.text(err.message)) }, 'selector lookup failed');
      return null;
    });
    return { ...page, selected };
  } catch (err) {
    if (err instanceof ToolError || isCodedError(err)) throw err;
    // Neither the provider's answer nor our checks: logged without secrets, answered without a stack.
    if (!req.signal?.aborted) deps.logger.warn({ kind: sel.kind, error: forLog(secrets.text(errorMessage(err))) }, 'selector list failed');
    throw new ToolError(`Listing ${sel.lister.what} failed: ${sel.lister.provider} could not be read`, 502);
  }
}

/**
 * `POST /api/tools/selectors/list {workflowId, blockType, fieldId, values, search?, cursor?, selectedId?}`
 * (the selectors contract, spec 001 §2): the choices of a block's file, folder, project or channel
 * selector, `{items: [{id, name, detail?}], nextCursor?}`, at most 100 an answer; with `selectedId`
 * also `selected: {id, name, detail?, itemId?} | null`, the stored choice's item wherever it is (findSelected; `itemId` for an alias). Provider and kind
 * come from the catalogue's field, the account from the block's credential (or Slack bot token);
 * requests go through the tool runtime's client (base URLs, outbound guard). Errors: 400 naming the
 * input, the registry's 403/404 for a credential the caller may not use, 502 for a provider's refusal
 * (`<Provider> answered <status>: <message>`) or absence; never a token or an environment value.
 */
export function selectorRoutes(deps: SelectorRouteDeps): Route[] {
  return [
    {
      method: 'POST',
      path: '/tools/selectors/list',
      async handle(req) {
        const secrets = redaction(Object.values(req.envVars));
        try {
          const page = await listChoices(req, deps, secrets);
          return json({ items: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...(page.selected !== undefined ? { selected: page.selected } : {}) });
        } catch (err) {
          throw withoutSecrets(err, secrets);
        }
      },
    },
  ];
}
