import type { ToolConfig } from '../types.js';
import { aiChatTools } from './aiChat.tools.js';
import { airtableTools } from './airtable.tools.js';
import { browserUseTools } from './browserUse.tools.js';
import { chatTools } from './chat.tools.js';
import { clayTools } from './clay.tools.js';
import { confluenceTools } from './confluence.tools.js';
import { discordTools } from './discord.tools.js';
import { elevenlabsTools } from './elevenlabs.tools.js';
import { emailTools } from './email.tools.js';
import { embeddingsTools } from './embeddings.tools.js';
import { exaTools } from './exa.tools.js';
import { fileTools } from './file.tools.js';
import { firecrawlTools } from './firecrawl.tools.js';
import { githubTools } from './github.tools.js';
import { gmailTools } from './gmail.tools.js';
import { googleCalendarTools } from './googleCalendar.tools.js';
import { googleDocsTools } from './googleDocs.tools.js';
import { googleDriveTools } from './googleDrive.tools.js';
import { googleSearchTools } from './googleSearch.tools.js';
import { googleSheetsTools } from './googleSheets.tools.js';
import { httpTools } from './http.tools.js';
import { imageTools } from './image.tools.js';
import { jiraTools } from './jira.tools.js';
import { knowledgeTools } from './knowledge.tools.js';
import { linearTools } from './linear.tools.js';
import { mem0Tools } from './mem0.tools.js';
import { memoryTools } from './memory.tools.js';
import { microsoftExcelTools } from './microsoftExcel.tools.js';
import { microsoftTeamsTools } from './microsoftTeams.tools.js';
import { mistralTools } from './mistral.tools.js';
import { notionTools } from './notion.tools.js';
import { outlookTools } from './outlook.tools.js';
import { pineconeTools } from './pinecone.tools.js';
import { qdrantTools } from './qdrant.tools.js';
import { redditTools } from './reddit.tools.js';
import { s3Tools } from './s3.tools.js';
import { serperTools } from './serper.tools.js';
import { slackTools } from './slack.tools.js';
import { stagehandTools } from './stagehand.tools.js';
import { supabaseTools } from './supabase.tools.js';
import { tavilyTools } from './tavily.tools.js';
import { telegramTools } from './telegram.tools.js';
import { thinkingTools } from './thinking.tools.js';
import { twilioTools } from './twilio.tools.js';
import { typeformTools } from './typeform.tools.js';
import { visionTools } from './vision.tools.js';
import { wealthboxTools } from './wealthbox.tools.js';
import { webReaderTools } from './webReader.tools.js';
import { whatsappTools } from './whatsapp.tools.js';
import { workflowTools } from './workflow.tools.js';
import { xTools } from './x.tools.js';
import { youtubeTools } from './youtube.tools.js';

/** Every tool of the catalogue. */
export const TOOLS: readonly ToolConfig[] = [
  ...aiChatTools,
  ...airtableTools,
  ...browserUseTools,
  ...chatTools,
  ...clayTools,
  ...confluenceTools,
  ...discordTools,
  ...elevenlabsTools,
  ...emailTools,
  ...embeddingsTools,
  ...exaTools,
  ...fileTools,
  ...firecrawlTools,
  ...githubTools,
  ...gmailTools,
  ...googleCalendarTools,
  ...googleDocsTools,
  ...googleDriveTools,
  ...googleSearchTools,
  ...googleSheetsTools,
  ...httpTools,
  ...imageTools,
  ...jiraTools,
  ...knowledgeTools,
  ...linearTools,
  ...mem0Tools,
  ...memoryTools,
  ...microsoftExcelTools,
  ...microsoftTeamsTools,
  ...mistralTools,
  ...notionTools,
  ...outlookTools,
  ...pineconeTools,
  ...qdrantTools,
  ...redditTools,
  ...s3Tools,
  ...serperTools,
  ...slackTools,
  ...stagehandTools,
  ...supabaseTools,
  ...tavilyTools,
  ...telegramTools,
  ...thinkingTools,
  ...twilioTools,
  ...typeformTools,
  ...visionTools,
  ...wealthboxTools,
  ...webReaderTools,
  ...whatsappTools,
  ...workflowTools,
  ...xTools,
  ...youtubeTools,
];

const BY_ID: ReadonlyMap<string, ToolConfig> = new Map(TOOLS.map((t) => [t.id, t]));

/** The tool with this id, if the catalogue knows it. */
export function getTool(id: string): ToolConfig | undefined {
  return BY_ID.get(id);
}

/** Every tool, sorted by id. */
export function listTools(): ToolConfig[] {
  return [...TOOLS].sort((a, b) => a.id.localeCompare(b.id));
}
