import { slackReadLimit, text } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { bearer, call, list, obj, serviceTool, str, type Obj } from '../http.js';

/** One Slack Web API method: POST JSON or GET with a query; a non-ok answer throws its error code or 'Slack API error'. */
async function slackApi(io: ToolIO, token: unknown, method: string, args: { json?: Obj; query?: Obj }): Promise<Obj> {
  const res = await call(io, {
    method: args.json ? 'POST' : 'GET',
    url: `${io.baseUrl('slack')}/${method}`,
    headers: bearer(token),
    ...(args.json ? { json: args.json } : {}),
    ...(args.query ? { query: args.query } : {}),
  });
  const data = obj(res.data);
  if (!res.ok || data.ok !== true) throw new ToolError(str(data.error) || 'Slack API error', res.status);
  return data;
}

/** Slack payload keys (§7): channel plus accessToken, and text; title and content; or limit and oldest. */
export const slackTools: ServiceTool[] = [
  serviceTool('slack_message', async (p, io) => {
    const data = await slackApi(io, p.accessToken, 'chat.postMessage', { json: { channel: text(p.channel), text: String(p.text ?? '') } });
    return { ts: data.ts, channel: data.channel };
  }),
  serviceTool('slack_canvas', async (p, io) => {
    const documentContent = p.document_content ?? { type: 'markdown', markdown: String(p.content ?? '') };
    const data = await slackApi(io, p.accessToken, 'canvases.create', {
      json: { title: text(p.title), channel_id: text(p.channel), document_content: documentContent },
    });
    return { canvas_id: data.canvas_id, channel: text(p.channel), title: text(p.title) };
  }),
  serviceTool('slack_message_reader', async (p, io) => {
    const data = await slackApi(io, p.accessToken, 'conversations.history', {
      query: { channel: text(p.channel), limit: slackReadLimit(p.limit), oldest: text(p.oldest), latest: text(p.latest) },
    });
    const messages = list(data.messages).map((m) => {
      const msg = obj(m);
      return { ts: msg.ts, text: msg.text ?? '', user: msg.user ?? msg.bot_id ?? '', type: msg.type ?? 'message', subtype: msg.subtype ?? '' };
    });
    return { messages };
  }),
];
