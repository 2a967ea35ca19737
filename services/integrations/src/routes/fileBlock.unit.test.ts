import { createLogger } from '@weft/platform';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolExecutor } from '../tools/runtime/executeTool.js';
import { blockRun } from '../tools/services/testSupport.js';
import { fileRoutes } from './files.routes.js';
import { createRouter } from './router.js';

// The File block's form values → its mapping → file_parser through the execution layer → the files route's own code.
const logger = createLogger('integrations', 'silent');
const policy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
const refuse = (what: string) => () => Promise.reject(new Error(`no ${what} in this test`));
const executor = createToolExecutor({
  policy,
  baseUrls: { get: () => undefined, rewrite: (_id, url) => url },
  credentials: { accessToken: refuse('credentials') },
  customTools: { list: refuse('custom tools') },
  internal: createRouter(fileRoutes(policy), logger),
  serviceTools: {},
  logger,
  runCode: refuse('code'),
});
const context = { workspaceId: 'ws-test', workflowId: 'wf-test', actorId: 'user-test' };

async function runBlock(values: Record<string, unknown>) {
  const { toolId, params } = blockRun('file', values);
  expect(toolId).toBe('file_parser');
  const res = await executor.execute({ toolId, params, context }, 'answer');
  return res.success ? { success: true, output: res.output } : { success: false, error: res.error };
}

/** A file as the web's upload field keeps it: name, type, size and its content as a data link. */
const upload = (name: string, type: string, content: string) => ({ name, type, size: content.length, url: `data:${type};base64,${Buffer.from(content).toString('base64')}` });

let fake: FakeServer;
beforeAll(async () => {
  fake = await createFakeServer();
  fake.on('GET', '/people.csv', { headers: { 'content-type': 'text/csv' }, text: 'name,age\nAda,36\n' });
});
afterAll(() => fake.close());

describe('the File block reaches the file parser', () => {
  it('upload mode (the default) parses every uploaded file under its own name, its type told by the name when the browser gave none it knows', async () => {
    const files = [upload('people.csv', 'application/vnd.ms-excel', 'name,age\nAda,36\nAlan,41\n'), upload('notes.txt', '', 'hello')];
    const r = await runBlock({ file: files });
    expect(r).toMatchObject({
      success: true,
      output: {
        files: [
          { name: 'people.csv', fileType: 'csv', metadata: { headers: ['name', 'age'], rowCount: 2 } },
          { name: 'notes.txt', fileType: 'txt', content: 'hello' },
        ],
        combinedContent: 'name,age\nAda,36\nAlan,41\n\n\nhello',
      },
    });
  });

  it('upload mode parses the uploads, not a URL typed before switching', async () => {
    const r = await runBlock({ inputMethod: 'upload', filePath: `${fake.url}/people.csv`, file: upload('a.md', 'text/markdown', '# A') });
    expect(r).toMatchObject({ success: true, output: { files: [{ name: 'a.md', fileType: 'md', content: '# A' }] } });
    expect(fake.requests).toHaveLength(0);
  });

  it('URL mode fetches the URL, not files uploaded before switching', async () => {
    const r = await runBlock({ inputMethod: 'url', filePath: ` ${fake.url}/people.csv `, file: [upload('a.md', 'text/markdown', '# A')] });
    expect(r).toMatchObject({ success: true, output: { files: [{ name: 'people.csv', fileType: 'csv' }] } });
    expect(fake.received('GET', '/people.csv')).toHaveLength(1);
  });

  it('upload mode with nothing uploaded is refused naming filePath', async () => {
    expect(await runBlock({ inputMethod: 'upload', file: [] })).toEqual({ success: false, error: 'Missing required parameter: filePath' });
  });
});
