import { ToolError, type ToolIO } from '../../tools/serviceTool.js';
import { TransientToolError, forLog, redaction } from '../../tools/runtime/errors.js';
import { OutboundRefusedError } from '../../net/guardedFetch.js';
import { apiMessage, bearer, call, list, obj, type ApiResponse, type CallSpec } from '../../tools/services/http.js';

/** Every 429 and 5xx: a listing answers a provider's failure at once (502 with its message) instead of raising it as retryable. */
const EVERY_FAILURE: readonly number[] = [429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];

/** The provider's own words for a refusal: the usual error shapes, Confluence's `errors[].title` too. */
function providerMessage(res: ApiResponse): string {
  const first = obj(list(obj(res.data).errors)[0]);
  for (const c of [first.message, first.title]) if (typeof c === 'string' && c !== '') return c;
  return apiMessage(res);
}

/** Whether an answer (its status and JSON body) says the provider has no such item. */
export type Absent = (status: number, data: unknown) => boolean;

const NOT_FOUND: Absent = (status) => status === 404;

/** A provider's account as a selector lists it: its name for messages, and its requests with the account's token. */
export interface ProviderClient {
  /** The provider as users know it (`Slack`, `Google Drive`, `Microsoft Teams`). */
  name: string;
  io: ToolIO;
  /** A request with the account's bearer token; answers the JSON body, or throws a 502 naming the provider, its status and its message. */
  request(spec: CallSpec): Promise<unknown>;
  /**
   * A request for one item by id: as `request`, but `null` when the provider says it has no such
   * item — a 404, or the answer `absent` recognises (Graph's malformed id, GraphQL's not found).
   */
  find(spec: CallSpec, absent?: Absent): Promise<unknown>;
  /** The 502 for a refusal the provider wrote into a success (Slack's `ok: false`, GraphQL `errors`). */
  refused(status: number, message: string): ToolError;
}

/**
 * The client of one listing. Errors never carry the token (it is cut out of the provider's message
 * too) and read `<Provider> answered <status>: <message>` or `<Provider> could not be reached: …`.
 */
export function providerClient(name: string, io: ToolIO, token: string): ProviderClient {
  const secrets = redaction([token]);
  const refused = (status: number, message: string) => new ToolError(`${name} answered ${status}: ${forLog(secrets.text(message))}`, 502);
  const send = async (spec: CallSpec, absent: Absent | undefined): Promise<unknown> => {
    let res: ApiResponse;
    try {
      res = await call(io, { ...spec, headers: { ...bearer(token), Accept: 'application/json', ...spec.headers }, answerStatuses: EVERY_FAILURE });
    } catch (err) {
      if (err instanceof TransientToolError || err instanceof OutboundRefusedError || err instanceof ToolError) {
        throw new ToolError(`${name} could not be reached: ${forLog(secrets.text(err.message))}`, 502);
      }
      throw err;
    }
    if (absent?.(res.status, res.data)) return null;
    if (!res.ok) throw refused(res.status, providerMessage(res));
    return res.data;
  };
  return { name, io, refused, request: (spec) => send(spec, undefined), find: (spec, absent = NOT_FOUND) => send(spec, absent) };
}
