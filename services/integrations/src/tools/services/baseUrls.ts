/**
 * The documented base URL of every service the integration tools call. The execution layer's
 * `io.baseUrl(service)` answers these unless the operator set the service's variable
 * (`baseUrlVariable`), so a self-hoster can point any tool at a proxy or a compatible service.
 * `{name}` parts are filled from the tool's parameters (Supabase project, S3 bucket and region).
 */
export const SERVICE_BASE_URLS = {
  slack: 'https://slack.com/api',
  github: 'https://api.github.com',
  gmail: 'https://gmail.googleapis.com/gmail/v1/users/me',
  notion: 'https://api.notion.com/v1',
  googleSheets: 'https://sheets.googleapis.com/v4/spreadsheets',
  googleDrive: 'https://www.googleapis.com/drive/v3',
  googleDriveUpload: 'https://www.googleapis.com/upload/drive/v3',
  googleDocs: 'https://docs.googleapis.com/v1/documents',
  googleCalendar: 'https://www.googleapis.com/calendar/v3',
  airtable: 'https://api.airtable.com/v0',
  linear: 'https://api.linear.app/graphql',
  atlassian: 'https://api.atlassian.com',
  discord: 'https://discord.com/api/v10',
  telegram: 'https://api.telegram.org',
  whatsapp: 'https://graph.facebook.com/v22.0',
  twilio: 'https://api.twilio.com/2010-04-01',
  x: 'https://api.twitter.com/2',
  reddit: 'https://oauth.reddit.com',
  supabase: 'https://{projectId}.supabase.co',
  pinecone: 'https://api.pinecone.io',
  exa: 'https://api.exa.ai',
  tavily: 'https://api.tavily.com',
  firecrawl: 'https://api.firecrawl.dev/v1',
  s3: 'https://{bucketName}.s3.{region}.amazonaws.com',
  microsoftGraph: 'https://graph.microsoft.com/v1.0',
  typeform: 'https://api.typeform.com',
  wealthbox: 'https://api.crmworkspace.com/v1',
  mistral: 'https://api.mistral.ai/v1',
  youtube: 'https://www.googleapis.com/youtube/v3',
  perplexity: 'https://api.perplexity.ai',
  huggingface: 'https://router.huggingface.co',
  serper: 'https://google.serper.dev',
  googleSearch: 'https://www.googleapis.com/customsearch/v1',
  jina: 'https://r.jina.ai',
  linkup: 'https://api.linkup.so/v1',
  browserUse: 'https://api.browser-use.com/api/v1',
  mem0: 'https://api.mem0.ai',
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
} as const;

export type ServiceName = keyof typeof SERVICE_BASE_URLS;

/** The configuration variable that overrides a service's base URL: `googleSheets` → `WEFT_GOOGLE_SHEETS_BASE_URL`. */
export function baseUrlVariable(service: string): string {
  return `WEFT_${service.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_BASE_URL`;
}

/** A service's base URL: the configured override (without a trailing slash) or its documented default. */
export function resolveServiceBaseUrl(service: string, env: Record<string, string | undefined>): string {
  const configured = env[baseUrlVariable(service)]?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  const known: Record<string, string> = SERVICE_BASE_URLS;
  const url = known[service];
  if (url === undefined) throw new Error(`Unknown service: ${service}`);
  return url;
}
