import { createServer } from 'node:net';
import { AI_FIXTURES, createFakeAi } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { createToolIO } from '../../runtime/executeTool.js';
import { TransientToolError } from '../../runtime/errors.js';
import type { ToolIO } from '../../serviceTool.js';
import { blockRun, useFamily } from '../testSupport.js';
import { aiTools, OCR_FAILURES } from './ai.tools.js';

const ai = useFamily(createFakeAi, { openai: '/openai', anthropic: '/anthropic', perplexity: '/perplexity', huggingface: '/huggingface', mistral: '/mistral' }, aiTools);
const f = AI_FIXTURES;

describe('chat tools', () => {
  it('perplexity_chat sends model, system and user messages, max_tokens and temperature, and answers content, model and usage', async () => {
    const r = await ai.run('perplexity_chat', { apiKey: 'pplx-k', model: 'sonar', systemPrompt: 'Be brief', content: 'What is Weft?', max_tokens: 300, temperature: 0.2 });
    ai.expectRequest('perplexity_chat', 'POST', '/perplexity/chat/completions', {
      headers: { authorization: 'Bearer pplx-k', 'content-type': 'application/json' },
      body: {
        model: 'sonar',
        messages: [
          { role: 'system', content: 'Be brief' },
          { role: 'user', content: 'What is Weft?' },
        ],
        max_tokens: 300,
        temperature: 0.2,
      },
    });
    expect(r).toEqual({ success: true, output: { content: 'Weft is a workflow builder.', model: 'sonar', usage: f.perplexity.usage } });
  });

  it('perplexity_chat falls back to 10000 max tokens, clamps temperature to 0-1 and passes API errors', async () => {
    await ai.run('perplexity_chat', { apiKey: 'k', model: 'sonar', content: 'hi', max_tokens: 'lots', temperature: 1.8 });
    ai.expectRequest('perplexity_chat', 'POST', '/perplexity/chat/completions', { body: { model: 'sonar', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10000, temperature: 1 } });
    ai.fake.once('POST', '/perplexity/chat/completions', { status: 401, json: { error: { message: 'Invalid API key', type: 'invalid_api_key' } } });
    await ai.expectError('perplexity_chat', { apiKey: 'k', model: 'sonar', content: 'hi' }, 'Perplexity API error: Invalid API key');
  });

  it("huggingface_chat posts to the router's /v1/chat/completions with the provider as the model's suffix", async () => {
    const r = await ai.run('huggingface_chat', { apiKey: 'hf_1', provider: 'together', model: 'deepseek/deepseek-v3', content: 'Hi', maxTokens: '64' });
    ai.expectRequest('huggingface_chat', 'POST', '/huggingface/v1/chat/completions', {
      headers: { authorization: 'Bearer hf_1', 'content-type': 'application/json' },
      body: { model: 'deepseek/deepseek-v3:together', messages: [{ role: 'user', content: 'Hi' }], stream: false, temperature: 0.7, max_tokens: 64 },
    });
    expect(r).toEqual({ success: true, output: { content: 'Hello from HF', model: 'deepseek/deepseek-v3', usage: f.huggingface.usage } });
  });

  it("huggingface_chat sends the router's names for older provider ids and keeps a model that names its provider", async () => {
    await ai.run('huggingface_chat', { apiKey: 'k', provider: 'fireworks', model: 'm', content: 'x' });
    ai.expectRequest('huggingface_chat', 'POST', '/huggingface/v1/chat/completions', { body: { model: 'm:fireworks-ai', messages: [{ role: 'user', content: 'x' }], stream: false, temperature: 0.7 } });
    await ai.run('huggingface_chat', { apiKey: 'k', provider: 'fal', model: 'm', content: 'x' });
    ai.expectRequest('huggingface_chat', 'POST', '/huggingface/v1/chat/completions', { body: { model: 'm:fal-ai', messages: [{ role: 'user', content: 'x' }], stream: false, temperature: 0.7 } });
    await ai.run('huggingface_chat', { apiKey: 'k', provider: 'novita', model: 'meta-llama/Llama-3.1-8B-Instruct:cerebras', content: 'x' });
    ai.expectRequest('huggingface_chat', 'POST', '/huggingface/v1/chat/completions', {
      body: { model: 'meta-llama/Llama-3.1-8B-Instruct:cerebras', messages: [{ role: 'user', content: 'x' }], stream: false, temperature: 0.7 },
    });
  });

  it('huggingface_chat: failures and answers without choices give the §8 messages', async () => {
    ai.fake.once('POST', '/huggingface/v1/chat/completions', { status: 400, json: { error: 'Model not supported by provider' } });
    await ai.expectError('huggingface_chat', { apiKey: 'k', provider: '', model: 'm', content: 'x' }, 'Hugging Face chat completion failed: Model not supported by provider');
    ai.expectRequest('huggingface_chat', 'POST', '/huggingface/v1/chat/completions', { body: { model: 'm:novita', messages: [{ role: 'user', content: 'x' }], stream: false, temperature: 0.7 } });
    ai.fake.once('POST', '/huggingface/v1/chat/completions', { json: { id: 'x', choices: [] } });
    await ai.expectError('huggingface_chat', { apiKey: 'k', provider: 'novita', model: 'm', content: 'x' }, 'Invalid response format from Hugging Face API');
  });

  it('huggingface_chat cut off at Max Tokens, as the Hugging Face block: a cut answer keeps a warning, nothing written fails', async () => {
    const answer = (content: string, finish: string) => ({ json: { model: 'm', choices: [{ message: { content }, finish_reason: finish }], usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } } });
    ai.fake.once('POST', '/huggingface/v1/chat/completions', answer('Cut sho', 'length'));
    const cut = await ai.run('huggingface_chat', { apiKey: 'k', model: 'm', content: 'x', maxTokens: 3 });
    expect(cut).toMatchObject({ success: true, output: { content: 'Cut sho', warning: 'The answer was cut off at the max tokens limit (huggingface finish_reason length): it is incomplete' } });
    ai.fake.once('POST', '/huggingface/v1/chat/completions', answer('Whole.', 'stop'));
    expect((await ai.run('huggingface_chat', { apiKey: 'k', model: 'm', content: 'x' })).output).not.toHaveProperty('warning');
    ai.fake.once('POST', '/huggingface/v1/chat/completions', answer('', 'length'));
    await ai.expectError(
      'huggingface_chat',
      { apiKey: 'k', model: 'm', content: 'x', maxTokens: 1 },
      "The model's answer was cut off by Max Tokens (maxTokens) before it wrote any text or tool call (huggingface finish_reason length): raise Max Tokens",
    );
  });
});

describe('openai tools', () => {
  it('openai_embeddings sends input with the default model and format and answers the vectors', async () => {
    const r = await ai.run('openai_embeddings', { apiKey: 'sk-1', input: 'hello' });
    ai.expectRequest('openai_embeddings', 'POST', '/openai/embeddings', {
      headers: { authorization: 'Bearer sk-1', 'content-type': 'application/json' },
      body: { input: 'hello', model: 'text-embedding-3-small', encoding_format: 'float' },
    });
    expect(r).toEqual({ success: true, output: { embeddings: [[0.01, -0.02, 0.03]], model: 'text-embedding-3-small', usage: { prompt_tokens: 3, total_tokens: 3 } } });
    ai.fake.once('POST', '/openai/embeddings', { status: 401, json: { error: { message: 'Incorrect API key provided' } } });
    await ai.expectError('openai_embeddings', { apiKey: 'x', input: 'a', model: 'text-embedding-3-large' }, 'OpenAI API error: Incorrect API key provided');
    ai.expectRequest('openai_embeddings', 'POST', '/openai/embeddings', { body: { input: 'a', model: 'text-embedding-3-large', encoding_format: 'float' } });
  });

  it('openai_image sends dall-e-3 quality and style and answers the url', async () => {
    const r = await ai.run('openai_image', { apiKey: 'sk', model: 'dall-e-3', prompt: 'a cat', size: '1792x1024', quality: 'hd', style: 'vivid', background: 'transparent', n: '1' });
    ai.expectRequest('openai_image', 'POST', '/openai/images/generations', {
      headers: { authorization: 'Bearer sk', 'content-type': 'application/json' },
      body: { model: 'dall-e-3', prompt: 'a cat', n: 1, size: '1792x1024', quality: 'hd', style: 'vivid' },
    });
    expect(r).toEqual({
      success: true,
      output: { content: 'https://images.example/cat.png', images: ['https://images.example/cat.png'], metadata: { model: 'dall-e-3', revisedPrompt: 'A cat on a mat, watercolour' } },
    });
  });

  it('openai_image refuses n above 1 for dall-e-3 before any call, and clamps n to 1-10 for gpt-image-1', async () => {
    await ai.expectError('openai_image', { apiKey: 'sk', model: 'dall-e-3', prompt: 'a cat', n: 2 }, 'Number of images (n) must be 1 for dall-e-3, got 2');
    expect(ai.fake.requests).toEqual([]);
    await ai.run('openai_image', { apiKey: 'sk', model: 'gpt-image-1', prompt: 'a dog', n: 30 });
    ai.expectRequest('openai_image', 'POST', '/openai/images/generations', { body: { model: 'gpt-image-1', prompt: 'a dog', n: 10, size: '1024x1024' } });
  });

  it('openai_image sends gpt-image-1 background only, answers base64 as a data URL, refuses a size the model lacks', async () => {
    const r = await ai.run('openai_image', { apiKey: 'sk', model: 'gpt-image-1', prompt: 'a dog', quality: 'hd', background: 'transparent' });
    ai.expectRequest('openai_image', 'POST', '/openai/images/generations', { body: { model: 'gpt-image-1', prompt: 'a dog', n: 1, size: '1024x1024', background: 'transparent' } });
    expect(r).toMatchObject({ success: true, output: { content: 'data:image/png;base64,iVBORw0KGgo=' } });
    await ai.expectError('openai_image', { apiKey: 'sk', model: 'dall-e-3', prompt: 'x', size: '1536x1024' }, 'Invalid size 1536x1024 for dall-e-3. Allowed sizes: 1024x1024, 1024x1792, 1792x1024');
    ai.fake.once('POST', '/openai/images/generations', { status: 400, json: { error: { message: 'Your request was rejected by the safety system.' } } });
    await ai.expectError('openai_image', { apiKey: 'sk', model: 'dall-e-3', prompt: 'x' }, 'OpenAI API error: Your request was rejected by the safety system.');
  });

  const bikeMessages = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Please analyze this image and describe what you see in detail.' },
        { type: 'image_url', image_url: { url: 'https://img.example/bike.jpg' } },
      ],
    },
  ];

  it('vision_tool asks an OpenAI model with the image and a default prompt, at most 1000 tokens', async () => {
    const r = await ai.run('vision_tool', { apiKey: 'sk', imageUrl: 'https://img.example/bike.jpg' });
    ai.expectRequest('vision_tool', 'POST', '/openai/chat/completions', {
      headers: { authorization: 'Bearer sk', 'content-type': 'application/json' },
      body: {
        model: 'gpt-4o',
        max_tokens: 1000,
        messages: bikeMessages,
      },
    });
    expect(r).toEqual({ success: true, output: { content: 'A red bicycle.', model: 'gpt-4o-2024-08-06', tokens: { prompt: 800, completion: 5, total: 805 } } });
  });

  it('vision_tool sends a reasoning model its limit as max_completion_tokens, as the vision block does', async () => {
    await ai.run('vision_tool', { apiKey: 'sk', imageUrl: 'https://img.example/bike.jpg', model: 'o4-mini' });
    ai.expectRequest('vision_tool', 'POST', '/openai/chat/completions', {
      body: {
        model: 'o4-mini',
        max_completion_tokens: 1000,
        messages: bikeMessages,
      },
    });
  });

  it('vision_tool asks Claude models through the Anthropic messages API (claude-3-opus sent as claude-opus-4-0, as the block does), and passes its errors', async () => {
    const r = await ai.run('vision_tool', { apiKey: 'sk-ant', imageUrl: 'https://img.example/boat.jpg', model: 'claude-3-opus', prompt: 'What boat?' });
    ai.expectRequest('vision_tool', 'POST', '/anthropic/messages', {
      headers: { 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01' },
      body: {
        model: 'claude-opus-4-0',
        max_tokens: 1000,
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://img.example/boat.jpg' } }, { type: 'text', text: 'What boat?' }] }],
      },
    });
    expect(r).toEqual({ success: true, output: { content: 'A blue boat.', model: 'claude-3-opus-20240229', tokens: { prompt: 700, completion: 6, total: 706 } } });
    ai.fake.once('POST', '/anthropic/messages', { status: 401, json: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    await ai.expectError('vision_tool', { apiKey: 'x', imageUrl: 'https://img.example/boat.jpg', model: 'claude-3-sonnet' }, 'Anthropic API error: invalid x-api-key');
  });

  it("vision_tool fails an image URL that is not an http(s) or data: URL as the user's error naming the field, before any request, for OpenAI and Claude models", async () => {
    const give = '(give an http(s) URL or a data: URL)';
    await ai.expectError('vision_tool', { apiKey: 'sk', imageUrl: 'img.example/bike.jpg' }, `Invalid Image URL (imageUrl) img.example/bike.jpg: it is not a valid URL ${give}`);
    await ai.expectError('vision_tool', { apiKey: 'sk', imageUrl: 'ftp://img.example/bike.jpg', model: 'claude-3-opus' }, `Invalid Image URL (imageUrl) ftp://img.example/bike.jpg: its scheme ftp: is not one an image is read from ${give}`);
    const long = `htp:/img.example/${'a'.repeat(100)}.jpg`;
    await ai.expectError('vision_tool', { apiKey: 'sk', imageUrl: long }, `Invalid Image URL (imageUrl) ${long.slice(0, 77)}...: its scheme htp: is not one an image is read from ${give}`);
    expect(ai.fake.requests).toEqual([]);
    // A data: URL goes through as given.
    const data = 'data:image/png;base64,iVBORw0KGgo=';
    await ai.run('vision_tool', { apiKey: 'sk', imageUrl: data });
    expect(ai.fake.requests).toHaveLength(1);
  });

  it('vision_tool cut off at its 1000 tokens, as the vision block: a cut answer keeps a warning, nothing written fails (OpenAI and Claude models)', async () => {
    const image = { imageUrl: 'https://cat.example.invalid/cat.png' };
    ai.fake.once('POST', '/openai/chat/completions', { json: { model: 'gpt-4o', choices: [{ message: { content: 'A cat sitt' }, finish_reason: 'length' }] } });
    expect((await ai.run('vision_tool', { apiKey: 'sk', ...image })).output).toMatchObject({
      content: 'A cat sitt',
      warning: 'The answer was cut off at the max tokens limit (openai finish_reason length): it is incomplete',
    });
    ai.fake.once('POST', '/anthropic/messages', { json: { model: 'claude-sonnet-4-0', content: [{ type: 'text', text: 'A cat sitt' }], stop_reason: 'max_tokens', usage: { input_tokens: 1, output_tokens: 1000 } } });
    expect((await ai.run('vision_tool', { apiKey: 'sk', model: 'claude-3-sonnet', ...image })).output).toMatchObject({
      content: 'A cat sitt',
      warning: 'The answer was cut off at the max tokens limit (Anthropic stop_reason max_tokens): it is incomplete',
    });
    ai.fake.once('POST', '/openai/chat/completions', { json: { model: 'o4-mini', choices: [{ message: { content: '' }, finish_reason: 'length' }] } });
    await ai.expectError(
      'vision_tool',
      { apiKey: 'sk', model: 'o4-mini', ...image },
      "The model's answer was cut off by Max Tokens (maxTokens) before it wrote any text or tool call (openai finish_reason length): raise Max Tokens",
    );
    expect((await ai.run('vision_tool', { apiKey: 'sk', ...image })).output).not.toHaveProperty('warning');
  });

  it('vision_tool sends a Claude model a data: URL as a base64 source (Anthropic takes only http(s) in a url source), as the Anthropic adapter does', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    await ai.run('vision_tool', { apiKey: 'sk-ant', imageUrl: `data:image/png;base64,${png}`, model: 'claude-3-sonnet', prompt: 'What is it?' });
    ai.expectRequest('vision_tool', 'POST', '/anthropic/messages', {
      body: {
        model: 'claude-sonnet-4-0',
        max_tokens: 1000,
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }, { type: 'text', text: 'What is it?' }] }],
      },
    });
    await ai.expectError(
      'vision_tool',
      { apiKey: 'sk-ant', imageUrl: 'data:image/svg+xml,%3Csvg%2F%3E', model: 'claude-3-sonnet' },
      'Could not send image data:image/svg+xml,%3Csvg%2F%3E to Anthropic: image/svg+xml is not an image type Anthropic reads (JPEG, PNG, GIF or WEBP)',
    );
  });
});

describe('mistral_parser', () => {
  const base = { apiKey: 'mk', filePath: 'https://files.weft.example/reports/q3%20report.pdf' };

  it('posts the OCR request with pages and image options and answers markdown with metadata', async () => {
    const r = await ai.run('mistral_parser', { ...base, pages: [0, 1], includeImageBase64: true, imageLimit: 4, imageMinSize: 'x' });
    ai.expectRequest('mistral_parser', 'POST', '/mistral/ocr', {
      headers: { authorization: 'Bearer mk', 'content-type': 'application/json' },
      body: { model: 'mistral-ocr-latest', document: { type: 'document_url', document_url: base.filePath }, include_image_base64: true, pages: [0, 1], image_limit: 4 },
    });
    expect(r.success).toBe(true);
    const out = r.success ? (r.output as { content: string; metadata: Record<string, unknown> }) : undefined;
    expect(out?.content).toBe('# Report\n\nRevenue **grew**.\n\nSee [appendix](https://weft.example/a).');
    expect(out?.metadata).toMatchObject({
      fileType: 'pdf',
      fileName: 'q3 report.pdf',
      source: 'url',
      sourceUrl: base.filePath,
      pageCount: 2,
      usageInfo: { pagesProcessed: 2, docSizeBytes: 52311 },
      model: 'mistral-ocr-2505',
      resultType: 'markdown',
    });
    expect(out?.metadata.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(String(out?.metadata.processedAt)))).toBe(false);
  });

  it('answers plain text or JSON pages when asked', async () => {
    const asText = await ai.run('mistral_parser', { ...base, resultType: 'text' });
    expect(asText).toMatchObject({ success: true, output: { content: 'Report\n\nRevenue grew.\n\nSee appendix.' } });
    ai.expectRequest('mistral_parser', 'POST', '/mistral/ocr', { body: { model: 'mistral-ocr-latest', document: { type: 'document_url', document_url: base.filePath }, include_image_base64: false } });
    const asJson = await ai.run('mistral_parser', { ...base, resultType: 'json' });
    const out = asJson.success ? (asJson.output as { content: string }) : undefined;
    expect(JSON.parse(out?.content ?? 'null')).toEqual([
      { index: 0, markdown: f.ocr.pages[0]!.markdown },
      { index: 1, markdown: f.ocr.pages[1]!.markdown },
    ]);
  });

  it('refuses bad input before calling, with the tool-level messages', async () => {
    await ai.expectError('mistral_parser', { ...base, filePath: 'https://drive.google.com/file/d/1' }, 'Mistral OCR Error: Google Drive and Google Docs links are not supported: Please provide a direct download link to the PDF file');
    await ai.expectError('mistral_parser', { ...base, filePath: 'ftp://x/y.pdf' }, 'Mistral OCR Error: Invalid URL format: Please provide a valid HTTP or HTTPS URL to a PDF document');
    await ai.expectError('mistral_parser', { ...base, pages: '1,two' }, 'Mistral OCR Error: Page number format error: Invalid page number: two');
    expect(ai.fake.requests).toHaveLength(0);
  });

  it('maps each status of the §8 table to its message', async () => {
    const table: Array<[number, string]> = [
      [400, 'Invalid request - please check the document URL and parameters'],
      [401, 'Invalid API key - please check your Mistral API key'],
      [403, 'Access forbidden - your API key does not have access to the OCR service'],
      [404, 'PDF not found - the document URL could not be reached'],
      [413, 'PDF too large - the document exceeds the size limit'],
      [415, 'Unsupported format - the document is not a supported PDF'],
      [429, 'Rate limit exceeded - please try again later'],
      [503, 'Service temporarily unavailable - please try again later'],
    ];
    for (const [status, message] of table) {
      ai.fake.once('POST', '/mistral/ocr', { status, json: { message: 'x' } });
      await ai.expectError('mistral_parser', base, `Mistral OCR Error: ${message}`);
    }
    ai.fake.once('POST', '/mistral/ocr', { text: 'not json' });
    await ai.expectError('mistral_parser', base, 'Mistral OCR Error: Failed to parse the OCR response');
  });
});

describe('the Mistral Parser block reaches its tool', () => {
  const pdf = { name: 'q3 plan.pdf', type: 'application/pdf', size: 8, url: `data:application/pdf;base64,${Buffer.from('%PDF-1.7').toString('base64')}` };

  it('upload mode sends the uploaded PDF (its data link) as the document, named by the upload; a URL typed before is not sent', async () => {
    const { toolId, params } = blockRun('mistral_parse', { inputMethod: 'upload', fileUpload: pdf, filePath: 'https://old.weft.example/a.pdf', apiKey: 'mk', resultType: 'markdown' });
    const r = await ai.run(toolId, params);
    ai.expectRequest('mistral_parser', 'POST', '/mistral/ocr', { body: { model: 'mistral-ocr-latest', document: { type: 'document_url', document_url: pdf.url }, include_image_base64: false } });
    expect(r).toMatchObject({ success: true, output: { metadata: { fileName: 'q3 plan.pdf', source: 'url', fileType: 'pdf' } } });
    expect(r.success && (r.output as { metadata: object }).metadata).not.toHaveProperty('sourceUrl');
  });

  it('URL mode sends the URL, not a file uploaded before', async () => {
    const { toolId, params } = blockRun('mistral_parse', { inputMethod: 'url', fileUpload: pdf, filePath: ' https://files.weft.example/b.pdf ', apiKey: 'mk' });
    await ai.run(toolId, params);
    ai.expectRequest('mistral_parser', 'POST', '/mistral/ocr', { body: { model: 'mistral-ocr-latest', document: { type: 'document_url', document_url: 'https://files.weft.example/b.pdf' }, include_image_base64: false } });
  });

  it('an uploaded file that is not a PDF is refused before calling', async () => {
    const { toolId, params } = blockRun('mistral_parse', { inputMethod: 'upload', fileUpload: { ...pdf, url: 'data:text/plain;base64,aGk=' }, apiKey: 'mk' });
    await ai.expectError(toolId, params, 'Mistral OCR Error: Unsupported format - the uploaded file is not a PDF document');
    expect(ai.fake.requests).toHaveLength(0);
  });
});

describe('mistral_parser: §8\'s other failures, each prefixed', () => {
  const base = { apiKey: 'mk', filePath: 'https://files.weft.example/q3.pdf' };

  it('a password-protected or corrupted PDF, as Mistral words its refusal', async () => {
    ai.fake.once('POST', '/mistral/ocr', { status: 422, json: { message: 'The document is password protected' } });
    await ai.expectError('mistral_parser', base, `Mistral OCR Error: ${OCR_FAILURES.passwordProtected}`);
    ai.fake.once('POST', '/mistral/ocr', { status: 400, json: { detail: 'File is encrypted' } });
    await ai.expectError('mistral_parser', base, `Mistral OCR Error: ${OCR_FAILURES.passwordProtected}`);
    ai.fake.once('POST', '/mistral/ocr', { status: 400, json: { message: 'Invalid PDF: the file is corrupted' } });
    await ai.expectError('mistral_parser', base, `Mistral OCR Error: ${OCR_FAILURES.corrupted}`);
  });

  const tool = aiTools.find((t) => t.id === 'mistral_parser');
  const context = { workspaceId: 'ws-test', workflowId: 'wf-test', actorId: 'user-test' };

  it('a connection that fails stays retryable, with the connection message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const io = createToolIO({ policy: { allowPrivateNetwork: true, allowlist: [] }, baseUrls: { get: () => `http://127.0.0.1:${port}`, rewrite: (_id, url) => url } }, { context }, 'mistral_parser');
    const err: unknown = await tool?.execute(base, io).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransientToolError);
    expect((err as Error).message).toBe(`Mistral OCR Error: ${OCR_FAILURES.connection}`);
  });

  it('a timeout stays retryable, with the timeout message', async () => {
    const io: ToolIO = { context, envVars: {}, baseUrl: () => 'http://127.0.0.1:9', fetch: () => Promise.reject(new TransientToolError('Request timeout after 120000ms')) };
    const err: unknown = await tool?.execute(base, io).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransientToolError);
    expect((err as Error).message).toBe(`Mistral OCR Error: ${OCR_FAILURES.timeout}`);
  });
});
