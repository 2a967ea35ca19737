import type { BlockConfig } from '../types.js';
import { azureFields, CHAT_TOOL_IDS, modelApiKeyField, modelField, selectChatTool, temperatureField } from './modelTool.js';

/** Agent: runs a language model with optional tools and memories. */
export const agentBlock: BlockConfig = {
  type: 'agent',
  name: 'Agent',
  description: 'Build an agent',
  longDescription:
    'Create powerful AI agents using any LLM provider with customizable system prompts, memories and tools. The agent calls tools in a loop until it has an answer.',
  docsLink: 'https://docs.weft.dev/blocks/agent',
  category: 'blocks',
  bgColor: '#802FFF',
  icon: 'AgentIcon',
  subBlocks: [
    { id: 'systemPrompt', title: 'System Prompt', type: 'long-input', layout: 'full', placeholder: 'Enter system prompt...', rows: 5 },
    { id: 'userPrompt', title: 'User Prompt', type: 'long-input', layout: 'full', placeholder: 'Enter context or user message...', rows: 3 },
    modelField(),
    temperatureField(0.7),
    { id: 'maxTokens', title: 'Max Tokens', type: 'short-input', layout: 'half', placeholder: 'e.g., 4096' },
    { id: 'memories', title: 'Memories', type: 'code', layout: 'full', placeholder: 'Connect memory block output...', mode: 'advanced' },
    { id: 'tools', title: 'Tools', type: 'tool-input', layout: 'full', defaultValue: [] },
    modelApiKeyField(),
    ...azureFields(),
    { id: 'responseFormat', title: 'Response Format', type: 'code', layout: 'full', placeholder: 'Enter JSON schema...', mode: 'advanced' },
  ],
  tools: { access: CHAT_TOOL_IDS, config: { tool: selectChatTool } },
  inputs: {
    systemPrompt: { type: 'string', required: false },
    userPrompt: { type: 'string', required: true },
    model: { type: 'string', required: true },
    temperature: { type: 'number', required: false },
    maxTokens: { type: 'number', required: false },
    memories: { type: 'json', required: false },
    tools: { type: 'json', required: false },
    apiKey: { type: 'string', required: false },
    azureEndpoint: { type: 'string', required: false },
    azureApiVersion: { type: 'string', required: false },
    responseFormat: { type: 'json', required: false },
  },
  // §3's table lists content, model, tokens, toolCalls; the runner's agent also outputs its cost
  // (issue 12), declared so `<agent.cost>` is offered and checked like the others.
  outputs: { content: 'string', model: 'string', tokens: 'any', toolCalls: 'any', cost: 'any' },
};
