import type { ServiceTool } from '../serviceTool.js';
import { twilioTools } from './twilio/twilio.tools.js';
import { whatsappTools } from './whatsapp/whatsapp.tools.js';
import { telegramTools } from './telegram/telegram.tools.js';
import { discordTools } from './discord/discord.tools.js';
import { jiraTools } from './jira/jira.tools.js';
import { linearTools } from './linear/linear.tools.js';
import { airtableTools } from './airtable/airtable.tools.js';
import { googleCalendarTools } from './googleCalendar/googleCalendar.tools.js';
import { googleDocsTools } from './googleDocs/googleDocs.tools.js';
import { googleDriveTools } from './googleDrive/googleDrive.tools.js';
import { googleSheetsTools } from './googleSheets/googleSheets.tools.js';
import { notionTools } from './notion/notion.tools.js';
import { gmailTools } from './gmail/gmail.tools.js';
import { githubTools } from './github/github.tools.js';
import { slackTools } from './slack/slack.tools.js';
import { xTools } from './x/x.tools.js';
import { redditTools } from './reddit/reddit.tools.js';
import { supabaseTools } from './supabase/supabase.tools.js';
import { pineconeTools } from './pinecone/pinecone.tools.js';
import { qdrantTools } from './qdrant/qdrant.tools.js';
import { searchTools } from './search/search.tools.js';
import { aiTools } from './ai/ai.tools.js';
import { microsoftTools } from './microsoft/microsoft.tools.js';
import { typeformTools } from './typeform/typeform.tools.js';
import { wealthboxTools } from './wealthbox/wealthbox.tools.js';
import { mem0Tools } from './mem0/mem0.tools.js';
import { s3Tools } from './s3/s3.tools.js';
import { clayTools } from './clay/clay.tools.js';

const families: ServiceTool[][] = [
  slackTools,
  githubTools,
  gmailTools,
  notionTools,
  googleSheetsTools,
  googleDriveTools,
  googleDocsTools,
  googleCalendarTools,
  airtableTools,
  linearTools,
  jiraTools,
  discordTools,
  telegramTools,
  whatsappTools,
  twilioTools,
  xTools,
  redditTools,
  supabaseTools,
  pineconeTools,
  qdrantTools,
  searchTools,
  aiTools,
  microsoftTools,
  typeformTools,
  wealthboxTools,
  mem0Tools,
  s3Tools,
  clayTools,
];

/** Every integration's own request code, by catalogue tool id; the execution layer runs these before its generic HTTP path. */
export const serviceTools: Record<string, ServiceTool> = Object.fromEntries(families.flat().map((t) => [t.id, t]));

export { SERVICE_BASE_URLS, baseUrlVariable, resolveServiceBaseUrl, type ServiceName } from './baseUrls.js';
