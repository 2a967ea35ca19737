import { clamp, firstText, operationTool, text, toInt } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, dropdown, longInput, operationField, secretField, selectorPair, shortInput, when } from './fields.js';

/** Slack read limit: default 10 when empty or not numeric. */
export const SLACK_READ_DEFAULT = 10;

/**
 * Slack read cap. §9 gives two readings (capped at 15 in behaviour; the description says 100).
 * We pick the behaviour: at most 15 messages are read.
 */
export const SLACK_READ_MAX = 15;

/** The read limit actually sent: default 10, clamped to 1..15. */
export function slackReadLimit(value: unknown): number {
  return clamp(toInt(value, SLACK_READ_DEFAULT), 1, SLACK_READ_MAX);
}

/** Slack: send messages, create canvases, read channel history. */
export const slackBlock: BlockConfig = {
  type: 'slack',
  name: 'Slack',
  description: 'Send messages to Slack or trigger workflows from Slack events',
  longDescription:
    'Comprehensive Slack integration with OAuth authentication. Send formatted messages, create canvases and read channel history, using the product bot or your own bot token.',
  docsLink: 'https://docs.weft.dev/tools/slack',
  category: 'tools',
  bgColor: '#611f69',
  icon: 'SlackIcon',
  subBlocks: [
    operationField([['send', 'Send Message'], ['canvas', 'Create Canvas'], ['read', 'Read Messages']]),
    dropdown('authMethod', 'Authentication Method', [['oauth', 'Weft Bot'], ['bot_token', 'Custom Bot']], { layout: 'full' }),
    credentialField('slack', 'slack', 'Slack Account', SCOPES.slack, { condition: when('authMethod', 'oauth') }),
    secretField('botToken', 'Bot Token', 'Enter your Slack bot token (xoxb-...)', { condition: when('authMethod', 'bot_token') }),
    ...selectorPair(
      { id: 'channel', title: 'Channel', type: 'channel-selector', layout: 'full', provider: 'slack', placeholder: 'Select Slack channel' },
      { id: 'manualChannel', title: 'Channel ID', placeholder: 'Enter Slack channel ID (e.g., C1234567890)' },
    ),
    longInput('text', 'Message', 'Enter your Slack message (supports Slack mrkdwn)', { condition: when('operation', 'send') }),
    shortInput('title', 'Canvas Title', 'Enter canvas title', { condition: when('operation', 'canvas') }),
    longInput('content', 'Canvas Content', 'Enter canvas content (markdown supported)', { condition: when('operation', 'canvas') }),
    shortInput('limit', 'Message Limit', '50', { layout: 'half', condition: when('operation', 'read') }),
    shortInput('oldest', 'Oldest Timestamp', 'ISO 8601 timestamp', { layout: 'half', condition: when('operation', 'read') }),
  ],
  tools: {
    access: ['slack_message', 'slack_canvas', 'slack_message_reader'],
    config: {
      tool: operationTool({ send: 'slack_message', canvas: 'slack_canvas', read: 'slack_message_reader' }, () => 'Invalid Slack operation'),
      params: (p) => {
        const auth = p.authMethod === 'bot_token' ? { accessToken: text(p.botToken) } : { credential: p.credential };
        const base = { ...auth, channel: firstText(p.channel, p.manualChannel) };
        if (p.operation === 'canvas') return { ...base, title: p.title, content: p.content };
        if (p.operation === 'read') {
          const oldest = text(p.oldest);
          return { ...base, limit: slackReadLimit(p.limit), ...(oldest ? { oldest } : {}) };
        }
        return { ...base, text: p.text };
      },
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    authMethod: { type: 'string', required: true },
    credential: { type: 'string', required: false },
    botToken: { type: 'string', required: false },
    channel: { type: 'string', required: false },
    manualChannel: { type: 'string', required: false },
    text: { type: 'string', required: false },
    title: { type: 'string', required: false },
    content: { type: 'string', required: false },
    limit: { type: 'string', required: false },
    oldest: { type: 'string', required: false },
  },
  outputs: { ts: 'string', channel: 'string', canvas_id: 'string', title: 'string', messages: 'json' },
};
