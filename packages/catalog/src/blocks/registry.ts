import type { BlockConfig } from '../types.js';
import { withRetriesField } from './retries.js';
import { agentBlock } from './agent.block.js';
import { airtableBlock } from './airtable.block.js';
import { apiBlock } from './api.block.js';
import { browserUseBlock } from './browserUse.block.js';
import { clayBlock } from './clay.block.js';
import { conditionBlock } from './condition.block.js';
import { confluenceBlock } from './confluence.block.js';
import { discordBlock } from './discord.block.js';
import { elevenlabsBlock } from './elevenlabs.block.js';
import { emailBlock } from './email.block.js';
import { embeddingsBlock } from './embeddings.block.js';
import { evaluatorBlock } from './evaluator.block.js';
import { exaBlock } from './exa.block.js';
import { fileBlock } from './file.block.js';
import { firecrawlBlock } from './firecrawl.block.js';
import { functionBlock } from './function.block.js';
import { githubBlock } from './github.block.js';
import { gmailBlock } from './gmail.block.js';
import { googleCalendarBlock } from './googleCalendar.block.js';
import { googleDocsBlock } from './googleDocs.block.js';
import { googleDriveBlock } from './googleDrive.block.js';
import { googleSearchBlock } from './googleSearch.block.js';
import { googleSheetsBlock } from './googleSheets.block.js';
import { huggingfaceBlock } from './huggingface.block.js';
import { imageGeneratorBlock } from './imageGenerator.block.js';
import { jinaBlock } from './jina.block.js';
import { jiraBlock } from './jira.block.js';
import { knowledgeBlock } from './knowledge.block.js';
import { linearBlock } from './linear.block.js';
import { linkupBlock } from './linkup.block.js';
import { mem0Block } from './mem0.block.js';
import { memoryBlock } from './memory.block.js';
import { microsoftExcelBlock } from './microsoftExcel.block.js';
import { microsoftTeamsBlock } from './microsoftTeams.block.js';
import { mistralParseBlock } from './mistralParse.block.js';
import { notionBlock } from './notion.block.js';
import { outlookBlock } from './outlook.block.js';
import { perplexityBlock } from './perplexity.block.js';
import { pineconeBlock } from './pinecone.block.js';
import { qdrantBlock } from './qdrant.block.js';
import { redditBlock } from './reddit.block.js';
import { responseBlock } from './response.block.js';
import { routerBlock } from './router.block.js';
import { s3Block } from './s3.block.js';
import { scheduleBlock } from './schedule.block.js';
import { serperBlock } from './serper.block.js';
import { slackBlock } from './slack.block.js';
import { stagehandBlock } from './stagehand.block.js';
import { stagehandAgentBlock } from './stagehandAgent.block.js';
import { starterBlock } from './starter.block.js';
import { supabaseBlock } from './supabase.block.js';
import { tavilyBlock } from './tavily.block.js';
import { telegramBlock } from './telegram.block.js';
import { thinkingBlock } from './thinking.block.js';
import { translateBlock } from './translate.block.js';
import { twilioSmsBlock } from './twilioSms.block.js';
import { typeformBlock } from './typeform.block.js';
import { visionBlock } from './vision.block.js';
import { wealthboxBlock } from './wealthbox.block.js';
import { webhookBlock } from './webhook.block.js';
import { whatsappBlock } from './whatsapp.block.js';
import { workflowBlock } from './workflow.block.js';
import { xBlock } from './x.block.js';
import { youtubeBlock } from './youtube.block.js';

/** Every block of the catalogue; blocks whose calls are retried get the retry setting (advanced mode). */
export const BLOCKS: readonly BlockConfig[] = [
  agentBlock,
  airtableBlock,
  apiBlock,
  browserUseBlock,
  clayBlock,
  conditionBlock,
  confluenceBlock,
  discordBlock,
  elevenlabsBlock,
  emailBlock,
  embeddingsBlock,
  evaluatorBlock,
  exaBlock,
  fileBlock,
  firecrawlBlock,
  functionBlock,
  githubBlock,
  gmailBlock,
  googleCalendarBlock,
  googleDocsBlock,
  googleDriveBlock,
  googleSearchBlock,
  googleSheetsBlock,
  huggingfaceBlock,
  imageGeneratorBlock,
  jinaBlock,
  jiraBlock,
  knowledgeBlock,
  linearBlock,
  linkupBlock,
  mem0Block,
  memoryBlock,
  microsoftExcelBlock,
  microsoftTeamsBlock,
  mistralParseBlock,
  notionBlock,
  outlookBlock,
  perplexityBlock,
  pineconeBlock,
  qdrantBlock,
  redditBlock,
  responseBlock,
  routerBlock,
  s3Block,
  scheduleBlock,
  serperBlock,
  slackBlock,
  stagehandBlock,
  stagehandAgentBlock,
  starterBlock,
  supabaseBlock,
  tavilyBlock,
  telegramBlock,
  thinkingBlock,
  translateBlock,
  twilioSmsBlock,
  typeformBlock,
  visionBlock,
  wealthboxBlock,
  webhookBlock,
  whatsappBlock,
  workflowBlock,
  xBlock,
  youtubeBlock,
].map(withRetriesField);

const BY_TYPE: ReadonlyMap<string, BlockConfig> = new Map(BLOCKS.map((b) => [b.type, b]));

/** The block definition of a type id, if the catalogue knows it. */
export function getBlock(type: string): BlockConfig | undefined {
  return BY_TYPE.get(type);
}

/** Every block definition, sorted by type id. */
export function listBlocks(): BlockConfig[] {
  return [...BLOCKS].sort((a, b) => a.type.localeCompare(b.type));
}

/** Whether a type id names a catalogue block. */
export function isKnownBlockType(type: string): boolean {
  return BY_TYPE.has(type);
}
