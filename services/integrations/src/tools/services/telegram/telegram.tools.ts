import { text } from '@weft/catalog';
import { ToolError, type ServiceTool } from '../../serviceTool.js';
import { apiMessage, call, obj, serviceTool, str } from '../http.js';

/** Telegram Bot API sendMessage with HTML parse mode. */
export const telegramTools: ServiceTool[] = [
  serviceTool('telegram_message', async (p, io) => {
    const res = await call(io, {
      method: 'POST',
      url: `${io.baseUrl('telegram')}/bot${text(p.botToken)}/sendMessage`,
      json: { chat_id: text(p.chatId), text: String(p.text ?? ''), parse_mode: 'HTML' },
    });
    const d = obj(res.data);
    if (!res.ok || d.ok !== true) throw new ToolError(`Telegram API error: ${str(d.description) ?? apiMessage(res)}`, res.status);
    return { ok: true, result: d.result };
  }),
];
