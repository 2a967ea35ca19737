import { SERVICE_BASE_URLS, baseUrlVariable, resolveServiceBaseUrl } from '../services/baseUrls.js';

/**
 * Base URLs of external services, configurable so tests and self-hosters point tools anywhere:
 * one variable per service (`WEFT_<SERVICE>_BASE_URL`, e.g. `WEFT_NOTION_BASE_URL`, see
 * tools/services/baseUrls.ts for the services and defaults) or one JSON map
 * `WEFT_TOOL_BASE_URLS` (`{"notion": "http://…", "api.example.com": "http://…"}`; keys are service
 * names or host names; the map wins over the single variables).
 */
export interface BaseUrls {
  /** The base URL of a service: the configured one, else its documented default; undefined when unknown. */
  get(service: string): string | undefined;
  /** A URL built from a catalogue template or a default base, with its service's or host's override applied. */
  rewrite(toolId: string, url: string): string;
}

/** Parses WEFT_TOOL_BASE_URLS; a malformed value throws naming the variable. */
export function overridesFromEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  const json = env.WEFT_TOOL_BASE_URLS?.trim();
  if (!json) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('Invalid configuration: WEFT_TOOL_BASE_URLS must be a JSON object of service or host to URL');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('Invalid configuration: WEFT_TOOL_BASE_URLS must be a JSON object of service or host to URL');
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v !== 'string' || !/^https?:\/\//.test(v)) throw new Error(`Invalid configuration: WEFT_TOOL_BASE_URLS.${k} must be an http(s) URL`);
    out[k] = v.replace(/\/+$/, '');
  }
  return out;
}

export function createBaseUrls(overrides: Record<string, string> = {}, env: NodeJS.ProcessEnv = process.env): BaseUrls {
  const map = Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, v.replace(/\/+$/, '')]));
  const get = (service: string): string | undefined => {
    if (map[service]) return map[service];
    try {
      return resolveServiceBaseUrl(service, env);
    } catch {
      return undefined;
    }
  };
  const defaults = Object.entries(SERVICE_BASE_URLS as Record<string, string>).sort((a, b) => b[1].length - a[1].length);
  return {
    get,
    rewrite(_toolId, url) {
      for (const [service, def] of defaults) {
        if (def.includes('{') || !url.startsWith(def)) continue;
        const rest = url.slice(def.length);
        if (rest && !/^[/?#]/.test(rest)) continue;
        const configured = map[service] ?? env[baseUrlVariable(service)]?.trim().replace(/\/+$/, '');
        if (configured) return `${configured}${rest}`;
        break;
      }
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return url;
      }
      const byHost = map[parsed.hostname];
      return byHost ? `${byHost}${url.slice(parsed.origin.length)}` : url;
    },
  };
}
