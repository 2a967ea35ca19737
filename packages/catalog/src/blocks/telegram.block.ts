import type { BlockConfig } from '../types.js';
import { longInput, secretField, shortInput } from './fields.js';

/** Telegram: a bot sends a message to a chat. */
export const telegramBlock: BlockConfig = {
  type: 'telegram',
  name: 'Telegram',
  description: 'Send a message through Telegram',
  longDescription:
    'Send messages to any Telegram channel using your Bot API key. To get a token, message @BotFather and create a bot; to get a chat id, add the bot to the chat and read the chat id from getUpdates.',
  docsLink: 'https://docs.weft.dev/tools/telegram',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'TelegramIcon',
  subBlocks: [
    secretField('botToken', 'Bot Token', 'Enter your Telegram Bot Token', {
      description: '1. Message @BotFather on Telegram. 2. Send /newbot and follow the steps. 3. Copy the token it gives you.',
    }),
    shortInput('chatId', 'Chat ID', 'Enter Telegram Chat ID', {
      description: '1. Add your bot to the chat. 2. Send a message in the chat. 3. Open https://api.telegram.org/bot<token>/getUpdates and copy chat.id.',
    }),
    longInput('text', 'Message', 'Enter the message to send'),
  ],
  tools: { access: ['telegram_message'] },
  inputs: {
    botToken: { type: 'string', required: true },
    chatId: { type: 'string', required: true },
    text: { type: 'string', required: true },
  },
  outputs: { ok: 'boolean', result: 'json' },
};
