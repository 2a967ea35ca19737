import type { ToolConfig } from '../types.js';
import { defineTool, need } from './define.js';

/** Telegram Bot API sendMessage (parse_mode HTML). */
export const telegramTools: ToolConfig[] = [
  defineTool({
    id: 'telegram_message',
    name: 'Telegram Message',
    description: 'Send messages to Telegram channels or users through the Telegram Bot API (HTML parse mode)',
    params: {
      botToken: need('string', 'user', 'Your Telegram Bot API Token'),
      chatId: need('string', 'user', 'Target Telegram chat ID'),
      text: need('string', 'llm', 'Message text to send'),
    },
    request: { method: 'POST', url: 'https://api.telegram.org/bot{botToken}/sendMessage' },
  }),
];
