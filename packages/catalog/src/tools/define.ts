import type { HttpMethod, ParamVisibility, ToolConfig, ToolOAuth, ToolParam, ToolParamType } from '../types.js';

type Who = 'user' | 'llm' | 'hidden';

const VISIBILITY: Record<Who, ParamVisibility> = { user: 'user-only', llm: 'user-or-llm', hidden: 'hidden' };

/** A required parameter; `who` is user (user-only), llm (user-or-llm) or hidden. */
export function need(type: ToolParamType, who: Who, description: string): ToolParam {
  return { type, required: true, visibility: VISIBILITY[who], description };
}

/** An optional parameter, with its default when the spec gives one. */
export function may(type: ToolParamType, who: Who, description: string, defaultValue?: unknown): ToolParam {
  const p: ToolParam = { type, required: false, visibility: VISIBILITY[who], description };
  if (defaultValue !== undefined) p.default = defaultValue;
  return p;
}

/** The hidden OAuth access token parameter, filled in from the chosen account. */
export function accessToken(service: string): ToolParam {
  return need('string', 'hidden', `The access token for the ${service} API`);
}

/** A bearer authorization header template for the given parameter. */
export function bearer(param = 'accessToken'): Record<string, string> {
  return { Authorization: `Bearer {${param}}`, 'Content-Type': 'application/json' };
}

/** JSON content-type header only. */
export const JSON_HEADERS: Record<string, string> = { 'Content-Type': 'application/json' };

/** Tool definition input: the request may omit headers; routes under /api/ are internal. */
export interface ToolSpec {
  id: string;
  name: string;
  description: string;
  version?: string;
  params: Record<string, ToolParam>;
  request: { method: HttpMethod; url: string; headers?: Record<string, string> };
  oauth?: ToolOAuth;
}

/** Builds a tool definition, defaulting version 1.0.0 and marking `/api/...` URLs as internal routes. */
export function defineTool(spec: ToolSpec): ToolConfig {
  const { request, version, ...rest } = spec;
  return {
    ...rest,
    version: version ?? '1.0.0',
    request: {
      method: request.method,
      url: request.url,
      headers: request.headers ?? JSON_HEADERS,
      isInternalRoute: request.url.startsWith('/api/'),
    },
  };
}

/** An OAuth requirement for a provider with its scopes. */
export function oauth(provider: string, scopes: readonly string[], required = true): ToolOAuth {
  return { required, provider, scopes };
}

/** Shared parts of a family of tools against one API. */
export interface ToolFamily {
  baseUrl: string;
  headers?: Record<string, string>;
  common?: Record<string, ToolParam>;
  oauth?: ToolOAuth;
}

/** A builder for tools of one API: base URL, headers, common params and OAuth filled in. */
export function toolFamily(family: ToolFamily) {
  return (
    id: string,
    name: string,
    description: string,
    method: HttpMethod,
    path: string,
    params: Record<string, ToolParam>,
  ): ToolConfig => {
    const spec: ToolSpec = {
      id,
      name,
      description,
      params: { ...family.common, ...params },
      request: { method, url: `${family.baseUrl}${path}`, ...(family.headers ? { headers: family.headers } : {}) },
    };
    if (family.oauth) spec.oauth = family.oauth;
    return defineTool(spec);
  };
}
