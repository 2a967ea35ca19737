import { clamp, commaList, operationTool, text, toBoolean, toInt } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, dropdown, longInput, operationField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { x_write: 'x_write', x_read: 'x_read', x_search: 'x_search', x_user: 'x_user' } as const;

/** X search max results: default 10, raised to at least 10, at most 100 (§5). */
export const X_SEARCH_RESULTS = { default: 10, min: 10, max: 100 } as const;

/** 'true'/'false' become booleans; max results an integer (10..100); media ids split on commas. */
export function xParams(p: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(p)) {
    if (value === '' || value === undefined || value === null) continue;
    out[key] = toBoolean(value);
  }
  if (p.maxResults !== undefined && text(p.maxResults) !== '') {
    out.maxResults = clamp(toInt(p.maxResults, X_SEARCH_RESULTS.default), X_SEARCH_RESULTS.min, X_SEARCH_RESULTS.max);
  }
  if (p.mediaIds !== undefined) {
    const ids = commaList(p.mediaIds);
    if (ids.length > 0) out.mediaIds = ids;
    else delete out.mediaIds;
  }
  return out;
}

/** X: post, read, search tweets and look up users. */
export const xBlock: BlockConfig = {
  type: 'x',
  name: 'X',
  description: 'Interact with X',
  longDescription:
    'Connect with X to post tweets, read tweets and their replies, search recent tweets and read user profiles.',
  docsLink: 'https://docs.weft.dev/tools/x',
  category: 'tools',
  bgColor: '#000000',
  icon: 'xIcon',
  subBlocks: [
    operationField([['x_write', 'Post a New Tweet'], ['x_read', 'Get Tweet Details'], ['x_search', 'Search Tweets'], ['x_user', 'Get User Profile']]),
    credentialField('x', 'x', 'X Account', SCOPES.x),
    longInput('text', 'Tweet Text', "What's happening?", { condition: when('operation', 'x_write') }),
    shortInput('replyTo', 'Reply To (Tweet ID)', 'Enter tweet ID to reply to', { condition: when('operation', 'x_write') }),
    shortInput('mediaIds', 'Media IDs', 'Enter comma-separated media IDs', { condition: when('operation', 'x_write') }),
    shortInput('tweetId', 'Tweet ID', 'Enter tweet ID to read', { condition: when('operation', 'x_read') }),
    dropdown('includeReplies', 'Include Replies', [['true', 'true'], ['false', 'false']], { defaultValue: 'false', condition: when('operation', 'x_read') }),
    longInput('query', 'Search Query', 'Enter search terms (supports X search operators)', { condition: when('operation', 'x_search') }),
    shortInput('maxResults', 'Max Results', '10', { layout: 'half', condition: when('operation', 'x_search') }),
    dropdown('sortOrder', 'Sort Order', [['recency', 'recency'], ['relevancy', 'relevancy']], { layout: 'half', condition: when('operation', 'x_search') }),
    shortInput('startTime', 'Start Time', 'YYYY-MM-DDTHH:mm:ssZ', { layout: 'half', condition: when('operation', 'x_search') }),
    shortInput('endTime', 'End Time', 'YYYY-MM-DDTHH:mm:ssZ', { layout: 'half', condition: when('operation', 'x_search') }),
    shortInput('username', 'Username', 'Enter username (without @)', { condition: when('operation', 'x_user') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: { tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid X operation: ${op}`), params: xParams },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    text: { type: 'string', required: false },
    replyTo: { type: 'string', required: false },
    mediaIds: { type: 'string', required: false },
    tweetId: { type: 'string', required: false },
    includeReplies: { type: 'boolean', required: false },
    query: { type: 'string', required: false },
    maxResults: { type: 'number', required: false },
    sortOrder: { type: 'string', required: false },
    startTime: { type: 'string', required: false },
    endTime: { type: 'string', required: false },
    username: { type: 'string', required: false },
  },
  outputs: {
    tweet: 'json', replies: 'any', context: 'any', tweets: 'json', includes: 'any', meta: 'json', user: 'json', recentTweets: 'any',
  },
};
