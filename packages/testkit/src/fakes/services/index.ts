/** Fakes of the services integration tools call, one per family. */
export { createServiceFake, type FakeRoute } from './kit.js';
export { SLACK_FIXTURES, createFakeSlack } from './slack.js';
export { GITHUB_FIXTURES, createFakeGithub } from './github.js';
export { GMAIL_FIXTURES, createFakeGmail } from './gmail.js';
export { NOTION_FIXTURES, createFakeNotion } from './notion.js';
export { GOOGLE_FIXTURES, createFakeGoogle } from './google.js';
export { AIRTABLE_FIXTURES, createFakeAirtable } from './airtable.js';
export { LINEAR_FIXTURES, createFakeLinear } from './linear.js';
export { JIRA_FIXTURES, createFakeJira } from './jira.js';
export { MESSAGING_FIXTURES, createFakeMessaging } from './messaging.js';
export { X_FIXTURES, createFakeX } from './x.js';
export { REDDIT_FIXTURES, createFakeReddit } from './reddit.js';
export { SUPABASE_FIXTURES, createFakeSupabase } from './supabase.js';
export { VECTOR_FIXTURES, createFakeVectors } from './vectors.js';
export { SEARCH_FIXTURES, createFakeSearch } from './search.js';
export { AI_FIXTURES, createFakeAi } from './ai.js';
export { MICROSOFT_FIXTURES, createFakeMicrosoft } from './microsoft.js';
export { CRM_FIXTURES, createFakeCrm } from './crm.js';
