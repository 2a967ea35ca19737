import { describe, expect, it } from 'vitest';
import { getBlock, isKnownBlockType, listBlocks } from './registry.js';
import { getTool, listTools } from '../tools/registry.js';
import { visionModelId } from '../tools/vision.tools.js';
import { anthropicProvider } from '../providers/anthropic.provider.js';
import { SUB_BLOCK_TYPES, VALUE_TYPES } from '../types.js';
import type { BlockConfig, SubBlockConfig } from '../types.js';

const ISSUE_TYPES = `agent, api, browser_use, clay, condition, confluence, discord, elevenlabs, email, evaluator, exa, file,
firecrawl, function, github, gmail, google_search, google_calendar, google_docs, google_drive, google_sheets, huggingface,
image_generator, jina, jira, knowledge, linear, linkup, mem0, memory, microsoft_excel, microsoft_teams, mistral_parse, notion,
embeddings, outlook, perplexity, pinecone, qdrant, reddit, response, s3, schedule, serper, slack, stagehand, stagehand_agent,
starter, supabase, tavily, telegram, thinking, translate, twilio_sms, typeform, vision, wealthbox, webhook, whatsapp, workflow,
x, youtube, router, airtable`
  .split(',')
  .map((s) => s.trim());

const blocks = listBlocks();

function block(type: string): BlockConfig {
  const found = getBlock(type);
  if (!found) throw new Error(`no block ${type}`);
  return found;
}

function field(type: string, id: string, index = 0): SubBlockConfig {
  const found = block(type).subBlocks.filter((s) => s.id === id)[index];
  if (!found) throw new Error(`no field ${type}.${id}`);
  return found;
}

function values(options: SubBlockConfig['options']): string[] {
  return (options ?? []).map((o) => o.id);
}

describe('catalogue integrity', () => {
  it('holds exactly the 64 type ids of the issue, each once', () => {
    expect(ISSUE_TYPES).toHaveLength(64);
    const types = blocks.map((b) => b.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual([...ISSUE_TYPES].sort());
    expect(isKnownBlockType('loop')).toBe(false);
  });

  it('has unique tool ids', () => {
    const ids = listTools().map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names only tools that exist', () => {
    const missing = blocks.flatMap((b) => b.tools.access.filter((id) => !getTool(id)).map((id) => `${b.type}:${id}`));
    expect(missing).toEqual([]);
  });

  it('has every tool id §7 names', () => {
    const named = `agent, http_request, function_execute, file_parser, knowledge_search, knowledge_upload_chunk,
      knowledge_create_document, slack_message, slack_canvas, slack_message_reader, s3_get_object, serper_search,
      stagehand_extract, stagehand_agent, supabase_query, supabase_insert, supabase_get_row, supabase_update, supabase_delete,
      tavily_search, tavily_extract, telegram_message, thinking_tool, twilio_send_sms, typeform_responses, typeform_files,
      typeform_insights, vision_tool, wealthbox_read_note, wealthbox_write_note, wealthbox_read_contact, wealthbox_write_contact,
      wealthbox_read_task, wealthbox_write_task, whatsapp_send_message, workflow_executor, x_write, x_read, x_search, x_user,
      youtube_search, router, openai_chat, anthropic_chat, google_chat`.split(',').map((s) => s.trim());
    expect(named.filter((id) => !getTool(id))).toEqual([]);
  });

  it('routes every operation option to a tool the block may call', () => {
    for (const b of blocks) {
      const select = b.tools.config?.tool;
      const op = b.subBlocks.find((s) => s.id === 'operation');
      if (!select || !op) continue;
      for (const option of values(op.options)) {
        expect(b.tools.access, `${b.type}.${option}`).toContain(select({ operation: option }));
      }
    }
  });

  it('makes every condition name an existing field of its block', () => {
    const bad: string[] = [];
    for (const b of blocks) {
      const ids = new Set(b.subBlocks.map((s) => s.id));
      for (const s of b.subBlocks) {
        if (s.condition && !ids.has(s.condition.field)) bad.push(`${b.type}.${s.id} -> ${s.condition.field}`);
        if (s.condition?.and && !ids.has(s.condition.and.field)) bad.push(`${b.type}.${s.id} -> ${s.condition.and.field}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('makes every condition value one the named field can take', () => {
    const bad: string[] = [];
    for (const b of blocks) {
      for (const s of b.subBlocks) {
        const tests = s.condition ? [s.condition, ...(s.condition.and ? [s.condition.and] : [])] : [];
        for (const t of tests) {
          const target = b.subBlocks.find((f) => f.id === t.field);
          if (!target?.options) continue;
          const wanted = Array.isArray(t.value) ? t.value : [t.value];
          for (const w of wanted) if (!values(target.options).includes(String(w))) bad.push(`${b.type}.${s.id}: ${String(w)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('keeps every default inside its options or range', () => {
    const bad: string[] = [];
    for (const b of blocks) {
      for (const s of b.subBlocks) {
        if (s.defaultValue === undefined) continue;
        if (s.options && (s.type === 'dropdown' || s.type === 'combobox') && !values(s.options).includes(String(s.defaultValue))) {
          bad.push(`${b.type}.${s.id} option`);
        }
        if (typeof s.defaultValue === 'number') {
          if (s.min !== undefined && s.defaultValue < s.min) bad.push(`${b.type}.${s.id} < min`);
          if (s.max !== undefined && s.defaultValue > s.max) bad.push(`${b.type}.${s.id} > max`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('uses only known field, input and output types and categories', () => {
    for (const b of blocks) {
      expect(['blocks', 'tools', 'triggers']).toContain(b.category);
      for (const s of b.subBlocks) expect(SUB_BLOCK_TYPES, `${b.type}.${s.id}`).toContain(s.type);
      for (const [name, input] of Object.entries(b.inputs)) expect(VALUE_TYPES, `${b.type} input ${name}`).toContain(input.type);
      for (const [name, type] of Object.entries(b.outputs)) expect(VALUE_TYPES, `${b.type} output ${name}`).toContain(type);
    }
  });

  it('repeats a field id only for alternatives on the same field with disjoint values', () => {
    for (const b of blocks) {
      const groups = new Map<string, SubBlockConfig[]>();
      for (const s of b.subBlocks) groups.set(s.id, [...(groups.get(s.id) ?? []), s]);
      for (const [id, group] of groups) {
        if (group.length === 1) continue;
        const seen = new Set<string>();
        for (const s of group) {
          expect(s.condition, `${b.type}.${id}`).toBeDefined();
          const vals = [s.condition?.value].flat().map(String);
          for (const v of vals) {
            expect(seen.has(v), `${b.type}.${id} overlaps on ${v}`).toBe(false);
            seen.add(v);
          }
        }
      }
    }
  });

  it('fills every identity attribute', () => {
    for (const b of blocks) {
      for (const key of ['name', 'description', 'longDescription', 'docsLink', 'icon'] as const) expect(b[key], `${b.type}.${key}`).not.toBe('');
      expect(b.bgColor).toMatch(/^#[0-9a-fA-F]{6}$/);
    }
  });

  it('gives every tool a version, a request and valid parameter visibility', () => {
    for (const t of listTools()) {
      expect(t.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(t.request.url).not.toBe('');
      expect(t.request.isInternalRoute).toBe(t.request.url.startsWith('/api/'));
      for (const p of Object.values(t.params)) expect(['user-only', 'user-or-llm', 'hidden']).toContain(p.visibility);
    }
  });
});

describe('§3 outputs', () => {
  const table: Record<string, string> = {
    agent: 'content, model, tokens, toolCalls, cost', // cost: issue 12, as the runner outputs it
    evaluator: 'content, model, tokens, cost',
    api: 'data, status, headers',
    function: 'result, stdout',
    knowledge: 'results, query, totalResults',
    memory: 'memories, id',
    condition: 'content, conditionResult, selectedPath, selectedConditionId',
    file: 'files, combinedContent',
    firecrawl: 'markdown, html, metadata, data, warning, pages, total, creditsUsed',
    email: 'success, messageId, sentAt',
    reddit: 'subreddit, posts, post, comments',
    response: 'data, status, headers',
    s3: 'url, metadata',
    serper: 'searchResults',
    slack: 'ts, channel, canvas_id, title, messages',
    stagehand: 'data',
    stagehand_agent: 'agentResult, structuredOutput',
    supabase: 'message, results',
    tavily: 'results, answer, query, content, title, url',
    telegram: 'ok, result',
    thinking: 'acknowledgedThought',
    translate: 'content, model, tokens',
    vision: 'content, model, tokens',
    twilio_sms: 'success, messageId, status, error',
    typeform: 'total_items, page_count, items',
    wealthbox: 'note, notes, contact, contacts, task, tasks, metadata, success',
    whatsapp: 'success, messageId, error',
    workflow: 'success, childWorkflowName, result, error',
    x: 'tweet, replies, context, tweets, includes, meta, user, recentTweets',
    youtube: 'items, totalResults',
    router: 'content, model, tokens, cost, selectedPath',
    airtable: 'records, record, metadata',
  };
  for (const [type, names] of Object.entries(table)) {
    it(`${type} gives ${names}`, () => {
      expect(Object.keys(block(type).outputs).sort()).toEqual(names.split(', ').sort());
    });
  }

  it('starter gives input', () => {
    expect(block('starter').outputs).toHaveProperty('input');
  });
});

describe('§2 forms', () => {
  it('agent: fixed ids, temperature slider 0-2 step 0.1 default 0.7', () => {
    const ids = block('agent').subBlocks.map((s) => s.id);
    for (const id of ['systemPrompt', 'userPrompt', 'model', 'temperature', 'maxTokens', 'memories', 'tools']) expect(ids).toContain(id);
    expect(field('agent', 'temperature')).toMatchObject({ type: 'slider', min: 0, max: 2, step: 0.1, defaultValue: 0.7 });
    expect(block('agent').inputs.userPrompt?.required).toBe(true);
    expect(block('agent').inputs.model?.required).toBe(true);
  });

  it('router: temperature default 0.1, model combobox with known models', () => {
    expect(field('router', 'temperature')).toMatchObject({ type: 'slider', min: 0, max: 2, step: 0.1, defaultValue: 0.1 });
    expect(field('router', 'model').type).toBe('combobox');
    expect(values(field('router', 'model').options)).toContain('claude-sonnet-4-0');
  });

  it('response: builder or editor, status 200, Key/Value headers', () => {
    expect(values(field('response', 'dataMode').options)).toEqual(['structured', 'json']);
    expect(field('response', 'dataMode').options?.map((o) => o.label)).toEqual(['Builder', 'Editor']);
    expect(field('response', 'status').defaultValue).toBe(200);
    expect(field('response', 'headers').columns).toEqual(['Key', 'Value']);
    // The builder's rows carry a value to answer with, not only a name and a type.
    expect(field('response', 'builderData').columns).toEqual(['name', 'type', 'value']);
  });

  it('function: a code field named code', () => {
    expect(field('function', 'code').type).toBe('code');
  });

  it('starter: spec 000 §3 sub-fields and defaults', () => {
    const ids = block('starter').subBlocks.map((s) => s.id);
    for (const id of ['startWorkflow', 'webhookPath', 'webhookSecret', 'scheduleType', 'minutesInterval', 'minutesStartingAt', 'hourlyMinute',
      'dailyTime', 'weeklyDay', 'weeklyDayTime', 'monthlyDay', 'monthlyTime', 'cronExpression', 'timezone']) {
      expect(ids).toContain(id);
    }
    expect(field('starter', 'startWorkflow').defaultValue).toBe('manual');
    expect(values(field('starter', 'startWorkflow').options)).toEqual(expect.arrayContaining(['manual', 'chat', 'webhook']));
    expect(field('starter', 'scheduleType').defaultValue).toBe('daily');
    expect(field('starter', 'weeklyDay').defaultValue).toBe('MON');
    expect(field('starter', 'timezone').defaultValue).toBe('UTC');
    expect(field('starter', 'inputFormat')).toMatchObject({ mode: 'advanced', condition: { field: 'startWorkflow', value: 'manual' } });
  });

  it('schedule: frequencies, weekdays and ten timezones', () => {
    expect(values(field('schedule', 'scheduleType').options)).toEqual(['minutes', 'hourly', 'daily', 'weekly', 'monthly', 'custom']);
    expect(field('schedule', 'scheduleType').defaultValue).toBe('daily');
    expect(values(field('schedule', 'weeklyDay').options)).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']);
    expect(field('schedule', 'weeklyDay').defaultValue).toBe('MON');
    const zones = field('schedule', 'timezone');
    expect(values(zones.options)).toEqual(['UTC', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles',
      'Europe/London', 'Europe/Paris', 'Asia/Singapore', 'Asia/Tokyo', 'Australia/Sydney']);
    expect(zones.defaultValue).toBe('UTC');
    expect(block('schedule').category).toBe('triggers');
  });

  it('webhook: nine providers, generic default', () => {
    const p = field('webhook', 'webhookProvider');
    expect(values(p.options)).toEqual(['slack', 'gmail', 'airtable', 'telegram', 'generic', 'whatsapp', 'github', 'discord', 'microsoftteams']);
    expect(p.defaultValue).toBe('generic');
  });

  it('image generator: fixed ids and sizes per model', () => {
    const ids = new Set(block('image_generator').subBlocks.map((s) => s.id));
    for (const id of ['model', 'prompt', 'size', 'quality', 'style', 'background', 'apiKey']) expect(ids.has(id)).toBe(true);
    expect(values(field('image_generator', 'size', 0).options)).toEqual(['1024x1024', '1024x1792', '1792x1024']);
    expect(field('image_generator', 'size', 0).condition?.value).toBe('dall-e-3');
    expect(values(field('image_generator', 'size', 1).options)).toEqual(['auto', '1024x1024', '1536x1024', '1024x1536']);
    expect(values(field('image_generator', 'quality').options)).toEqual(['standard', 'hd']);
    expect(values(field('image_generator', 'style').options)).toEqual(['vivid', 'natural']);
    expect(values(field('image_generator', 'background').options)).toEqual(['auto', 'transparent', 'opaque']);
    expect(field('image_generator', 'apiKey').connectionDroppable).toBe(false);
  });

  it('thinking: hidden from the toolbar with one hidden thought field', () => {
    expect(block('thinking').hideFromToolbar).toBe(true);
    expect(block('thinking').subBlocks).toHaveLength(1);
    expect(field('thinking', 'thought').hidden).toBe(true);
    expect(blocks.filter((b) => b.hideFromToolbar).map((b) => b.type)).toEqual(['thinking']);
  });

  it('fixed sub-block ids of s3, supabase and linear', () => {
    const has = (type: string, ids: string[]) => {
      const present = new Set(block(type).subBlocks.map((s) => s.id));
      for (const id of ids) expect(present.has(id), `${type}.${id}`).toBe(true);
    };
    has('s3', ['accessKeyId', 'secretAccessKey', 's3Uri']);
    has('supabase', ['operation', 'projectId', 'table', 'apiKey', 'data', 'filter', 'orderBy', 'limit']);
    has('linear', ['teamId', 'projectId', 'title', 'description']);
    expect(field('supabase', 'limit').placeholder).toBe('100');
    expect(field('supabase', 'limit').condition?.value).toBe('query');
  });

  it('ranges and defaults of §2 and §9', () => {
    expect(field('youtube', 'maxResults')).toMatchObject({ type: 'slider', min: 0, max: 20 });
    expect(field('mem0', 'limit')).toMatchObject({ type: 'slider', min: 1, max: 50 });
    expect(field('file', 'file')).toMatchObject({ acceptedTypes: '.pdf,.csv,.docx', multiple: true, maxSize: 100 });
    expect(field('mistral_parse', 'fileUpload').maxSize).toBe(50);
    expect(field('typeform', 'pageSize').defaultValue).toBe('25');
    expect(field('knowledge', 'topK').defaultValue).toBe('10');
    expect(field('tavily', 'maxResults')).toMatchObject({ placeholder: '5', min: 1, max: 20 });
    expect(field('tavily', 'extract_depth').defaultValue).toBe('basic');
    expect(field('huggingface', 'provider').defaultValue).toBe('novita');
    expect(field('huggingface', 'provider').options).toHaveLength(12);
    expect(field('elevenlabs', 'modelId').options).toHaveLength(5);
    expect(field('perplexity', 'temperature')).toMatchObject({ min: 0, max: 1, defaultValue: 0.7 });
    expect(field('huggingface', 'temperature')).toMatchObject({ min: 0, max: 2, defaultValue: 0.7 });
    expect(values(field('x', 'sortOrder').options)).toEqual(['recency', 'relevancy']);
    expect(field('x', 'sortOrder').defaultValue).toBe('recency');
    expect(values(field('serper', 'num').options)).toEqual(['10', '20', '30', '40', '50', '100']);
    expect(values(field('vision', 'model').options)).toEqual(['gpt-4o', 'claude-3-opus', 'claude-3-sonnet']);
    // The choices shown stay §2's; the calls send current Anthropic ids (claude-3-opus is not one, Claude 3 Opus and Sonnet are retired) the catalogue prices.
    expect(['gpt-4o', 'claude-3-opus', 'claude-3-sonnet'].map(visionModelId)).toEqual(['gpt-4o', 'claude-opus-4-0', 'claude-sonnet-4-0']);
    for (const id of ['claude-3-opus', 'claude-3-sonnet'].map(visionModelId)) expect(anthropicProvider.models.map((m) => m.id)).toContain(id);
    expect(values(field('reddit', 'commentSort').options)).toEqual(['confidence', 'top', 'new', 'controversial', 'old', 'random', 'qa']);
    expect(values(field('exa', 'type').options)).toEqual(['auto', 'neural', 'keyword', 'magic']);
    expect(values(field('notion', 'filterType').options)).toEqual(['all', 'page', 'database']);
    expect(values(field('mistral_parse', 'resultType').options)).toEqual(['markdown', 'text', 'json']);
    expect(values(field('google_sheets', 'insertDataOption').options)).toEqual(['INSERT_ROWS', 'OVERWRITE']);
    expect(values(field('microsoft_excel', 'valueInputOption').options)).toEqual(['USER_ENTERED', 'RAW']);
    expect(field('evaluator', 'model').defaultValue).toBe('gpt-4o');
    expect(field('translate', 'model').defaultValue).toBe('gpt-4o');
    expect(field('translate', 'systemPrompt').hidden).toBe(true);
    expect(values(field('memory', 'role').options)).toEqual(['user', 'assistant', 'system']);
  });

  it('keeps block outputs out of auth token, evaluator key and image generator key fields only', () => {
    const closed = blocks.flatMap((b) => b.subBlocks.filter((s) => s.connectionDroppable === false).map((s) => `${b.type}.${s.id}`));
    expect(closed.sort()).toEqual(['clay.authToken', 'evaluator.apiKey', 'image_generator.apiKey', 'twilio_sms.authToken']);
  });

  it('Slack: oauth or bot token, channel picker basic and manual id advanced', () => {
    expect(values(field('slack', 'authMethod').options)).toEqual(['oauth', 'bot_token']);
    expect(field('slack', 'channel').mode).toBe('basic');
    expect(field('slack', 'manualChannel').mode).toBe('advanced');
  });
});
