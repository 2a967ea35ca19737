import type { ToolConfig } from '../types.js';
import { bearer, defineTool, may, need, oauth } from './define.js';
import { SCOPES } from './scopes.js';

const auth = {
  accessToken: need('string', 'hidden', 'OAuth access token or bot token for the Slack API'),
  channel: need('string', 'user', 'Target Slack channel ID (e.g., C0123456789); reading history takes only an ID, not a #name'),
};

const slackOAuth = oauth('slack', SCOPES.slack);

/** Slack tools: post a message, create a canvas, read channel history. */
export const slackTools: ToolConfig[] = [
  defineTool({
    id: 'slack_message',
    name: 'Slack Message',
    description: 'Send messages to Slack channels or users through the Slack API. Supports Slack mrkdwn formatting.',
    params: { ...auth, text: need('string', 'llm', 'Message text to send (supports Slack mrkdwn formatting)') },
    request: { method: 'POST', url: 'https://slack.com/api/chat.postMessage', headers: bearer() },
    oauth: slackOAuth,
  }),
  defineTool({
    id: 'slack_canvas',
    name: 'Slack Canvas Writer',
    description: 'Create and share Slack canvases in channels. Canvases are collaborative documents within Slack.',
    params: {
      ...auth,
      title: need('string', 'llm', 'Title of the canvas'),
      content: need('string', 'llm', 'Canvas content in markdown format'),
      document_content: may('object', 'llm', 'Structured canvas document content'),
    },
    request: { method: 'POST', url: 'https://slack.com/api/canvases.create', headers: bearer() },
    oauth: slackOAuth,
  }),
  defineTool({
    id: 'slack_message_reader',
    name: 'Slack Message Reader',
    description: 'Read the latest messages from Slack channels. Retrieve conversation history with filtering options.',
    params: {
      ...auth,
      limit: may('number', 'llm', 'Number of messages to retrieve (default: 10, max: 15)', 10),
      oldest: may('string', 'llm', 'Start of time range (timestamp)'),
      latest: may('string', 'llm', 'End of time range (timestamp)'),
    },
    request: { method: 'GET', url: 'https://slack.com/api/conversations.history?channel={channel}&limit={limit}', headers: bearer() },
    oauth: slackOAuth,
  }),
];
