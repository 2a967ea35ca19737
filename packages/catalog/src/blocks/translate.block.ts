import { text } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { longInput, shortInput } from './fields.js';
import { CHAT_TOOL_IDS, modelApiKeyField, modelField, selectChatTool } from './modelTool.js';

/** The system prompt the translate block sends. */
export function translationPrompt(targetLanguage: unknown): string {
  return `You are a highly skilled translator. Your task is to translate the given text into ${text(targetLanguage) || 'English'} while:
1. Preserving the original meaning and nuance
2. Maintaining appropriate formality levels
3. Adapting idioms and cultural references appropriately
4. Preserving formatting and special characters
5. Handling technical terms accurately

Only return the translated text without any explanations or notes. The translation should be natural and fluent in ${text(targetLanguage) || 'English'}.`;
}

/** Translate: a model translates text into a target language. */
export const translateBlock: BlockConfig = {
  type: 'translate',
  name: 'Translate',
  description: 'Translate text to any language',
  longDescription:
    'Convert text between languages while preserving meaning, nuance and formatting. Uses the chat model of your choice.',
  docsLink: 'https://docs.weft.dev/tools/translate',
  category: 'tools',
  bgColor: '#FF4B4B',
  icon: 'TranslateIcon',
  subBlocks: [
    longInput('context', 'Text to Translate', 'Enter the text you want to translate'),
    shortInput('targetLanguage', 'Translate To', 'Enter language (e.g. Spanish, French, etc.)'),
    modelField({ type: 'dropdown', layout: 'half' }),
    modelApiKeyField(),
    { id: 'systemPrompt', title: 'System Prompt', type: 'code', layout: 'full', hidden: true },
  ],
  tools: {
    access: CHAT_TOOL_IDS,
    config: {
      tool: selectChatTool,
      params: (p) => ({ model: text(p.model) || 'gpt-4o', context: p.context, apiKey: p.apiKey, systemPrompt: translationPrompt(p.targetLanguage) }),
    },
  },
  inputs: {
    context: { type: 'string', required: true },
    targetLanguage: { type: 'string', required: true },
    model: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    systemPrompt: { type: 'string', required: false },
  },
  outputs: { content: 'string', model: 'string', tokens: 'any' },
};
