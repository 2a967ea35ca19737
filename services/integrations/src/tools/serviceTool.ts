import type { CallContext } from '@weft/contracts';

/**
 * The seam between the execution layer (tool runtime) and each integration's own request and
 * response code (one file per service family under `tools/services/`).
 *
 * The execution layer resolves the tool, fetches OAuth tokens into `params.accessToken`, checks
 * required parameters, times the call and wraps the outcome into a tool result; a service tool only
 * builds its request(s) through `io` and turns the answer into the tool's output.
 */
export interface ServiceTool {
  /** The catalogue tool id this implements (`notion_read`, `slack_message`, …). */
  id: string;
  /** Runs the tool; answers its output, or throws a `ToolError` whose message is the spec's, word for word. */
  execute(params: Record<string, unknown>, io: ToolIO): Promise<unknown>;
}

/** What a service tool may use: the guarded HTTP client, configured base URLs and the call context. */
export interface ToolIO {
  /**
   * An HTTP request through the execution layer: outbound-address checks (private networks refused
   * unless allowed), timeouts, and transient failures (network errors, timeouts, 429, 5xx) raised as
   * retryable. Answers the response as is: status checks and error messages are the tool's.
   */
  fetch(url: string, init?: ToolRequestInit): Promise<Response>;
  /** The base URL of a service (`notion`, `slack`, `github`, …): its documented default unless the operator configured another. */
  baseUrl(service: string): string;
  context: CallContext;
  /** The run's environment variables. */
  envVars: Record<string, string>;
}

export interface ToolRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams;
  /** Default 10,000 ms (spec 000 §9). */
  timeoutMs?: number;
  /**
   * Statuses among 429 and 5xx that this tool answers itself with its spec message (spec 001 §8:
   * "Rate limit exceeded. Please try again later.", Mistral's status table, …) instead of the
   * execution layer raising them as retryable failures. Other statuses are unaffected.
   */
  answerStatuses?: readonly number[];
}

/**
 * An answered failure of a tool: its message reaches the caller as `error`, word for word, and is not
 * retried. `output` is the failed result's output where the spec gives one (Supabase's message and
 * empty results, §8); `{}` otherwise.
 */
export class ToolError extends Error {
  readonly status: number | undefined;
  readonly output: unknown;
  constructor(message: string, status?: number, output?: unknown) {
    super(message);
    this.name = 'ToolError';
    this.status = status;
    this.output = output;
  }
}
