import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIFake, type OpenAIFake } from '@weft/testkit';
import { createLogger } from '@weft/platform';
import { createRouter } from '../routes/router.js';
import { modelRoutes } from './routes.js';
import { testModelDeps } from './testDeps.js';

let ollama: OpenAIFake;
beforeAll(async () => {
  ollama = await createOpenAIFake({ localModels: ['llama3.2:latest', 'qwen2.5:7b'] });
});
afterAll(() => ollama.close());

const routes = (ollamaUrl: string) => createRouter(modelRoutes(testModelDeps({ OLLAMA_URL: ollamaUrl }).config), createLogger('models-routes-test', 'silent'));
const get = (ollamaUrl: string, path = '/providers/ollama/models') => routes(ollamaUrl).handle({ method: 'GET', path, query: {}, body: undefined, context: { workspaceId: '', workflowId: '' }, envVars: {} });

describe('GET /providers/ollama/models', () => {
  it('answers the models the Ollama server lists at /api/tags', async () => {
    expect(await get(ollama.url)).toEqual({ status: 200, body: { models: ['llama3.2:latest', 'qwen2.5:7b'] } });
    expect(ollama.server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/tags' });
  });

  it('answers no models when the server is unreachable, and 405 for another method', async () => {
    expect(await get('http://127.0.0.1:1')).toEqual({ status: 200, body: { models: [] } });
    const post = await routes(ollama.url).handle({ method: 'POST', path: '/providers/ollama/models', query: {}, body: {}, context: { workspaceId: '', workflowId: '' }, envVars: {} });
    expect(post.status).toBe(405);
  });
});
