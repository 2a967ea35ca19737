import type { CallContext, ToolResult } from '@weft/contracts';
import type { Logger } from '@weft/platform';
import type { ServiceTool } from '../serviceTool.js';
import type { AddressPolicy } from '../../net/addressPolicy.js';
import type { BaseUrls } from './baseUrls.js';
import type { ToolJobRunner } from '../../jobs/runner.js';

/** A workspace custom tool as the registry stores it (spec 000 §3). */
export interface CustomTool {
  id: string;
  title: string;
  schema: unknown;
  code: string;
}

/** Where OAuth tokens come from: the registry's token route (refreshes when due). */
export interface CredentialSource {
  /** The access token of a credential; a refusal throws an error carrying `status` (HTTP) and its text. */
  accessToken(context: CallContext, credentialId: string): Promise<string>;
}

/** Where custom tools come from: the registry's store of the acting user's tools. */
export interface CustomToolSource {
  list(context: CallContext): Promise<CustomTool[]>;
}

/** An internal route's answer, as its HTTP route would give it. */
export interface RouteAnswer {
  status: number;
  body: unknown;
  /** Binary answers (the image proxy, audio): the bytes and their type. */
  bytes?: Uint8Array;
  contentType?: string;
}

export interface RouteRequest {
  method: string;
  /** Path under /api, without the query (e.g. `/memory/abc`). */
  path: string;
  query: Record<string, string>;
  body: unknown;
  context: CallContext;
  envVars: Record<string, string>;
  /**
   * Aborted when the caller gives up (the activity of a cancelled run): a route passes it to its
   * outbound requests and model calls, and stops what it started.
   */
  signal?: AbortSignal | undefined;
}

/** The internal routes' code (memory, knowledge, files, email, …), called directly by internal tools and over gRPC by the gateway. */
export interface InternalRoutes {
  handle(req: RouteRequest): Promise<RouteAnswer>;
}

export interface ToolRuntimeDeps {
  policy: AddressPolicy;
  baseUrls: BaseUrls;
  credentials: CredentialSource;
  customTools: CustomToolSource;
  internal: InternalRoutes;
  serviceTools: Record<string, ServiceTool>;
  logger: Logger;
  /** Polling-job tools (browser task, …) run as durable workflows; without it they make their start request only. */
  jobs?: ToolJobRunner;
  /** Runs custom tool code (the sandbox). */
  runCode: (run: { code: string; params: Record<string, unknown>; envVars: Record<string, string>; timeoutMs: number; signal?: AbortSignal | undefined }) => Promise<{ success: boolean; result?: unknown; error?: string; stdout: string; debug?: { errorType?: string | undefined } | undefined }>;
}

export type { ToolResult };
