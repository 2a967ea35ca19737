import {
  createFakeAi,
  createFakeAirtable,
  createFakeAutomation,
  createFakeCrm,
  createFakeElevenLabs,
  createFakeGithub,
  createFakeGmail,
  createFakeGoogle,
  createFakeJira,
  createFakeLinear,
  createFakeMessaging,
  createFakeMicrosoft,
  createFakeNotion,
  createFakeReddit,
  createFakeServer,
  createFakeSearch,
  createFakeSlack,
  createFakeSupabase,
  createFakeVectors,
  createFakeX,
  type FakeServer,
  type RecordedRequest,
  withConfluence,
} from '@weft/testkit';

/**
 * The service fakes the stack's integration tools call, by fake name (`google` serves Sheets, Drive,
 * Docs and Calendar; `jira` is the Atlassian API, Confluence's pages included).
 */
export const SERVICE_FAKES = {
  slack: createFakeSlack,
  github: createFakeGithub,
  gmail: createFakeGmail,
  notion: createFakeNotion,
  google: createFakeGoogle,
  airtable: createFakeAirtable,
  linear: createFakeLinear,
  jira: () => createFakeJira().then(withConfluence),
  messaging: createFakeMessaging,
  x: createFakeX,
  reddit: createFakeReddit,
  supabase: createFakeSupabase,
  vectors: createFakeVectors,
  search: createFakeSearch,
  ai: createFakeAi,
  microsoft: createFakeMicrosoft,
  crm: createFakeCrm,
  automation: createFakeAutomation,
  elevenlabs: createFakeElevenLabs,
} as const;

export type ServiceFakeName = keyof typeof SERVICE_FAKES | 'oauth';

/**
 * OAuth providers of the credential fields (packages/catalog blocks) the stack's registry may
 * connect: each authorizes at the oauth fake and exchanges the code there for `token-<provider>`.
 */
export const OAUTH_PROVIDERS = [
  'google-email',
  'google-calendar',
  'google-docs',
  'google-drive',
  'google-sheets',
  'airtable',
  'jira',
  'linear',
  'microsoft-excel',
  'microsoft-teams',
  'notion',
  'outlook',
  'reddit',
  'slack',
  'wealthbox',
  'x',
] as const;

/** A fake's control routes, reached over HTTP by the test processes (the fakes live in the global setup). */
const CONTROL = '/_fake';

/**
 * Adds control routes to a fake: `GET /_fake/requests` lists what the service received (control
 * requests left out), `POST /_fake/once {method, path, answer}` scripts the next answer of a route.
 */
function controlled(server: FakeServer): FakeServer {
  server.on('GET', `${CONTROL}/requests`, () => ({ json: server.requests.filter((r) => !r.path.startsWith(CONTROL)) }));
  server.on('POST', `${CONTROL}/once`, (req) => {
    const { method, path, answer } = (req.body ?? {}) as { method?: string; path?: string; answer?: { status?: number; json?: unknown; text?: string } };
    if (!method || !path || !answer) return { status: 400, json: { error: 'method, path and answer are required' } };
    server.once(method, path, answer);
    return { json: { ok: true } };
  });
  return server;
}

/**
 * Starts one protocol fake per service family and an OAuth token endpoint, and answers the stack
 * variables that point the integrations service at them (`WEFT_<SERVICE>_BASE_URL`; OpenAI,
 * Anthropic and Hugging Face stay with the model fake) and the registry's `WEFT_OAUTH_PROVIDERS`.
 */
export async function startServiceFakes(): Promise<{ urls: Record<ServiceFakeName, string>; env: Record<string, string>; close: () => Promise<void> }> {
  const names = Object.keys(SERVICE_FAKES) as Array<keyof typeof SERVICE_FAKES>;
  const servers = await Promise.all(names.map((n) => SERVICE_FAKES[n]().then(controlled)));
  const oauth = controlled(await createFakeServer());
  oauth.on('POST', '/token/:provider', (req: RecordedRequest) => {
    const provider = req.path.split('/').pop() ?? '';
    return { json: { access_token: `token-${provider}`, refresh_token: `refresh-${provider}`, expires_in: 3600, token_type: 'Bearer' } };
  });
  // The consent page, as a user who agrees sees it: straight back to the app with a code and the state.
  oauth.on('GET', '/authorize/:provider', (req: RecordedRequest) => {
    const back = new URL(req.query.redirect_uri ?? '');
    back.searchParams.set('code', `code-${req.path.split('/').pop() ?? ''}`);
    back.searchParams.set('state', req.query.state ?? '');
    return { status: 302, headers: { location: back.toString() }, text: '' };
  });
  const urls = Object.fromEntries([...names.map((n, i) => [n, servers[i]!.url]), ['oauth', oauth.url]]) as Record<ServiceFakeName, string>;
  const env: Record<string, string> = {
    WEFT_SLACK_BASE_URL: urls.slack,
    WEFT_GITHUB_BASE_URL: urls.github,
    WEFT_GMAIL_BASE_URL: `${urls.gmail}/gmail/v1/users/me`,
    WEFT_NOTION_BASE_URL: `${urls.notion}/v1`,
    WEFT_GOOGLE_SHEETS_BASE_URL: `${urls.google}/v4/spreadsheets`,
    WEFT_GOOGLE_DRIVE_BASE_URL: `${urls.google}/drive/v3`,
    WEFT_GOOGLE_DRIVE_UPLOAD_BASE_URL: `${urls.google}/upload/drive/v3`,
    WEFT_GOOGLE_DOCS_BASE_URL: `${urls.google}/v1/documents`,
    WEFT_GOOGLE_CALENDAR_BASE_URL: `${urls.google}/calendar/v3`,
    WEFT_AIRTABLE_BASE_URL: `${urls.airtable}/v0`,
    WEFT_LINEAR_BASE_URL: `${urls.linear}/graphql`,
    WEFT_ATLASSIAN_BASE_URL: urls.jira,
    WEFT_DISCORD_BASE_URL: `${urls.messaging}/discord`,
    WEFT_TELEGRAM_BASE_URL: `${urls.messaging}/telegram`,
    WEFT_WHATSAPP_BASE_URL: `${urls.messaging}/whatsapp`,
    WEFT_TWILIO_BASE_URL: `${urls.messaging}/twilio`,
    WEFT_X_BASE_URL: `${urls.x}/2`,
    WEFT_REDDIT_BASE_URL: urls.reddit,
    WEFT_SUPABASE_BASE_URL: `${urls.supabase}/{projectId}`,
    WEFT_PINECONE_BASE_URL: urls.vectors,
    WEFT_EXA_BASE_URL: `${urls.search}/exa`,
    WEFT_TAVILY_BASE_URL: `${urls.search}/tavily`,
    WEFT_SERPER_BASE_URL: `${urls.search}/serper`,
    WEFT_GOOGLE_SEARCH_BASE_URL: `${urls.search}/customsearch`,
    WEFT_YOUTUBE_BASE_URL: `${urls.search}/youtube`,
    WEFT_JINA_BASE_URL: `${urls.search}/jina`,
    WEFT_LINKUP_BASE_URL: `${urls.search}/linkup`,
    WEFT_FIRECRAWL_BASE_URL: `${urls.search}/firecrawl`,
    WEFT_S3_BASE_URL: `${urls.automation}/s3`,
    WEFT_MICROSOFT_GRAPH_BASE_URL: urls.microsoft,
    WEFT_TYPEFORM_BASE_URL: `${urls.crm}/typeform`,
    WEFT_WEALTHBOX_BASE_URL: `${urls.crm}/wealthbox`,
    WEFT_MEM0_BASE_URL: `${urls.crm}/mem0`,
    WEFT_MISTRAL_BASE_URL: `${urls.ai}/mistral`,
    WEFT_PERPLEXITY_BASE_URL: `${urls.ai}/perplexity`,
    WEFT_ELEVENLABS_BASE_URL: urls.elevenlabs,
    WEFT_OAUTH_PROVIDERS: JSON.stringify(
      Object.fromEntries(
        OAUTH_PROVIDERS.map((p) => [p, { authorizeUrl: `${oauth.url}/authorize/${p}`, tokenUrl: `${oauth.url}/token/${p}`, clientId: `client-${p}`, clientSecret: `secret-${p}`, scopes: [] }]),
      ),
    ),
  };
  return { urls, env, close: () => Promise.all([...servers, oauth].map((s) => s.close())).then(() => undefined) };
}

/** What a service fake received (from a test process). */
export async function receivedBy(fakeUrl: string): Promise<RecordedRequest[]> {
  const res = await fetch(`${fakeUrl}${CONTROL}/requests`);
  if (!res.ok) throw new Error(`fake at ${fakeUrl} answered ${res.status}`);
  return (await res.json()) as RecordedRequest[];
}

/** Scripts the next answer of one route of a service fake (from a test process). */
export async function answerOnce(fakeUrl: string, method: string, path: string, answer: { status?: number; json?: unknown; text?: string }): Promise<void> {
  const res = await fetch(`${fakeUrl}${CONTROL}/once`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method, path, answer }) });
  if (!res.ok) throw new Error(`fake at ${fakeUrl} refused the script: ${res.status}`);
}
